"""Tensor, Parameter and ParameterTuple outside graphs: construction, conversion, operators,
methods, indexing, item assignment, and MindSpore's print/repr formats."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, ParameterTuple, Tensor, ops
from cellgraph.primitives.errors import DTypeError, ShapeError

F32 = {"rtol": 1e-6, "atol": 1e-7}


def assert_tensor(t, expected, dtype):
    assert isinstance(t, Tensor)
    assert t.dtype == dtype, f"dtype {t.dtype}, expected {dtype}"
    expected = np.asarray(expected)
    assert t.shape == expected.shape
    tol = F32 if dtype.is_float else {"rtol": 0, "atol": 0}
    np.testing.assert_allclose(t.asnumpy(), expected, **tol)


# ----- construction ---------------------------------------------------------------------------

@pytest.mark.parametrize("data, dtype", [
    ([1.0, 2.5], ms.float32), ([[1.0], [2.0]], ms.float32), ([1, 2.5], ms.float32),
    ([1, 2], ms.int64), ([True, False], ms.bool_), (1.5, ms.float32), (3, ms.int64),
    (True, ms.bool_), ((1, 2, 3), ms.int64),
])
def test_python_data_takes_mindspore_default_dtypes(data, dtype):
    t = Tensor(data)
    assert t.dtype == dtype
    np.testing.assert_array_equal(t.asnumpy(), np.asarray(data, dtype=dtype.np))
    assert t.asnumpy().dtype == dtype.np


@pytest.mark.parametrize("np_dtype, dtype", [
    (np.float16, ms.float16), (np.float32, ms.float32), (np.float64, ms.float64),
    (np.int8, ms.int8), (np.int16, ms.int16), (np.int32, ms.int32), (np.int64, ms.int64),
    (np.uint8, ms.uint8), (np.bool_, ms.bool_),
])
def test_numpy_arrays_keep_their_dtype(np_dtype, dtype):
    host = np.array([[0, 1, 2], [3, 4, 5]]).astype(np_dtype)
    t = Tensor(host)
    assert t.dtype == dtype
    np.testing.assert_array_equal(t.asnumpy(), host)
    assert Tensor(np_dtype(1)).dtype == dtype  # a NumPy scalar too


def test_dtype_argument_converts():
    t = Tensor([1, 2, 3], dtype=ms.float32)
    assert_tensor(t, [1.0, 2.0, 3.0], ms.float32)
    assert_tensor(Tensor(np.array([1.7, -2.2]), dtype=ms.int32), [1, -2], ms.int32)
    assert_tensor(Tensor(2.0, ms.float64), 2.0, ms.float64)
    assert_tensor(Tensor([0.0, 3.0], dtype=ms.bool_), [False, True], ms.bool_)
    for foreign in ("bool_", np.float32, np.dtype("float32"), float):  # MindSpore's dtypes only
        with pytest.raises(TypeError, match="the 'dtype' should be one of"):
            Tensor([1.0], dtype=foreign)
        with pytest.raises(TypeError, match="the 'dtype' should be one of"):
            Tensor(None, foreign)  # no data: MindSpore checks the dtype all the same
    assert_tensor(Tensor(t), [1.0, 2.0, 3.0], ms.float32)  # from another Tensor
    assert_tensor(Tensor(shape=(2, 1), dtype=ms.int32), [[0], [0]], ms.int32)


def test_asnumpy_is_a_copy_of_the_values():
    host = np.array([1.0, 2.0], np.float32)
    t = Tensor(host)
    host[0] = 100.0
    out = t.asnumpy()
    np.testing.assert_array_equal(out, [1.0, 2.0])
    assert isinstance(out, np.ndarray) and out.dtype == np.float32


def test_shape_dtype_ndim_size():
    t = Tensor(np.zeros((2, 3, 4), np.float32))
    assert (t.shape, t.dtype, t.ndim, t.size) == ((2, 3, 4), ms.float32, 3, 24)
    s = Tensor(5.0)
    assert (s.shape, s.ndim, s.size) == ((), 0, 1)
    assert isinstance(t.shape, tuple) and isinstance(t.size, int)
    assert len(t) == 2


def test_python_conversions():
    assert float(Tensor(2.5)) == 2.5
    assert int(Tensor(7)) == 7
    assert bool(Tensor(True)) is True
    assert Tensor([[3.5]]).item() == 3.5
    grid = Tensor([[1.5, 2.5], [3.5, 4.5]])
    with pytest.raises(TypeError):   # as MindSpore's, item takes no index
        grid.item(3)
    with pytest.raises(ValueError, match="one element"):
        grid.item()
    assert Tensor([[1, 2]]).tolist() == [[1, 2]]
    np.testing.assert_array_equal(np.asarray(Tensor([1, 2])), [1, 2])
    rows = list(Tensor([[1, 2], [3, 4]]))
    assert len(rows) == 2
    assert_tensor(rows[1], [3, 4], ms.int64)


def test_one_element_tensors_as_python_numbers_and_list_indices():
    assert int(Tensor([7])) == 7 and float(Tensor([2.5])) == 2.5
    items = ["a", "b", "c"]
    assert items[Tensor([1])] == "b" and items[Tensor(2, ms.int32)] == "c"
    with pytest.raises(ValueError, match="single element"):
        items[Tensor([0, 1])]
    with pytest.raises(ValueError, match="integer tensors"):
        items[Tensor([1.0])]
    with pytest.raises(ValueError, match="one element"):
        int(Tensor([1, 2]))
    # one element of any rank, as MindSpore (a model's (1, 1) score read with int())
    assert int(Tensor([[0.7]])) == 0 and float(Tensor([[[2.5]]])) == 2.5
    assert items[Tensor([[1]])] == "b"
    with pytest.raises(ValueError, match="one element"):
        float(Tensor(np.zeros((0,), np.float32)))


def test_bad_data_is_a_dtype_error():
    with pytest.raises(DTypeError, match="Tensor: cannot make a tensor from str"):
        Tensor("abc")
    with pytest.raises(DTypeError, match="expected data .* got None"):
        Tensor(None)
    with pytest.raises(TypeError, match="unsupported tensor dtype"):
        Tensor(np.array(["2020-01-01"], "datetime64[D]"))


# ----- operators ------------------------------------------------------------------------------

X = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32)
V = np.array([0.5, 2.0, -1.0], np.float32)


@pytest.mark.parametrize("op, ref", [
    (lambda a, b: a + b, np.add), (lambda a, b: a - b, np.subtract),
    (lambda a, b: a * b, np.multiply), (lambda a, b: a / b, np.divide),
    (lambda a, b: a ** 2, lambda a, b: a ** 2), (lambda a, b: a > b, np.greater),
    (lambda a, b: a <= b, np.less_equal), (lambda a, b: a == b, np.equal),
    (lambda a, b: a != b, np.not_equal), (lambda a, b: a < b, np.less),
    (lambda a, b: a >= b, np.greater_equal),
])
def test_binary_operators_broadcast(op, ref):
    out = op(Tensor(X), Tensor(V))
    expected = ref(X, V)
    assert_tensor(out, expected, ms.bool_ if expected.dtype == bool else ms.float32)


def test_operators_with_python_scalars():
    t = Tensor(X)
    assert_tensor(t + 1, X + 1, ms.float32)
    assert_tensor(2 * t, 2 * X, ms.float32)
    assert_tensor(1 - t, 1 - X, ms.float32)
    assert_tensor(3 / t, 3 / X, ms.float32)
    assert_tensor(2.0 ** Tensor(V), 2.0 ** V, ms.float32)
    assert_tensor(-t, -X, ms.float32)
    assert_tensor(abs(t), np.abs(X), ms.float32)
    assert_tensor(t > 0.5, X > 0.5, ms.bool_)
    ints = Tensor(np.array([1, 2, 3], np.int32))
    assert_tensor(ints + 1, [2, 3, 4], ms.int32)
    assert_tensor(ints * 0.5, [0.5, 1.0, 1.5], ms.float32)  # float scalar: float32, not float64
    assert_tensor(ints / 2, [0.5, 1.0, 1.5], ms.float32)


def test_matmul_and_logical_operators():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert_tensor(Tensor(a) @ Tensor(a.T), a @ a.T, ms.float32)
    p = Tensor(np.array([True, False, True]))
    q = Tensor(np.array([True, True, False]))
    assert_tensor(p & q, [True, False, False], ms.bool_)
    assert_tensor(p | q, [True, True, True], ms.bool_)
    assert_tensor(~p, [False, True, False], ms.bool_)


def test_operator_shape_mismatch_names_the_op_and_shapes():
    with pytest.raises(ShapeError, match=r"Add: shapes \(2, 3\), \(4,\) cannot be broadcast"):
        Tensor(X) + Tensor(np.ones(4, np.float32))


# ----- methods --------------------------------------------------------------------------------

def test_reductions():
    t = Tensor(X)
    assert_tensor(t.sum(), X.sum(), ms.float32)
    assert_tensor(t.sum(axis=1), X.sum(axis=1), ms.float32)
    assert_tensor(t.sum(axis=(0, 1), keepdims=True), X.sum(keepdims=True), ms.float32)
    assert_tensor(t.mean(), X.mean(), ms.float32)
    assert_tensor(t.mean(0), X.mean(0), ms.float32)
    assert_tensor(t.mean(axis=-1, keep_dims=True), X.mean(-1, keepdims=True), ms.float32)
    assert_tensor(Tensor(np.array([1, 2], np.int32)).mean(), 1, ms.int32)  # MindSpore's
    assert_tensor(t.max(axis=0), X.max(0), ms.float32)
    assert_tensor(t.min(), X.min(), ms.float32)


def test_shape_methods():
    t = Tensor(X)
    assert_tensor(t.reshape(3, 2), X.reshape(3, 2), ms.float32)
    assert_tensor(t.reshape((6,)), X.reshape(6), ms.float32)
    assert_tensor(t.reshape(-1, 2), X.reshape(-1, 2), ms.float32)
    assert_tensor(t.transpose(), X.T, ms.float32)
    assert_tensor(t.transpose(1, 0), X.T, ms.float32)
    assert_tensor(t.T, X.T, ms.float32)
    y = Tensor(np.arange(24, dtype=np.float64).reshape(2, 3, 4))
    assert_tensor(y.transpose((2, 0, 1)), np.arange(24.0).reshape(2, 3, 4).transpose(2, 0, 1),
                  ms.float64)
    assert_tensor(t.expand_dims(0), X[None], ms.float32)
    assert_tensor(t.expand_dims(-1), X[..., None], ms.float32)
    assert_tensor(t.expand_dims(1).squeeze(), X, ms.float32)
    assert_tensor(Tensor(np.ones((1, 3, 1))).squeeze(0), np.ones((3, 1)), ms.float64)
    assert_tensor(t.flatten(), X.ravel(), ms.float32)


def test_astype():
    t = Tensor(X)
    assert_tensor(t.astype(ms.int32), X.astype(np.int32), ms.int32)
    assert_tensor(t.astype(ms.float64), X.astype(np.float64), ms.float64)
    assert_tensor(t.astype(np.float16), X.astype(np.float16), ms.float16)
    assert_tensor(t.astype("bool_"), X.astype(bool), ms.bool_)
    assert t.astype(ms.float32, copy=False) is t  # no copy when the dtype already matches
    copied = t.astype(ms.float32)  # unless asked for, as MindSpore's default copy=True does
    assert copied is not t
    np.testing.assert_array_equal(copied.asnumpy(), X)


def test_reshape_errors_name_shapes():
    with pytest.raises(ShapeError, match=r"Reshape: cannot reshape a tensor of shape \(2, 3\) "
                                         r"\(6 elements\) into shape \(4,\)"):
        Tensor(X).reshape(4)


def test_squeeze_keeps_an_axis_whose_size_is_not_one():
    # MindSpore 2.10: squeeze(0) of a (2, 3) tensor is that tensor's values, shape (2, 3); of
    # (1, 3, 1) with axes (0, 1) it is (3, 1); an axis out of range is still refused
    assert Tensor(X).squeeze(0).shape == (2, 3)
    np.testing.assert_array_equal(Tensor(X).squeeze(0).asnumpy(), X)
    ones = Tensor(np.ones((1, 3, 1), np.float32))
    assert ops.squeeze(ones, (0, 1)).shape == (3, 1)
    assert ops.Squeeze(1)(ones).shape == (1, 3, 1)
    assert ms.jit(lambda t: t.squeeze(0) * 2)(Tensor(X)).shape == (2, 3)
    with pytest.raises(ValueError):
        ops.squeeze(Tensor(X), 5)


# ----- indexing -------------------------------------------------------------------------------

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize("index", [
    0, -1, (1, 2), (1, 2, 3), slice(None, 1), (slice(None), 1), (Ellipsis, 2),
    (None, 0), (0, None, slice(1, None, 2)), (slice(None, None, -1), Ellipsis, 0),
    (Ellipsis,), (0, Ellipsis, None),
], ids=repr)
def test_static_indexing(index):
    assert_tensor(Tensor(A)[index], A[index], ms.float32)


def test_tensor_index_gathers():
    rows = Tensor(np.array([1, 0, 1], np.int32))
    assert_tensor(Tensor(A)[rows], A[[1, 0, 1]], ms.float32)
    cols = Tensor(np.array([[3, 0], [1, 1]]))
    assert_tensor(Tensor(A)[:, :, cols], A[:, :, np.array([[3, 0], [1, 1]])], ms.float32)
    assert_tensor(Tensor(A)[Tensor(1)], A[1], ms.float32)


def test_boolean_mask_reads_eagerly_with_numpy_masks_and_in_graphs():
    """The mask's count is the result's length: known for eager Tensors and NumPy masks (as in
    MindSpore's PyNative mode); in a graph the result's length is known only at run time."""
    assert_tensor(Tensor(A)[Tensor(A) > 5], A[A > 5], ms.float32)
    assert_tensor(Tensor(A)[Tensor(np.array([False, True]))], A[[1]], ms.float32)
    cols = np.array([True, False, True])
    assert_tensor(Tensor(A)[:, cols], A[:, cols], ms.float32)
    assert_tensor(Tensor(A)[Tensor(A) > 100], A[A > 100], ms.float32)

    @ms.jit
    def positive_sum(x):
        return x[cols].sum()

    np.testing.assert_allclose(ms.grad(positive_sum)(Tensor(A[0])).asnumpy(),
                               np.repeat(cols[:, None], 4, axis=1) * 1.0)

    @ms.jit
    def graph_mask(x):
        return x[x > 0]

    out = graph_mask(Tensor(A - 10))
    assert_tensor(out, (A - 10)[A > 10], ms.float32)


def test_index_errors():
    with pytest.raises(IndexError, match=r"GetItem: index \(5,\) does not fit a tensor of shape "
                                         r"\(2, 3, 4\)"):
        Tensor(A)[5]
    with pytest.raises(IndexError, match=r"GetItem: the boolean mask of shape \(3,\) does not "
                                         r"match the indexed axes of shape \(2,\)"):
        Tensor(A)[Tensor(np.array([True, False, True]))]
    with pytest.raises(DTypeError, match="GetItem: expected an integer index tensor, got Float32"):
        Tensor(A)[Tensor([0.0])]


def test_setitem_with_int_slice_and_tensor_indices():
    host = np.zeros((3, 4), np.float32)
    t = Tensor(host.copy())
    t[1] = 5.0
    host[1] = 5.0
    t[:, 2] = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    host[:, 2] = [1.0, 2.0, 3.0]
    t[0, 1:3] = 7
    host[0, 1:3] = 7
    t[Tensor(np.array([2, 0]))] = Tensor(np.full(4, -1.0, np.float32))
    host[[2, 0]] = -1.0
    t[Tensor(2), Tensor(3)] = 9.5
    host[2, 3] = 9.5
    assert_tensor(t, host, ms.float32)


def test_setitem_keeps_dtype_and_is_seen_through_every_reference():
    t = Tensor(np.array([1, 2, 3], np.int32))
    alias = t
    t[0] = 7.9  # stored in the tensor's own dtype, as NumPy assignment does
    assert_tensor(alias, [7, 2, 3], ms.int32)


def _base():
    return Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))


def _write(view_of, index, value):
    x = _base()
    view = view_of(x)
    view[index] = value
    return x


# (view, index, value, the base afterwards): MindSpore 2.10's in PyNative mode on CPU
VIEW_WRITES = [
    (lambda x: x[:, 1], 0, 7, [[0, 7, 2], [3, 4, 5]]),
    (lambda x: x[0], 1, 9, [[0, 9, 2], [3, 4, 5]]),
    (lambda x: x.view(3, 2), (0, 0), 5, [[5, 1, 2], [3, 4, 5]]),
    (lambda x: x.reshape(3, 2), (0, 0), 5, [[5, 1, 2], [3, 4, 5]]),
    (lambda x: ops.reshape(x, (3, 2)), (0, 0), 5, [[5, 1, 2], [3, 4, 5]]),
    (lambda x: x.transpose(1, 0), (0, 1), -1, [[0, 1, 2], [-1, 4, 5]]),
    (lambda x: ops.transpose(x, (1, 0)), (0, 0), 5, [[5, 1, 2], [3, 4, 5]]),
    (lambda x: x.T, (0, 0), 11, [[11, 1, 2], [3, 4, 5]]),
    (lambda x: x.split(1, axis=0)[0], (0, 0), 42, [[42, 1, 2], [3, 4, 5]]),
    (lambda x: x.unsqueeze(0), (0, 0, 0), 42, [[42, 1, 2], [3, 4, 5]]),
    (lambda x: x.expand_dims(0), (0, 0, 0), 42, [[42, 1, 2], [3, 4, 5]]),
    (lambda x: x.squeeze(), (0, 0), 42, [[42, 1, 2], [3, 4, 5]]),
    (lambda x: x.flatten(), 0, 42, [[42, 1, 2], [3, 4, 5]]),
    (lambda x: x[0], slice(None), Tensor([7.0, 8.0, 9.0]), [[7, 8, 9], [3, 4, 5]]),
    (lambda x: x[0:1][0], 1, -3, [[0, -3, 2], [3, 4, 5]]),
    (lambda x: x[Tensor(1)], 0, 5, [[0, 1, 2], [5, 4, 5]]),  # a 0-d index is its int
    (lambda x: x[Tensor(-1), 1:], 0, 8, [[0, 1, 2], [3, 8, 5]]),
]


@pytest.mark.parametrize("view_of,index,value,expected", VIEW_WRITES)
def test_setitem_on_a_view_writes_its_base_as_mindspore_pynative(view_of, index, value,
                                                                 expected):
    assert_tensor(_write(view_of, index, value), np.array(expected, np.float32), ms.float32)


def test_views_see_writes_to_their_base_and_parameters_take_them():
    x = _base()
    row, flat = x[0], x.view(-1)
    x[0, 0] = 11
    x[1, 1] = 50
    assert_tensor(row, np.array([11, 1, 2], np.float32), ms.float32)
    assert_tensor(flat, np.array([11, 1, 2, 3, 50, 5], np.float32), ms.float32)
    p = Parameter(_base(), name="p")
    row = p[0]
    row[1] = 9
    assert_tensor(p, np.array([[0, 9, 2], [3, 4, 5]], np.float32), ms.float32)


def test_in_place_methods_write_where_the_elements_lie():
    """`x.add_(1)` and the other in-place methods write the Tensor's elements, so its views
    see the new values, and a view's in-place method writes its base."""
    x = _base()
    row = x[0]
    x.add_(1)
    assert_tensor(row, np.array([1, 2, 3], np.float32), ms.float32)
    row.mul_(10)
    assert_tensor(x, np.array([[10, 20, 30], [4, 5, 6]], np.float32), ms.float32)
    x.fill_(2.5)
    assert_tensor(row, np.array([2.5, 2.5, 2.5], np.float32), ms.float32)


def test_a_graphs_constant_result_is_written_as_a_copy():
    """A compiled graph hands out its constants as results; writing into such a result
    changes that result alone, never what the next call returns."""
    ms.set_context(mode=ms.GRAPH_MODE)

    class Constants(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.k = Tensor(np.ones(3, np.float32))

        def construct(self, x):
            return self.k, ops.ones((3,), ms.float32), x + 1

    net = Constants()
    x = Tensor(np.zeros(3, np.float32))
    for out in net(x):
        out[0] = 9
        assert out.asnumpy()[0] == 9
    for out in net(x):
        np.testing.assert_array_equal(out.asnumpy(), [1, 1, 1])
    np.testing.assert_array_equal(net.k.asnumpy(), [1, 1, 1])


# ----- print and repr -------------------------------------------------------------------------

def test_print_is_numpy_str(capsys):
    t = Tensor(np.array([[4.5099998, 2.7, 3.6000001], [4.5099998, 2.7, 3.6000001]], np.float32))
    print(t)
    print(Tensor([10.0]), Tensor([8.0]))
    print(Tensor(2.5), Tensor([1, 2]), Tensor([True, False]))
    assert capsys.readouterr().out == (
        "[[4.5099998 2.7       3.6000001]\n"
        " [4.5099998 2.7       3.6000001]]\n"
        "[10.] [8.]\n"
        "2.5 [1 2] [ True False]\n")


def test_repr_of_a_vector_and_a_tuple_of_tensors():
    pair = (Tensor(np.array([0.0, 6.0], np.float32)), Tensor(np.array([-2.0, 6.0], np.float32)))
    assert repr(pair[0]) == (
        "Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  6.00000000e+00])")
    assert str(pair) == (
        "(Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  6.00000000e+00]), "
        "Tensor(shape=[2], dtype=Float32, value= [-2.00000000e+00,  6.00000000e+00]))")
    nested = ((1, pair[0]),)
    assert str(nested) == (
        "((1, Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  6.00000000e+00])),)")


def test_repr_from_rank_two_starts_on_a_new_line():
    t = Tensor(np.array([[0, 6], [15, -4]], np.float32))
    assert repr(t) == ("Tensor(shape=[2, 2], dtype=Float32, value=\n"
                       "[[ 0.00000000e+00,  6.00000000e+00],\n"
                       " [ 1.50000000e+01, -4.00000000e+00]])")
    cube = Tensor(np.arange(8, dtype=np.float64).reshape(2, 2, 2))
    assert repr(cube) == ("Tensor(shape=[2, 2, 2], dtype=Float64, value=\n"
                          "[[[ 0.00000000e+00,  1.00000000e+00],\n"
                          "  [ 2.00000000e+00,  3.00000000e+00]],\n"
                          " [[ 4.00000000e+00,  5.00000000e+00],\n"
                          "  [ 6.00000000e+00,  7.00000000e+00]]])")


def test_repr_of_ints_bools_and_float16():
    assert repr(Tensor(np.array([[1, 20], [-3, 4]]))) == (
        "Tensor(shape=[2, 2], dtype=Int64, value=\n[[ 1, 20],\n [-3,  4]])")
    assert repr(Tensor(np.array([1, 2], np.uint8))) == (
        "Tensor(shape=[2], dtype=UInt8, value= [1, 2])")
    assert repr(Tensor([True, False])) == "Tensor(shape=[2], dtype=Bool, value= [ True, False])"
    assert repr(Tensor(np.array([1.5, -2], np.float16))) == (
        "Tensor(shape=[2], dtype=Float16, value= [ 1.5000e+00, -2.0000e+00])")


def test_repr_of_0d_tensors():
    assert repr(Tensor(2.5)) == "Tensor(shape=[], dtype=Float32, value= 2.5)"
    assert repr(Tensor(3.0)) == "Tensor(shape=[], dtype=Float32, value= 3)"
    assert repr(Tensor(np.float64(1e-7))) == "Tensor(shape=[], dtype=Float64, value= 1e-07)"
    assert repr(Tensor(-4)) == "Tensor(shape=[], dtype=Int64, value= -4)"
    assert repr(Tensor(False)) == "Tensor(shape=[], dtype=Bool, value= False)"


def test_repr_summarises_long_axes():
    t = Tensor(np.arange(64).reshape(8, 8))
    assert repr(t) == ("Tensor(shape=[8, 8], dtype=Int64, value=\n"
                       "[[ 0,  1,  2 ...  5,  6,  7],\n"
                       " [ 8,  9, 10 ... 13, 14, 15],\n"
                       " [16, 17, 18 ... 21, 22, 23],\n"
                       " ...\n"
                       " [40, 41, 42 ... 45, 46, 47],\n"
                       " [48, 49, 50 ... 53, 54, 55],\n"
                       " [56, 57, 58 ... 61, 62, 63]])")
    long = Tensor(np.arange(1001, dtype=np.int32))
    assert repr(long) == (
        "Tensor(shape=[1001], dtype=Int32, value= [   0,    1,    2 ...  998,  999, 1000])")


def test_repr_breaks_long_vectors_every_12_floats():
    t = Tensor(np.arange(13, dtype=np.float32))
    items = [f"{v:15.8e}" for v in range(13)]
    assert repr(t) == ("Tensor(shape=[13], dtype=Float32, value= ["
                       + ", ".join(items[:12]) + ", \n " + items[12] + "])")


# ----- Parameter and ParameterTuple -----------------------------------------------------------

def test_parameter_name_requires_grad_and_repr(capsys):
    w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    assert (w.name, w.requires_grad, w.shape, w.dtype) == ("w", True, (2,), ms.float32)
    assert isinstance(w, Tensor)
    frozen = Parameter(Tensor(np.zeros((2, 3), np.float64)), name="b", requires_grad=False)
    assert frozen.requires_grad is False and frozen.dtype == ms.float64
    assert repr(w) == "Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)"
    print(frozen)
    assert capsys.readouterr().out == (
        "Parameter (name=b, shape=(2, 3), dtype=Float64, requires_grad=False)\n")
    assert_tensor(w * 2, [2.0, 4.0], ms.float32)  # a Parameter is a Tensor in arithmetic


def test_parameter_set_data_keeps_dtype():
    w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    same = w.set_data(Tensor(np.array([3.0, 4.0], np.float16)))
    assert same is w
    assert_tensor(w, [3.0, 4.0], ms.float32)
    w.set_data(np.array([5, 6]))
    assert_tensor(w, [5.0, 6.0], ms.float32)
    scalar = Parameter(0.5, name="s")
    assert scalar.dtype == ms.float32
    assert_tensor(scalar.set_data(1.5), 1.5, ms.float32)  # a Python float takes its dtype


def test_parameter_set_data_casts_to_the_parameters_dtype_as_mindspore():
    """MindSpore 2.10 casts any Tensor to the Parameter's dtype and takes its shape; only a
    Python float into an integer Parameter is refused (values checked against it)."""
    w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    assert_tensor(w.set_data(Tensor(np.array([0.1, 0.2], np.float64))), [0.1, 0.2], ms.float32)
    assert w.asnumpy().tolist() == np.array([0.1, 0.2], np.float32).tolist()
    w.set_data(np.array([1.5, 2.25]))  # NumPy's float64 arrays, as real programs pass them
    assert_tensor(w, [1.5, 2.25], ms.float32)
    w.set_data(Tensor(np.array([1 + 2j, 3], np.complex64)))  # the real part
    assert_tensor(w, [1.0, 3.0], ms.float32)
    w.set_data(Tensor(np.ones(3, np.float64)))  # a new shape is taken, as in MindSpore
    assert_tensor(w, [1.0, 1.0, 1.0], ms.float32)
    half = Parameter(Tensor(np.zeros(2, np.float16)), name="half")
    assert_tensor(half.set_data(Tensor(np.array([1e6, 2.0]))), [np.inf, 2.0], ms.float16)
    count = Parameter(Tensor(np.array([0, 0], np.int32)), name="count")
    assert_tensor(count.set_data(Tensor(np.array([1.7, -2.7], np.float32))), [1, -2], ms.int32)
    assert_tensor(count.set_data(Tensor(np.array([5, 6], np.int64))), [5, 6], ms.int32)
    assert_tensor(count.set_data(3), 3, ms.int32)
    flag = Parameter(Tensor(np.array([False, True])), name="flag")
    assert_tensor(flag.set_data(Tensor(np.array([0.5, 0.0], np.float32))), [True, False],
                  ms.bool_)
    with pytest.raises(TypeError, match=r"a Python float \(2.5\) is not converted implicitly "
                                        r"to Parameter 'count' of dtype Int32"):
        count.set_data(2.5)
    assert_tensor(count, 3, ms.int32)  # unchanged


def test_parameter_tuple():
    a = Parameter(Tensor(np.ones(2, np.float32)), name="a")
    b = Parameter(Tensor(np.zeros(3, np.float32)), name="b")
    params = ParameterTuple([a, b])
    assert isinstance(params, tuple) and len(params) == 2
    assert params[0] is a and params[1] is b
    assert [p.name for p in params] == ["a", "b"]
    with pytest.raises(DTypeError, match="ParameterTuple: expected Parameters, got Tensor"):
        ParameterTuple([a, Tensor([1.0])])


def test_more_tensor_methods_eager_and_in_graph():
    import cellgraph

    a = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)

    def methods(x):
        return (x.argmax(1), x.argmin(axis=0), x.clip(-1.0, 2.0), (x > 0).all(1), (x > 3).any(),
                x.permute(1, 0), x.swapaxes(0, 1), x.int(), x.pow(2), x.matmul(x.T),
                x.var(1), x.std(), x.cumsum(1), x.prod(0), x.tile((1, 2)), x.abs().log1p())

    expected = (a.argmax(1), a.argmin(0), a.clip(-1, 2), (a > 0).all(1), (a > 3).any(), a.T,
                a.T, a.astype(np.int32), a ** 2, a @ a.T, a.var(1), a.std(), a.cumsum(1),
                a.prod(0), np.tile(a, (1, 2)), np.log1p(np.abs(a)))
    for got in (methods(Tensor(a)), cellgraph.jit(methods)(Tensor(a))):
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g.asnumpy(), e, rtol=1e-6, atol=1e-6)
    assert Tensor(a).numel() == 6


