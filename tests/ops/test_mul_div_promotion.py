"""MindSpore 2.10's Mul and Div rank a 0-d tensor below a tensor with dimensions of its kind (a
float16 matrix times a float32 0-d tensor is float16), where Add, Sub, FloorDiv and the others
promote the two dtypes as they would for any two tensors. Expected dtypes are MindSpore 2.10's,
in PyNative and inside jit."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops

XH = Tensor(np.array([[0.5, -1.5, 2.0]], np.float16))
S = Tensor(2.5, ms.float32)
XI = Tensor(np.array([[1, -2, 3]], np.int32))
SI = Tensor(3)
XU = Tensor(np.array([[1, 200, 3]], np.uint8))
PAIRS = [(XH, S), (S, XH), (XI, SI), (SI, XI), (XU, SI), (XI, S), (XH, SI)]

EXPECTED = {
    "mul": ["Float16", "Float16", "Int32", "Int32", "UInt8", "Float32", "Float16"],
    "div": ["Float16", "Float16", "Float32", "Float32", "Float32", "Float32", "Float16"],
    "add": ["Float32", "Float32", "Int64", "Int64", "Int64", "Float32", "Float16"],
    "sub": ["Float32", "Float32", "Int64", "Int64", "Int64", "Float32", "Float16"],
    "floordiv": ["Float32", "Float32", "Int64", "Int64", "Int64", "Float32", "Float16"],
    "maximum": ["Float32", "Float32", "Int64", "Int64", "Int64", "Float32", "Float16"],
}
CALLS = {
    "mul": [lambda a, b: a * b, ops.mul, ops.multiply, lambda a, b: ops.Mul()(a, b)],
    "div": [lambda a, b: a / b, ops.div, ops.true_divide, lambda a, b: ops.Div()(a, b)],
    "add": [lambda a, b: a + b, ops.add],
    "sub": [lambda a, b: a - b, ops.sub],
    "floordiv": [lambda a, b: a // b],
    "maximum": [ops.maximum],
}


@pytest.mark.parametrize("op", sorted(EXPECTED))
def test_result_dtypes_of_a_tensor_with_a_zero_dim_tensor(op):
    for call in CALLS[op]:
        assert [str(call(a, b).dtype) for a, b in PAIRS] == EXPECTED[op]
        compiled = ms.jit(lambda a, b, call=call: call(a, b))
        assert [str(compiled(a, b).dtype) for a, b in PAIRS] == EXPECTED[op]


def test_values_are_computed_in_the_result_dtype():
    # uint8 (1, 200, 3) times int64 3 is uint8, wrapping as MindSpore's kernel does: 600 % 256
    np.testing.assert_array_equal((XU * SI).asnumpy(), np.array([[3, 88, 9]], np.uint8))
    np.testing.assert_allclose((XH / S).asnumpy(), np.array([[0.2, -0.6, 0.8]], np.float16),
                               rtol=1e-3)
    np.testing.assert_array_equal((XH // S).asnumpy(), np.array([[0.0, -1.0, 0.0]], np.float32))


def test_real_div_promotes_as_add_does():
    # MindSpore 2.10: ops.RealDiv (loss-scale code's division of float16 gradients by a float32
    # scale) gives float32 where Div gives float16; integers give their quotient rounded
    # towards zero, in the promoted integer dtype
    real_div = ops.RealDiv()
    assert [str(real_div(a, b).dtype) for a, b in PAIRS] == [
        "Float32", "Float32", "Int64", "Int64", "Int64", "Float32", "Float16"]
    quotient = real_div(Tensor(np.array([[1, -7, 3]], np.int32)), Tensor(2))
    np.testing.assert_array_equal(quotient.asnumpy(), [[0, -3, 1]])
    assert str(ms.jit(lambda a, b: ops.RealDiv()(a, b))(XH, S).dtype) == "Float32"
    np.testing.assert_allclose(real_div(XH, S).asnumpy(), [[0.2, -0.6, 0.8]], rtol=1e-3)
    assert issubclass(ops.RealDiv, ops.Div)
