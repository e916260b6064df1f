"""Functional ops composed from existing primitives: forward against NumPy, gradients against
finite differences at orders 1 and 2 (they have no rules of their own, so this checks that the
composition is differentiable everywhere it should be)."""
import math
import re

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.testing import check_grads


def t32(a):
    return Tensor(np.asarray(a, np.float32))


@pytest.mark.parametrize("fn,ref", [
    (lambda x: ops.flip(x, (0, 2)), lambda x: x[::-1, :, ::-1]),
    (lambda x: ops.roll(x, (1, -2), (0, 2)), lambda x: np.roll(x, (1, -2), (0, 2))),
    (lambda x: ops.roll(x, 3), lambda x: np.roll(x, 3)),
    (lambda x: ops.norm(x), lambda x: np.linalg.norm(x)),
    (lambda x: ops.vector_norm(x, 3, 1), lambda x: (np.abs(x) ** 3).sum(1) ** (1 / 3)),
    (lambda x: ops.logsumexp(x, 1), lambda x: np.log(np.exp(x).sum(1))),
    (lambda x: ops.silu(x), lambda x: x / (1 + np.exp(-x))),
    (lambda x: ops.tensor_dot(x, x, ((0, 1), (0, 1))),
     lambda x: np.tensordot(x, x, ((0, 1), (0, 1)))),
    (lambda x: ops.unstack(x, 1)[2], lambda x: x[:, 2]),
    (lambda x: ops.chunk(x, 2, 2)[1], lambda x: x[:, :, 2:]),
    (lambda x: ops.repeat_elements(x, 2, 1), lambda x: x.repeat(2, 1)),
    (lambda x: ops.index_select(x, 1, Tensor(np.array([2, 0]))), lambda x: x[:, [2, 0]]),
    (lambda x: ops.masked_fill(x, x > 0, 0.5), lambda x: np.where(x > 0, 0.5, x)),
    (lambda x: ops.max(x, 1)[0], lambda x: x.max(1)),
    (lambda x: ops.min(x, 2, True)[0], lambda x: x.min(2, keepdims=True)),
    (lambda x: ops.flatten(x), lambda x: x.reshape(2, -1)),
    (lambda x: ops.swapaxes(x, 0, 2), lambda x: x.swapaxes(0, 2)),
    (lambda x: ops.L2Normalize(1)(x), lambda x: x / np.sqrt(np.maximum((x * x).sum(
        1, keepdims=True), 1e-4))),
    (lambda x: ops.deg2rad(x), lambda x: x * math.pi / 180),
])
def test_forward_and_gradients(fn, ref, rng):
    x = rng.standard_normal((2, 3, 4))
    np.testing.assert_allclose(fn(t32(x)).asnumpy(), ref(x.astype(np.float32)), rtol=1e-5,
                               atol=1e-5)
    check_grads(fn, (x,), order=2, rtol=1e-4)


def test_two_argument_ops(rng):
    a, b = rng.standard_normal(3), rng.standard_normal(4)
    np.testing.assert_allclose(ops.outer(t32(a), t32(b)).asnumpy(), np.outer(a, b), rtol=1e-5)
    check_grads(ops.outer, (a, b), order=2)
    m, n = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 4, 5))
    np.testing.assert_allclose(ops.bmm(t32(m), t32(n)).asnumpy(), m @ n, rtol=1e-5, atol=1e-5)


def test_creation_and_predicates():
    np.testing.assert_array_equal(ops.arange(2, 8, 2).asnumpy(), [2, 4, 6])
    assert ops.arange(3).dtype == ms.int64 and ops.arange(0.0, 1.0, 0.5).dtype == ms.float32
    np.testing.assert_allclose(ops.linspace(0, 1, 5).asnumpy(), np.linspace(0, 1, 5))
    np.testing.assert_array_equal(ops.eye(2, 3, ms.int32).asnumpy(), np.eye(2, 3))
    x, y = ops.meshgrid(Tensor([1, 2, 3]), Tensor([4, 5]))
    rx, ry = np.meshgrid([1, 2, 3], [4, 5])
    np.testing.assert_array_equal(x.asnumpy(), rx)
    np.testing.assert_array_equal(y.asnumpy(), ry)
    v = t32([1.0, np.nan, np.inf, -np.inf])
    np.testing.assert_array_equal(ops.isnan(v).asnumpy(), [False, True, False, False])
    np.testing.assert_array_equal(ops.isinf(v).asnumpy(), [False, False, True, True])
    np.testing.assert_array_equal(ops.isfinite(v).asnumpy(), [True, False, False, False])
    np.testing.assert_array_equal(ops.isclose(t32([1.0, 2.0]), t32([1.0 + 1e-7, 2.1])).asnumpy(),
                                  [True, False])
    np.testing.assert_array_equal(ops.Zeros()((2,), ms.float32).asnumpy(), [0, 0])
    np.testing.assert_array_equal(ops.Ones()((2,), ms.int32).asnumpy(), [1, 1])


