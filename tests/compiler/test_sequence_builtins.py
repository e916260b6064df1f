# ruff: noqa: SIM103, C417  (the builtins and the branch are what is under test)
"""range, map, zip, enumerate and filter in a graph give what MindSpore 2.10's graph mode gives
(the expected values are its output for the same program): tuples (map over lists, and filter,
give lists), with the functions they are given traced like any call."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph.primitives.errors import CompileError


def add(x, y):
    return x + y


def is_odd(x):
    if x % 2:
        return True
    return False


def test_the_sequences_they_give():
    rows = ms.Tensor(np.array([[1, 2], [3, 4], [5, 6]]))

    @ms.jit
    def f(t):
        return (map(add, (1, 2, 3), (4, 5, 6)), map(add, [1, 2, 3], [5, 6, 7]),
                zip((1, 2, 3), (4, 5, 6)), (range(0, 6, 2), range(3)),
                enumerate((100, 200, 300, 400), 3), enumerate(rows),
                filter(is_odd, (1, 2, 3, 4, 5)), filter(is_odd, [6, 7, 8, 9, 10]),
                map(lambda a: a * 2, (t, t + 1)))

    out = f(ms.Tensor(np.array([1.0, 2.0], np.float32)))
    assert out[:5] == ((5, 7, 9), [6, 8, 10], ((1, 4), (2, 5), (3, 6)), ((0, 2, 4), (0, 1, 2)),
                       ((3, 100), (4, 200), (5, 300), (6, 400)))
    assert [(i, r.asnumpy().tolist()) for i, r in out[5]] == [(0, [1, 2]), (1, [3, 4]),
                                                              (2, [5, 6])]
    assert out[6:8] == ([1, 3, 5], [7, 9])
    assert isinstance(out[8], tuple)
    assert [v.asnumpy().tolist() for v in out[8]] == [[2.0, 4.0], [4.0, 6.0]]


def test_a_traced_function_may_branch_on_a_tensor():
    @ms.jit
    def f(t):
        return map(lambda v: v * 2 if v.sum() > 0 else -v, (t, -t))

    a, b = f(ms.Tensor(np.array([1.0, 2.0], np.float32)))
    assert a.asnumpy().tolist() == [2.0, 4.0] and b.asnumpy().tolist() == [1.0, 2.0]


def test_range_takes_python_ints_and_stays_a_graph_constant():
    @ms.jit
    def tensor_range(n):
        return range(n)

    @ms.jit
    def huge(x):
        return x + len(range(10 ** 9))

    with pytest.raises(CompileError, match="range.. takes Python ints in a graph"):
        tensor_range(ms.Tensor(3))
    with pytest.raises(CompileError, match="range.. of 1000000000 elements"):
        huge(ms.Tensor(1.0))


def test_max_and_min_over_tensors():
    """MindSpore's python_builtin_functions tutorial: max/min of a 1-D Tensor is its largest
    (smallest) element; of several Tensors (or a Tensor and numbers) the one chosen at run time."""

    @ms.jit
    def constants():
        return max(ms.tensor([1, 2, 3])), min(ms.tensor([3, 1, 2]))

    @ms.jit
    def arguments(x, y):
        return max(x), min(x), max(y, x[0]), min(y, x[1], 5), max((y, x[2]))

    a, b = constants()
    assert (a.asnumpy(), b.asnumpy()) == (3, 1) and a.shape == ()
    x = ms.Tensor(np.array([3.0, 7.0, 1.0], np.float32))
    out = arguments(x, ms.Tensor(np.float32(4.0)))
    assert [float(v.asnumpy()) for v in out] == [7.0, 1.0, 4.0, 4.0, 4.0]
    assert out[0].dtype == ms.float32


def test_max_of_tensors_of_several_elements_is_ambiguous():
    @ms.jit
    def pairwise(x):
        return max(x, ms.tensor([2.0, 2.0, 2.0]))

    @ms.jit
    def of_a_matrix(x):
        return min(x)

    x = ms.Tensor(np.array([3.0, 7.0, 1.0], np.float32))
    with pytest.raises(ValueError, match="truth value of an array"):
        pairwise(x)
    with pytest.raises(ValueError, match="truth value of an array"):
        of_a_matrix(ms.Tensor(np.ones((2, 2), np.float32)))


def test_a_graph_returns_numpy_scalars_as_python_scalars_and_classes_as_they_are():
    @ms.jit
    def func():
        return tuple(np.array([1, 2])), [np.float64(2.5)], type(ms.tensor([1])), float

    values, floats, tensor_class, float_class = func()
    assert values == (1, 2) and type(values[0]) is int
    assert floats == [2.5] and type(floats[0]) is float
    assert tensor_class is ms.Tensor and float_class is float
