"""The nn library's shape operations (bias_add, one_hot, argmax, tile, split, strided_slice,
slice, pad) against NumPy, with their gradients; and the nn primitives' error messages, which
name the op (its MindSpore class name), the shapes and the user's line."""
from __future__ import annotations

import os

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from cellgraph.primitives.core import PRIMITIVES
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.testing import check_grads

from .nn_helpers import F64, assert_both, distinct, normal

THIS_FILE = os.path.basename(__file__)


# ----- shape operations ------------------------------------------------------------------------

def test_bias_add():
    x, b = normal(2, 3, 4, 5), normal(3)
    assert_both(ops.bias_add, (x, b), x + b[:, None, None], **F64)
    c = normal(5)
    assert_both(lambda x, c: ops.BiasAdd(data_format="NHWC")(x, c), (x, c), x + c, **F64)
    check_grads(ops.bias_add, (x, b), order=2)


def test_one_hot_and_argmax():
    idx = np.array([[0, 2], [3, 1]], np.int32)
    on, off = np.float32(5.0), np.float32(-1.0)
    expected = np.where(np.eye(4)[idx] > 0, 5.0, -1.0)
    assert_both(lambda i, a, b: ops.OneHot()(i, 4, a, b), (idx, np.asarray(on), np.asarray(off)),
                expected)
    out0 = ops.one_hot(Tensor(idx), 4, 1.0, 0.0, axis=0)
    assert out0.shape == (4, 2, 2) and out0.dtype == cellgraph.float32
    np.testing.assert_array_equal(out0.asnumpy(), np.moveaxis(np.eye(4)[idx], -1, 0))
    x = distinct(3, 4)
    assert_both(lambda x: ops.Argmax(axis=1)(x), (x,), np.argmax(x, 1))
    assert ops.Argmax()(Tensor(x)).dtype == cellgraph.int32
    assert ops.argmax(Tensor(x)).asnumpy() == np.argmax(x)
    assert ops.argmax(Tensor(x), 0, keepdim=True).shape == (1, 4)
    with pytest.raises(TypeError):  # MindSpore 2.0's keywords: 2.10 takes dim and keepdim
        ops.argmax(Tensor(x), axis=0, keepdims=True)
    assert PRIMITIVES["one_hot"].nondifferentiable and PRIMITIVES["argmax"].nondifferentiable

    def picked(x):  # an argmax-built selector inside a differentiated function
        hot = ops.one_hot(ops.argmax(x, 1), 4, 1.0, 0.0)
        return ops.reduce_sum(ops.cast(hot, x.dtype) * x * x)

    grad = cellgraph.grad(picked)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad, 2 * x * np.eye(4)[np.argmax(x, 1)])


def test_functional_argmax_takes_bool_as_mindspore():
    # MindSpore 2.10: ops.argmax and Tensor.argmax take a bool tensor (0 and 1), its Argmax
    # class does not (TypeError)
    mask = np.array([[True, False, True], [False, False, True]])
    assert_both(lambda m: ops.argmax(m), (mask,), np.int64(0))
    assert_both(lambda m: ops.argmax(m, 1), (mask,), np.array([0, 2]))
    assert_both(lambda m: m.argmax(0), (mask,), np.array([0, 0, 0]))
    assert ops.argmax(Tensor(mask), 1).dtype == cellgraph.int64
    with pytest.raises(TypeError):
        ops.Argmax()(Tensor(mask))


def test_one_hot_reads_the_first_element_of_on_and_off_values():
    # MindSpore 2.10's OneHot takes on_value/off_value Tensors of any shape and uses their first
    # elements; their gradients are zeros of their shapes
    idx = Tensor(np.array([0, 1, 2], np.int32))
    on, off = Tensor(np.array([[5.0, 2.0]], np.float32)), Tensor(np.array([0.5], np.float32))
    expected = [[5.0, 0.5, 0.5], [0.5, 5.0, 0.5], [0.5, 0.5, 5.0]]
    assert_both(lambda i, a, b: ops.OneHot()(i, 3, a, b), (idx, on, off), expected)
    grads = ops.GradOperation(get_all=True)(lambda i, a, b: ops.OneHot()(i, 3, a, b))(idx, on, off)
    assert [g.shape for g in grads] == [(3,), (1, 2), (1,)]
    assert all(not g.asnumpy().any() for g in grads)
    # an empty one has no first element (MindSpore reads whatever memory follows): an error
    with pytest.raises(ValueError, match="'on_value' must have at least one element"):
        ops.OneHot()(idx, 3, Tensor(np.zeros((0,), np.float32)), off)