def test_random_draws_follow_their_distributions():
    ms.set_seed(5)
    normal = ops.randn(20000).asnumpy()
    assert abs(normal.mean()) < 0.03 and abs(normal.std() - 1) < 0.03
    shifted = ops.normal((20000,), 3.0, 0.5).asnumpy()
    assert abs(shifted.mean() - 3) < 0.02 and abs(shifted.std() - 0.5) < 0.02
    ints = ops.randint(2, 5, (20000,)).asnumpy()
    assert set(np.unique(ints)) == {2, 3, 4} and ints.dtype == np.int64
    uni = ops.uniform((20000,), t32(-1.0), t32(1.0)).asnumpy()
    assert uni.min() >= -1 and uni.max() < 1 and abs(uni.mean()) < 0.02
    ms.set_seed(5)
    np.testing.assert_array_equal(ops.randn(20000).asnumpy(), normal)  # reproducible

    class Draw(ms.nn.Cell):
        def construct(self, x):
            return x + ops.standard_normal((3,))

    net, zero = Draw(), t32(np.zeros(3))
    assert not np.array_equal(net(zero).asnumpy(), net(zero).asnumpy())  # fresh every run


def test_functional_losses_match_the_cells(rng):
    logits = rng.standard_normal((4, 3)).astype(np.float32)
    labels = np.array([0, 2, 1, 2], np.int32)
    np.testing.assert_allclose(
        ops.cross_entropy(t32(logits), Tensor(labels)).asnumpy(),
        ms.nn.CrossEntropyLoss()(t32(logits), Tensor(labels)).asnumpy(), rtol=1e-6)
    probs = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    soft = ops.cross_entropy(t32(logits), t32(probs)).asnumpy()
    np.testing.assert_allclose(soft, -(probs * np.log(probs)).sum(1).mean(), rtol=1e-5)
    np.testing.assert_allclose(ops.mse_loss(t32(logits), t32(logits * 0), "sum").asnumpy(),
                               (logits ** 2).sum(), rtol=1e-5)


def np_bilinear_half_pixel(x, out_h, out_w):
    """Reference: sample at pixel centres, clamp at the borders (PyTorch's align_corners=False)."""
    def weights(n_in, n_out):
        src = np.maximum((np.arange(n_out) + 0.5) * n_in / n_out - 0.5, 0)
        low = np.minimum(np.floor(src).astype(int), n_in - 1)
        return low, np.minimum(low + 1, n_in - 1), src - low

    (r0, r1, fr), (c0, c1, fc) = weights(x.shape[2], out_h), weights(x.shape[3], out_w)
    rows = x[:, :, r0] * (1 - fr)[:, None] + x[:, :, r1] * fr[:, None]
    return rows[..., c0] * (1 - fc) + rows[..., c1] * fc


def test_interpolate_and_resize(rng):
    x = rng.standard_normal((1, 2, 3, 4))
    out = ops.interpolate(t32(x), size=(5, 7), mode="bilinear").asnumpy()
    np.testing.assert_allclose(out, np_bilinear_half_pixel(x, 5, 7), rtol=1e-5, atol=1e-5)
    corners = ops.interpolate(t32(x), size=(5, 7), mode="bilinear", align_corners=True)
    np.testing.assert_allclose(corners.asnumpy()[..., [0, -1], :][..., [0, -1]],
                               x[..., [0, -1], :][..., [0, -1]], rtol=1e-5, atol=1e-6)
    nearest = ops.ResizeNearestNeighbor((6, 8))(t32(x)).asnumpy()
    np.testing.assert_array_equal(nearest, x.astype(np.float32).repeat(2, 2).repeat(2, 3))
    legacy = ops.ResizeBilinearV2()(t32(x), (6, 8)).asnumpy()
    np.testing.assert_allclose(legacy[..., ::2, ::2], x, rtol=1e-5, atol=1e-6)
    check_grads(lambda v: ops.interpolate(v, scale_factor=2.0, mode="bilinear",
                                          recompute_scale_factor=True), (x,), order=2)


