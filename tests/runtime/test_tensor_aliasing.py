"""Which PyNative results share their elements with the Tensor they come from, as MindSpore
2.10 makes them on CPU (the expected values below are what it prints for the same steps)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, ops


def _x():
    return Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))


SHARING = [
    ("Tensor(t)", lambda t: Tensor(t)),
    ("Tensor(t, same dtype)", lambda t: Tensor(t, dtype=ms.float32)),
    ("astype same dtype", lambda t: t.astype(ms.float32)),
    ("to same dtype", lambda t: t.to(ms.float32)),
    ("float()", lambda t: t.float()),
    ("reshape to its own shape", lambda t: t.reshape(2, 3)),
    ("diagonal", lambda t: t.diagonal()),
]


@pytest.mark.parametrize("what, make", SHARING, ids=[c[0] for c in SHARING])
def test_results_that_share_elements_are_new_tensors(what, make):
    x = _x()
    y = make(x)
    assert y is not x and type(y) is Tensor
    y[(0,) * y.ndim] = 100
    assert x.asnumpy()[0, 0] == 100  # written through the result
    x[0, 0] = -1
    assert y.asnumpy().reshape(-1)[0] == -1  # and the other way


COPIES = [
    ("Tensor(t, other dtype)", lambda t: Tensor(t, dtype=ms.float16)),
    ("astype other dtype", lambda t: t.astype(ms.float16)),
    ("Identity", lambda t: ops.Identity()(t)),
    ("copy", lambda t: t.copy()),
]


@pytest.mark.parametrize("what, make", COPIES, ids=[c[0] for c in COPIES])
def test_results_that_copy(what, make):
    x = _x()
    y = make(x)
    assert y is not x
    y[0, 0] = 100
    x[0, 1] = 50
    np.testing.assert_array_equal(x.asnumpy().reshape(-1), [0, 50, 2, 3, 4, 5])
    np.testing.assert_array_equal(y.asnumpy().reshape(-1), [100, 1, 2, 3, 4, 5])


def test_cast_to_its_own_dtype_is_the_tensor_itself():
    x = _x()
    assert ops.cast(x, ms.float32) is x and ops.Cast()(x, ms.float32) is x


def test_whole_tensor_indices_give_the_tensor_itself():
    x = _x()
    assert x[...] is x and x[()] is x and x[(...,)] is x
    assert x[:] is not x


def test_diagonal_is_a_view_of_its_tensor():
    """MindSpore 2.10: x.diagonal(1, 1, 2) of arange(24).reshape(2, 3, 4) has shape (2, 3),
    stride [12, 5] and storage offset 1; writing its first element writes x's element 1."""
    x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    d = x.diagonal(1, 1, 2)
    assert d.shape == (2, 3) and d.stride() == [12, 5] and d.storage_offset() == 1
    d[0, 0] = -1
    x[1, 1, 2] = -2
    assert x.asnumpy().reshape(-1).tolist().index(-1) == 1
    np.testing.assert_array_equal(d.asnumpy().reshape(-1), [-1, 6, 11, 13, -2, 23])
    m = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    tail = m.diagonal(-1, 0, 2)
    assert tail.shape == (3, 1) and tail.stride() == [4, 13] and tail.storage_offset() == 12
    np.testing.assert_array_equal(tail.asnumpy().reshape(-1), [12, 16, 20])


def test_index_results_write_back_where_they_were_read():
    """MindSpore's CPU runtime writes an element assignment into an indexed result back into
    the Tensor it was read from, copies (an index list, a mask) too, through chains."""
    x = _x()
    rows = x[[1, 0]]
    rows[0][1] = 50
    np.testing.assert_array_equal(x.asnumpy().reshape(-1), [0, 1, 2, 3, 50, 5])
    np.testing.assert_array_equal(rows.asnumpy().reshape(-1), [3, 50, 5, 0, 1, 2])
    picked = x[x > 2]
    picked[1] = -9
    np.testing.assert_array_equal(x.asnumpy().reshape(-1), [0, 1, 2, 3, -9, 5])
    x = _x()
    by_tensor = x[Tensor(np.array([1, 0]))]
    by_tensor[1] = 9
    np.testing.assert_array_equal(x.asnumpy().reshape(-1), [9, 9, 9, 3, 4, 5])
    x = _x()
    stale = x[[1]]
    x[1, 2] = 5
    stale[0, 0] = 8  # the whole row goes back, as read before x[1, 2] changed
    np.testing.assert_array_equal(x.asnumpy().reshape(-1), [0, 1, 2, 8, 4, 5])


