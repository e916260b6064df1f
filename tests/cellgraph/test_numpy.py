"""cellgraph.numpy (`mindspore.numpy`): creation dtypes, math against NumPy eagerly and inside
construct, gradients through it, and Tensor item assignment outside graphs."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn
from cellgraph import numpy as mnp
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, DTypeError, ShapeError

TOL = {"rtol": 1e-6, "atol": 1e-6}


def close(actual, expected):
    assert isinstance(actual, Tensor)
    np.testing.assert_allclose(actual.asnumpy(), expected, **TOL)


@pytest.fixture
def data(rng):
    return {"a": rng.standard_normal((2, 3)).astype(np.float32),
            "b": rng.standard_normal((3, 4)).astype(np.float32),
            "c": rng.uniform(0.5, 2.0, (2, 3)).astype(np.float32)}


# ----- creation --------------------------------------------------------------------------------

def test_creation_values_and_mindspore_dtype_defaults():
    cases = [
        (mnp.zeros((2, 3)), np.zeros((2, 3)), cellgraph.float32),
        (mnp.ones(4, cellgraph.int32), np.ones(4), cellgraph.int32),
        (mnp.full((2, 2), 7), np.full((2, 2), 7), cellgraph.int32),
        (mnp.full((2,), 1.5), np.full((2,), 1.5), cellgraph.float32),
        (mnp.arange(5), np.arange(5), cellgraph.int32),
        (mnp.arange(1, 2, 0.25), np.arange(1, 2, 0.25), cellgraph.float32),
        (mnp.arange(6, 0, -2), np.arange(6, 0, -2), cellgraph.int32),
        (mnp.linspace(0, 1, 5), np.linspace(0, 1, 5), cellgraph.float32),
        (mnp.linspace(0, 1, 4, endpoint=False), [0, 0.25, 0.5, 0.75], cellgraph.float32),
        (mnp.eye(3, 4, k=1), np.eye(3, 4, k=1), cellgraph.float32),
        (mnp.identity(2), np.eye(2), cellgraph.float32),
        (mnp.asarray([[1, 2], [3, 4]]), [[1, 2], [3, 4]], cellgraph.int32),
        (mnp.asarray([1.0, 2.0]), [1.0, 2.0], cellgraph.float32),
        (mnp.asarray(np.arange(3, dtype=np.float64)), [0, 1, 2], cellgraph.float32),
        (mnp.array([True, False]), [True, False], cellgraph.bool_),
        (mnp.array(3.0, ndmin=2), [[3.0]], cellgraph.float32),
        (mnp.asfarray([1, 2]), [1.0, 2.0], cellgraph.float32),
    ]
    for tensor, expected, dtype in cases:
        np.testing.assert_array_equal(tensor.asnumpy(), np.asarray(expected, dtype.np))
        assert tensor.dtype == dtype


def test_like_functions_keep_shape_and_dtype():
    base = Tensor(np.arange(6, dtype=np.int32).reshape(2, 3))
    for fn, value in ((mnp.zeros_like, 0), (mnp.ones_like, 1)):
        out = fn(base)
        assert out.shape == (2, 3) and out.dtype == cellgraph.int32
        assert (out.asnumpy() == value).all()
    out = mnp.full_like(base, 2.5, dtype="float32")
    assert out.dtype == cellgraph.float32 and (out.asnumpy() == 2.5).all()
    out, step = mnp.linspace(2.0, 3.0, 3, retstep=True)
    close(out, [2.0, 2.5, 3.0])
    assert step == 0.5


def test_asarray_of_a_tensor_is_that_tensor_and_array_copies():
    x = Tensor(np.ones(3, np.float32))
    assert mnp.asarray(x) is x
    y = mnp.array(x)
    y[0] = 5
    assert x.asnumpy()[0] == 1 and y.asnumpy()[0] == 5


# ----- math, eager -----------------------------------------------------------------------------

def test_elementwise_and_reductions_match_numpy(data):
    a, c = data["a"], data["c"]
    ta, tc = Tensor(a), Tensor(c)
    close(mnp.tanh(ta), np.tanh(a))
    close(mnp.exp(ta), np.exp(a))
    close(mnp.log(tc), np.log(c))
    close(mnp.sqrt(tc), np.sqrt(c))
    close(mnp.square(ta), np.square(a))
    close(mnp.sum(ta), np.sum(a))
    close(mnp.sum(ta, axis=1, keepdims=True), np.sum(a, axis=1, keepdims=True))
    close(mnp.sum(ta, axis=0, initial=2.0), np.sum(a, axis=0, initial=2.0))
    close(mnp.mean(ta, axis=(0, 1)), np.mean(a))
    close(mnp.mean(ta, axis=-1), np.mean(a, axis=-1))
    close(mnp.maximum(ta, tc), np.maximum(a, c))
    close(mnp.add(ta, 1.5), a + 1.5)
    mean = mnp.mean(Tensor(np.array([1, 2], np.int32)))  # MindSpore's: the dtype, truncated
    assert mean.dtype == cellgraph.int32 and mean.asnumpy() == 1
    assert mnp.sum(Tensor(np.array([True, True, False]))).asnumpy() == 2
    assert mnp.exp(Tensor(np.array([0, 1], np.int32))).dtype == cellgraph.float32


def test_int_with_float_gives_the_float_dtype():
    out = mnp.add(mnp.arange(3), Tensor(np.array([0.5, 0.5, 0.5], np.float32)))
    assert out.dtype == cellgraph.float32
    close(out, [0.5, 1.5, 2.5])


@pytest.mark.parametrize("shape_a, shape_b", [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)),
                                              ((2, 3), (3, 4)), ((2, 2, 3), (3,)),
                                              ((2, 2, 3), (4, 3, 5)), ((), (2, 3))])
def test_dot_matches_numpy(rng, shape_a, shape_b):
    a = rng.standard_normal(shape_a).astype(np.float32)
    b = rng.standard_normal(shape_b).astype(np.float32)
    expected = np.dot(a, b)
    np.testing.assert_allclose(mnp.dot(Tensor(a), Tensor(b)).asnumpy(), expected, rtol=1e-5,
                               atol=1e-5)


@pytest.mark.parametrize("shape_a, shape_b", [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)),
                                              ((5, 2, 3), (3, 4)), ((5, 2, 3), (1, 3, 4))])
def test_matmul_matches_numpy(rng, shape_a, shape_b):
    a = rng.standard_normal(shape_a).astype(np.float32)
    b = rng.standard_normal(shape_b).astype(np.float32)
    np.testing.assert_allclose(mnp.matmul(Tensor(a), Tensor(b)).asnumpy(), np.matmul(a, b),
                               rtol=1e-5, atol=1e-5)


def test_shape_functions_match_numpy(data):
    a, b = data["a"], data["b"]
    ta = Tensor(a)
    close(mnp.reshape(ta, (3, -1)), a.reshape(3, -1))
    close(mnp.reshape(ta, 6), a.reshape(6))
    close(mnp.transpose(ta), a.T)
    close(mnp.transpose(mnp.reshape(ta, (1, 2, 3)), (2, 0, 1)), a.reshape(1, 2, 3).transpose(2, 0, 1))
    close(mnp.concatenate((ta, ta * 2), axis=1), np.concatenate((a, a * 2), axis=1))
    close(mnp.concatenate((ta, Tensor(b)), axis=None), np.concatenate((a, b), axis=None))
    close(mnp.stack([ta, ta + 1], axis=-1), np.stack([a, a + 1], axis=-1))
    close(mnp.where(ta > 0, ta, 0.0), np.where(a > 0, a, 0.0))
    close(mnp.where(Tensor(np.array([1, 0, 2], np.int32)), mnp.ones(3), mnp.zeros(3)),
          [1.0, 0.0, 1.0])
    assert mnp.size(ta) == 6 and mnp.shape(ta) == (2, 3) and mnp.ndim(ta) == 2


def test_split_and_where_give_mindspores_containers_and_dtypes():
    # MindSpore 2.10: pieces cut at indices come as a list, n sections as a tuple; where of two
    # Python ints is int32 (mindspore.numpy's int), of a float and an int float32
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert type(mnp.split(x, 3, axis=1)) is tuple and type(mnp.split(x, [1], axis=1)) is list
    assert type(mnp.array_split(x, 2, axis=1)) is tuple
    assert type(mnp.array_split(x, [1], axis=1)) is list
    assert [p.shape for p in mnp.split(x, [1], axis=1)] == [(2, 1), (2, 2)]
    picked = mnp.where(x > 2, 1, 0)
    assert picked.dtype == cellgraph.int32
    np.testing.assert_array_equal(picked.asnumpy(), [[0, 0, 0], [1, 1, 1]])
    assert mnp.where(x > 2, 1.5, 0).dtype == cellgraph.float32
    assert mnp.where(x > 2, x, 0).dtype == cellgraph.float32


# ----- inside construct, and gradients ---------------------------------------------------------

class Model(nn.Cell):
    """A small layer written only with mindspore.numpy."""

    def construct(self, x, w):
        h = mnp.tanh(mnp.dot(x, w)) + mnp.eye(2, 4)[0]
        both = mnp.concatenate((h, mnp.ones((2, 1))), axis=1)
        pair = mnp.stack([both, mnp.square(both)])
        kept = mnp.where(pair > 0.5, pair, mnp.zeros_like(pair))
        return mnp.mean(mnp.transpose(kept, (2, 1, 0)), axis=0) * mnp.sum(mnp.exp(x))


def model_numpy(x, w):
    h = np.tanh(x @ w) + np.eye(2, 4)[0]
    both = np.concatenate((h, np.ones((2, 1))), axis=1)
    pair = np.stack([both, both ** 2])
    kept = np.where(pair > 0.5, pair, 0.0)
    return np.mean(kept.transpose(2, 1, 0), axis=0) * np.sum(np.exp(x))


def test_inside_construct_matches_numpy_in_both_modes(data):
    x, w = data["a"], data["b"]
    expected = model_numpy(x.astype(np.float64), w.astype(np.float64))
    for mode in (cellgraph.GRAPH_MODE, cellgraph.PYNATIVE_MODE):
        cellgraph.set_context(mode=mode)
        np.testing.assert_allclose(Model()(Tensor(x), Tensor(w)).asnumpy(), expected,
                                   rtol=1e-5, atol=1e-5)


def test_gradient_through_numpy_functions(data):
    x, w = data["a"], data["b"]

    def loss(x, w):
        return mnp.sum(mnp.square(mnp.tanh(mnp.matmul(x, w))))

    dx, dw = cellgraph.grad(loss, grad_position=(0, 1))(Tensor(x), Tensor(w))
    y = np.tanh(x.astype(np.float64) @ w)
    dz = 2 * y * (1 - y ** 2)
    np.testing.assert_allclose(dx.asnumpy(), dz @ w.T, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(dw.asnumpy(), x.T @ dz, rtol=1e-5, atol=1e-5)


# ----- item assignment outside graphs ----------------------------------------------------------

def test_setitem_with_int_slice_and_tensor_indices():
    t = mnp.zeros((3, 4))
    t[0] = 1
    t[1, 1:3] = Tensor(np.array([5, 6], np.float32))
    t[Tensor(np.array([2], np.int32))] = 9
    t[:, -1] = 7
    expected = np.array([[1, 1, 1, 7], [0, 5, 6, 7], [9, 9, 9, 7]], np.float32)
    np.testing.assert_array_equal(t.asnumpy(), expected)
    assert t.dtype == cellgraph.float32


def test_setitem_builds_the_jacobian_mask_of_the_blog():
    index = Tensor(np.array([0, 2, 1], np.int32))
    mask = mnp.zeros((3, 3))
    mask[mnp.arange(index.shape[0]), index] = 1
    np.testing.assert_array_equal(mask.asnumpy(), np.eye(3)[[0, 2, 1]])


# ----- user errors -----------------------------------------------------------------------------

def test_errors_name_the_function_and_values():
    with pytest.raises(ArgumentValueError, match=r"numpy\.zeros: .*got \(2, -1\)"):
        mnp.zeros((2, -1))
    with pytest.raises(ShapeError, match=r"numpy\.dot: shapes \(2, 3\) and \(4,\) are not "
                       r"aligned: 3 .* != 4"):
        mnp.dot(mnp.ones((2, 3)), mnp.ones(4))
    with pytest.raises(ShapeError, match=r"numpy\.stack: .*\(2,\), \(3,\)"):
        mnp.stack([mnp.ones(2), mnp.ones(3)])
    with pytest.raises(ArgumentError, match=r"numpy\.where: the one-argument form"):
        mnp.where(mnp.ones(2))
    with pytest.raises(DTypeError, match=r"numpy\.arange: bounds must be Python numbers"):
        mnp.arange(mnp.ones(()))
    with pytest.raises(ShapeError, match=r"numpy\.transpose: axes \(0, 0\)") as err:
        mnp.transpose(mnp.ones((2, 2)), (0, 0))
    assert err.value.loc is not None and "mnp.transpose" in err.value.loc.text


def test_errors_inside_construct_point_at_the_statement():
    class Bad(nn.Cell):
        def construct(self, x):
            return mnp.matmul(x, mnp.ones((5, 2)))  # misaligned

    with pytest.raises(ShapeError) as err:
        Bad()(Tensor(np.ones((2, 3), np.float32)))
    assert "numpy.matmul" in str(err.value) and "# misaligned" in err.value.loc.text


def test_spellings_declared_with_the_primitive():
    """mindspore.numpy's log2, log10 and bitwise ops come from the primitives' declarations
    (`spellings=("numpy", ...)`), with MindSpore's signatures and values (recorded from MindSpore 2.10)."""
    import inspect

    from cellgraph.primitives.core import PRIMITIVES

    for name in ("log2", "log10", "bitwise_and", "bitwise_or", "bitwise_xor"):
        assert name in PRIMITIVES[name].spelled("numpy") and getattr(mnp, name).__name__ == name
    assert str(inspect.signature(mnp.log2)) == "(x, dtype=None)"
    assert str(inspect.signature(mnp.bitwise_and)) == "(x1, x2, dtype=None)"
    np.testing.assert_allclose(mnp.log2(mnp.array([1.0, 8.0, 0.5])).asnumpy(), [0, 3, -1])
    np.testing.assert_allclose(mnp.log10(mnp.array([1.0, 100.0])).asnumpy(), [0, 2], rtol=1e-6)
    a, b = mnp.array([12, 10], "int32"), mnp.array([10, 6], "int32")
    assert mnp.bitwise_and(a, b).asnumpy().tolist() == [8, 2]
    assert mnp.bitwise_xor(a, b).asnumpy().tolist() == [6, 12]
    assert mnp.bitwise_or(a, b).asnumpy().tolist() == [14, 14]


