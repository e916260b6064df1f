"""MindSpore functional ops and primitive classes built as compositions (ops/function/),
and the in-place scatter updates of a Parameter: forward values against NumPy, eagerly and
compiled, and derivatives against finite differences at orders 1 and 2."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, ops
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.testing import check_grads

from .nn_helpers import F64, assert_both, normal


def test_dense_and_inner():
    x, w, b = normal(2, 5, 3), normal(4, 3), normal(4)
    assert_both(lambda x, w, b: ops.dense(x, w, b), (x, w, b), x @ w.T + b, **F64)
    assert_both(lambda x, w: ops.dense(x, w), (x, w[0]), x @ w[0], **F64)  # 1-D weight
    assert_both(lambda x, w: ops.inner(x, w), (x, w), np.inner(x, w), **F64)
    assert_both(ops.inner, (x, np.array(2.0)), 2 * x, **F64)  # a 0-D operand multiplies
    check_grads(lambda x, w, b: ops.dense(x, w, b), (x, w, b), order=2)
    check_grads(ops.inner, (x, w), order=2)
    with pytest.raises(ShapeError, match="dense"):
        ops.dense(Tensor(x), Tensor(normal(4, 2)))


def test_shape_queries():
    x = Tensor(np.zeros((2, 3, 4), np.float32))
    assert ops.size(x) == 24 and ops.rank(x) == 3
    assert ops.is_tensor(x) and not ops.is_tensor(1.0) and not ops.is_tensor(np.float32(1))

    @ms.jit
    def queries(x):
        assert ops.is_tensor(x)
        return x.sum() * ops.size(x) + ops.rank(x)

    np.testing.assert_allclose(queries(Tensor(np.ones((2, 3)))).asnumpy(), 6 * 6 + 2)


@pytest.mark.parametrize("value", [[Tensor(np.ones(2))], (Tensor(np.ones(2)),), 3, None,
                                   np.ones(2), "a"])
def test_shape_takes_only_a_tensor(value):
    # MindSpore 2.10's message, word for word, for ops.shape and ops.Shape()
    message = f"For primitive[Shape], the input argument must be Tensor, but got {type(value)}."
    for shape in (ops.shape, ops.Shape()):
        with pytest.raises(TypeError) as info:
            shape(value)
        assert str(info.value) == message

    @ms.jit
    def in_graph(x):
        return ops.shape(x), ops.Shape()(x)

    assert in_graph(Tensor(np.ones((2, 3)))) == ((2, 3), (2, 3))


def test_block_diag():
    a, b, c = normal(2, 2), normal(1, 3), normal(2)
    expected = np.zeros((4, 7))
    expected[:2, :2], expected[2:3, 2:5], expected[3, 5:] = a, b, c
    assert_both(lambda a, b, c: ops.block_diag(a, b, c), (a, b, c), expected, **F64)
    check_grads(lambda a, b: ops.block_diag(a, b), (a, b), order=2)
    mixed = ops.block_diag(Tensor(np.ones((1, 1), np.int32)), Tensor(np.ones((1, 1))))
    assert mixed.dtype == ms.float64


@pytest.mark.parametrize("offset, dim1, dim2", [(0, -2, -1), (1, -2, -1), (-2, -2, -1),
                                                (1, 0, 2), (0, -1, -3)])
def test_diag_embed(offset, dim1, dim2):
    x = normal(2, 3)
    n = 3 + abs(offset)
    plane = np.zeros((2, n, n))
    for i in range(3):
        row, col = (i, i + offset) if offset >= 0 else (i - offset, i)
        plane[:, row, col] = x[:, i]
    expected = np.moveaxis(plane, (1, 2), (dim1 % 3, dim2 % 3))
    assert_both(lambda x: ops.diag_embed(x, offset, dim1, dim2), (x,), expected, **F64)
    check_grads(lambda x: ops.diag_embed(x, offset, dim1, dim2), (x,), order=2)


def test_shrinkage_and_addcmul():
    x = np.array([-2.0, -0.6, -0.1, 0.3, 0.7, 1.5])
    soft = np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0.0))
    assert_both(ops.softshrink, (x,), soft, **F64)
    assert_both(lambda x: ops.SoftShrink(0.5)(x), (x,), soft, **F64)
    assert_both(lambda x: ops.HShrink(0.5)(x), (x,), np.where(np.abs(x) > 0.5, x, 0.0), **F64)
    check_grads(ops.softshrink, (x,), order=2)
    with pytest.raises(ArgumentValueError, match="lambd"):
        ops.softshrink(Tensor(x), -1.0)
    a, b, c = normal(3), normal(3), normal(3)
    assert_both(lambda a, b, c: ops.addcmul(a, b, c, 0.5), (a, b, c), a + 0.5 * b * c, **F64)
    check_grads(lambda a, b, c: ops.Addcmul()(a, b, c, 2.0), (a, b, c), order=2)


def test_hann_window():
    np.testing.assert_allclose(ops.hann_window(8).asnumpy(), np.hanning(9)[:8], atol=1e-7)
    np.testing.assert_allclose(ops.hann_window(8, False, dtype=ms.float64).asnumpy(),
                               np.hanning(8), atol=1e-15)
    assert ops.hann_window(1).asnumpy().tolist() == [1.0]
    with pytest.raises(DTypeError):
        ops.hann_window(4, dtype=ms.int32)


def test_primitive_classes():
    x = normal(3, 4)
    assert_both(lambda x: ops.Elu()(x), (x,), np.where(x > 0, x, np.expm1(x)), **F64)
    assert_both(lambda x: ops.HSwish()(x), (x,), x * np.clip(x + 3, 0, 6) / 6, **F64)
    p = 1 / (1 + np.exp(-x))
    assert_both(lambda p: ops.Logit()(p), (p,), np.log(p / (1 - p)), **F64)
    clipped = np.clip(p, 0.3, 0.7)
    assert_both(lambda p: ops.Logit(eps=0.3)(p), (p,), np.log(clipped / (1 - clipped)), **F64)
    y = normal(2, 4)
    dist = np.sqrt(((x[:, None] - y[None]) ** 2).sum(-1))
    assert_both(lambda x, y: ops.Cdist()(x, y), (x, y), dist, **F64)
    std, mean = ops.ReduceStd(axis=1)(Tensor(x))
    np.testing.assert_allclose(std.asnumpy(), x.std(1, ddof=1), rtol=1e-12)
    np.testing.assert_allclose(mean.asnumpy(), x.mean(1), rtol=1e-12)
    std, _ = ops.ReduceStd(unbiased=False, keep_dims=True)(Tensor(x))
    np.testing.assert_allclose(std.asnumpy(), x.std(keepdims=True), rtol=1e-12)
    for p in (1, 2, 3):
        expected = (np.abs(x) ** p).sum(1) ** (1 / p)
        assert_both(lambda x, p=p: ops.LpNorm(axis=1, p=p)(x), (x,), expected, **F64)
    check_grads(lambda x: ops.LpNorm(axis=[0, 1], p=3)(x), (x,), order=2)
    assert_both(lambda x: ops.LpNorm(axis=0)(x), (np.zeros((2, 3)),), np.full(3, 1e-12), **F64)
    unstacked = ops.Unstack(axis=1)(Tensor(x))
    assert len(unstacked) == 4 and np.allclose(unstacked[2].asnumpy(), x[:, 2])
    eps = ops.Eps()(Tensor(x.astype(np.float16)))
    assert eps.dtype == ms.float16 and eps.asnumpy()[0, 0] == np.finfo(np.float16).eps
    assert ops.eps(Tensor(x.astype(np.float32))).asnumpy()[0, 0] == np.float32(1.1920929e-07)
    with pytest.raises(ArgumentValueError, match="num=3"):
        ops.Unstack(axis=1, num=3)(Tensor(x))
    np.testing.assert_allclose(ops.LinSpace()(Tensor(0.0), Tensor(1.0), 5).asnumpy(),
                               np.linspace(0, 1, 5))
    assert ops.range(0, 5, 2).asnumpy().tolist() == [0, 2, 4]
    out = ops.Range()(Tensor(1), Tensor(8), Tensor(3))
    assert out.dtype == ms.int64 and out.asnumpy().tolist() == [1, 4, 7]
    with pytest.raises(ArgumentValueError, match="maxlen"):
        ops.Range(maxlen=2)(Tensor(0), Tensor(5), Tensor(1))
    logits, labels = normal(3, 4), np.abs(normal(3, 4))
    kl = (labels * (np.log(labels) - logits)).sum()
    assert_both(lambda a, b: ops.KLDivLoss("sum")(a, b), (logits, labels), kl, **F64)


def test_dropout2d_drops_whole_channels():
    ms.set_seed(3)
    x = np.ones((4, 8, 3, 3), np.float32)
    out, mask = ops.Dropout2D(keep_prob=0.5)(Tensor(x))
    out, mask = out.asnumpy(), mask.asnumpy()
    assert mask.dtype == bool and mask.shape == x.shape
    per_channel = mask.reshape(4, 8, 9)
    assert np.all(per_channel.all(-1) | ~per_channel.any(-1))  # all or nothing per channel
    assert 0 < mask.mean() < 1
    np.testing.assert_array_equal(out, np.where(mask, 2.0, 0.0))
    with pytest.raises(ShapeError, match="the rank of input  must be equal to 4"):  # MindSpore
        ops.Dropout2D()(Tensor(np.ones((2, 3), np.float32)))


def test_scatter_add_and_scatter_nd_add_update_the_parameter():
    ms.set_context(mode=ms.GRAPH_MODE)
    table = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="table")
    updates = Tensor(np.ones((3, 2), np.float32))
    ops.scatter_add(table, Tensor(np.array([0, 2, 0], np.int32)), updates)  # eagerly
    np.testing.assert_allclose(table.asnumpy(), [[2, 2], [0, 0], [1, 1]])

    @ms.jit
    def nd_add(table, indices, updates):
        return ops.scatter_nd_add(table, indices, updates) * 1

    out = nd_add(table, Tensor(np.array([[1, 0], [1, 0]], np.int32)),
                 Tensor(np.array([5.0, 1.0], np.float32)))
    np.testing.assert_allclose(table.asnumpy(), [[2, 2], [6, 0], [1, 1]])
    np.testing.assert_allclose(out.asnumpy(), table.asnumpy())
    with pytest.raises(DTypeError, match="Parameter or Tensor"):
        ops.scatter_add(np.zeros((3, 2), np.float32), Tensor(np.array([0])), updates[:1])


def test_elementwise_compositions():
    x = np.array([-3.5, -2.0, -0.5, 0.0, 0.5, 2.0, 3.5])
    y = np.array([2.0, -1.5, 1.5, 2.0, -2.0, 1.5, -1.5])
    assert_both(ops.fmod, (x, y), np.fmod(x, y), **F64)
    assert_both(ops.remainder, (x, y), np.remainder(x, y), **F64)
    ints = np.array([-7, -3, 0, 3, 7]), np.array([2, -2, 3, -3, 2])
    assert_both(ops.fmod, ints, np.fmod(*ints))
    assert_both(ops.hypot, (x, y), np.hypot(x, y), **F64)
    assert_both(ops.frac, (x,), x - np.trunc(x), **F64)
    assert_both(ops.exp2, (x,), np.exp2(x), **F64)
    assert_both(ops.heaviside, (x, np.array(0.5)), np.heaviside(x, 0.5), **F64)
    assert_both(ops.logical_xor, (x > 0, y > 0), np.logical_xor(x > 0, y > 0))
    special = np.array([-np.inf, -0.0, 0.0, 1.0, np.inf])
    assert_both(ops.isposinf, (special,), np.isposinf(special))
    assert_both(ops.isneginf, (special,), np.isneginf(special))
    assert_both(ops.signbit, (special,), np.signbit(special))
    assert_both(ops.sgn, (x,), np.sign(x), **F64)
    z = np.array([3 + 4j, 0j, -2j])
    assert_both(ops.sgn, (z,), np.array([0.6 + 0.8j, 0, -1j]), **F64)
    out = ops.float_power(Tensor(np.array([2, 3], np.int32)), 0.5)
    assert out.dtype == ms.float64
    np.testing.assert_allclose(out.asnumpy(), np.sqrt([2, 3]), rtol=1e-15)
    check_grads(ops.hypot, (x + 5, y), order=2)
    check_grads(ops.fmod, (x[x != 0] * 1.1, np.full(6, 1.3)), order=2)


def test_reductions_and_scans():
    x = normal(3, 4)
    with_nan = x.copy()
    with_nan[1, 2] = np.nan
    assert_both(lambda v: ops.nansum(v, 1), (with_nan,), np.nansum(with_nan, 1), **F64)
    low, high = ops.aminmax(Tensor(x), axis=1, keepdims=True)
    np.testing.assert_allclose(low.asnumpy(), x.min(1, keepdims=True))
    np.testing.assert_allclose(high.asnumpy(), x.max(1, keepdims=True))
    big = x * 300
    assert_both(lambda v: ops.logcumsumexp(v, 1), (big,), np.logaddexp.accumulate(big, 1),
                rtol=1e-12, atol=1e-9)
    check_grads(lambda v: ops.logcumsumexp(v, 0), (x,), order=2)
    data = np.array([0.0, 0.1, 0.5, 0.99, 1.0, 1.7, -0.2])
    np.testing.assert_allclose(ops.histc(Tensor(data), 4, 0.0, 1.0).asnumpy(),
                               np.histogram(data[(data >= 0) & (data <= 1)], 4, (0, 1))[0])
    np.testing.assert_allclose(ops.histc(Tensor(data), 3).asnumpy(),
                               np.histogram(data, 3)[0])  # the data's own range


def test_shape_and_index_compositions():
    x = normal(2, 3, 4)
    assert_both(ops.t, (x[0],), x[0].T, **F64)
    assert_both(lambda v: ops.swapdims(v, 0, 2), (x,), np.swapaxes(x, 0, 2), **F64)
    assert_both(ops.fliplr, (x,), np.fliplr(x), **F64)
    assert_both(ops.flipud, (x,), np.flipud(x), **F64)
    for k in range(-1, 4):
        assert_both(lambda v, k=k: ops.rot90(v, k, (1, 2)), (x,), np.rot90(x, k, (1, 2)), **F64)
    a, b = normal(2, 3), normal(3, 1, 2)
    assert_both(ops.kron, (a, b), np.kron(a, b), **F64)
    check_grads(ops.kron, (a, b[0]), order=2)
    for sections in (3, [1, 3]):
        pieces = ops.tensor_split(Tensor(x), sections, axis=2)
        for got, want in zip(pieces, np.array_split(x, sections, axis=2)):
            np.testing.assert_allclose(got.asnumpy(), want)
    np.testing.assert_array_equal(ops.argwhere(Tensor(x > 0)).asnumpy(), np.argwhere(x > 0))
    filled = ops.index_fill(Tensor(x), 2, Tensor(np.array([0, 3])), -1.0).asnumpy()
    expected = x.copy()
    expected[:, :, [0, 3]] = -1.0
    np.testing.assert_allclose(filled, expected)
    np.testing.assert_array_equal(ops.tril_indices(3, 4, 1).asnumpy(), np.tril_indices(3, 1, 4))
    np.testing.assert_array_equal(ops.triu_indices(4, 3, -1).asnumpy(), np.triu_indices(4, -1, 3))
    u, v = np.array([1.0, 2.0]), np.array([3.0, 4.0, 5.0])
    np.testing.assert_allclose(ops.cartesian_prod(Tensor(u), Tensor(v)).asnumpy(),
                               [[p, q] for p in u for q in v])
    np.testing.assert_allclose(ops.combinations(Tensor(v)).asnumpy(), [[3, 4], [3, 5], [4, 5]])
    assert ops.combinations(Tensor(v), 2, True).shape == (6, 2)
    p, q = normal(4, 3), normal(4, 3)
    assert_both(ops.cross, (p, q), np.cross(p, q), **F64)
    assert_both(lambda p, q: ops.cross(p.T, q.T, 0), (p, q), np.cross(p, q).T, **F64)
    check_grads(ops.cross, (p, q), order=2)
    with pytest.raises(ShapeError, match="size 3"):
        ops.cross(Tensor(normal(2, 2)), Tensor(normal(2, 2)))


def test_bidense_as_mindspore():
    # MindSpore 2.10's values on these operands
    rng = np.random.default_rng(4)
    x1 = rng.normal(size=(2, 3, 4)).astype(np.float32)
    x2 = rng.normal(size=(2, 3, 5)).astype(np.float32)
    w = rng.normal(size=(6, 4, 5)).astype(np.float32)
    b = rng.normal(size=(6,)).astype(np.float32)
    out = ops.bidense(Tensor(x1), Tensor(x2), Tensor(w), Tensor(b)).asnumpy()
    assert out.shape == (2, 3, 6)
    np.testing.assert_allclose(out.reshape(-1)[:5], [-2.955967903137207, -5.461807727813721,
                                                     -2.4007997512817383, 7.841554164886475,
                                                     -6.2622785568237305], rtol=1e-6)
    out = ops.bidense(Tensor(x1[0, 0]), Tensor(x2[0, 0]), Tensor(w)).asnumpy()
    assert out.shape == (6,)
    np.testing.assert_allclose(out[:3], [-3.628002643585205, -5.889909744262695,
                                         -3.8417060375213623], rtol=1e-6)
    small = ops.bidense(Tensor(np.array([3, -2], np.int8)), Tensor(np.array([1, 2, -1], np.int8)),
                        Tensor(np.arange(6, dtype=np.int8).reshape(1, 2, 3)),
                        Tensor(np.array([5], np.int8)))
    assert small.shape == (1,) and small.asnumpy().tolist() == [-7]
    with pytest.raises(TypeError, match="the dtype of 'bias', 'input1' and 'input2'"):
        ops.bidense(Tensor(x1), Tensor(x2), Tensor(w), Tensor(b.astype(np.float16)))
