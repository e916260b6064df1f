"""mindspore.numpy's Python-number operands and norms, as MindSpore 2.10 gives them (values
and dtypes from its CPU build): a number becomes an array of its own, float32 for a float and
int32 for an int, which meets the other operand by the Tensors' promotion; a 2-D norm without
`axis` and with an order is a matrix norm."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.numpy as mnp
from cellgraph import Tensor

F16 = Tensor(np.array([[0.3, 0.4], [1.0, 2.0]], np.float16))
I8 = Tensor(np.array([[1, 2], [3, 4]], np.int8))
U8 = Tensor(np.array([[1, 2], [3, 4]], np.uint8))
I32 = Tensor(np.array([[1, 2], [3, 4]], np.int32))
B = Tensor(np.array([[True, False], [True, True]]))


@pytest.mark.parametrize("fn, args, dtype, first", [
    ("add", (F16, 0.5), ms.float32, [0.8, 0.9]),
    ("add", (0.5, F16), ms.float32, [0.8, 0.9]),
    ("add", (F16, 2), ms.float16, [2.3, 2.4]),
    ("add", (I8, 2), ms.int32, [3, 4]),
    ("add", (U8, 2), ms.int32, [3, 4]),
    ("add", (B, 2), ms.int32, [3, 2]),
    ("subtract", (F16, 0.5), ms.float32, [-0.2, -0.1]),
    ("subtract", (U8, 2), ms.int32, [-1, 0]),
    ("power", (F16, 0.5), ms.float32, [0.5477, 0.6324]),
    ("power", (F16, 2), ms.float16, [0.09, 0.16]),
    ("power", (I8, 2), ms.int32, [1, 4]),
    ("divide", (F16, 0.5), ms.float32, [0.6, 0.8]),
    ("divide", (0.5, F16), ms.float32, [1.6667, 1.25]),
    ("divide", (F16, 2), ms.float16, [0.15, 0.2]),
    ("true_divide", (I32, 2), ms.float32, [0.5, 1.0]),
    ("fmod", (F16, 0.5), ms.float32, [0.3, 0.4]),
    ("fmod", (I8, 2), ms.int32, [1, 0]),
    ("fmod", (I32, 2), ms.int32, [1, 0]),
    ("remainder", (F16, 0.5), ms.float32, [0.3, 0.4]),
    ("remainder", (I8, 2), ms.int32, [1, 0]),
    ("remainder", (2, B), ms.int32, [0, 0]),  # 2 % False: 0, as NumPy's
    ("heaviside", (F16, 0.5), ms.float32, [1, 1]),
    ("heaviside", (I8, 2), ms.int32, [1, 1]),
    ("heaviside", (B, 2), ms.int32, [1, 2]),
    ("bitwise_and", (I8, 2), ms.int32, [0, 2]),
    ("bitwise_and", (B, 2), ms.int32, [0, 0]),
])
def test_number_operands_promote_as_arrays(fn, args, dtype, first):
    out = getattr(mnp, fn)(*args)
    assert out.dtype == dtype
    np.testing.assert_allclose(out.asnumpy().reshape(-1)[:2].astype(np.float64), first,
                               rtol=2e-3, atol=1e-3)


def test_where_promotes_numbers_as_arrays():
    out = mnp.where(F16 > 1, 0.5, F16)
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), [[0.3, 0.4], [1.0, 0.5]], rtol=1e-3)
    out = mnp.where(I8 > 1, I8, 2)
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [[2, 2], [3, 4]])
    assert mnp.where(F16 > 1, F16, 2).dtype == ms.float16
    assert mnp.where(B, B, True).dtype == ms.bool_


def test_fmod_of_integers_by_zero_is_zero():
    out = mnp.fmod(Tensor(np.array([5, -7, 4], np.int32)), Tensor(np.array([3, 2, 0], np.int32)))
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [2, -1, 0])


A = np.array([[0.3, -0.4, 1.5], [1.0, 2.0, -0.25]])


@pytest.mark.parametrize("kwargs, dtype, value", [
    ({}, ms.float32, 2.75),  # the 2-norm of all values: float32 from float16
    ({"ord": 1}, ms.float16, 2.4),  # matrix norms: the largest column sum
    ({"ord": -1}, ms.float16, 1.3),
    ({"ord": np.inf}, ms.float16, 3.25),  # the largest row sum
    ({"ord": -np.inf}, ms.float16, 2.2),
    ({"ord": "fro"}, ms.float16, 2.75),
    ({"axis": 1}, ms.float32, [1.5811, 2.25]),
    ({"axis": 0, "ord": 1}, ms.float32, [1.3, 2.4, 1.75]),
    ({"axis": -1, "ord": 3}, ms.float32, [1.5135, 2.0813]),
    ({"axis": (1, 0), "ord": np.inf}, ms.float16, 2.4),
    ({"axis": (1, 0), "ord": 1}, ms.float16, 3.25),
    ({"axis": (0, 1), "ord": -1, "keepdims": True}, ms.float16, [[1.3]]),
    ({"keepdims": True}, ms.float32, [[2.75]]),
    ({"axis": 1, "keepdims": True, "ord": np.inf}, ms.float16, [[1.5], [2.0]]),
])
def test_norm_of_float16(kwargs, dtype, value):
    out = mnp.norm(Tensor(A.astype(np.float16)), **kwargs)
    assert out.dtype == dtype
    assert out.shape == np.shape(value)
    np.testing.assert_allclose(out.asnumpy().astype(np.float64), value, rtol=2e-3)


@pytest.mark.parametrize("kwargs, dtype, value", [
    ({}, ms.float32, 10.9087),
    ({"ord": 1}, ms.int32, 9),
    ({"ord": -np.inf}, ms.int32, 8),
    ({"axis": 1, "ord": 0.5}, ms.float32, [19.798, 33.9706]),
])
def test_norm_of_integers(kwargs, dtype, value):
    out = mnp.norm(Tensor((A * 4).astype(np.int32)), **kwargs)
    assert out.dtype == dtype
    np.testing.assert_allclose(out.asnumpy().astype(np.float64), value, rtol=1e-4)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"ord": 0}, ValueError, "for 0 axis, norm is defined only for 2-D matrices"),
    ({"ord": 2}, NotImplementedError, "2-norm is not implemented for matrices"),
    ({"ord": "nuc"}, NotImplementedError, "nuclear norm is not implemented"),
    ({"axis": 1, "ord": "fro"}, ValueError, "Frobenius norm and nuclear norm are only defined"),
    ({"ord": 3}, ValueError, "invalid norm order for matrices"),
])
def test_norm_orders_mindspore_refuses(kwargs, error, message):
    with pytest.raises(error, match=message):
        mnp.norm(Tensor(A.astype(np.float32)), **kwargs)