def test_gather_elements_atan2_diff(rng):
    x = rng.standard_normal((3, 4))
    index = np.array([[0, 3], [2, 2], [1, 0]])
    np.testing.assert_allclose(ops.gather_elements(t32(x), 1, Tensor(index)).asnumpy(),
                               np.take_along_axis(x, index, 1), rtol=1e-6)
    rows = np.array([[0, 2], [2, 1]])
    np.testing.assert_allclose(ops.GatherD()(t32(x), 0, Tensor(rows)).asnumpy(),
                               np.take_along_axis(x[:, :2], rows, 0), rtol=1e-6)
    check_grads(lambda v: ops.gather_elements(v, 1, Tensor(index)), (x,), order=2)
    y = rng.standard_normal((3, 4))
    np.testing.assert_allclose(ops.atan2(t32(x), t32(y)).asnumpy(), np.arctan2(x, y), rtol=1e-5,
                               atol=1e-6)
    check_grads(ops.atan2, (x, y), order=2, rtol=1e-4)
    np.testing.assert_allclose(ops.diff(t32(x), 2).asnumpy(), np.diff(x, 2), rtol=1e-5,
                               atol=1e-6)


def test_small_classes():
    x = t32([[1.0, -2.0, 3.0], [0.0, 5.0, -1.0]])
    assert ops.Flatten()(Tensor(np.ones((2, 3, 4)))).shape == (2, 12)
    np.testing.assert_array_equal(ops.ReduceAll(keep_dims=True)(x > -3, 1).asnumpy(),
                                  [[True], [True]])
    assert not bool(ops.all(x).asnumpy()) and bool(ops.any(x > 4).asnumpy())
    index, value = ops.ArgMaxWithValue(1)(x)
    np.testing.assert_array_equal(index.asnumpy(), [2, 1])
    np.testing.assert_array_equal(value.asnumpy(), [3.0, 5.0])
    np.testing.assert_array_equal(ops.ArgMinWithValue(1)(x)[0].asnumpy(), [1, 2])
    np.testing.assert_array_equal(ops.AddN()((x, x)).asnumpy(), 2 * x.asnumpy())
    assert ops.Size()(x) == 6
    np.testing.assert_array_equal(ops.ReverseV2((1,))(x).asnumpy(), x.asnumpy()[:, ::-1])
    np.testing.assert_array_equal(ops.ReverseV2([0])(x).asnumpy(), x.asnumpy()[::-1])
    for axis in (0.1, 1):  # MindSpore: a tuple or a list only
        with pytest.raises(TypeError, match="the type of 'axis' should be one of"):
            ops.ReverseV2(axis)
    np.testing.assert_array_equal(ops.tuple_to_array((1, 2)).asnumpy(), [1, 2])
    # MindSpore 2.10: the first element decides the dtype, int32 or float32, the rest cast
    for numbers, values, dtype in [((1, 2), [1, 2], ms.int32), ((1, 2.5), [1, 2], ms.int32),
                                   ((2.5, 1), [2.5, 1.0], ms.float32),
                                   ((1, 2 ** 40), [1, 0], ms.int32)]:
        out = ops.tuple_to_array(numbers)
        assert out.dtype == dtype and ops.TupleToArray()(numbers).dtype == dtype
        np.testing.assert_array_equal(out.asnumpy(), values)
    assert ops.scalar_to_tensor(2, ms.int32).dtype == ms.int32
    draws = ops.UniformInt()((1000,), Tensor(1, ms.int32), Tensor(4, ms.int32)).asnumpy()
    assert set(np.unique(draws)) == {1, 2, 3}


