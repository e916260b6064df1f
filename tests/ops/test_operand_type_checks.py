"""Operand types MindSpore 2.10 refuses, refused here too with its exception type: Stack of
mixed dtypes, Cast to a dtype given by name or as a NumPy/Python type, Tile with multiples in
a list or an array; the forms it takes give its values."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, ops

X = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))
I = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.int32))


def test_stack_refuses_mixed_dtypes():
    np.testing.assert_array_equal(ops.stack((X, X), 1).asnumpy(),
                                  np.stack([X.asnumpy()] * 2, 1))
    for call in (lambda: ops.stack((X, I)), lambda: ops.Stack(axis=-1)([X, X.astype(cg.float16)])):
        with pytest.raises(TypeError, match="input\\[1\\] data type = (Int32|Float16) and "
                                            "input\\[0\\] data type = Float32"):
            call()


def test_stack_of_mixed_dtypes_in_a_graph_is_a_type_error():
    @cg.jit
    def stacked(x):
        return ops.stack((x, ops.cast(x, cg.int32)))

    with pytest.raises(TypeError, match="Stack"):
        stacked(X)


@pytest.mark.parametrize("dtype", ["float16", np.float16, float, int, bool])
def test_cast_takes_mindspore_dtypes_only(dtype):
    with pytest.raises(TypeError, match="For 'Cast', the input 'dtype' should be mindspore dtype"):
        ops.cast(X, dtype)
    with pytest.raises(TypeError, match="should be mindspore dtype"):
        ops.Cast()(X, dtype)


def test_cast_and_astype_values():
    assert ops.cast(X, cg.int32).dtype == cg.int32
    np.testing.assert_array_equal(ops.Cast()(X, cg.float16).asnumpy(),
                                  X.asnumpy().astype(np.float16))
    # Tensor.astype takes names and NumPy types, as MindSpore's does
    assert X.astype("float16").dtype == cg.float16
    assert X.astype(np.int32).dtype == cg.int32


@pytest.mark.parametrize("dims", [[2, 1], np.array([2, 1])])
def test_tile_refuses_lists_and_arrays(dims):
    with pytest.raises(TypeError, match="Failed calling Tile"):
        ops.tile(X, dims)
    with pytest.raises(TypeError, match="Failed calling Tile"):
        ops.Tile()(X, dims)


def test_tile_takes_tuples_and_tensors():
    want = np.tile(X.asnumpy(), (2, 1))
    np.testing.assert_array_equal(ops.tile(X, (2, 1)).asnumpy(), want)
    np.testing.assert_array_equal(ops.tile(X, Tensor([2, 1])).asnumpy(), want)
    np.testing.assert_array_equal(ops.Tile()(X, (2,)).asnumpy(), np.tile(X.asnumpy(), (1, 2)))


def test_concat_refuses_a_lone_tensor_and_stack_takes_it_as_one_element():
    with pytest.raises(TypeError, match="Failed calling Concat"):
        ops.concat(X)
    np.testing.assert_array_equal(ops.concat([X, X], 1).asnumpy(),
                                  np.concatenate([X.asnumpy()] * 2, 1))
    np.testing.assert_array_equal(ops.stack(X).asnumpy(), X.asnumpy()[None])
