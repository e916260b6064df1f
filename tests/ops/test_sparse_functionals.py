"""ops.coo_<op> and ops.csr_<op> (an elementwise op on the stored values), coo_add, coo_concat,
csr_add and csr_softmax, against MindSpore 2.10's outputs, including the sparse tensors' repr
(MindSpore's C++ text: each part's Tensor text without commas)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import COOTensor, CSRTensor, Tensor, ops
from cellgraph.ops.function.sparse_unary_func import UNARY_OPS

A = COOTensor(Tensor(np.array([[0, 1], [2, 2]], np.int64)), Tensor([1.5, -2.0]), (3, 4))
B = COOTensor(Tensor(np.array([[0, 1], [1, 3]], np.int64)), Tensor([-1.4, 3.0]), (3, 4))
C = CSRTensor(Tensor(np.array([0, 2, 2, 3], np.int32)), Tensor(np.array([0, 3, 1], np.int32)),
              Tensor([1.0, -2.0, 0.5]), (3, 4))
D = CSRTensor(Tensor(np.array([0, 1, 2, 2], np.int32)), Tensor(np.array([3, 2], np.int32)),
              Tensor([4.0, 1.0]), (3, 4))


@pytest.mark.parametrize("op", sorted(UNARY_OPS))
def test_unary_pairs_apply_to_the_stored_values(op):
    values = np.array([0.25, 0.75], np.float32)
    coo = COOTensor(A.indices, Tensor(values), A.shape)
    csr = CSRTensor(D.indptr, D.indices, Tensor(values), D.shape)
    expected = getattr(ops, op)(Tensor(values)).asnumpy()
    out = getattr(ops, f"coo_{op}")(coo)
    assert isinstance(out, COOTensor) and out.shape == (3, 4) and out.indices is coo.indices
    np.testing.assert_allclose(out.values.asnumpy(), expected, rtol=1e-6)
    out = getattr(ops, f"csr_{op}")(csr)
    assert isinstance(out, CSRTensor) and out.indptr is csr.indptr
    np.testing.assert_allclose(out.values.asnumpy(), expected, rtol=1e-6)
    with pytest.raises(TypeError, match=f"Expects COOTensor for coo_{op}"):
        getattr(ops, f"coo_{op}")(csr)
    with pytest.raises(TypeError, match=f"Expects CSRTensor for csr_{op}"):
        getattr(ops.functional, f"csr_{op}")(coo)


def test_mindspore_examples_values():
    # MindSpore 2.10
    np.testing.assert_allclose(ops.coo_sigmoid(A).values.asnumpy(), [0.8175745, 0.11920287],
                               rtol=1e-6)
    np.testing.assert_array_equal(ops.coo_relu6(A).values.asnumpy(), [1.5, 0.0])
    assert ops.csr_isinf(C).values.dtype == cellgraph.bool_


def test_coo_add_and_concat_as_mindspore():
    # MindSpore 2.10: the sum at (0, 1) is 0.1, below the threshold
    assert repr(ops.coo_add(A, B, Tensor(0.2))) == (
        "COOTensor(shape=[3, 4], dtype=Float32, indices=Tensor(shape=[2, 2], dtype=Int64, value=\n"
        "[[1 3]\n [2 2]]), values=Tensor(shape=[2], dtype=Float32, value=[ 3.00000000e+00 "
        "-2.00000000e+00]))")
    out = ops.coo_concat((A, B, A), 0)
    assert out.shape == (9, 4)
    np.testing.assert_array_equal(out.indices.asnumpy(), [[0, 1], [2, 2], [3, 1], [4, 3], [6, 1],
                                                          [8, 2]])
    np.testing.assert_allclose(out.values.asnumpy(), [1.5, -2.0, -1.4, 3.0, 1.5, -2.0])
    out = ops.coo_concat([A, B], -1)  # entries in row-major order
    assert out.shape == (3, 8)
    np.testing.assert_array_equal(out.indices.asnumpy(), [[0, 1], [0, 5], [1, 7], [2, 2]])
    np.testing.assert_allclose(out.values.asnumpy(), [1.5, -1.4, 3.0, -2.0])


def test_csr_add_and_softmax_as_mindspore():
    assert repr(ops.csr_add(C, D, Tensor(2.0), Tensor(-1.0))) == (
        "CSRTensor(shape=[3, 4], dtype=Float32, indptr=Tensor(shape=[4], dtype=Int32, "
        "value=[0 2 3 4]), indices=Tensor(shape=[4], dtype=Int32, value=[0 3 2 1]), "
        "values=Tensor(shape=[4], dtype=Float32, value=[ 2.00000000e+00 -8.00000000e+00 "
        "-1.00000000e+00  1.00000000e+00]))")
    out = ops.csr_softmax(C, cellgraph.float64)
    assert out.dtype == cellgraph.float32  # the logits' dtype, as MindSpore's
    np.testing.assert_allclose(out.values.asnumpy(), [0.952574134, 0.0474258736, 1.0],
                               rtol=1e-6)
    np.testing.assert_array_equal(C.values.asnumpy(), [1.0, -2.0, 0.5])  # logits untouched


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.coo_concat((A,), 0), ValueError, "not support COOTensor input number < 2"),
    (lambda: ops.coo_concat((A, C), 0), TypeError, "must be COOTensors"),
    # MindSpore 2.10's types: IndexError, TypeError, RuntimeError (its graph mode's)
    (lambda: ops.coo_concat((A, B), 2), IndexError, r"'concat_dim' must be in \[-2, 2\)"),
    (lambda: ops.coo_concat((A, B), -1.0), TypeError, "the type of 'concat_dim' should be 'int'"),
    (lambda: ops.coo_concat((A, COOTensor(A.indices, A.values.astype(cellgraph.float16),
                                          A.shape)), 0), TypeError, "the input type must be same"),
    (lambda: ops.coo_concat((A, COOTensor(A.indices, A.values, (4, 4))), 1), RuntimeError,
     "must agree except at 'concat_dim' 1"),
    (lambda: ops.coo_add(A, C, 0.0), TypeError, "'x2' must be a COOTensor"),
    (lambda: ops.csr_add(C, A, 1.0, 1.0), TypeError, "'b' must be a CSRTensor"),
    (lambda: ops.csr_softmax(A, cellgraph.float32), TypeError, "logits must be type of CSRTensor"),
    (lambda: ops.csr_softmax(C, cellgraph.int32), TypeError, "must be float32 or float64"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
