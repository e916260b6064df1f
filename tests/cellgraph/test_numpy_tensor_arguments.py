"""Which cellgraph.numpy functions take Python numbers, lists and NumPy arrays, and which take
Tensors only (MindSpore 2.10's TypeError "expect Tensor"), with the values MindSpore gives for
the number forms it accepts."""
import numpy as np
import pytest

import cellgraph.numpy as mnp
from cellgraph import Tensor, grad

T = Tensor(np.array([[1.5, 2.5], [0.5, 3.0]], np.float32))
I = Tensor(np.array([[4, 6], [9, 3]], np.int32))


@pytest.mark.parametrize("call", [
    lambda: mnp.tanh(2.0), lambda: mnp.tanh([1.0, 2.0]), lambda: mnp.sin(np.ones(2)),
    lambda: mnp.multiply(2.0, T), lambda: mnp.multiply(T, [1.0, 2.0]),
    lambda: mnp.transpose(np.ones((2, 3))), lambda: mnp.atleast_1d(T, 2.0),
    lambda: mnp.dot(T, 2.0), lambda: mnp.amax(a=[1.0, 2.0]),
])
def test_tensors_only_where_mindspore_takes_tensors_only(call):
    with pytest.raises(TypeError, match="expect Tensor"):
        call()


def test_the_documented_grad_of_tanh_refuses_a_float_as_mindspore_does():
    with pytest.raises(TypeError, match="expect Tensor"):
        grad(mnp.tanh)(2.0)
    np.testing.assert_allclose(grad(mnp.tanh)(Tensor(2.0)).asnumpy(), 0.070650816, rtol=1e-6)


def test_number_forms_mindspore_accepts():
    assert mnp.add(2.0, T).shape == (2, 2) and mnp.amax(a=T).shape == ()
    # MindSpore 2.10's results
    np.testing.assert_array_equal(mnp.copysign(2.0, -T).asnumpy(), np.full((2, 2), -2.0))
    out = mnp.gcd(2.0, T)
    assert out.dtype == T.dtype
    np.testing.assert_array_equal(out.asnumpy(), [[0.5, 0.5], [0.5, 1.0]])
    np.testing.assert_array_equal(mnp.gcd(6, I).asnumpy(), [[2, 6], [3, 3]])
    np.testing.assert_array_equal(mnp.lcm(T, 2.0).asnumpy(), [[6.0, 10.0], [2.0, 6.0]])
    np.testing.assert_array_equal(mnp.lcm(I, 4).asnumpy(), [[4, 12], [36, 12]])
    np.testing.assert_array_equal(mnp.heaviside(2.0, T).asnumpy(), np.ones((2, 2)))
    np.testing.assert_array_equal(mnp.heaviside(0.0, T).asnumpy(), T.asnumpy())
    for fn in (mnp.cov, mnp.corrcoef):
        value = fn(2.0)
        assert value.shape == () and np.isnan(value.asnumpy())


def test_a_tensor_where_a_dtype_belongs_is_a_type_error():
    with pytest.raises(TypeError):
        mnp.exp(T, T)


def test_numpy_dtype_arguments_take_names_and_numpy_types():
    """mindspore.numpy's `dtype=` takes 'float16' and np.float64 (ops.cast takes dtypes only)."""
    x = mnp.ones((2, 3))
    summed = mnp.sum(x, dtype="float16")
    assert summed.dtype == mnp.float16 and float(summed.asnumpy()) == 6.0
    assert mnp.mean(x, dtype=np.float64).dtype == mnp.float64
    negated = mnp.negative(x, dtype="int32")
    assert negated.dtype == mnp.int32
    np.testing.assert_array_equal(negated.asnumpy(), -np.ones((2, 3), np.int32))