def test_tile():
    x = normal(2, 3)
    assert_both(lambda x: ops.tile(x, (2, 1, 3)), (x,), np.tile(x, (2, 1, 3)), **F64)
    assert_both(lambda x: ops.Tile()(x, (3,)), (x,), np.tile(x, (1, 3)), **F64)
    check_grads(lambda x: ops.tile(x, (2, 2, 3)), (x,), order=2)


def test_split():
    x = normal(3, 7)
    assert_both(lambda x: ops.split(x, 3, axis=1), (x,), tuple(np.split(x, [3, 6], axis=1)),
                **F64)
    assert_both(lambda x: ops.split(x, [2, 5], axis=-1), (x,), tuple(np.split(x, [2], axis=1)),
                **F64)
    assert_both(lambda x: ops.Split(0, 3)(x), (x,), tuple(np.split(x, 3)), **F64)
    # MindSpore 1.x's keywords: 2.10's ops.split has no `output_num`
    with pytest.raises(TypeError):
        ops.split(Tensor(x), axis=0, output_num=3)
    check_grads(lambda x: ops.split(x, (2, 4, 1), axis=1), (x,), order=2)
    # only one piece used: the others' gradients are zeros
    check_grads(lambda x: ops.sin(ops.split(x, (2, 5), axis=1)[1]), (x,), order=2)
    with pytest.raises(ShapeError, match=r"Split: axis 1 of x of shape \(3, 7\)"):
        ops.Split(1, 2)(Tensor(x))


def test_strided_slice_and_slice():
    x = normal(4, 5, 6)
    cases = [
        ({"begin": (1, 0, 2), "end": (4, 5, 6), "strides": (2, 1, 2)}, x[1:4:2, 0:5, 2:6:2]),
        ({"begin": (3, 1), "end": (0, 4), "strides": (-1, 1), "end_mask": 0b01}, x[3::-1, 1:4]),
        ({"begin": (0, 2), "end": (0, 3), "strides": (1, 1), "begin_mask": 0b01, "end_mask": 0b01,
              "shrink_axis_mask": 0b10}, x[:, 2]),
        ({"begin": (0, 1), "end": (0, 3), "strides": (1, 1), "ellipsis_mask": 0b01}, x[..., 1:3]),
        ({"begin": (1, 0, 0), "end": (2, 0, 3), "strides": (1, 1, 1), "new_axis_mask": 0b10,
              "shrink_axis_mask": 0b01}, x[1, None, 0:3]),
    ]
    for kw, expected in cases:
        assert_both(lambda x, kw=kw: ops.strided_slice(x, **kw), (x,), expected, **F64)
    op = ops.StridedSlice(end_mask=0b100)
    assert_both(lambda x: op(x, (0, 1, 1), (2, 3, 0), (1, 1, 2)), (x,), x[0:2, 1:3, 1::2], **F64)
    assert_both(lambda x: ops.Slice()(x, (1, 0, 2), (2, -1, 3)), (x,), x[1:3, :, 2:5], **F64)
    check_grads(lambda x: ops.strided_slice(x, (3, 1), (0, 4), (-2, 2)), (x,), order=2)
    with pytest.raises(ShapeError, match=r"Slice: begin 4 with size 3 does not fit axis 2"):
        ops.slice(Tensor(x), (0, 0, 4), (1, 1, 3))
    with pytest.raises(ShapeError, match="StridedSlice: index 7 .* axis 1"):
        ops.strided_slice(Tensor(x), (0, 7), (1, 8), (1, 1), shrink_axis_mask=0b10)


def test_pad():
    x = normal(2, 3, 4)
    assert_both(lambda x: ops.pad(x, (1, 2)), (x,), np.pad(x, ((0, 0), (0, 0), (1, 2))), **F64)
    assert_both(lambda x: ops.pad(x, (0, 1, 2, 0), value=1.5), (x,),
                np.pad(x, ((0, 0), (2, 0), (0, 1)), constant_values=1.5), **F64)
    assert_both(lambda x: ops.pad(x, (-1, 2, 1, -1)), (x,),
                np.pad(x, ((0, 0), (1, 0), (0, 2)))[:, :3, 1:], **F64)
    assert_both(lambda x: ops.Pad(((1, 0), (0, 0), (2, 2)))(x), (x,),
                np.pad(x, ((1, 0), (0, 0), (2, 2))), **F64)
    check_grads(lambda x: ops.pad(x, (1, 2, 0, 1)), (x,), order=2)
    with pytest.raises(ArgumentValueError, match="Pad: mode must be"):
        ops.pad(Tensor(x), (1, 1), mode="symmetric")