def test_sum_of_a_bool_tensor_counts_and_takes_initial():
    from cellgraph import nn

    flags = Tensor(np.array([[True, False], [True, True]]))
    assert flags.sum().dtype == ms.int64 and int(flags.sum().asnumpy()) == 3
    np.testing.assert_array_equal(flags.sum(axis=0).asnumpy(), [2, 1])
    np.testing.assert_allclose(Tensor(np.ones(3, np.float32)).sum(initial=2.0).asnumpy(), 5.0)

    class Count(nn.Cell):
        def construct(self, a, b):
            return (a == b).sum()

    assert int(Count()(Tensor(np.array([1, 2, 3])), Tensor(np.array([1, 0, 3]))).asnumpy()) == 2


def test_clip_and_clamp_take_min_and_max_keywords():
    x = Tensor(np.array([-2.0, 0.5, 3.0], np.float32))
    np.testing.assert_array_equal(x.clamp(min=0, max=1).asnumpy(), [0.0, 0.5, 1.0])
    np.testing.assert_array_equal(x.clip(max=1.0).asnumpy(), [-2.0, 0.5, 1.0])
    np.testing.assert_array_equal(x.clip(xmin=-1.0, xmax=2.0).asnumpy(), [-1.0, 0.5, 2.0])
    np.testing.assert_array_equal(x.clip(0.0, 2.0).asnumpy(), [0.0, 0.5, 2.0])


