"""`x[index] = value` in a graph with Tensors in the index: several integer Tensors mixed with
slices, Ellipsis and None; a boolean mask Tensor; the errors MindSpore raises. The expected
values are MindSpore 2.10's (CPU, GRAPH_MODE) for the same programs."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

A = np.arange(12).reshape(2, 2, 3).astype(np.float32)
B = np.arange(6).reshape(2, 3).astype(np.float32)


class SliceAndTwoTensors(nn.Cell):
    def construct(self, a, i, j, v):
        a[0:1, i, j] = v
        return a


class EllipsisTensorInt(nn.Cell):
    def construct(self, a, i, v):
        a[..., i, 1] = v
        return a


class Masked(nn.Cell):
    def construct(self, a, m, v):
        a[m] = v
        return a


class Indexed(nn.Cell):
    """Any index form, chosen by its position in FORMS."""

    def __init__(self, form):
        super().__init__()
        self.form = form

    def construct(self, a, i, j, v):
        if self.form == 0:
            a[0:2, i, j] = v
        elif self.form == 1:
            a[0:2, i, ...] = v
        elif self.form == 2:
            a[..., i, 1] = v
        elif self.form == 3:
            a[i, j] = v
        elif self.form == 4:
            a[i, None, j] = v
        else:
            a[1, i, j] = v
        return a


def test_a_slice_and_two_tensors_take_the_broadcast_value():
    out = SliceAndTwoTensors()(Tensor(A), Tensor(np.array([[0], [1]], np.int32)),
                               Tensor(np.array([2, -1], np.int32)),
                               Tensor(np.array([5., 6.], np.float32)))
    assert out.asnumpy().tolist() == [[[0.0, 1.0, 6.0], [3.0, 4.0, 6.0]],
                                      [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]]


def test_ellipsis_tensor_and_int_take_a_tuple_of_numbers():
    out = EllipsisTensorInt()(Tensor(A), Tensor(np.array([1, 0], np.int32)), (7.0, 8.0))
    assert out.asnumpy().tolist() == [[[0.0, 8.0, 2.0], [3.0, 7.0, 5.0]],
                                      [[6.0, 8.0, 8.0], [9.0, 7.0, 11.0]]]


@pytest.mark.parametrize("form", range(6))
@pytest.mark.parametrize("value", [7.5, (1.0, 2.0), np.array([[1.], [2.]], np.float32)])
def test_mixed_index_forms_write_where_numpy_writes(form, value):
    # MindSpore writes these as NumPy does (the indices do not repeat a position), and refuses
    # with a ValueError the values NumPy does not broadcast to the region
    a = np.arange(60).reshape(3, 4, 5).astype(np.float32)
    i = np.array([[0, 2], [1, -1]], np.int32)
    j = np.array([1, 3], np.int32)
    expected = a.copy()
    index = [(slice(0, 2), i, j), (slice(0, 2), i, Ellipsis), (Ellipsis, i, 1), (i, j),
             (i, None, j), (1, i, j)][form]
    v = Tensor(value) if isinstance(value, np.ndarray) else value
    try:
        expected[index] = value
    except ValueError:
        with pytest.raises(ValueError):
            Indexed(form)(Tensor(a), Tensor(i), Tensor(j), v)
        return
    out = Indexed(form)(Tensor(a), Tensor(i), Tensor(j), v)
    np.testing.assert_array_equal(out.asnumpy(), expected)


@pytest.mark.parametrize("form, value", [(0, (1.0, 2.0, 3.0)), (1, (1.0, 2.0)),
                                         (3, np.ones(3, np.float32)), (4, (1.0, 2.0))])
def test_a_value_that_does_not_broadcast_to_the_region_is_a_value_error(form, value):
    a = Tensor(np.arange(60).reshape(3, 4, 5).astype(np.float32))
    i, j = Tensor(np.array([[0, 2], [1, -1]], np.int32)), Tensor(np.array([1, 3], np.int32))
    v = Tensor(value) if isinstance(value, np.ndarray) else value
    with pytest.raises(ValueError):
        Indexed(form)(a, i, j, v)


def test_more_tensor_indices_than_axes_is_an_index_error():
    class Four(nn.Cell):
        def construct(self, a, i, j, v):
            a[i, j, i, j] = v
            return a

    i = Tensor(np.array([0, 1], np.int32))
    with pytest.raises(IndexError):
        Four()(Tensor(A), i, i, 1.0)


def test_a_boolean_mask_pads_and_broadcasts_mask_and_value_to_the_tensor():
    # the value is padded with trailing axes, as the mask is: (2,) fills rows
    out = Masked()(Tensor(B), Tensor(np.array([True, False])),
                   Tensor(np.array([9., 8.], np.float32)))
    assert out.asnumpy().tolist() == [[9.0, 9.0, 9.0], [3.0, 4.0, 5.0]]
    out = Masked()(Tensor(B), Tensor(B > 2), 1)
    assert out.asnumpy().tolist() == [[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]]
    out = Masked()(Tensor(B.astype(np.int32)), Tensor(B > 2), 1.7)
    assert out.dtype == ms.int32
    assert out.asnumpy().tolist() == [[0, 1, 2], [1, 1, 1]]


@pytest.mark.parametrize("mask, value", [
    (B > 2, np.array([7., 8., 9.], np.float32)),   # (3,) pads to (3, 1)
    (np.array([True, False, True]), 5.5),          # the mask pads to (3, 1)
])
def test_a_mask_or_value_that_does_not_broadcast_is_a_value_error(mask, value):
    v = Tensor(value) if isinstance(value, np.ndarray) else value
    with pytest.raises(ValueError):
        Masked()(Tensor(B), Tensor(mask), v)


def test_a_float_index_tensor_is_an_index_error():
    with pytest.raises(IndexError, match="the index tensor data type 'Float32' is not supported"):
        Masked()(Tensor(B), Tensor(np.array([1., 0.], np.float32)), 1.0)


class StaticIndex(nn.Cell):
    def __init__(self, form):
        super().__init__()
        self.form = form

    def construct(self, a, b):
        if self.form == 0:
            a[1] = b
        elif self.form == 1:
            a[0:, ..., ...] = b
        else:
            a[...] = b
        return a


def test_static_index_errors_are_index_errors():
    a4 = Tensor(np.arange(60).reshape(1, 3, 4, 5).astype(np.float32))
    with pytest.raises(IndexError, match="out of bounds"):
        StaticIndex(0)(a4, 2.0)
    with pytest.raises(IndexError, match="single ellipsis"):
        StaticIndex(1)(a4, 2.0)


def test_ellipsis_alone_takes_a_value_of_the_tensor_size_and_higher_rank():
    a = np.arange(60).reshape(3, 4, 5).astype(np.float32)
    out = StaticIndex(2)(Tensor(a), Tensor(np.ones((1, 3, 4, 5), np.float32)))
    assert out.asnumpy().sum() == 60.0
    with pytest.raises(ValueError):  # another size
        StaticIndex(2)(Tensor(a), Tensor(np.ones((1, 1, 4, 5), np.float32)))
    with pytest.raises(ValueError):  # a higher rank elsewhere is refused
        StaticIndex(0)(Tensor(a), Tensor(np.ones((1, 1, 4, 5), np.float32)))


def test_gradients_flow_through_tensor_index_and_mask_assignment():
    class TwoTensors(nn.Cell):
        def construct(self, a, i, j, v):
            a = a * 1
            a[i, j] = v * 2
            return (a * a).sum()

    class Mask(nn.Cell):
        def construct(self, a, m, v):
            a = a * 1
            a[m] = v * 2
            return (a * a).sum()

    ga, gv = ops.grad(TwoTensors(), grad_position=(0, 3))(
        Tensor(B), Tensor(np.array([0, 1], np.int32)), Tensor(np.array([2, 0], np.int32)),
        Tensor(np.array([1., 3.], np.float32)))
    assert ga.asnumpy().tolist() == [[0.0, 2.0, 0.0], [0.0, 8.0, 10.0]]
    assert gv.asnumpy().tolist() == [8.0, 24.0]
    ga, gv = ops.grad(Mask(), grad_position=(0, 2))(
        Tensor(B), Tensor(B > 2), Tensor(np.array([[1.], [3.]], np.float32)))
    assert ga.asnumpy().tolist() == [[0.0, 2.0, 4.0], [0.0, 0.0, 0.0]]
    assert gv.asnumpy().tolist() == [[0.0], [72.0]]
