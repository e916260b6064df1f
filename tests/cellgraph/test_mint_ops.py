"""cellgraph.mint's tensor functions (PyTorch-style arguments) against NumPy, eagerly and inside
a jit graph: the breadth of names, int64 indices, unique_consecutive, histc, kthvalue, sampling."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import mint
from cellgraph.primitives.errors import ArgumentValueError, ShapeError
from cellgraph.testing import check_grads

X = np.array([[1.5, -2.0, 3.0, 0.0], [0.5, 2.0, -1.0, 2.0], [4.0, 0.25, 2.0, -3.0]], np.float32)
Y = np.array([[0.5, 1.0, -1.0, 2.0], [3.0, -0.5, 1.0, 2.0], [1.0, 2.0, 2.0, 0.5]], np.float32)
INDEX = np.array([[2, 0, 1, 1], [0, 2, 2, 0]], np.int64)


def _sorted_pair(x, axis, descending=False):
    order = np.argsort(-x if descending else x, axis=axis, kind="stable")
    return np.take_along_axis(x, order, axis), order


def _scatter(x, dim, index, src, add=False):
    out = x.copy()
    for pos in np.ndindex(index.shape):
        target = list(pos)
        target[dim] = index[pos]
        out[tuple(target)] = out[tuple(target)] + src[pos] if add else src[pos]
    return out


def _kth(x, k, axis):
    values, order = _sorted_pair(x, axis)
    return values.take(k - 1, axis), order.take(k - 1, axis)


# (mint call on (x, y), NumPy reference on (x, y)); every output is compared
CASES = {
    "atan2": (lambda x, y: mint.atan2(x, y), np.arctan2),
    "arctan2": (lambda x, y: mint.arctan2(x, y), np.arctan2),
    "sinh": (lambda x, y: mint.sinh(x), lambda x, y: np.sinh(x)),
    "cosh": (lambda x, y: mint.cosh(x), lambda x, y: np.cosh(x)),
    "arcsinh": (lambda x, y: mint.arcsinh(x), lambda x, y: np.arcsinh(x)),
    "ceil": (lambda x, y: mint.ceil(x * 1.3), lambda x, y: np.ceil(x * np.float32(1.3))),
    "floor": (lambda x, y: mint.floor(x * 1.3), lambda x, y: np.floor(x * np.float32(1.3))),
    "trunc": (lambda x, y: mint.trunc(x * 1.3), lambda x, y: np.trunc(x * np.float32(1.3))),
    "fix": (lambda x, y: mint.fix(x * 1.3), lambda x, y: np.trunc(x * np.float32(1.3))),
    "frac": (lambda x, y: mint.frac(x * 1.3), lambda x, y: np.modf(x * np.float32(1.3))[0]),
    "round": (lambda x, y: mint.round(x * 1.37, decimals=1),
              lambda x, y: np.round(x * np.float32(1.37), 1)),
    "erfinv": (lambda x, y: mint.erf(mint.erfinv(x / 5)), lambda x, y: x / 5),
    "log2": (lambda x, y: mint.log2(mint.abs(x) + 1), lambda x, y: np.log2(np.abs(x) + 1)),
    "exp2": (lambda x, y: mint.exp2(x), lambda x, y: np.exp2(x)),
    "logaddexp": (lambda x, y: mint.logaddexp(x, y), np.logaddexp),
    "logaddexp2": (lambda x, y: mint.logaddexp2(x, y), np.logaddexp2),
    "sinc": (lambda x, y: mint.sinc(x), lambda x, y: np.sinc(x)),
    "xlogy": (lambda x, y: mint.xlogy(x, mint.abs(y)), lambda x, y: x * np.log(np.abs(y))),
    "remainder": (lambda x, y: mint.remainder(x, y), np.remainder),
    "lerp": (lambda x, y: mint.lerp(x, y, 0.25), lambda x, y: x + 0.25 * (y - x)),
    "greater": (lambda x, y: mint.greater(x, y), np.greater),
    "greater_equal": (lambda x, y: mint.greater_equal(x, y), np.greater_equal),
    "logical_xor": (lambda x, y: mint.logical_xor(x, y), np.logical_xor),
    "addcmul": (lambda x, y: mint.addcmul(x, x, y, value=0.5), lambda x, y: x + 0.5 * x * y),
    "addcdiv": (lambda x, y: mint.addcdiv(x, x, y, value=2), lambda x, y: x + 2 * x / y),
    "nan_to_num": (lambda x, y: mint.nan_to_num(mint.log(x), nan=7.0, neginf=-9.0),
                   lambda x, y: np.nan_to_num(np.log(x), nan=7.0, neginf=-9.0)),
    "masked_fill": (lambda x, y: mint.masked_fill(x, x > y, 9.0),
                    lambda x, y: np.where(x > y, 9, x)),
    "all": (lambda x, y: mint.all(x > -3, dim=1, keepdim=True),
            lambda x, y: np.all(x > -3, axis=1, keepdims=True)),
    "any": (lambda x, y: mint.any(x > 3, 0), lambda x, y: np.any(x > 3, 0)),
    "amax": (lambda x, y: mint.amax(x, 1), lambda x, y: x.max(1)),
    "amin": (lambda x, y: mint.amin(x), lambda x, y: x.min()),
    "std": (lambda x, y: mint.std(x, 1), lambda x, y: x.std(1, ddof=1)),
    "std_correction": (lambda x, y: mint.std(x, (0, 1), correction=2, keepdim=True),
                       lambda x, y: x.reshape(1, 1, -1).std(2, ddof=2)),
    "var": (lambda x, y: mint.var(x), lambda x, y: x.var(ddof=1)),
    "std_mean": (lambda x, y: mint.std_mean(x, 0, correction=0),
                 lambda x, y: (x.std(0), x.mean(0))),
    "var_mean": (lambda x, y: mint.var_mean(x, 1, keepdim=True),
                 lambda x, y: (x.var(1, ddof=1, keepdims=True), x.mean(1, keepdims=True))),
    "logsumexp": (lambda x, y: mint.logsumexp(x, 1), lambda x, y: np.log(np.exp(x).sum(1))),
    "nansum": (lambda x, y: mint.nansum(mint.log(x), 1),
               lambda x, y: np.nansum(np.where(x < 0, np.nan, np.log(x)), 1)),
    "count_nonzero": (lambda x, y: mint.count_nonzero(x, 1), lambda x, y: np.count_nonzero(x, 1)),
    "cumprod": (lambda x, y: mint.cumprod(x, 1), lambda x, y: np.cumprod(x, 1)),
    "cummax": (lambda x, y: mint.cummax(x, 1),
               lambda x, y: (np.maximum.accumulate(x, 1), np.array(
                   [[0, 0, 2, 2], [0, 1, 1, 3], [0, 0, 0, 0]]))),
    "cummin": (lambda x, y: mint.cummin(x, dim=0),
               lambda x, y: (np.minimum.accumulate(x, 0), np.array(
                   [[0, 0, 0, 0], [1, 0, 1, 0], [1, 0, 1, 2]]))),
    "sort": (lambda x, y: mint.sort(y, dim=1, descending=True),
             lambda x, y: _sorted_pair(y, 1, True)),
    "argsort": (lambda x, y: mint.argsort(y, 0), lambda x, y: np.argsort(y, 0, kind="stable")),
    "topk": (lambda x, y: mint.topk(x, 2, dim=0, largest=False),
             lambda x, y: tuple(a[:2] for a in _sorted_pair(x, 0))),
    "kthvalue": (lambda x, y: mint.kthvalue(x, 2, 1), lambda x, y: _kth(x, 2, 1)),
    "kthvalue_keepdim": (lambda x, y: mint.kthvalue(x, 3, dim=0, keepdim=True),
                         lambda x, y: tuple(a[None] for a in _kth(x, 3, 0))),
    "median": (lambda x, y: mint.median(x), lambda x, y: np.float32(0.5)),  # lower middle
    "median_dim": (lambda x, y: mint.median(x, 1),
                   lambda x, y: (np.array([0.0, 0.5, 0.25]), np.array([3, 0, 1]))),
    "histc": (lambda x, y: mint.histc(x, 4, -2, 2),
              lambda x, y: np.histogram(x, 4, (-2, 2))[0].astype(np.float32)),
    "histc_data_range": (lambda x, y: mint.histc(x, bins=5),
                         lambda x, y: np.histogram(x, 5)[0].astype(np.float32)),
    "gather": (lambda x, y: mint.gather(x, 0, ms.Tensor(INDEX)),
               lambda x, y: np.take_along_axis(x, INDEX, 0)),
    "scatter": (lambda x, y: mint.scatter(x, 0, ms.Tensor(INDEX), y),
                lambda x, y: _scatter(x, 0, INDEX, y)),
    "scatter_value": (lambda x, y: mint.scatter(x, 1, ms.Tensor(INDEX), 5.0),
                      lambda x, y: _scatter(x, 1, INDEX, np.full(INDEX.shape, 5.0))),
    "scatter_add": (lambda x, y: mint.scatter_add(x, 0, ms.Tensor(INDEX), y),
                    lambda x, y: _scatter(x, 0, INDEX, y, add=True)),
    "select": (lambda x, y: mint.select(x, 1, -1), lambda x, y: x[:, -1]),
    "narrow": (lambda x, y: mint.narrow(x, 1, 1, 2), lambda x, y: x[:, 1:3]),
    "swapaxes": (lambda x, y: mint.swapaxes(x, 0, 1), lambda x, y: x.T),
    "t": (lambda x, y: mint.t(x), lambda x, y: x.T),
    "tril": (lambda x, y: mint.tril(x, 1), lambda x, y: np.tril(x, 1)),
    "triu": (lambda x, y: mint.triu(x, diagonal=-1), lambda x, y: np.triu(x, -1)),
    "trace": (lambda x, y: mint.trace(x), lambda x, y: np.trace(x)),
    "diag_vector": (lambda x, y: mint.diag(x[0], 1), lambda x, y: np.diag(x[0], 1)),
    "diag_vector_below": (lambda x, y: mint.diag(x[1], -2), lambda x, y: np.diag(x[1], -2)),
    "diag_matrix": (lambda x, y: mint.diag(x, diagonal=1), lambda x, y: np.diag(x, 1)),
    "diff": (lambda x, y: mint.diff(x, 2, dim=1), lambda x, y: np.diff(x, 2, 1)),
    "unbind": (lambda x, y: mint.unbind(x, 1), lambda x, y: tuple(x.T)),
    "expand_as": (lambda x, y: mint.expand_as(x[:1], y),
                  lambda x, y: np.broadcast_to(x[:1], y.shape)),
    "ravel": (lambda x, y: mint.ravel(x), lambda x, y: x.ravel()),
    "clone": (lambda x, y: mint.clone(x), lambda x, y: x),
    "repeat_interleave": (lambda x, y: mint.repeat_interleave(x, 2, dim=0),
                          lambda x, y: np.repeat(x, 2, 0)),
    "full_like": (lambda x, y: mint.full_like(x, 3.0), lambda x, y: np.full_like(x, 3.0)),
    "empty_like": (lambda x, y: mint.empty_like(x, dtype=ms.int32).shape, lambda x, y: x.shape),
    "mm": (lambda x, y: mint.mm(x, mint.t(y)), lambda x, y: x @ y.T),
    "mv": (lambda x, y: mint.mv(x, y[0]), lambda x, y: x @ y[0]),
    "dot": (lambda x, y: mint.dot(x[0], y[1]), lambda x, y: x[0] @ y[1]),
    "addmm": (lambda x, y: mint.addmm(x[:, :3], x, mint.t(y), beta=0.5, alpha=2),
              lambda x, y: 0.5 * x[:, :3] + 2 * x @ y.T),
    "baddbmm": (lambda x, y: mint.baddbmm(x[None, :, :3], x[None], mint.t(y)[None], alpha=2),
                lambda x, y: x[None, :, :3] + 2 * x[None] @ y.T[None]),
    "einsum": (lambda x, y: mint.einsum("ij,kj->ik", x, y), lambda x, y: x @ y.T),
    "inverse": (lambda x, y: mint.inverse(x[:, :3]), lambda x, y: np.linalg.inv(x[:, :3])),
    "cross": (lambda x, y: mint.cross(x[:, :3], y[:, :3]),
              lambda x, y: np.cross(x[:, :3], y[:, :3], axis=0)),
    "cross_dim": (lambda x, y: mint.cross(x[:, :3], y[:, :3], dim=1),
                  lambda x, y: np.cross(x[:, :3], y[:, :3], axis=1)),
    "cdist": (lambda x, y: mint.cdist(x, y, p=1.0),
              lambda x, y: np.abs(x[:, None] - y[None]).sum(-1)),
    "norm": (lambda x, y: mint.norm(x), lambda x, y: np.linalg.norm(x)),
    "norm_p": (lambda x, y: mint.norm(x, 1, dim=1, keepdim=True),
               lambda x, y: np.abs(x).sum(1, keepdims=True)),
    "searchsorted": (lambda x, y: mint.searchsorted(mint.sort(x[0])[0], y[0], right=True),
                     lambda x, y: np.searchsorted(np.sort(x[0]), y[0], "right")),
    "bincount": (lambda x, y: mint.bincount(ms.Tensor(INDEX[0]), minlength=4),
                 lambda x, y: np.bincount(INDEX[0], minlength=4)),
}


def _compare(got, want):
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _compare(g, w)
        return
    got = got.asnumpy() if hasattr(got, "asnumpy") else np.asarray(got)
    np.testing.assert_allclose(got, np.asarray(want), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_against_numpy(name, mode):
    fn, ref = CASES[name]
    call = fn if mode == "pynative" else ms.jit(fn)
    _compare(call(ms.Tensor(X), ms.Tensor(Y)), ref(X, Y))


def test_indices_are_int64():
    x = ms.Tensor(X)
    for indices in (mint.sort(x)[1], mint.argsort(x), mint.topk(x, 2)[1], mint.kthvalue(x, 1)[1],
                    mint.median(x, 0)[1]):
        assert indices.dtype == ms.int64


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_unique_and_unique_consecutive(mode):
    x = ms.Tensor(np.array([[3, 1, 1], [2, 2, 3]], np.int32))

    def both(x):
        return (mint.unique(x, return_inverse=True, return_counts=True),
                mint.unique_consecutive(x, return_inverse=True, return_counts=True))

    (values, inverse, counts), (runs, run_of, lengths) = (both if mode == "pynative"
                                                          else ms.jit(both))(x)
    np.testing.assert_array_equal(values.asnumpy(), [1, 2, 3])
    np.testing.assert_array_equal(inverse.asnumpy(), [[2, 0, 0], [1, 1, 2]])
    np.testing.assert_array_equal(counts.asnumpy(), [2, 2, 2])
    np.testing.assert_array_equal(runs.asnumpy(), [3, 1, 2, 3])
    np.testing.assert_array_equal(run_of.asnumpy(), [[0, 1, 1], [2, 2, 3]])
    np.testing.assert_array_equal(lengths.asnumpy(), [1, 2, 2, 1])
    assert inverse.dtype == ms.int64 and counts.dtype == ms.int64
    np.testing.assert_array_equal(mint.unique(x).asnumpy(), [1, 2, 3])


def test_nonzero_and_bool_results():
    x = ms.Tensor(np.array([[0, 1], [2, 0]], np.float32))
    np.testing.assert_array_equal(mint.nonzero(x).asnumpy(), [[0, 1], [1, 0]])
    _, cols = mint.nonzero(x, as_tuple=True)
    np.testing.assert_array_equal(cols.asnumpy(), [1, 0])
    assert mint.allclose(x, x + 1e-9) is True
    assert mint.allclose(x, x + 1.0) is False
    assert mint.equal(x, x) is True and mint.equal(x, x[0]) is False


def test_random_sampling_shapes_and_ranges():
    ms.set_seed(3)
    draws = mint.randint(2, 5, (200,))
    assert draws.dtype == ms.int64 and set(np.unique(draws.asnumpy())) == {2, 3, 4}
    assert mint.randint(3, (2, 2)).asnumpy().max() < 3
    like = mint.randint_like(ms.Tensor(X), 4)
    assert like.shape == X.shape and like.asnumpy().max() < 4
    perm = mint.randperm(6)
    assert perm.dtype == ms.int64 and sorted(perm.asnumpy()) == list(range(6))
    probs = ms.Tensor(np.array([0.0, 1.0, 1.0, 0.0], np.float32))
    np.testing.assert_array_equal(mint.bernoulli(probs).asnumpy(), [0, 1, 1, 0])
    weights = ms.Tensor(np.array([[0.0, 5.0, 1.0, 0.0, 2.0]] * 50, np.float32))
    picks = mint.multinomial(weights, 3).asnumpy()
    assert picks.dtype == np.int64
    assert all(sorted(row) == [1, 2, 4] for row in picks)  # distinct, never a zero weight
    assert set(mint.multinomial(weights, 4, replacement=True).asnumpy().ravel()) <= {1, 2, 4}
    samples = mint.normal(ms.Tensor(np.full((4000,), 3.0, np.float32)), 2.0).asnumpy()
    assert abs(samples.mean() - 3.0) < 0.15 and abs(samples.std() - 2.0) < 0.15
    assert mint.normal(1.0, 0.5, (3, 2)).shape == (3, 2)
    assert mint.rand_like(ms.Tensor(X)).shape == X.shape
    assert mint.randn_like(ms.Tensor(X), dtype=ms.float64).dtype == ms.float64


@pytest.mark.parametrize("fn", [
    lambda x: mint.sinc(x),
    lambda x: mint.cross(x[:, :3], x[:, 1:]),
    lambda x: mint.kthvalue(x, 2, 1)[0],
    lambda x: mint.std(x, 1, correction=0),
    lambda x: mint.diag(x[0], -1),
    lambda x: mint.logaddexp2(x, x * 0.5),
    lambda x: mint.scatter_add(x, 0, ms.Tensor(INDEX), x[1:]),
])
def test_new_compositions_differentiate(fn):
    x = X.astype(np.float64) + np.array([0.0, 0.1, 0.2, 0.3])  # no ties, no zero for sinc
    check_grads(fn, (x,), order=1, rtol=1e-4)


def test_errors_name_the_op_and_values():
    x = ms.Tensor(X)
    with pytest.raises(ArgumentValueError, match="kthvalue.*got 5"):
        mint.kthvalue(x, 5)
    with pytest.raises(ShapeError, match="mint.t.*rank 3"):
        mint.t(ms.Tensor(np.ones((2, 2, 2))))
    with pytest.raises(ArgumentValueError, match="mint.dot: expected 1-D"):
        mint.dot(x, x)
    with pytest.raises(ShapeError, match="mint.cross: no axis of size 3"):
        mint.cross(x[:2], x[:2])
    with pytest.raises(ArgumentValueError, match="mint.unique: `dim` is not supported"):
        mint.unique(x, dim=0)
    with pytest.raises(ArgumentValueError, match="mint.unique_consecutive: `dim` is not"):
        mint.unique_consecutive(x, dim=0)
    with pytest.raises(ArgumentValueError, match="histc.*bins"):
        mint.histc(x, 0)
    with pytest.raises(ArgumentValueError, match="without replacement"):
        mint.multinomial(x, 9)


def test_remainder_takes_keywords_and_a_scalar_dividend():
    """mint.remainder(input=, other=) with a Python number on either side, values recorded from
    MindSpore 2.10 (an integer mod 0 is the dividend)."""
    x = ms.Tensor(np.array([-4, 5, 6, 7]), ms.int32)
    y = ms.Tensor(np.array([3, 0, -4, 2]), ms.int32)
    np.testing.assert_array_equal(mint.remainder(input=x, other=y).asnumpy(), [2, 5, -2, 1])
    np.testing.assert_array_equal(mint.remainder(input=2, other=x).asnumpy(), [-2, 2, 2, 2])
    np.testing.assert_allclose(mint.remainder(input=x, other=2.5).asnumpy(), [1.0, 0.0, 1.0, 2.0])

    class KeywordNet(ms.nn.Cell):
        def construct(self, a, b):
            return mint.remainder(input=a, other=b)

    floats = ms.Tensor(np.array([-4.0, 5.0, 6.0]), ms.float32)
    np.testing.assert_allclose(KeywordNet()(2, floats).asnumpy(), [-2.0, 2.0, 2.0])


@pytest.mark.parametrize("args", [(5, True), (True, 6), (ms.Tensor(True), 3)])
def test_clamp_refuses_bool_operands(args):
    x = ms.Tensor(np.array([1.0, 25.0, 5.0]), ms.float32)
    for clamp in (mint.clamp, ms.ops.clamp, lambda t, *bounds: t.clamp(*bounds)):
        with pytest.raises(ValueError, match="must not be bool"):
            clamp(x, *args)
    with pytest.raises(ValueError, match="must not be bool"):
        mint.clamp(ms.Tensor(np.array([True, False])), 0, 1)
    np.testing.assert_allclose(mint.clamp(x, 2, 3).asnumpy(), [2.0, 3.0, 3.0])


def test_pow_of_an_integer_tensor_to_a_negative_int_is_refused():
    """MindSpore 2.10's PowTensorScalar refuses it (ops.pow and `**` take it)."""
    x = ms.Tensor(np.array([1, 2], np.int32))
    with pytest.raises(RuntimeError, match=r"For primitive \[PowTensorScalar\], Integers to "
                                           r"negative integer powers are not allowed\."):
        mint.pow(x, -1)
    np.testing.assert_array_equal(mint.pow(x, 2).asnumpy(), [1, 4])
    np.testing.assert_allclose(mint.pow(ms.Tensor(np.array([2.0], np.float32)), -1).asnumpy(),
                               [0.5])
    assert ms.ops.pow(x, -1).asnumpy().tolist() == [1, 0]