def test_methods_scripts_call_with_2x_names_eager_and_in_graph():
    from cellgraph import nn

    x = np.array([[0.5, -1.0, 2.0], [3.0, 0.0, -2.0]], np.float32)

    def use(t):
        index = Tensor(np.array([[0, 0], [2, 1]], np.int64))
        return (t.sum(dim=1, keepdim=True), t.argmax(dim=1), t.argmin(dim=0, keepdim=True),
                t.log_softmax(1), t.repeat_interleave(2, 0), t.isclose(t),
                t.scatter_add(1, index, Tensor(np.ones((2, 2), np.float32))),
                t[0].diag())

    class Graph(nn.Cell):
        def construct(self, t):
            return use(t)

    shifted = x - x.max(1, keepdims=True)
    scattered = x.copy()
    scattered[0, 0] += 2
    scattered[1, [2, 1]] += 1
    expected = (x.sum(1, keepdims=True), x.argmax(1), x.argmin(0)[None],
                shifted - np.log(np.exp(shifted).sum(1, keepdims=True)), np.repeat(x, 2, 0),
                np.ones_like(x, bool), scattered, np.diag(x[0]))
    for results in (use(Tensor(x)), Graph()(Tensor(x))):
        for got, want in zip(results, expected):
            np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)


def test_parameter_init_data_takes_mindspore_arguments():
    p = Parameter(Tensor(np.ones(2, np.float32)), "p")
    assert p.init_data() is p and p.init_data(None, True) is p
    with pytest.raises(NotImplementedError, match="layout"):
        p.init_data(layout=([1], [0], [2]))
    with pytest.raises(TypeError):
        ParameterTuple()                      # MindSpore's takes an iterable, no default