# ----- errors name the op, the shapes and the user's line ---------------------------------------

def _compile_error(fn, *arrays):
    with pytest.raises((ShapeError, DTypeError)) as info:
        cellgraph.jit(fn)(*[Tensor(a) for a in arrays])
    return str(info.value)


def test_conv2d_channel_mismatch_message():
    def bad_conv(x, w):
        return ops.conv2d(x, w)

    msg = _compile_error(bad_conv, np.zeros((1, 3, 8, 8), np.float32),
                         np.zeros((4, 2, 3, 3), np.float32))
    assert msg.startswith("For 'Conv2D', 'C_in' of input 'x' shape divide by parameter 'group' "
                          "must be equal to 'C_in' of input 'weight' shape: 2, but got 'C_in' of "
                          "input 'x' shape: 3, and 'group': 1.")  # MindSpore's words
    assert "return ops.conv2d(x, w)" in msg and THIS_FILE in msg


@pytest.mark.parametrize("fn, arrays, expected", [
    (lambda x: ops.max_pool2d(x, 5), [np.zeros((1, 1, 3, 3))],
     "MaxPool: kernel_size (5, 5) does not fit the input of shape (1, 1, 3, 3) padded"),
    (lambda x: ops.avg_pool2d(x, 2), [np.zeros((3, 3))],
     "AvgPool: expected an input x of rank 4 (N, C, H, W), got shape (3, 3)"),
    (lambda x, b: ops.bias_add(x, b), [np.zeros((2, 3, 4)), np.zeros((4,))],
     "BiasAdd: expected bias of shape (3,) for x of shape (2, 3, 4) (channels on axis 1)"),
    (lambda x, g: ops.LayerNorm(1, 1)(x, g, g), [np.zeros((2, 3)), np.zeros((2,))],
     "LayerNorm: expected gamma of shape (3,)"),
    (lambda x, s: ops.BatchNorm()(x, s, s, s, s), [np.zeros((2, 3, 4, 4)), np.zeros((4,))],
     "BatchNorm: expected scale of shape (3,) (the channels of x of shape (2, 3, 4, 4))"),
    (lambda i: ops.one_hot(i, 3), [np.zeros((2,))],
     "OneHot: expected integer indices, got Float64"),
    (lambda x: ops.tile(x, (2, -1)), [np.zeros((2, 3))],
     "Tile: expected non-negative multiples, got (2, -1)"),
    (lambda x: ops.split(x, (2, 2)), [np.zeros((5,))],
     "Split: sizes (2, 2) do not add up to axis 0 of x of shape (5,)"),
    (lambda x, w: ops.Conv2D(4, 3)(x, w), [np.zeros((1, 1, 5, 5)), np.zeros((4, 1, 2, 2))],
     "Conv2D: weight of shape (4, 1, 2, 2) does not match out_channel=4 and kernel_size=(3, 3)"),
    (lambda x: ops.conv2d(x, x), [np.zeros((1, 1, 5, 5), np.int32)],
     "Conv2D: expected float tensors, got Int32"),
])
def test_error_messages(fn, arrays, expected):
    msg = _compile_error(fn, *arrays)
    assert msg.startswith(expected), msg
    assert THIS_FILE in msg  # the user's line


def test_strided_slice_takes_tensors_of_ints_as_bounds():
    # MindSpore's st/ops test: begin/end/strides as int32 or int64 Tensors
    x = np.array([[[1., 1., 1.], [2, 2, 2]], [[3, 3, 3], [4, 4, 4]], [[5, 5, 5], [6, 7, 8]]],
                 np.float32)
    bounds = [cellgraph.Tensor(np.array(v, dt)) for v, dt in
              (([2, 0, 0], np.int32), ([3, 2, 3], np.int64), ([1, 1, 1], np.int32))]
    out = cellgraph.ops.strided_slice(cellgraph.Tensor(x), *bounds)
    np.testing.assert_array_equal(out.asnumpy(), x[2:3, 0:2, 0:3])
