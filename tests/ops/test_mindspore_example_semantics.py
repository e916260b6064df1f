"""Behaviours MindSpore's own docstring examples show (tools/oracle/run_examples.py found each
divergence); expected values are MindSpore 2.10's outputs for the same calls."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, mint, ops


def test_python_type_names_are_dtypes():
    assert ms.bool is ms.bool_ and ms.int is ms.int32 and ms.float is ms.float32
    assert ms.cfloat is ms.complex64 and ms.cdouble is ms.complex128
    np.testing.assert_array_equal(ops.logical_not(Tensor([True, False], ms.bool)).asnumpy(),
                                  [False, True])
    namespace = {}
    exec("from cellgraph import *", namespace)  # noqa: S102 - a star import shadows no builtin
    assert "bool" not in namespace and "int" not in namespace


def test_full_defaults_to_int64_and_mint_full_infers():
    out = ops.full((2, 3), 1.2)
    assert out.dtype == ms.int64
    np.testing.assert_array_equal(out.asnumpy(), np.ones((2, 3)))
    assert ops.full((2,), 1.2, dtype=ms.float32).dtype == ms.float32
    assert [mint.full((2,), v).dtype for v in (1.5, True, 3)] == [ms.float32, ms.bool_, ms.int64]
    with pytest.raises(TypeError, match="'size' must be a tuple or list"):
        ops.full(2, 1)


def test_index_and_count_dtypes():
    x = Tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 1.0]])
    assert x.argmin().dtype == ms.int32 and x.argmin(axis=1).dtype == ms.int32
    np.testing.assert_array_equal(x.argmin(axis=1).asnumpy(), [1, 0])
    assert ops.median(x, 0)[1].dtype == ms.int64
    assert ops.cummin(x, 1)[1].dtype == ms.int32 and ops.cummax(x, 1)[1].dtype == ms.int64
    assert mint.cummin(x, 1)[1].dtype == ms.int64
    counts = ops.bincount(Tensor([1, 1, 2]))
    assert counts.dtype == ms.float32
    np.testing.assert_array_equal(counts.asnumpy(), [0, 2, 1])
    assert Tensor([1, 1, 2]).bincount().dtype == ms.float32
    assert mint.bincount(Tensor([1, 1, 2])).dtype == ms.int64


def test_in_place_updates_return_a_tensor_not_the_parameter():
    variable = Parameter(Tensor([1.0]), name="variable")
    out = ops.assign(variable, Tensor([2.0]))
    assert type(out) is Tensor and out is not variable
    np.testing.assert_array_equal(out.asnumpy(), [2.0])
    np.testing.assert_array_equal(variable.asnumpy(), [2.0])
    out = ops.assign_add(variable, Tensor([1.0]))
    assert type(out) is Tensor and float(out.asnumpy()[0]) == 3.0
    x = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="x")
    out = ops.ScatterAdd()(x, Tensor([[0, 1]]), Tensor(np.ones((1, 2, 3), np.float32)))
    assert type(out) is Tensor
    np.testing.assert_array_equal(out.asnumpy(), np.ones((2, 3)))


def test_dtype_repr_is_the_name_it_is_reached_by():
    assert repr(ms.float32) == "cellgraph.float32" and str(ms.float32) == "Float32"
    assert repr([ms.bool_, ms.int64]) == "[cellgraph.bool, cellgraph.int64]"
    assert repr(ms.get_py_obj_dtype(1)) == "cellgraph.int64"