# MindSpore 2.10's repr of Tensors made over NumPy arrays (Tensor.from_numpy, a dataset's rows):
# NumPy's way of writing the values, unlike the Tensors it makes itself
NUMPY_STYLE_REPRS = [
    (np.array([0.5, -1.25, 3.0]), "Tensor(shape=[3], dtype=Float64, value= [ 0.5 , -1.25,  3.  ])"),
    (np.array(2.5, np.float32), "Tensor(shape=[], dtype=Float32, value= 2.5)"),
    (np.array([0.5, 1e-9], np.float32), "Tensor(shape=[2], dtype=Float32, value= [5.e-01, 1.e-09])"),
    (np.array([True, False]), "Tensor(shape=[2], dtype=Bool, value= [ True, False])"),
    (np.arange(6, dtype=np.float32).reshape(2, 3) / 3,
     ("Tensor(shape=[2, 3], dtype=Float32, value=\n[[0.        , 0.33333334, 0.6666667 ],\n"
      " [1.        , 1.3333334 , 1.6666666 ]])")),
    (np.arange(2000, dtype=np.float64), ("Tensor(shape=[2000], dtype=Float64, value= [0.000e+00, "
                                         "1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03, "
                                         "1.999e+03])")),
]


@pytest.mark.parametrize("array, text", NUMPY_STYLE_REPRS)
def test_tensors_over_numpy_arrays_print_as_mindspore_prints_them(array, text):
    assert repr(Tensor.from_numpy(array)) == text