def test_operators_on_index_results_do_not_write_back():
    x = _x()
    cols = x[:, [0, 2]]
    cols += 1
    np.testing.assert_array_equal(x.asnumpy().reshape(-1), [0, 1, 2, 3, 4, 5])
    np.testing.assert_array_equal(cols.asnumpy().reshape(-1), [1, 3, 4, 6])


def test_composed_operations_do_not_write_into_their_input():
    """An operation built from index reads gives a result of its own."""
    x = Tensor(np.arange(6, dtype=np.float32))
    g = ops.gather(x, Tensor(np.array([4, 1])), 0)
    g[0] = -3
    np.testing.assert_array_equal(x.asnumpy(), [0, 1, 2, 3, 4, 5])


def test_parameter_sources():
    """Tensor(parameter) and parameter.astype(its dtype) are Tensors over its elements; a
    Parameter made from a Tensor holds its own copy."""
    w = Parameter(Tensor(np.ones(3, np.float32)), name="w")
    t = Tensor(w)
    t[0] = 4
    a = w.astype(ms.float32)
    a[1] = 6
    assert type(t) is Tensor and type(a) is Tensor
    np.testing.assert_array_equal(w.asnumpy(), [4, 6, 1])
    source = Tensor(np.ones(2, np.float32))
    p = Parameter(source)
    p[0] = 5
    np.testing.assert_array_equal(source.asnumpy(), [1, 1])


def test_data_is_a_tensor_over_the_elements():
    """MindSpore 2.10: `t.data` (also a Parameter's) is a new Tensor over the elements;
    `t.data = v` gives t v's elements, shape and dtype (a Parameter's data is cast to its
    dtype, as set_data does)."""
    x = Tensor(np.ones(3, np.float32))
    d = x.data
    assert d is not x and type(d) is Tensor
    d[0] = 5
    np.testing.assert_array_equal(x.asnumpy(), [5, 1, 1])
    x.data = Tensor(np.zeros(2, np.int32))
    assert x.dtype == ms.int32 and x.shape == (2,)
    np.testing.assert_array_equal(d.asnumpy(), [5, 1, 1])
    w = Parameter(Tensor(np.ones(3, np.float32)), name="w")
    wd = w.data
    assert type(wd) is Tensor
    wd[0] = 7
    np.testing.assert_array_equal(w.asnumpy(), [7, 1, 1])
    w.data = Tensor(np.zeros(2, np.float32))
    assert w.shape == (2,) and isinstance(w, Parameter)


def test_transpose_property_of_a_vector_is_itself():
    """MindSpore 2.10: x.T of a Tensor (or Parameter) of rank 0 or 1 is x itself; transpose()
    and a matrix's T are new Tensors."""
    v = Tensor(np.ones(3, np.float32))
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    s = Tensor(np.float32(2))
    assert v.T is v and w.T is w and s.T is s
    assert v.transpose() is not v
    m = _x()
    assert m.T is not m and m.T.shape == (3, 2)


def test_parameter_value_is_a_copy():
    """MindSpore 2.10: `w.value()` is a Tensor of the current values; writing it leaves w."""
    w = Parameter(Tensor(np.arange(4, dtype=np.float32)), name="w")
    current = w.value()
    current[0] = 7
    assert type(current) is Tensor
    np.testing.assert_array_equal(w.asnumpy(), [0, 1, 2, 3])
