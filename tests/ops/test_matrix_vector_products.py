"""ops.addmv, ops.addr and ops.addbmm: values as MindSpore 2.10 gives them for the same
operands (recorded below), and first and second derivatives against finite differences."""
import numpy as np
import pytest

from cellgraph import Tensor, ops
from cellgraph.testing import check_grads


def f32(a):
    return Tensor(np.asarray(a, np.float32))


def test_values_as_mindspore():
    i3, m, v = f32(np.arange(3)), f32(np.arange(6).reshape(3, 2)), f32([1, 2])
    assert ops.addmv(i3, m, v, beta=0.5, alpha=2).asnumpy().tolist() == [4.0, 16.5, 29.0]
    assert ops.addr(f32(np.ones((3, 2))), i3, v, beta=2, alpha=0.5).asnumpy().tolist() == [
        [2.0, 2.0], [2.5, 3.0], [3.0, 4.0]]
    b1, b2 = f32(np.arange(12).reshape(2, 2, 3)), f32(np.arange(12).reshape(2, 3, 2))
    assert ops.addbmm(f32(np.ones((2, 2))), b1, b2).asnumpy().tolist() == [[183.0, 207.0],
                                                                           [273.0, 315.0]]
    ints = ops.addmv(Tensor(np.arange(3, dtype=np.int32)),
                     Tensor(np.arange(6, dtype=np.int32).reshape(3, 2)),
                     Tensor(np.array([1, 2], np.int32)))
    assert str(ints.dtype) == "Int32" and ints.asnumpy().tolist() == [2, 9, 16]


def test_derivatives():
    rng = np.random.default_rng(0)
    a, m, v = rng.normal(size=3), rng.normal(size=(3, 2)), rng.normal(size=2)
    check_grads(lambda a, m, v: ops.addmv(a, m, v, beta=0.5, alpha=2),
                (Tensor(a), Tensor(m), Tensor(v)), order=2)
    check_grads(lambda x, p, q: ops.addr(x, p, q, beta=2, alpha=0.5),
                (Tensor(m), Tensor(a), Tensor(v)), order=2)
    check_grads(lambda x, b, c: ops.addbmm(x, b, c, alpha=3),
                (Tensor(rng.normal(size=(2, 2))), Tensor(rng.normal(size=(4, 2, 3))),
                 Tensor(rng.normal(size=(4, 3, 2)))), order=2)


def test_shapes_are_checked():
    with pytest.raises(ValueError, match="addmv: expected a matrix and a vector"):
        ops.addmv(f32([1.0]), f32([1.0]), f32([1.0]))
    with pytest.raises(ValueError, match="addr: expected two vectors"):
        ops.addr(f32([[1.0]]), f32([[1.0]]), f32([1.0]))


def test_tensor_methods():
    i3, m, v = f32(np.arange(3)), f32(np.arange(6).reshape(3, 2)), f32([1, 2])
    assert i3.addmv(m, v, beta=0.5, alpha=2).asnumpy().tolist() == [4.0, 16.5, 29.0]
    assert f32(np.ones((3, 2))).addr(i3, v).asnumpy().tolist() == [[1, 1], [2, 3], [3, 5]]
    assert i3.approximate_equal(i3).asnumpy().tolist() == [True, True, True]