def test_maximum_and_minimum_with_a_scalar_keep_the_arrays_dtype():
    # MindSpore 2.10: maximum(int32 array, 2.5) compares in float32, then is int32
    xi = Tensor(np.array([[1, -2, 3], [4, 5, -6]], np.int32))
    for run in (lambda a: mnp.maximum(a, 2.5), cellgraph.jit(lambda a: mnp.maximum(a, 2.5))):
        out = run(xi)
        assert out.dtype == cellgraph.int32
        np.testing.assert_array_equal(out.asnumpy(), [[2, 2, 3], [4, 5, 2]])
    low = mnp.minimum(Tensor(np.array([1, -2, 3], np.int64)), 2.5)
    assert low.dtype == cellgraph.int64
    np.testing.assert_array_equal(low.asnumpy(), [1, -2, 2])
    assert mnp.maximum(xi, Tensor(2.5)).dtype == cellgraph.int32
    assert mnp.maximum(xi, Tensor(np.ones((2, 3), np.float32))).dtype == cellgraph.float32
    assert float(mnp.maximum(2, 3.5)) == 3.5


def test_sum_of_integers_and_bools_is_int64():
    # MindSpore 2.10: int8, uint8, int32, int64 and bool sum in int64; a dtype still decides
    for kind in (np.int8, np.uint8, np.int32, np.int64, np.bool_):
        values = Tensor(np.ones(3, kind))
        assert mnp.sum(values).dtype == cellgraph.int64 and int(mnp.sum(values)) == 3
        assert mnp.sum(values, axis=0).dtype == cellgraph.int64
        assert mnp.sum(values, dtype=cellgraph.int32).dtype == cellgraph.int32
    assert mnp.sum(Tensor(np.ones(3, np.float16))).dtype == cellgraph.float16