@pytest.mark.parametrize("equation,shapes", [
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ijk->kj", [(2, 3, 4)]),
    ("bij,bjk,k->bi", [(2, 3, 4), (2, 4, 5), (5,)]),
    ("ij,ij->", [(3, 4), (3, 4)]),
    ("ij,jk", [(3, 4), (4, 2)]),
    ("i,j->ij", [(3,), (2,)]),
    # a letter repeated within one operand: its diagonal (MindSpore 2.10 raises a RuntimeError
    # with no message for these; NumPy's meaning is the one taken)
    ("ii,j->j", [(3, 3), (2,)]),
    ("ii->i", [(3, 3)]),
    ("ii->", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("iij->ij", [(3, 3, 2)]),
    ("jii->j", [(2, 3, 3)]),
    ("ii,ij->j", [(3, 3), (3, 2)]),
])
def test_einsum(equation, shapes, rng):
    operands = [rng.standard_normal(s) for s in shapes]
    np.testing.assert_allclose(ops.einsum(equation, *[t32(x) for x in operands]).asnumpy(),
                               np.einsum(equation, *operands), rtol=1e-4, atol=1e-5)
    check_grads(lambda *xs: ops.einsum(equation, *xs), tuple(operands), order=2, rtol=1e-4)
    assert np.allclose(ops.Einsum(equation)([t32(x) for x in operands]).asnumpy(),
                       np.einsum(equation, *operands), rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="repeated in the output"):
        ops.einsum("i->ii", t32(np.ones(2)))
    with pytest.raises(ValueError, match=r"letter 'i' repeated in 'ii' has sizes 2 and 3"):
        ops.einsum("ii->i", t32(np.ones((2, 3))))
    with pytest.raises(ValueError, match=r"the term 'ij' names 2 axes, but its operand has "
                                         r"shape \(3,\)"):
        ops.einsum("ij,jk->ik", t32(np.ones(3)), t32(np.ones((3, 2))))


def test_cumprod_and_multinomial(rng):
    x = rng.standard_normal((2, 4))
    x[0, 2] = 0.0
    np.testing.assert_allclose(ops.cumprod(t32(x), 1).asnumpy(), np.cumprod(x, 1), rtol=1e-5,
                               atol=1e-6)
    smooth = rng.uniform(0.5, 1.5, (2, 3)) * np.sign(rng.standard_normal((2, 3)))
    check_grads(lambda v: ops.cumprod(v, 0), (smooth,), order=2, rtol=1e-4)
    ms.set_seed(0)
    draws = ops.multinomial(t32([[0.1, 0.0, 0.9], [1.0, 1.0, 2.0]]), 4000).asnumpy()
    np.testing.assert_allclose(np.bincount(draws[0], minlength=3) / 4000, [0.1, 0.0, 0.9],
                               atol=0.03)
    np.testing.assert_allclose(np.bincount(draws[1], minlength=3) / 4000, [0.25, 0.25, 0.5],
                               atol=0.03)


def test_gather_nd_and_scatters(rng):
    x = rng.standard_normal((2, 3, 4))
    idx = np.array([[0, 1], [1, 2], [0, 1]])
    np.testing.assert_allclose(ops.gather_nd(t32(x), Tensor(idx)).asnumpy(),
                               x[idx[:, 0], idx[:, 1]], rtol=1e-6)
    full = np.array([[1, 2, 3], [0, 1, 1]])
    np.testing.assert_allclose(ops.gather_nd(t32(x), Tensor(full)).asnumpy(),
                               [x[1, 2, 3], x[0, 1, 1]], rtol=1e-6)
    updates = rng.standard_normal((3, 4))
    added = x.copy()
    np.add.at(added, (idx[:, 0], idx[:, 1]), updates)
    np.testing.assert_allclose(ops.tensor_scatter_add(t32(x), Tensor(idx), t32(updates))
                               .asnumpy(), added, rtol=1e-5, atol=1e-6)
    once = idx[:2]
    replaced = x.copy()
    replaced[once[:, 0], once[:, 1]] = updates[:2]
    np.testing.assert_allclose(ops.tensor_scatter_update(t32(x), Tensor(once), t32(updates[:2]))
                               .asnumpy(), replaced, rtol=1e-5, atol=1e-6)
    check_grads(lambda a, u: ops.tensor_scatter_update(a, Tensor(once), u), (x, updates[:2]),
                order=2)
    check_grads(lambda a: ops.gather_nd(a, Tensor(idx)), (x,), order=2)


def test_loss_primitive_classes():
    log_probs = np.log(np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]], np.float32))
    labels, weight = np.array([1, 0, 1], np.int32), np.array([1.0, 2.0], np.float32)
    loss, total = ops.NLLLoss()(t32(log_probs), Tensor(labels), t32(weight))
    picked = weight[labels]
    np.testing.assert_allclose(loss.asnumpy(), -(picked * log_probs[np.arange(3), labels]).sum()
                               / picked.sum(), rtol=1e-6)
    np.testing.assert_allclose(total.asnumpy(), picked.sum())
    bce = ops.operations.BinaryCrossEntropy("sum")(t32([0.2, 0.9]), t32([0.0, 1.0]))
    np.testing.assert_allclose(bce.asnumpy(), -(np.log(0.8) + np.log(0.9)), rtol=1e-6)


