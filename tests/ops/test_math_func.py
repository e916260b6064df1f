"""Compositions of ops/function/ (triangles, distances, statistics, activations) against
NumPy, eager and inside a graph, with
their gradients against finite differences."""
import math

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph import jit as cellgraph_jit
from cellgraph.common import dtype as mstype
from cellgraph.testing import check_grads

RNG = np.random.default_rng(0)
X = RNG.normal(size=(3, 4))
Y = RNG.normal(size=(3, 4))


def np_softplus(x):
    return np.log1p(np.exp(x))


def np_elu(x, a=1.0):
    return np.where(x > 0, x, a * (np.exp(x) - 1))


UNARY = {
    "relu6": (ops.relu6, lambda x: np.clip(x, 0, 6)),
    "leaky_relu": (ops.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x)),
    "elu": (lambda x: ops.elu(x, 0.5), lambda x: np_elu(x, 0.5)),
    "celu": (lambda x: ops.celu(x, 2.0),
             lambda x: np.maximum(x, 0) + np.minimum(0, 2.0 * (np.exp(x / 2.0) - 1))),
    "selu": (ops.selu, lambda x: 1.0507009873554805 * np_elu(x, 1.6732632423543772)),
    "hardtanh": (ops.hardtanh, lambda x: np.clip(x, -1, 1)),
    "hardsigmoid": (ops.hardsigmoid, lambda x: np.clip(x + 3, 0, 6) / 6),
    "hardswish": (ops.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "logsigmoid": (ops.logsigmoid, lambda x: -np_softplus(-x)),
    "softsign": (ops.softsign, lambda x: x / (1 + np.abs(x))),
    "mish": (ops.mish, lambda x: x * np.tanh(np_softplus(x))),
    "softmin": (ops.softmin, lambda x: np.exp(-x) / np.exp(-x).sum(-1, keepdims=True)),
    "glu": (ops.glu, lambda x: x[:, :2] / (1 + np.exp(-x[:, 2:]))),
    "tril": (lambda x: ops.tril(x, -1), lambda x: np.tril(x, -1)),
    "triu": (lambda x: ops.triu(x, 1), lambda x: np.triu(x, 1)),
    "band": (lambda x: ops.matrix_band_part(x, 1, 0),
             lambda x: np.tril(x) - np.tril(x, -2)),
    "diagonal": (lambda x: ops.diagonal(x, 1), lambda x: np.diagonal(x, 1)),
    "trace": (ops.trace, np.trace),
    "std": (lambda x: ops.std(x, axis=1, ddof=1), lambda x: x.std(axis=1, ddof=1)),
    "var": (lambda x: ops.var(x, axis=0, keepdims=True),
            lambda x: x.var(axis=0, keepdims=True)),
    "movedim": (lambda x: ops.movedim(x, 0, -1), lambda x: np.moveaxis(x, 0, -1)),
    "narrow": (lambda x: ops.narrow(x, 1, 1, 2), lambda x: x[:, 1:3]),
    "repeat_interleave": (lambda x: ops.repeat_interleave(x, [1, 0, 2], axis=0),
                          lambda x: np.repeat(x, [1, 0, 2], axis=0)),
    "logit": (lambda x: ops.logit(ops.sigmoid(x)), lambda x: x),
}