def test_dataset_rows_print_as_mindspore_prints_them():
    ds = ms.dataset.NumpySlicesDataset({"a": np.ones((2, 2))}, shuffle=False)
    row = next(ds.create_tuple_iterator())
    assert repr(row) == "[Tensor(shape=[2], dtype=Float64, value= [1., 1.])]"
    # a Tensor made from the same values prints MindSpore's own way
    assert repr(Tensor(np.ones(2))) == ("Tensor(shape=[2], dtype=Float64, value= [ 1.00000000e+00,"
                                        "  1.00000000e+00])")


def test_asnumpy_types_64_bit_integers_as_mindspore_does():
    # MindSpore's arrays over its C++ tensors are typed long long: their repr says the dtype
    assert repr(ms.Tensor(np.array(1)).asnumpy()) == "array(1, dtype=int64)"
    assert repr(ms.Tensor(np.array([1, 2], np.uint64)).asnumpy()) == \
        "array([1, 2], dtype=uint64)"
    assert ms.Tensor(np.array([3])).asnumpy().dtype == np.int64
    assert repr(ms.Tensor(np.array([1, 2], np.int32)).asnumpy()) == \
        "array([1, 2], dtype=int32)"


def test_copy_in_a_graph_leaves_the_original_alone():
    @ms.jit
    def f(x):
        a = x.copy()
        a[0] = 5.0
        return x, a * 2

    x, doubled = f(Tensor(np.array([1.0, 2.0], np.float32)))
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 2.0])
    np.testing.assert_array_equal(doubled.asnumpy(), [10.0, 4.0])