def test_partial_fixes_keywords_as_in_graph_mode():
    """MindSpore's statements tutorial: `ops.partial(add, x=2)` in a jit function, then
    `add_(y=3)` is 5; later keywords override the fixed ones."""
    def add(x, y):
        return x + y

    @ms.jit
    def fixed():
        add_ = ops.partial(add, x=2)
        return add_(y=3), add_(y=5), add_(x=1, y=1)

    assert fixed() == (5, 7, 2)
    assert ops.partial(add, 10)(y=Tensor(np.float32(1.5))).asnumpy() == 11.5


def test_arg_with_value_indices_are_int64():
    """MindSpore 2.10: ArgMaxWithValue()(x) and ArgMinWithValue(1, True)(x) give Int64 indices
    ([1, 0, 0] and [[0], [1]] for this x)."""
    x = t32([[1.0, 5.0, 3.0], [7.0, 2.0, 2.0]])
    index, value = ops.ArgMaxWithValue()(x)
    assert index.dtype == ms.int64 and index.asnumpy().tolist() == [1, 0, 0]
    assert value.asnumpy().tolist() == [7.0, 5.0, 3.0]
    index, value = ops.ArgMinWithValue(1, True)(x)
    assert index.dtype == ms.int64 and index.asnumpy().tolist() == [[0], [1]]
    assert value.asnumpy().tolist() == [[1.0], [2.0]]


def test_repeat_elements_checks_its_arguments_as_mindspore():
    """MindSpore 2.10's errors; Tensor.repeat_interleave (NumPy's repeat) takes 0 and bools."""
    x = Tensor(np.arange(6).reshape(2, 3), ms.int32)
    for rep, axis, error, words in ((0, 0, ValueError, "'rep' must be in range of (0, "),
                                    (1.5, 0, TypeError, "'rep' must be 'int'"),
                                    (True, 0, TypeError, "'rep' must be 'int'"),
                                    (2, 1.0, TypeError, "the type of 'axis' must be 'int'"),
                                    (2, 2, ValueError, "'axis' must be in range of [-2, 2)")):
        with pytest.raises(error, match=re.escape(words)):
            ops.repeat_elements(x, rep, axis)
    with pytest.raises(ValueError, match="rank of x should be less than or equal to 7"):
        ops.repeat_elements(Tensor(np.zeros((1,) * 8, np.float32)), 1, 0)
    with pytest.raises(TypeError, match="Tensor of numbers"):
        ops.repeat_elements(Tensor([True]), 2)
    assert x.repeat_interleave(0, 0).shape == (0, 3)
    assert Tensor([True, False]).repeat_interleave(2).asnumpy().tolist() == \
        [True, True, False, False]


def test_cumprod_scans_long_axes_with_exact_gradients():
    """A log-step scan: a 2048-long axis costs n log n, not an n x n mask, and the gradients
    with zeros in the input are exact to the second order."""
    x = np.random.default_rng(3).uniform(0.9, 1.1, size=(16, 2048)).astype(np.float32)
    np.testing.assert_allclose(ops.cumprod(Tensor(x), 1).asnumpy(), np.cumprod(x, 1),
                               rtol=1e-5)
    small = np.random.default_rng(4).normal(size=(3, 9))
    small[1, 4] = small[2, 0] = 0.0
    np.testing.assert_array_equal(ops.cumprod(Tensor(small), -1).asnumpy() == 0,
                                  np.cumprod(small, -1) == 0)
    check_grads(lambda t: ops.cumprod(t, 1), (small,), order=2)