@pytest.mark.parametrize("name", list(UNARY))
def test_unary_compositions_match_numpy_and_differentiate(name):
    fn, reference = UNARY[name]

    class Graph(nn.Cell):
        def construct(self, x):
            return fn(x)

    x = Tensor(X)
    np.testing.assert_allclose(fn(x).asnumpy(), reference(X), rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(Graph()(x).asnumpy(), reference(X), rtol=1e-6, atol=1e-12)
    check_grads(fn, (x,), order=1, rtol=1e-4)


def test_binary_compositions():
    x, y = Tensor(X), Tensor(Y)
    np.testing.assert_allclose(ops.cosine_similarity(x, y).asnumpy(),
                               (X * Y).sum(1) / np.linalg.norm(X, axis=1)
                               / np.linalg.norm(Y, axis=1), rtol=1e-6)
    np.testing.assert_allclose(ops.logaddexp(x, y).asnumpy(), np.logaddexp(X, Y), rtol=1e-6)
    np.testing.assert_allclose(ops.lerp(x, y, 0.25).asnumpy(), X + 0.25 * (Y - X))
    np.testing.assert_allclose(ops.xlogy(Tensor(np.array([0.0, 2.0])),
                                     Tensor(np.array([0.0, 3.0]))).asnumpy(),
                               [0.0, 2 * math.log(3)])
    bias = RNG.normal(size=(3, 3))
    np.testing.assert_allclose(ops.addmm(Tensor(bias), x, y.T, beta=0.5, alpha=2).asnumpy(),
                               0.5 * bias + 2 * X @ Y.T, rtol=1e-6)
    check_grads(ops.cosine_similarity, (x, y), order=2, rtol=1e-4)
    check_grads(ops.logaddexp, (x, y), order=2, rtol=1e-4)


def test_cdist_norms_and_zero_distance_gradient():
    a, b = RNG.normal(size=(2, 5, 3)), RNG.normal(size=(2, 4, 3))
    diff = a[:, :, None] - b[:, None]
    for p, reference in ((2.0, np.sqrt((diff ** 2).sum(-1))), (1.0, np.abs(diff).sum(-1)),
                         (3.0, (np.abs(diff) ** 3).sum(-1) ** (1 / 3)),
                         (float("inf"), np.abs(diff).max(-1)), (0.0, (diff != 0).sum(-1))):
        np.testing.assert_allclose(ops.cdist(Tensor(a), Tensor(b), p).asnumpy(), reference,
                                   rtol=1e-6)
    check_grads(lambda u, v: ops.cdist(u, v), (Tensor(a), Tensor(b)), order=1, rtol=1e-4)
    same = Tensor(a[0])
    grad = ops.grad(lambda u: ops.cdist(u, same).sum())(Tensor(a[0])).asnumpy()
    assert np.all(np.isfinite(grad))


def test_shape_helpers():
    v = Tensor(np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(ops.diag(v).asnumpy(), np.diag([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(ops.full_like(v, 7).asnumpy(), [7.0, 7.0, 7.0])
    assert ops.full_like(v, 7, dtype=ms.int32).dtype == ms.int32
    np.testing.assert_array_equal(ops.hstack([v, v]).asnumpy(), np.hstack([[1, 2, 3]] * 2))
    np.testing.assert_array_equal(ops.vstack([v, v]).asnumpy(), np.vstack([[1, 2, 3]] * 2))
    np.testing.assert_array_equal(ops.repeat_interleave(v, 2).asnumpy(), np.repeat([1, 2, 3], 2))
    np.testing.assert_array_equal(ops.count_nonzero(Tensor(np.array([[0, 1], [2, 3]])),
                                                    axis=1).asnumpy(), [1, 2])
    nan = Tensor(np.array([np.nan, np.inf, -np.inf, 1.0], np.float32))
    np.testing.assert_array_equal(ops.nan_to_num(nan, 0.0, 5.0, -5.0).asnumpy(),
                                  [0.0, 5.0, -5.0, 1.0])
    x = RNG.normal(size=(1, 8, 2, 3))
    shuffled = ops.pixel_shuffle(Tensor(x), 2)
    assert shuffled.shape == (1, 2, 4, 6)
    np.testing.assert_array_equal(shuffled.asnumpy()[0, 1, 1, 3], x[0, 4 + 2 + 1, 0, 1])
    np.testing.assert_array_equal(ops.pixel_unshuffle(shuffled, 2).asnumpy(), x)
    weight = Tensor(np.array([0.1, 0.5]))
    image = Tensor(RNG.normal(size=(1, 2, 2, 2)))
    expected = np.where(image.asnumpy() > 0, image.asnumpy(),
                        image.asnumpy() * np.array([0.1, 0.5])[:, None, None])
    np.testing.assert_allclose(ops.prelu(image, weight).asnumpy(), expected)
    with pytest.raises(ValueError, match="counts"):
        ops.repeat_interleave(v, [1, 2], axis=0)
    with pytest.raises(ValueError, match="rank >= 2"):
        ops.triu(v)


def test_unsorted_segment_reductions():
    x = RNG.normal(size=(5, 2))
    ids = np.array([1, 0, 1, -1, -4])                # negative ids are dropped
    kept = {0: [1], 1: [0, 2], 2: []}
    got = {name: getattr(ops, f"unsorted_segment_{name}")(Tensor(x), Tensor(ids), 3).asnumpy()
           for name in ("sum", "max", "min", "prod")}
    for s, rows in kept.items():
        if rows:
            np.testing.assert_allclose(got["sum"][s], x[rows].sum(0))
            np.testing.assert_allclose(got["max"][s], x[rows].max(0))
            np.testing.assert_allclose(got["min"][s], x[rows].min(0))
            np.testing.assert_allclose(got["prod"][s], x[rows].prod(0))
    np.testing.assert_array_equal(got["sum"][2], [0.0, 0.0])
    assert np.all(got["max"][2] == np.finfo(np.float64).min)
    np.testing.assert_array_equal(got["prod"][2], [1.0, 1.0])
    segment_sum = ops.UnsortedSegmentSum()
    check_grads(lambda v: segment_sum(v, Tensor(ids), 3) ** 2, (Tensor(x),), order=2)
    check_grads(lambda v: ops.unsorted_segment_max(v, Tensor(ids[:3]), 2), (Tensor(x[:3]),))
    with pytest.raises(ValueError, match="prefix"):
        segment_sum(Tensor(x), Tensor(np.array([0, 1])), 2)
    with pytest.raises(TypeError, match="integer"):
        segment_sum(Tensor(x), Tensor(np.zeros(5)), 2)
    # an id >= num_segments: MindSpore 2.10's CPU kernels fail (RuntimeError) at run time
    for name in ("sum", "max", "min", "prod"):
        reduce = getattr(ops, f"unsorted_segment_{name}")
        for run in (reduce, ms.jit(reduce)):
            with pytest.raises(RuntimeError, match=r"segment_ids value 7 out of range \[0, 3\)"):
                run(Tensor(x), Tensor(np.array([1, 0, 1, -1, 7])), 3)


PDIST_ROWS = np.array([[1., 1., 0.5], [2., 2., 3.], [3., 3., -1.], [0., 1., 2.]], np.float32)
# ops.pdist(PDIST_ROWS, p) on MindSpore 2.10 CPU: pairs (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
PDIST_MINDSPORE = {
    2.0: [2.8722813, 3.2015622, 1.8027756, 4.2426405, 2.4494898, 4.690416],
    1.0: [4.5, 5.5, 2.5, 6., 4., 8.],
    0.0: [3., 3., 2., 3., 3., 3.],
    3.0: [2.602414, 2.6858428, 1.6355332, 4.04124, 2.1544347, 3.9578917],
    float("inf"): [2.5, 2., 1.5, 4., 2., 3.],
    0.5: [12.824555, 16.428204, 4.9494896, 16., 11.656855, 23.797958],
}


@pytest.mark.parametrize("p", sorted(PDIST_MINDSPORE))
def test_pdist_matches_mindspore(p):
    from cellgraph.ops import functional as F
    from cellgraph.ops.operations import nn_ops
    x = Tensor(PDIST_ROWS)
    for got in (ops.pdist(x, p), F.pdist(x, p=p), nn_ops.Pdist(p)(x),
                cellgraph_jit(lambda a: ops.pdist(a, p))(x)):
        assert got.dtype == mstype.float32
        np.testing.assert_allclose(got.asnumpy(), PDIST_MINDSPORE[p], rtol=1e-6)


def test_pdist_gradients_and_errors():
    rows = RNG.normal(size=(5, 3))
    for p in (2.0, 1.5, 3.0):
        check_grads(lambda u, p=p: ops.pdist(u, p), (Tensor(rows),), order=1, rtol=1e-4)
    # MindSpore 2.10: the pair of equal rows (0, 1) adds nothing to their gradient
    twins = Tensor(np.array([[1., 1.], [1., 1.], [2., 3.]], np.float32))
    np.testing.assert_allclose(ops.grad(lambda u: ops.pdist(u).sum())(twins).asnumpy(),
                               [[-0.4472136, -0.8944272], [-0.4472136, -0.8944272],
                                [0.8944272, 1.7888544]], rtol=1e-6)
    assert ops.pdist(Tensor(np.ones((1, 3), np.float32))).shape == (0,)
    with pytest.raises(ValueError, match="non-negative"):
        ops.pdist(Tensor(PDIST_ROWS), p=-1.0)
    with pytest.raises(TypeError, match="should be 'float'"):
        ops.pdist(Tensor(PDIST_ROWS), p=2)
    with pytest.raises(ValueError, match="dim must be equal to 2"):
        ops.pdist(Tensor(np.ones(3, np.float32)))
    with pytest.raises(TypeError, match="Int32"):
        ops.pdist(Tensor(np.ones((3, 3), np.int32)))


PINV_SYMMETRIC = np.array([[2., 1.], [1., -3.]], np.float32)
# ops.pinv on MindSpore 2.10 CPU
PINV_MINDSPORE = [
    (lambda: ops.pinv(Tensor(np.array([[0., 1.], [1., 1.], [1., 0.]], np.float32))),
     [[-0.3333333, 0.33333334, 0.66666675], [0.6666666, 0.3333333, -0.33333334]]),
    (lambda: ops.pinv(Tensor(np.array([[2., 3.], [4., 6.]]))),  # rank 1
     [[0.03076923, 0.06153846], [0.04615385, 0.09230769]]),
    (lambda: ops.pinv(Tensor(PINV_SYMMETRIC), hermitian=True),
     [[0.4285714, 0.14285715], [0.14285716, -0.28571433]]),
    (lambda: ops.pinv(Tensor(np.stack([PINV_SYMMETRIC, 2 * PINV_SYMMETRIC])),
                      atol=Tensor(np.array([0.5, 5.], np.float32))),
     [[[0.4285714, 0.14285715], [0.14285716, -0.28571433]],
      [[-0.00560074, 0.02908232], [0.02908232, -0.15101232]]]),
    (lambda: ops.pinv(Tensor(PINV_SYMMETRIC), atol=2.5),
     [[-0.01120149, 0.05816463], [0.05816463, -0.30202463]]),
    (lambda: ops.pinv(Tensor(PINV_SYMMETRIC), rtol=0.9),
     [[-0.01120149, 0.05816463], [0.05816463, -0.30202463]]),
]


@pytest.mark.parametrize("case", range(len(PINV_MINDSPORE)))
def test_pinv_matches_mindspore(case):
    call, expected = PINV_MINDSPORE[case]
    np.testing.assert_allclose(call().asnumpy(), expected, rtol=2e-5, atol=1e-6)


def test_pinv_gradient_dtype_and_errors():
    full_rank = RNG.normal(size=(2, 4, 3))
    check_grads(ops.pinv, (Tensor(full_rank),), order=1, rtol=1e-4)
    check_grads(lambda a: ops.pinv(a + a.swapaxes(-1, -2), hermitian=True),
                (Tensor(full_rank[:, :3]),), order=1, rtol=1e-4)
    assert ops.pinv(Tensor(full_rank)).dtype == mstype.float64
    assert cellgraph_jit(ops.pinv)(Tensor(full_rank)).shape == (2, 3, 4)
    with pytest.raises(TypeError, match="0-D input is not supported"):
        ops.pinv(Tensor(1.0))
    with pytest.raises(ValueError, match="2 or more dimensions, but got 1"):
        ops.pinv(Tensor(np.ones(3, np.float32)))
    with pytest.raises(TypeError, match="but got 'mindspore.int32'"):
        ops.pinv(Tensor(np.ones((2, 2), np.int32)))
    with pytest.raises(TypeError, match="'hermitian' should be 'bool'"):
        ops.pinv(Tensor(PINV_SYMMETRIC), hermitian=1)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                   np.uint32, np.uint64])
def test_population_count_matches_mindspore(dtype):
    from cellgraph.ops.operations import array_ops
    values = np.array([13, 65, np.iinfo(dtype).max, 0, np.iinfo(dtype).min], dtype)
    bits = 8 * np.dtype(dtype).itemsize
    # MindSpore 2.10: 3 2 (bits - 1 or bits) 0 (1 or 0), as uint8; -1 counts every bit
    expected = [3, 2, bits - 1 if np.iinfo(dtype).min else bits, 0,
                1 if np.iinfo(dtype).min else 0]
    for got in (ops.population_count(Tensor(values)), array_ops.PopulationCount()(Tensor(values)),
                cellgraph_jit(ops.population_count)(Tensor(values))):
        assert got.dtype == mstype.uint8
        np.testing.assert_array_equal(got.asnumpy(), expected)
    if np.iinfo(dtype).min:
        assert ops.population_count(Tensor(np.array([-1], dtype))).asnumpy()[0] == bits
    batch = Tensor(np.array([[13, 65], [2, 6]], dtype))
    np.testing.assert_array_equal(ops.vmap(ops.population_count)(batch).asnumpy(), [[3, 2], [1, 2]])


def test_population_count_refuses_float_and_bool():
    for values in (np.array([1.5], np.float32), np.array([True])):
        with pytest.raises(TypeError, match="PopulationCount"):
            ops.population_count(Tensor(values))


RENORM_X = np.array([[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
                     [[9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]])


def test_renorm_matches_mindspore():
    from cellgraph.ops.operations import math_ops
    x32 = Tensor(RENORM_X.astype(np.float32))
    # MindSpore 2.10 CPU, recorded
    np.testing.assert_allclose(ops.renorm(x32, 2, 1, 5.0).asnumpy(), [
        [[0.22917463, 0.45834926, 0.68752384, 0.9166985],
         [0.78278035, 0.9393364, 1.0958924, 1.2524486]],
        [[2.0625715, 2.2917461, 2.520921, 2.7500954],
         [2.035229, 2.1917849, 2.348341, 2.504897]]], rtol=1e-6)
    np.testing.assert_allclose(math_ops.Renorm(1, 0, 10.0)(x32).asnumpy()[:, 0, 0],
                               [0.27777779, 0.90000004], rtol=1e-6)
    x64 = Tensor(RENORM_X)
    np.testing.assert_array_equal(ops.renorm(x64, 1, 0, 36.0).asnumpy()[0, 0], [1, 2, 3, 4])
    np.testing.assert_allclose(ops.renorm(x64, 1, 0, 35.99999).asnumpy()[0, 0],  # maxnorm float32
                               [0.9999996821, 1.9999993642, 2.9999990463, 3.9999987284],
                               rtol=1e-10)
    complex_x = Tensor((RENORM_X + 1j * RENORM_X[::-1]).astype(np.complex64))
    out = ops.renorm(complex_x, 2, 0, 10.0)
    assert out.dtype == mstype.complex64
    np.testing.assert_allclose(out.asnumpy()[0, 0], [0.25854382 + 2.3268943j,
                                                     0.51708764 + 2.5854383j,
                                                     0.77563155 + 2.843982j,
                                                     1.0341753 + 3.1025262j], rtol=1e-6)
    grad = ops.grad(lambda a: ops.renorm(a, 2, 0, 10.0).sum())(x32).asnumpy()
    np.testing.assert_allclose(grad[0], [[0.5765859, 0.45303178, 0.3294776, 0.2059235],
                                         [0.08236937, -0.04118483, -0.16473891, -0.28829306]],
                               rtol=1e-5, atol=1e-6)
    check_grads(lambda a: ops.renorm(a, 3, 2, 4.0), (x64,), order=1, rtol=1e-5)
    batched = ops.vmap(lambda a: ops.renorm(a, 1, 0, 10.0))(Tensor(np.stack([RENORM_X] * 2)))
    np.testing.assert_allclose(batched.asnumpy()[1], ops.renorm(x64, 1, 0, 10.0).asnumpy())


@pytest.mark.parametrize("call, error, message", [
    (lambda x: ops.renorm(x, 1.5, 0, 5.0), TypeError, "'p' should be 'int'"),
    (lambda x: ops.renorm(x, 0, 0, 5.0), ValueError, "non-positive-norm"),
    (lambda x: ops.renorm(x, 1, 3, 5.0), RuntimeError, r"must be in range \[-3, 3\)"),
    (lambda x: ops.renorm(x, 1, 0, -5.0), RuntimeError, "must be non-negative"),
    (lambda x: ops.renorm(x, 1, 0, 5), TypeError, "'maxnorm' should be 'float'"),
    (lambda x: ops.renorm(x.astype(mstype.int32), 1, 0, 5.0), TypeError, r"Tensor\[Int32\]"),
    (lambda x: ops.renorm(x[0, 0, 0], 1, 0, 5.0), RuntimeError, "input shape is zero"),
])
def test_renorm_checks_as_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call(Tensor(RENORM_X.astype(np.float32)))


def test_float_limits_of_bfloat16():
    """bfloat16's limits come from ml_dtypes (NumPy's finfo refuses it): nan_to_num's default
    infinities, clamp's missing bound and eps read them."""
    pytest.importorskip("ml_dtypes")
    bf16_max = 3.3895313892515355e38  # (2 - 2**-7) * 2**127
    x = Tensor(np.array([np.nan, np.inf, -np.inf, 1.5], np.float32), ms.bfloat16)
    out = ops.nan_to_num(x)
    assert out.dtype == ms.bfloat16
    np.testing.assert_array_equal(out.float().asnumpy(),
                                  np.array([0.0, bf16_max, -bf16_max, 1.5], np.float32))
    y = Tensor([1.0, 5.0], ms.bfloat16)
    np.testing.assert_array_equal(ops.clamp(y, min=2.0).float().asnumpy(), [2.0, 5.0])
    np.testing.assert_array_equal(ops.clamp(y, max=2.0).float().asnumpy(), [1.0, 2.0])
    np.testing.assert_array_equal(ops.eps(Tensor([1.0], ms.bfloat16)).float().asnumpy(),
                                  [2.0 ** -7])


@pytest.mark.parametrize("values, dtype", [
    ([True, False, True], mstype.bool_), ([-3, 5, 7], mstype.int8), ([3, 5, 7], mstype.uint8),
    ([-3, 5, 7], mstype.int32), ([-3, 5, 7], mstype.int16),
])
def test_sum_and_prod_of_integers_in_int64(values, dtype):
    """MindSpore 2.10's SumExt and ProdExt: bool and integers narrower than int64 accumulate in
    int64 (Tensor.sum, ops.sum, nansum of bool, sum_to_size, Tensor.prod)."""
    x = Tensor(np.array(values), dtype)
    total = int(np.sum(np.array(values, np.int64)))
    for out in (x.sum(), ops.sum(x), x.sum(0, keepdims=True).reshape(())):
        assert out.dtype == mstype.int64 and int(out) == total
    assert x.sum_to_size(1).dtype == mstype.int64 and x.sum_to_size(1).asnumpy().tolist() == [total]
    assert x.prod().dtype == mstype.int64
    assert int(x.prod()) == int(np.prod(np.array(values, np.int64)))
    assert x.sum(dtype=mstype.bool_).dtype == mstype.bool_
    if dtype == mstype.bool_:
        assert x.nansum().dtype == mstype.int64 and int(x.nansum()) == 2


def test_sum_of_floats_keeps_the_dtype():
    x = Tensor(np.array([1.5, 2.5], np.float16))
    assert x.sum().dtype == mstype.float16 and ops.sum(x).dtype == mstype.float16
    y = Tensor(np.ones((2, 3), np.int8))
    assert y.sum_to_size(2, 3).dtype == mstype.int8  # nothing summed, nothing cast


def test_bool_subtraction_is_exclusive_or():
    """MindSpore 2.10's values: a bool Tensor minus a bool Tensor (or True) is their exclusive
    or, in bool; diff of a bool Tensor follows, eagerly and in a graph."""
    b = Tensor(np.array([True, False, True]))
    c = Tensor(np.array([True, True, False]))
    for out in (b - c, b.sub(c), b.subtract(c), ms.mint.sub(b, c)):
        assert out.dtype == mstype.bool_ and out.asnumpy().tolist() == [False, True, True]
    assert (b - True).asnumpy().tolist() == [False, True, False]
    assert b.diff().asnumpy().tolist() == [True, True]
    assert b.diff(prepend=c).asnumpy().tolist() == [False, True, True, True, True]
    assert (b - 1).dtype == mstype.int64 and (b - 1).asnumpy().tolist() == [0, -1, 0]

    class Net(nn.Cell):
        def construct(self, x, y):
            return (x - y) - True, x.diff()

    diff, steps = Net()(b, c)
    assert diff.dtype == mstype.bool_ and diff.asnumpy().tolist() == [True, False, False]
    assert steps.asnumpy().tolist() == [True, True]


def test_cumsum_dtypes_as_mindspore():
    """MindSpore 2.10: Tensor.cumsum runs bool, int8, int16 and uint8 in int32 (and flattens
    for axis=None), casting to `dtype` afterwards; mint.cumsum (CumsumExt) runs bool in int64;
    other dtypes keep theirs."""
    b = Tensor(np.array([True, False, True]))
    for values, dtype in (([True, False, True], mstype.bool_), ([-3, 5, 7], mstype.int8),
                          ([-3, 5, 7], mstype.int16), ([3, 5, 7], mstype.uint8)):
        out = Tensor(np.array(values), dtype).cumsum(0)
        assert out.dtype == mstype.int32
        assert out.asnumpy().tolist() == np.cumsum(np.array(values, np.int64)).tolist()
    for dtype in (mstype.int32, mstype.uint16, mstype.float16):
        assert Tensor(np.array([1, 2]), dtype).cumsum(0).dtype == dtype
    as_float = b.cumsum(0, dtype=mstype.float32)
    assert as_float.dtype == mstype.float32 and as_float.asnumpy().tolist() == [1.0, 1.0, 2.0]
    flat = Tensor(np.ones((2, 2), np.float32)).cumsum(None)
    assert flat.asnumpy().tolist() == [1.0, 2.0, 3.0, 4.0]
    counted = ms.mint.cumsum(b, 0)
    assert counted.dtype == mstype.int64 and counted.asnumpy().tolist() == [1, 1, 2]
    assert ms.mint.cumsum(Tensor(np.array([-3, 5], np.int8)), 0).dtype == mstype.int8


def test_add_and_sub_alpha_of_bools():
    """MindSpore 2.10's AddExt/SubExt: of bool input and other, alpha counts as a bool and the
    result stays bool; a bool alpha with other dtypes is a TypeError."""
    b = Tensor(np.array([True, False, True, False]))
    c = Tensor(np.array([True, True, False, False]))
    for alpha in (2, -1, 1.5):
        assert b.sub(c, alpha=alpha).asnumpy().tolist() == [False, True, True, False]
        assert ms.mint.sub(b, c, alpha=alpha).dtype == mstype.bool_
    assert b.sub(c, alpha=0).asnumpy().tolist() == [True, False, True, False]
    assert b.add(c, alpha=2).asnumpy().tolist() == [True, True, True, False]
    assert ms.mint.add(b, c, alpha=0).asnumpy().tolist() == [True, False, True, False]
    with pytest.raises(TypeError, match="boolean alpha need boolean input and other"):
        Tensor([1, 2]).sub(Tensor([1, 1]), alpha=True)
    assert Tensor([1, 2]).sub(Tensor([1, 1]), alpha=2).asnumpy().tolist() == [-1, 0]


@pytest.mark.parametrize("np_dtype", [np.bool_, np.int8, np.uint8, np.int32, np.int64])
def test_cumprod_of_bools_and_integers_is_int64(np_dtype):
    """MindSpore 2.10's ops.cumprod, Tensor.cumprod and mint.cumprod multiply in int64."""
    x = Tensor(np.array([[1, 2, 3], [1, 0, 2]], np_dtype))
    for out in (ops.cumprod(x, 0), x.cumprod(1), ms.mint.cumprod(x, 1)):
        assert out.dtype == ms.int64
    np.testing.assert_array_equal(ops.cumprod(x, 1).asnumpy(),
                                  np.cumprod(x.asnumpy().astype(np.int64), 1))
    as_float = ops.cumprod(x, 0, dtype=ms.float32)
    assert as_float.dtype == ms.float32
    np.testing.assert_array_equal(as_float.asnumpy(), np.cumprod(x.asnumpy(), 0))


def test_deg2rad_and_rad2deg_take_float_tensors_only():
    np.testing.assert_allclose(ops.deg2rad(Tensor(np.array([180.0], np.float16))).asnumpy(),
                               [math.pi], rtol=1e-3)
    for fn in (ops.deg2rad, ops.rad2deg, lambda t: t.deg2rad()):
        with pytest.raises(TypeError, match=r"The 'x' should be one of \[mindspore.float16, "
                                            r"mindspore.float32, mindspore.float64\], but got "
                                            r"'mindspore.int32'\."):
            fn(Tensor(np.array([1, 2], np.int32)))
    with pytest.raises(TypeError, match="but got 'mindspore.bool'"):
        ops.deg2rad(Tensor(np.array([True])))


@pytest.mark.parametrize("call", [
    lambda x: ops.logical_and(x, 1.0), lambda x: ops.logical_and(1, x),
    lambda x: ops.logical_or(x, 0), lambda x: ops.logical_xor(x, 1.0),
    lambda x: ms.mint.logical_and(x, 2), cellgraph_jit(lambda x: ops.logical_and(x, 1.0))])
def test_logical_operations_take_bool_scalars_only(call):
    """MindSpore 2.10: `Failed calling LogicalAnd with "LogicalAnd()(x=Tensor, y=float)"`."""
    x = Tensor(np.array([1.0, 0.0], np.float32))
    with pytest.raises(TypeError, match=r"Failed calling Logical(And|Or|Xor) with"):
        call(x)
    assert ops.logical_and(x, True).asnumpy().tolist() == [True, False]
    assert ops.logical_or(x, False).asnumpy().tolist() == [True, False]