# str and repr of bfloat16 Tensors as MindSpore 2.10 writes them
BFLOAT16_TEXT = [
    ([1.5, -2.25, 100, 0.001], "[1.500000 -2.250000 100.000000 0.000999]",
     ("Tensor(shape=[4], dtype=BFloat16, value= [        1.5,       -2.25,         100, "
     "0.000999451])")),
    ([[1, 2], [3.5, 4]], "[[1.000000 2.000000]\n [3.500000 4.000000]]",
     "Tensor(shape=[2, 2], dtype=BFloat16, value=\n[[  1,   2],\n [3.5,   4]])"),
    ([1e10, 1e-8, 3.14159], "[9999220736.000000 0.000000 3.140625]",
     "Tensor(shape=[3], dtype=BFloat16, value= [9.99922e+09, 1.00117e-08,     3.14062])"),
    (2.5, "2.500000", "Tensor(shape=[], dtype=BFloat16, value= 2.5)"),
    ([float("nan"), float("inf")], "[nan inf]",
     "Tensor(shape=[2], dtype=BFloat16, value= [nan, inf])"),
    (list(range(20)),
     ("[0.000000 1.000000 2.000000 3.000000 4.000000 5.000000 6.000000 7.000000\n"
     " 8.000000 9.000000 10.000000 11.000000 12.000000 13.000000 14.000000\n"
     " 15.000000 16.000000 17.000000 18.000000 19.000000]"),
     ("Tensor(shape=[20], dtype=BFloat16, value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, "
     "11, 12, 13, 14, 15, 16, 17, 18, 19])")),
]


