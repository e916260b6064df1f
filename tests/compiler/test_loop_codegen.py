"""Loop code generation (compiler/loop_codegen.py): a Tensor `while`'s counter and its bound run
as Python operators, not kernel calls per trip, and give the same values: a loop-invariant
integer bound is read once as a Python int, a counter of weak integers adds with `+` once it is
a NumPy integer."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor
from cellgraph.compiler.pipeline import compile_callable


def counted(x, n):
    i = 0
    while i < n:
        x = x * 2
        i = i + 1
    return x, i


def bound_on_the_left_and_carried(x, n):
    i = 0
    while n > i:
        x = x + 1
        n = n - 1
        i = i + 2
    return x, i, n


def float_bound(x, t):
    i = 0
    while i < t:
        x = x + 1
        i = i + 1
    return x, i


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)


def _x():
    return Tensor(np.ones(3, np.float32))


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
@pytest.mark.parametrize("trips", [-3, 0, 1, 5])
def test_a_counted_loop_gives_its_trips_and_state(dtype, trips):
    n = Tensor(np.array(trips, dtype))
    x, i = ms.jit(counted)(_x(), n)
    np.testing.assert_array_equal(x.asnumpy(), np.full(3, 2.0 ** max(trips, 0), np.float32))
    assert i == max(trips, 0)
    source = compile_callable(counted, (_x(), n)).module.source
    assert "= int(n)" in source  # the bound, once, before the loop
    assert ".__class__ is not int else _k_add(" in source  # the counter's add


@pytest.mark.parametrize("trips", [-3, 0, 1, 5])
def test_a_bound_the_body_changes_is_compared_as_it_is(trips):
    n = Tensor(np.array(trips, np.int32))
    x, i, left = ms.jit(bound_on_the_left_and_carried)(_x(), n)
    # n falls by one and i climbs by two each trip, while n > i
    want_trips = 0
    while trips - want_trips > 2 * want_trips:
        want_trips += 1
    np.testing.assert_array_equal(x.asnumpy(), np.full(3, 1.0 + want_trips, np.float32))
    assert i == 2 * want_trips
    assert left.dtype == ms.int32 and left.asnumpy() == trips - want_trips
    source = compile_callable(bound_on_the_left_and_carried, (_x(), n)).module.source
    assert "int(n)" not in source  # carried: not loop-invariant


def test_a_float_bound_is_not_made_an_int():
    x, i = ms.jit(float_bound)(_x(), Tensor(np.float32(2.5)))
    np.testing.assert_array_equal(x.asnumpy(), np.full(3, 4.0, np.float32))
    assert i == 3
    source = compile_callable(float_bound, (_x(), Tensor(np.float32(2.5)))).module.source
    assert "int(t)" not in source


def test_a_counter_started_from_a_tensor_keeps_its_dtype():
    def f(x, n):
        i = Tensor(np.int32(0))
        while i < n:
            x = x * 2
            i = i + 1
        return x, i

    x, i = ms.jit(f)(_x(), Tensor(np.array(4, np.int64)))
    assert i.dtype == ms.int32 and i.asnumpy() == 4
    np.testing.assert_array_equal(x.asnumpy(), np.full(3, 16.0, np.float32))
