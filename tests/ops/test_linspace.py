"""`ops.linspace` and `ops.LinSpace`: computed in the graph as MindSpore 2.10's CPU kernel does
(start + i * step, step = (stop - start) / (num - 1), in the inputs' dtype), from Tensors passed
to a compiled Cell, under vmap (MindSpore's batched kernel), and its argument errors."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops
from cellgraph.ops import operations as P


class Net(nn.Cell):
    def __init__(self, num):
        super().__init__()
        self.op = P.LinSpace()
        self.num = num

    def construct(self, start, stop):
        return self.op(start, stop, self.num)


# MindSpore 2.10 CPU: ops.linspace(-25.3, -147, 7)
EXPECTED_F32 = [-25.299999237060547, -45.58333206176758, -65.86666870117188, -86.14999389648438,
                -106.43333435058594, -126.71665954589844, -147.0]
# Net(6)(Tensor(0.1, float64), Tensor(1.3, float64)) in GRAPH_MODE
EXPECTED_F64 = [0.1, 0.33999999999999997, 0.58, 0.82, 1.06, 1.3]
# vmap(vmap(Net(4), (0, 0)), (1, 0))(S, E)
S = np.array([[0.5, -1.25], [2.0, 3.0]], np.float32)
E = np.array([[1.5, 2.0], [-2.0, 0.3]], np.float32)
EXPECTED_VMAP2 = [[[0.5, 0.8333333730697632, 1.1666667461395264, 1.5], [2.0, 2.0, 2.0, 2.0]],
                  [[-1.25, -1.5, -1.75, -2.0],
                   [3.0, 2.0999999046325684, 1.1999999284744263, 0.2999999523162842]]]


@pytest.fixture
def graph_mode():
    cg.set_context(mode=cg.GRAPH_MODE)
    yield
    cg.set_context(mode=cg.PYNATIVE_MODE)


def test_function_numbers_give_float32():
    out = ops.linspace(-25.3, -147, 7)
    assert out.dtype == cg.float32
    np.testing.assert_array_equal(out.asnumpy(), np.array(EXPECTED_F32, np.float32))
    np.testing.assert_array_equal(ops.linspace(1, 2, 1).asnumpy(), np.array([1.0], np.float32))
    np.testing.assert_array_equal(ops.linspace(1, 2, Tensor(3)).asnumpy(), [1.0, 1.5, 2.0])


def test_graph_tensors_float64(graph_mode):
    out = Net(6)(Tensor(0.1, cg.float64), Tensor(1.3, cg.float64))
    assert out.dtype == cg.float64
    np.testing.assert_array_equal(out.asnumpy(), np.array(EXPECTED_F64))


def test_vmap_nested_and_one_step(graph_mode):
    out = ops.vmap(ops.vmap(Net(4), (0, 0)), (1, 0))(Tensor(S), Tensor(E))
    np.testing.assert_array_equal(out.asnumpy(), np.array(EXPECTED_VMAP2, np.float32))
    one = ops.vmap(Net(1), (0, 0))(Tensor(S[0]), Tensor(E[0]))
    np.testing.assert_array_equal(one.asnumpy(), [[0.5], [-1.25]])


def test_gradient_matches_finite_differences():
    def f(a, b):
        return ops.linspace(a, b, 5) * Tensor(np.arange(1.0, 6.0))

    a, b = Tensor(0.3, cg.float64), Tensor(-1.1, cg.float64)
    ga, gb = ops.grad(f, (0, 1))(a, b)
    h = 1e-6
    for got, bump in ((ga, (h, 0)), (gb, (0, h))):
        hi = f(Tensor(0.3 + bump[0], cg.float64), Tensor(-1.1 + bump[1], cg.float64)).sum()
        lo = f(Tensor(0.3 - bump[0], cg.float64), Tensor(-1.1 - bump[1], cg.float64)).sum()
        np.testing.assert_allclose(got.asnumpy(), (hi - lo).asnumpy() / (2 * h), rtol=1e-6)


@pytest.mark.parametrize("args, error, message", [
    ((Tensor(1, cg.int32), Tensor(2, cg.int32), 5), TypeError,
     ("For primitive[LinSpace], the input argument[start type] must be a type of "
      "{Tensor[Float32], Tensor[Float64]}, but got Tensor[Int32].")),
    ((Tensor(1, cg.float32), Tensor(2, cg.float64), 5), TypeError,
     "For primitive[LinSpace], the input type must be same."),
    ((1, 2, 0), ValueError, "For primitive[LinSpace], the num must be greater than 0, but got 0."),
    ((Tensor([1.0, 2.0]), Tensor([1.0, 2.0]), 3), ValueError,
     "For primitive[LinSpace], the rank of 'start' must be equal to 0, but got 1."),
])
def test_errors(args, error, message):
    with pytest.raises(error) as info:
        ops.linspace(*args)
    assert message in str(info.value)


def test_primitive_takes_tensors_only():
    with pytest.raises(TypeError, match=r'LinSpace\(\)\(start=int, stop=int, num=int\)'):
        P.LinSpace()(1, 2, 3)
    out = P.LinSpace()(Tensor(1.0), Tensor(2.0), Tensor(3))
    np.testing.assert_array_equal(out.asnumpy(), [1.0, 1.5, 2.0])