@pytest.mark.parametrize("values, text, representation", BFLOAT16_TEXT)
def test_bfloat16_str_and_repr_as_mindspore(values, text, representation):
    pytest.importorskip("ml_dtypes")
    t = ms.Tensor(values, dtype=ms.bfloat16)
    assert str(t) == text
    assert repr(t) == representation


# repr of float8 Tensors as MindSpore 2.10 writes them: C++'s `<<` per element, aligned,
# a line break every 24 entries
FLOAT8_REPR = [
    (57344, "float8_e5m2", "Tensor(shape=[], dtype=Float8E5M2, value= 57344)"),
    (65535, "float8_e5m2", "Tensor(shape=[], dtype=Float8E5M2, value= inf)"),
    (2.0 ** -16, "float8_e5m2", "Tensor(shape=[], dtype=Float8E5M2, value= 1.52588e-05)"),
    (2.0 ** -17, "float8_e5m2", "Tensor(shape=[], dtype=Float8E5M2, value= 0)"),
    (512, "float8_e4m3fn", "Tensor(shape=[], dtype=Float8E4M3FN, value= nan)"),
    (0.1, "float8_e4m3fn", "Tensor(shape=[], dtype=Float8E4M3FN, value= 0.101562)"),
    ([1.5, 0.25], "float8_e4m3fn", "Tensor(shape=[2], dtype=Float8E4M3FN, value= [ 1.5, 0.25])"),
    ([[1.5, 0.25, 448, 1e-3]] * 2, "float8_e4m3fn",
     ("Tensor(shape=[2, 4], dtype=Float8E4M3FN, value=\n[[       1.5,       0.25,        448, "
     "0.00195312],\n [       1.5,       0.25,        448, 0.00195312]])")),
    (list(range(30)), "float8_e5m2",
     ("Tensor(shape=[30], dtype=Float8E5M2, value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  8, 10, "
     "12, 12, 12, 14, 16, 16, 16, 16, 20, 20, 20, 24, 24, \n 24, 24, 24, 28, 28, 28])")),
]


@pytest.mark.parametrize("value, dtype, representation", FLOAT8_REPR)
def test_float8_repr_as_mindspore(value, dtype, representation):
    pytest.importorskip("ml_dtypes")
    assert repr(ms.Tensor(value, getattr(ms, dtype))) == representation


def test_tensor_data_refused_as_mindspore_refuses_it():
    """MindSpore's TypeErrors for data that makes no numeric array (its messages)."""
    records = np.array([("x", 1), ("y", 2)], dtype=[("name", "<U10"), ("value", "<i4")])
    with pytest.raises(TypeError, match="initializing tensor by numpy array failed") as exc:
        Tensor(records)
    assert "<class 'numpy.void'>" in str(exc.value)
    objects = np.array([[1, 2, 3], [4, Tensor(5), 6]], dtype=object)
    with pytest.raises(TypeError, match="initializing tensor by numpy array failed"):
        Tensor(objects)
    for ragged in ([[3], [[4]]], [[[3]], [4]], [[3], [4, 5]]):
        with pytest.raises(TypeError) as exc:
            Tensor(ragged)
        assert str(exc.value) == (f"For Tensor, the input_data is {ragged} that contain "
                                  f"unsupported element.")
    assert Tensor([Tensor(1.0), Tensor(2.0)]).shape == (2,)


@pytest.mark.parametrize("data, dtype, expected", [
    # MindSpore 2.10's values: numbers outside the dtype's range wrap as C casts do
    (300, ms.int8, 44), ([300, -1], ms.int8, [44, -1]), (-1, ms.uint8, 255),
    ([-1], ms.uint8, [255]), (2**31, ms.int32, -2**31), (2**40, ms.int32, 0),
    (2**63, ms.int64, -2**63), ([2**63], ms.int64, [-2**63]), (2**63, ms.uint64, 2**63),
    (300.7, ms.int8, 44), ([300.7], ms.int8, [44]), (-1.5, ms.uint8, 255), (3.5, ms.int8, 3),
    (1e40, ms.int32, -2**31), (float("nan"), ms.int32, -2**31), (2**63, ms.bool_, True),
])
def test_tensor_data_outside_the_dtype_wraps(data, dtype, expected):
    assert_tensor(Tensor(data, dtype), expected, dtype)


def test_tensor_data_overflowing_floats_are_inf():
    assert_tensor(Tensor(70000, ms.float16), np.inf, ms.float16)
    assert_tensor(Tensor(1e40, ms.float32), np.inf, ms.float32)


@pytest.mark.parametrize("data, dtype", [
    # MindSpore 2.10's default dtypes: a list keeps the dtype NumPy reads from it, float64
    # read as float32 and int32 as int64; an int from 2**63 on is uint64
    (2**63, ms.uint64), ([2**63], ms.uint64), ((2**63, 1), ms.float32),
    ([2**63, -1], ms.float32), ([[2**63], [1]], ms.float32), (2**63 - 1, ms.int64),
    (-2**63, ms.int64), ([np.uint8(1), np.uint8(2)], ms.uint8), ([np.uint64(1)], ms.uint64),
    ([np.float16(1.5)], ms.float16), ([np.float64(1.5)], ms.float32),
    ([np.int8(1), np.int16(2)], ms.int16), ([np.int32(1), 2], ms.int64),
    ([np.uint8(1), 1], ms.int64), ([np.float16(1.0), 1.5], ms.float32),
    ((np.uint16(3),), ms.uint16), ([np.complex64(1j)], ms.complex64), ([True, 2], ms.int64),
    (np.float64(2.0), ms.float64), (np.uint8(3), ms.uint8),
])
def test_tensor_default_dtype_as_mindspore(data, dtype):
    assert Tensor(data).dtype == dtype
    np.testing.assert_array_equal(Tensor(data).asnumpy(), np.array(data).astype(dtype.np))


def test_tensor_ints_past_64_bits_refused():
    """MindSpore raises RuntimeError for an int outside [-2**63, 2**64), whatever the dtype;
    inside a list it is the list's TypeError."""
    for data, dtype in ((2**64, ms.int64), (-2**63 - 1, ms.int64), (2**64, ms.uint64),
                        (2**64, ms.float32)):
        with pytest.raises(RuntimeError, match="Cannot construct Tensor"):
            Tensor(data, dtype)
    with pytest.raises(RuntimeError, match="Unsupported tensor type"):
        Tensor(2**64)
    with pytest.raises(TypeError, match="contain unsupported element"):
        Tensor([1, 2**64], ms.int64)


def test_virtual_flag():
    from cellgraph.train._utils import _construct_tensor_list

    t = Tensor(1)
    assert t.virtual_flag is False
    placeholders = _construct_tensor_list((ms.float32, ms.int32), ((2, 3), (2,)), 2)
    assert [p.shape for p in placeholders] == [(4, 3), (4,)]
    assert all(p.virtual_flag for p in placeholders)
    assert placeholders[1].dtype == ms.int32
    with pytest.raises(ValueError, match="The length of dataset types must be equal"):
        _construct_tensor_list((ms.float32,), ((1,), (2,)))


def test_truth_of_a_tensor_needs_one_element_as_mindspore():
    """MindSpore 2.10: ValueError "The tensor should have only one element, but got 2, more
    than one element is ambiguous." eagerly and for a Tensor constant tested in construct."""
    assert bool(Tensor([3])) and not bool(Tensor(np.zeros((1, 1)))) and bool(Tensor(True))
    with pytest.raises(ValueError, match="The tensor should have only one element, but got 2, "
                                         "more than one element is ambiguous."):
        bool(Tensor(np.array([1, 2])))

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.mask = Tensor(np.array([True, False]))

        def construct(self, x):
            if self.mask:
                return x + 1
            return x - 1

    # in a graph, MindSpore's IsTensorBoolCond words it otherwise
    with pytest.raises(ValueError, match=r"Only tensor which shape is \(\) or \(1,\) can be "
                                         r"converted to bool, but got tensor shape is \(2\)"):
        Net()(Tensor(np.ones(2, np.int32)))


def test_parameter_of_a_python_number_takes_mindspores_dtype():
    # MindSpore 2.10: a Python int gives an int32 Parameter, a float a float32 one, and a bool
    # is refused
    assert Parameter(-4, name="p").dtype == ms.int32
    assert Parameter(2.5, name="q").dtype == ms.float32
    with pytest.raises(ValueError, match="can not be `bool`"):
        Parameter(True, name="r")


def test_a_numpy_array_on_the_left_takes_a_tensor_in_as_an_array():
    # MindSpore 2.10: `ndarray OP Tensor` is NumPy's operation on the Tensor's values (an
    # ndarray, NumPy's dtype rules)
    t = Tensor(np.array([1.0, 2.0], np.float32))
    a = np.array([3.0, 4.0])
    for result, expected in ((a - t, [2.0, 2.0]), (a + t, [4.0, 6.0]), (a * t, [3.0, 8.0])):
        assert type(result) is np.ndarray and result.dtype == np.float64
        np.testing.assert_array_equal(result, expected)
    compared = a < t
    assert type(compared) is np.ndarray and compared.dtype == np.bool_
    assert np.all(a - t < 3)



def test_in_a_tensor_as_mindspore_answers_it():
    # MindSpore 2.10's answers for each value
    t = Tensor(np.array([1, 2]))
    found = [v in t for v in (1, Tensor(np.array(1)), Tensor(np.array([1])), 3, "a", [1],
                              np.array(1), None, 1.0, True)]
    assert found == [True, True, True, False, False, False, False, False, True, True]
    t2 = Tensor(np.array([[1, 2], [3, 4]]))
    assert [v in t2 for v in (1, Tensor(np.array([1, 2])), [1, 2], np.array([1, 2]))] == [
        True, True, False, False]


def test_offload_and_load_on_the_host_move_nothing():
    # MindSpore 2.10 on CPU: both return None and the values stay
    param = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="param")
    assert param._offload() is None and param._offload(True) is None
    assert param._load() is None
    np.testing.assert_array_equal(param.asnumpy(), [1.0, 2.0])
    assert Parameter(1)._load() is None


def test_offload_refused_where_the_data_is_on_an_accelerator(monkeypatch):
    import dataclasses

    from cellgraph.runtime import tensor as tensor_module
    from cellgraph.runtime.backend import get_backend

    on_device = dataclasses.replace(get_backend(), device="GPU")
    value = Tensor(np.ones(2, np.float32))
    monkeypatch.setattr(tensor_module, "get_backend", lambda: on_device)
    with pytest.raises(NotImplementedError, match="cannot offload"):
        value._offload()


def test_setitem_casts_numbers_to_the_tensor_dtype():
    """MindSpore 2.10 casts an assigned number as it makes a Tensor of it: 300 into int8 is 44,
    -1 and 256 into uint8 are 255 and 0, outside graphs and in a Cell."""
    t = Tensor(np.array([1, 100, 3], np.int8))
    t[0] = 300
    t[1:] = -1
    assert_tensor(t, [44, -1, -1], ms.int8)
    u = Tensor(np.array([1, 100, 3], np.uint8))
    u[1:] = [-1, 256]
    assert_tensor(u, [1, 255, 0], ms.uint8)
    f = Tensor(np.array([1.5, 2.5], np.float32))
    f[0] = 3
    assert_tensor(f, [3.0, 2.5], ms.float32)

    class Net(ms.nn.Cell):
        def construct(self, x):
            x[0] = 300
            x[1:] = -1
            return x

    assert_tensor(Net()(Tensor(np.array([1, 100, 3], np.int8))), [44, -1, -1], ms.int8)


def test_astype_out_of_range_as_mindspore_without_warnings():
    """MindSpore 2.10's values for casts NumPy warns about (NaN and overflow), given quietly."""
    import warnings

    f = Tensor(np.array([300.7, -1.5, np.nan, 1e10], np.float32))
    i = Tensor(np.array([300, -1, 70000], np.int32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert f.astype(ms.int32).asnumpy().tolist() == [300, -1, -2**31, -2**31]
        assert f.astype(ms.bool_).asnumpy().tolist() == [True] * 4
        assert i.astype(ms.int8).asnumpy().tolist() == [44, -1, 112]
        assert i.astype(ms.uint8).asnumpy().tolist() == [44, 255, 112]
        assert i.astype(ms.float16).asnumpy().tolist() == [300.0, -1.0, np.inf]
