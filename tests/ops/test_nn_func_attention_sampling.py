"""grid_sample, flash_attention_score, multi_head_attention_forward and the nn classes built as
compositions (ops/function/nn_func.py, their classes in ops/operations/nn_ops.py):
forward values against NumPy references, eagerly and compiled, and derivatives against finite
differences at orders 1 and 2."""
import itertools

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.primitives.errors import ArgumentValueError, ShapeError, UnsupportedError
from cellgraph.testing import check_grads

from .nn_helpers import F64, assert_both

rng = np.random.default_rng(11)  # this module's own draws: other modules' inputs stay put


def normal(*shape):
    return rng.standard_normal(shape)


def _reflect(c, low, high):
    span = high - low
    if span <= 0:
        return np.zeros_like(c)
    d = np.abs(c - low)
    flips = np.floor(d / span)
    extra = d - flips * span
    return np.where(flips % 2 == 0, extra + low, span - extra + low)


def grid_sample_ref(x, grid, mode, padding, align):
    """A per-point loop over PyTorch's/MindSpore's grid sampling rules, 4-D."""
    n, c, h, w = x.shape
    out = np.zeros((n, c) + grid.shape[1:3])
    for b, i, j in itertools.product(range(n), *map(range, grid.shape[1:3])):
        coords = []
        for g, size in ((grid[b, i, j, 1], h), (grid[b, i, j, 0], w)):
            p = (g + 1) / 2 * (size - 1) if align else ((g + 1) * size - 1) / 2
            if padding == "border":
                p = np.clip(p, 0, size - 1)
            elif padding == "reflection":
                p = _reflect(p, 0, size - 1) if align else np.clip(
                    _reflect(p, -0.5, size - 0.5), 0, size - 1)
            coords.append(p)
        if mode == "nearest":
            corners = [((np.round(coords[0]), np.round(coords[1])), 1.0)]
        else:
            y0, x0 = np.floor(coords[0]), np.floor(coords[1])
            fy, fx = coords[0] - y0, coords[1] - x0
            corners = [((y0 + dy, x0 + dx), (fy if dy else 1 - fy) * (fx if dx else 1 - fx))
                       for dy in (0, 1) for dx in (0, 1)]
        for (yy, xx), weight in corners:
            if 0 <= yy <= h - 1 and 0 <= xx <= w - 1:
                out[b, :, i, j] += weight * x[b, :, int(yy), int(xx)]
    return out


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_grid_sample_matches_reference(mode, padding, align):
    x, grid = normal(2, 3, 4, 5), rng.uniform(-1.4, 1.4, (2, 3, 2, 2))
    expected = grid_sample_ref(x, grid, mode, padding, align)
    assert_both(lambda x, g: ops.grid_sample(x, g, mode, padding, align), (x, grid), expected,
                **F64)
    got = ops.GridSampler2D(mode, padding, align)(Tensor(x), Tensor(grid)).asnumpy()
    np.testing.assert_allclose(got, expected, **F64)


@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
def test_grid_sample_gradients_wrt_input_and_grid(padding):
    # away from integer coordinates, where the bilinear weights have kinks
    x = normal(1, 2, 3, 4)
    grid = np.array([[[[-0.63, 0.41], [0.27, -0.18]], [[1.21, 0.57], [-1.13, -0.36]]]])
    for align in (False, True):
        check_grads(lambda x, g, a=align: ops.grid_sample(x, g, "bilinear", padding, a), (x, grid),
                    order=2)


def test_grid_sample_3d_is_trilinear():
    x = normal(1, 2, 3, 4, 5)
    grid = rng.uniform(-0.9, 0.9, (1, 2, 1, 2, 3))
    out = ops.grid_sample(Tensor(x), Tensor(grid), align_corners=True).asnumpy()
    for i, k in itertools.product(range(2), range(2)):
        gx, gy, gz = grid[0, i, 0, k]
        p = [(gz + 1) / 2 * 2, (gy + 1) / 2 * 3, (gx + 1) / 2 * 4]
        lo = [int(np.floor(v)) for v in p]
        want = 0
        for corner in itertools.product((0, 1), repeat=3):
            weight = np.prod([(p[a] - lo[a]) if corner[a] else 1 - (p[a] - lo[a])
                              for a in range(3)])
            want = want + weight * x[0, :, lo[0] + corner[0], lo[1] + corner[1],
                                     lo[2] + corner[2]]
        np.testing.assert_allclose(out[0, :, i, 0, k], want, **F64)
    check_grads(lambda x, g: ops.grid_sample(x, g), (x, grid), order=1)


def test_grid_sample_checks_its_arguments():
    x, grid = Tensor(normal(1, 1, 3, 3)), Tensor(normal(1, 2, 2, 2))
    with pytest.raises(ArgumentValueError, match="grid_sample.*mode"):
        ops.grid_sample(x, grid, "bicubic")
    with pytest.raises(ArgumentValueError, match="padding_mode"):
        ops.grid_sample(x, grid, padding_mode="circular")
    with pytest.raises(ShapeError, match="grid_sample"):
        ops.grid_sample(x, Tensor(normal(1, 2, 2, 3)))


def attention_ref(q, k, v, scale, discard=None, shift=None):
    """q (B, N, S1, D), k and v (B, N2, S2, D); discard True where masked."""
    groups = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, groups, 1), np.repeat(v, groups, 1)
    s = scale * q @ k.swapaxes(-1, -2) + (0 if shift is None else shift)
    if discard is not None:
        s = np.where(discard, -np.inf, s)
    p = np.exp(s - s.max(-1, keepdims=True))
    return (p / p.sum(-1, keepdims=True)) @ v


def _bsh(t):
    b, n, s, d = t.shape
    return t.transpose(0, 2, 1, 3).reshape(b, s, n * d)


def test_flash_attention_score_layouts_masks_and_groups():
    b, n, s1, s2, d = 2, 4, 3, 5, 4
    q, k, v = normal(b, n, s1, d), normal(b, 2, s2, d), normal(b, 2, s2, d)
    mask = rng.uniform(size=(b, 1, s1, s2)) > 0.7
    mask[..., 0] = False  # no row entirely masked
    shift = normal(1, n, s1, s2)
    want = attention_ref(q, k, v, 0.5, mask, shift)
    assert_both(lambda q, k, v, m, p: ops.flash_attention_score(
        q, k, v, n, real_shift=p, attn_mask=m, scalar_value=0.5, input_layout="BNSD"),
        (q, k, v, mask.astype(np.uint8), shift), want, **F64)
    got = ops.flash_attention_score(Tensor(_bsh(q)), Tensor(_bsh(k)), Tensor(_bsh(v)), n,
                                    attn_mask=Tensor(mask), scalar_value=0.5)
    np.testing.assert_allclose(got.asnumpy(), _bsh(attention_ref(q, k, v, 0.5, mask)), **F64)
    causal = attention_ref(q, k, v, 0.5, np.triu(np.ones((s1, s2), bool), 1))
    got = ops.flash_attention_score(Tensor(q), Tensor(k), Tensor(v), n, scalar_value=0.5,
                                    input_layout="BNSD", sparse_mode=2)
    np.testing.assert_allclose(got.asnumpy(), causal, **F64)
    check_grads(lambda q, k, v: ops.flash_attention_score(
        q, k, v, n, attn_mask=Tensor(mask), scalar_value=0.5, input_layout="BNSD"),
        (q, k, v), order=2)


def test_flash_attention_score_class_and_dropout():
    b, n, s, d = 1, 2, 3, 4
    q, k, v = normal(b, s, n * d), normal(b, s, n * d), normal(b, s, n * d)
    fa = ops.operations.nn_ops.FlashAttentionScore(n, scale_value=0.3)
    row_max, row_sum, _, out = fa(Tensor(q), Tensor(k), Tensor(v))
    qn, kn, vn = (t.reshape(b, s, n, d).transpose(0, 2, 1, 3) for t in (q, k, v))
    np.testing.assert_allclose(out.asnumpy(), _bsh(attention_ref(qn, kn, vn, 0.3)), **F64)
    scores = 0.3 * qn @ kn.swapaxes(-1, -2)
    assert row_max.shape == (b, n, s, 8)
    np.testing.assert_allclose(row_max.asnumpy()[..., 0], scores.max(-1), rtol=1e-6)
    np.testing.assert_allclose(row_sum.asnumpy()[..., 0],
                               np.exp(scores - scores.max(-1, keepdims=True)).sum(-1), rtol=1e-6)
    # keep_prob with a given bit mask: bit j of byte j // 8 keeps key position j
    keep = np.array([0b101], np.uint8).reshape(1, 1, 1, 1).repeat(2, 1).repeat(3, 2)
    dropped = ops.flash_attention_score(Tensor(qn), Tensor(kn), Tensor(vn), n,
                                        drop_mask=Tensor(keep), keep_prob=0.5,
                                        scalar_value=0.3, input_layout="BNSD").asnumpy()
    p = np.exp(scores - scores.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True) * np.array([1, 0, 1]) / 0.5
    np.testing.assert_allclose(dropped, p @ vn, **F64)
    with pytest.raises(UnsupportedError, match="TND|prefix"):
        ops.flash_attention_score(Tensor(q), Tensor(k), Tensor(v), n, prefix=[1])


def test_multi_head_attention_forward_matches_the_layer():
    length, batch, embed, heads = 3, 2, 4, 2
    layer = ms.nn.MultiheadAttention(embed, heads)
    q, k, v = (Tensor(normal(length, batch, embed).astype(np.float32)) for _ in range(3))
    want, want_weights = layer(q, k, v)
    fn = ops.function.nn_func.multi_head_attention_forward
    got, weights = fn(q, k, v, embed, heads, layer.in_proj_weight, layer.in_proj_bias, None,
                      None, False, 0.0, layer.out_proj.weight, layer.out_proj.bias)
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(weights.asnumpy(), want_weights.asnumpy(), rtol=1e-5, atol=1e-6)


def test_unfold_and_im2col():
    x = normal(2, 3, 5, 4)
    cols = ops.unfold(Tensor(x), (2, 3), 1, 1, 2).asnumpy()
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = [padded[:, :, i:i + 2, j:j + 3].reshape(2, -1)
               for i in range(0, 6, 2) for j in range(0, 4, 2)]
    np.testing.assert_allclose(cols, np.stack(windows, -1), **F64)
    blocks = ops.Im2Col((2, 3), 2, 1, 1)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(blocks, cols.reshape(2, 3, 6, -1), **F64)
    check_grads(lambda x: ops.unfold(x, 2, stride=1), (x,), order=2)
    patches = ms.nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1])(Tensor(x)).asnumpy()
    # (N, kh*kw*C, rows, cols): channel fastest within a window position
    np.testing.assert_allclose(patches[:, :3, 0, 0], x[:, :, 0, 0], **F64)
    np.testing.assert_allclose(patches[:, 3:6, 1, 2], x[:, :, 1, 3], **F64)


def test_rms_norm_and_gumbel_softmax():
    x, g = normal(2, 3, 4), normal(4)
    ref = x / np.sqrt((x ** 2).mean(-1, keepdims=True) + 1e-6) * g
    assert_both(lambda x, g: ops.RmsNorm()(x, g)[0], (x, g), ref, **F64)
    check_grads(lambda x, g: ops.RmsNorm(1e-3)(x, g)[0], (x, g), order=2)
    ms.set_seed(3)
    hard = ops.gumbel_softmax(Tensor(x), 0.5, hard=True).asnumpy()
    assert set(np.unique(hard)) <= {0.0, 1.0} and np.all(hard.sum(-1) == 1)
    soft = ops.gumbel_softmax(Tensor(x), 2.0).asnumpy()
    np.testing.assert_allclose(soft.sum(-1), 1.0, rtol=1e-12)


def test_conv3d_and_conv2d_transpose_classes():
    x, w = normal(1, 2, 4, 5, 4), normal(3, 2, 2, 3, 2)
    out = ops.Conv3D(3, (2, 3, 2), pad_mode="pad", pad=1, stride=2)(Tensor(x), Tensor(w))
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1), (1, 1)))
    d, h, wd = out.shape[2:]
    want = np.zeros((1, 3, d, h, wd))
    for i, j, k in itertools.product(range(d), range(h), range(wd)):
        patch = padded[0, :, 2 * i:2 * i + 2, 2 * j:2 * j + 3, 2 * k:2 * k + 2]
        want[0, :, i, j, k] = np.tensordot(w, patch, 4)
    np.testing.assert_allclose(out.asnumpy(), want, **F64)
    check_grads(lambda x, w: ops.Conv3D(3, (2, 3, 2))(x, w), (x, w), order=2)
    layer = ms.mint.nn.Conv3d(2, 3, (2, 3, 2), stride=2, padding=(1, 1, 1), bias=False,
                              dtype=ms.float64)
    layer.weight.set_data(Tensor(w))
    np.testing.assert_allclose(layer(Tensor(x)).asnumpy(), want, **F64)
    # Conv2DTranspose is the adjoint of Conv2D: <conv(x), dy> = <x, convT(dy)>
    x2, w2 = normal(2, 3, 6, 5), normal(4, 3, 3, 3)
    y = ops.Conv2D(4, 3, pad_mode="pad", pad=1, stride=2)(Tensor(x2), Tensor(w2)).asnumpy()
    dy = normal(*y.shape)
    back = ops.Conv2DTranspose(4, 3, pad_mode="pad", pad=1, stride=2)(
        Tensor(dy), Tensor(w2), x2.shape).asnumpy()
    np.testing.assert_allclose(np.sum(y * dy), np.sum(x2 * back), rtol=1e-10)


def ctc_ref(log_probs, target, t_len, blank=0):
    ext = [blank]
    for label in target:
        ext += [label, blank]
    alpha = np.full(len(ext), -np.inf)
    alpha[:2] = log_probs[0, ext[:2]]
    for t in range(1, t_len):
        new = np.full_like(alpha, -np.inf)
        for s, label in enumerate(ext):
            terms = [alpha[s]] + ([alpha[s - 1]] if s else [])
            if s > 1 and label != blank and label != ext[s - 2]:
                terms.append(alpha[s - 2])
            new[s] = np.logaddexp.reduce(terms) + log_probs[t, label]
        alpha = new
    return -np.logaddexp(alpha[-1], alpha[-2])


def test_ctc_loss_v2():
    t_len, batch, classes = 6, 2, 4
    logits = normal(t_len, batch, classes)
    log_probs = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    targets = np.array([[1, 2, 2], [3, 1, 0]], np.int32)
    lengths, target_lengths = np.array([6, 5], np.int32), np.array([3, 2], np.int32)
    loss, log_alpha = ops.CTCLossV2()(Tensor(log_probs), Tensor(targets), Tensor(lengths),
                                      Tensor(target_lengths))
    want = [ctc_ref(log_probs[:, b], targets[b, :target_lengths[b]], lengths[b])
            for b in range(batch)]
    np.testing.assert_allclose(loss.asnumpy(), want, rtol=1e-10)
    assert log_alpha.shape == (batch, t_len, 7)
    mean, _ = ops.ctc_loss(Tensor(log_probs), Tensor(targets), Tensor(lengths),
                           Tensor(target_lengths))
    np.testing.assert_allclose(mean.asnumpy(), np.mean(np.array(want) / target_lengths),
                               rtol=1e-10)
    total, _ = ops.CTCLossV2(reduction="sum")(Tensor(log_probs), Tensor(targets),
                                             Tensor(lengths), Tensor(target_lengths))
    np.testing.assert_allclose(total.asnumpy(), np.sum(want), rtol=1e-10)
    check_grads(lambda lp: ops.CTCLossV2()(lp, Tensor(targets), Tensor(lengths),
                                           Tensor(target_lengths))[0], (log_probs,), order=2)


def test_auto_generate_internal_prims():
    from cellgraph.ops.auto_generate import gen_ops_prim
    from cellgraph.ops.auto_generate import pyboost_inner_prim as inner

    x = normal(2, 4)
    np.testing.assert_allclose(inner.elu_ext_impl(Tensor(x), 1.0).asnumpy(),
                               np.where(x > 0, x, np.expm1(x)), **F64)
    np.testing.assert_allclose(inner.glu_impl(Tensor(x), -1).asnumpy(),
                               x[:, :2] / (1 + np.exp(-x[:, 2:])), **F64)
    log_p = np.log(np.full((3, 4), 0.25))
    weight = np.array([1.0, 2.0, 3.0, 4.0])
    loss, total = inner.nllloss_impl(Tensor(log_p), Tensor(np.array([1, 3, 1], np.int32)),
                                     Tensor(weight), "sum", -100)
    np.testing.assert_allclose(total.asnumpy(), 8.0)
    np.testing.assert_allclose(loss.asnumpy(), -np.log(0.25) * 8.0, **F64)
    out, mask = gen_ops_prim.dropout_ext_op(Tensor(np.ones((50, 50))), 0.25, 0, 0)
    kept = mask.asnumpy()
    np.testing.assert_allclose(out.asnumpy(), kept / 0.75, **F64)
    assert 0.6 < kept.mean() < 0.9
    draws = gen_ops_prim.bernoulli_ext_op(Tensor(np.full((400,), 0.3)), 0, 0).asnumpy()
    assert set(np.unique(draws)) <= {0.0, 1.0} and 0.2 < draws.mean() < 0.4
    ints = gen_ops_prim.randint_op(2, 5, (100,), 0, 0).asnumpy()
    assert ints.min() >= 2 and ints.max() < 5
    picks = gen_ops_prim.multinomial_ext_op(Tensor(np.array([[0.0, 1.0, 0.0]])), 3, True, 0, 0)
    assert (picks.asnumpy() == 1).all()


def test_auto_generate_in_place_random_fills():
    from cellgraph.ops.auto_generate import gen_ops_prim

    ms.set_seed(5)
    t = Tensor(np.zeros((2000,), np.float32))
    assert gen_ops_prim.inplace_normal_op(t, 2.0, 0.5, 0, 0) is t
    assert abs(t.asnumpy().mean() - 2.0) < 0.05 and abs(t.asnumpy().std() - 0.5) < 0.05
    gen_ops_prim.inplace_uniform_op(t, -1.0, 3.0, 0, 0)
    assert t.asnumpy().min() >= -1.0 and t.asnumpy().max() < 3.0 and t.asnumpy().std() > 1.0

    class Fill(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = ms.Parameter(Tensor(np.zeros((500,), np.float32)), name="p")
            self.fill = gen_ops_prim.InplaceUniform()

        def construct(self):
            self.fill(self.p, 1.0, 2.0, 0, 0)
            return self.p.sum()

    cell = Fill()
    total = cell().asnumpy()  # graph mode: the Parameter is written after the run
    values = cell.p.asnumpy()
    assert values.min() >= 1.0 and values.max() < 2.0
    np.testing.assert_allclose(total, values.sum(), rtol=1e-5)
    with pytest.raises(UnsupportedError, match="InplaceNormal"):
        ms.jit(lambda x: gen_ops_prim.inplace_normal_op(x, 0.0, 1.0, 0, 0))(t)


def stft_ref(x, n_fft, hop, win, window, center=True, onesided=True, normalized=False):
    if center:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)], mode="reflect")
    left = (n_fft - win) // 2
    full = np.zeros(n_fft)
    full[left:left + win] = np.ones(win) if window is None else window
    count = 1 + (x.shape[-1] - n_fft) // hop
    frames = np.stack([x[..., t * hop:t * hop + n_fft] * full for t in range(count)], -2)
    spectra = np.fft.fft(frames, axis=-1)
    if onesided:
        spectra = spectra[..., :n_fft // 2 + 1]
    if normalized:
        spectra = spectra / np.sqrt(n_fft)
    return np.swapaxes(spectra, -1, -2)


def test_stft_matches_the_fft_of_windowed_frames():
    x, w = normal(2, 40), rng.uniform(size=10)
    got = ops.stft(Tensor(x), 16, 5, 10, Tensor(w), return_complex=True).asnumpy()
    np.testing.assert_allclose(got, stft_ref(x, 16, 5, 10, w), atol=1e-12)
    as_real = ms.jit(lambda x: ops.stft(x, 8, normalized=True, onesided=False,
                                        return_complex=False))(Tensor(x[0])).asnumpy()
    want = stft_ref(x[0], 8, 2, 8, None, onesided=False, normalized=True)
    np.testing.assert_allclose(as_real, np.stack((want.real, want.imag), -1), atol=1e-12)
    z = x + 1j * normal(2, 40)  # complex signals: two-sided and complex by default
    np.testing.assert_allclose(ops.stft(Tensor(z), 8, 3).asnumpy(),
                               stft_ref(z, 8, 3, 8, None, onesided=False), atol=1e-12)
    primitive = ops.STFT(8, 3, 8, False, True, True)(Tensor(x), Tensor(np.hanning(8)))
    np.testing.assert_allclose(primitive.asnumpy(),
                               stft_ref(x, 8, 3, 8, np.hanning(8), center=False), atol=1e-12)
    check_grads(lambda x, w: ops.stft(x, 8, 3, 6, w, return_complex=False),
                (x[0, :20], w[:6]), order=2)


def _bilinear_point(img, y, x):
    y0, x0 = int(np.floor(y)), int(np.floor(x))
    value = 0.0
    for yy, xx in itertools.product((y0, y0 + 1), (x0, x0 + 1)):
        if 0 <= yy < img.shape[0] and 0 <= xx < img.shape[1]:
            value += (1 - abs(y - yy)) * (1 - abs(x - xx)) * img[yy, xx]
    return value


def deformable_ref(x, w, off, stride, pad, dilation, groups, dg):
    _, c, _, _ = x.shape
    out_c, c_per_group, kh, kw = w.shape
    taps = kh * kw
    out = np.zeros((x.shape[0], out_c) + off.shape[2:])
    for b, o, i, j in itertools.product(range(x.shape[0]), range(out_c), *map(range,
                                                                             off.shape[2:])):
        for ci, a, e in itertools.product(range(c_per_group), range(kh), range(kw)):
            channel = (o // (out_c // groups)) * c_per_group + ci
            base = (channel // (c // dg)) * taps + a * kw + e
            y = i * stride[0] - pad[0] + a * dilation[0] + off[b, dg * taps + base, i, j]
            xx = j * stride[1] - pad[2] + e * dilation[1] + off[b, base, i, j]
            out[b, o, i, j] += w[o, ci, a, e] * _bilinear_point(x[b, channel], y, xx) \
                * off[b, 2 * dg * taps + base, i, j]
    return out


def test_deformable_conv2d():
    x, w = normal(1, 4, 5, 6), normal(6, 2, 3, 2)
    off = rng.uniform(-0.8, 0.8, (1, 3 * 2 * 6, 3, 3))
    off[:, 24:] = rng.uniform(0.2, 1.0, (1, 12, 3, 3))
    args = {"kernel_size": (3, 2), "strides": (1, 1, 1, 2), "padding": (1, 1, 0, 1),
            "dilations": (1, 1, 2, 1), "groups": 2, "deformable_groups": 2}
    assert_both(lambda x, w, o: ops.deformable_conv2d(x, w, o, **args), (x, w, off),
                deformable_ref(x, w, off, (1, 2), (1, 1, 0, 1), (2, 1), 2, 2), **F64)
    # zero offsets and unit masks: an ordinary convolution
    plain = np.concatenate([np.zeros((1, 24, 3, 3)), np.ones((1, 12, 3, 3))], 1)
    got = ops.deformable_conv2d(Tensor(x), Tensor(w), Tensor(plain), **args).asnumpy()
    want = ops.conv2d(Tensor(x), Tensor(w), None, (1, 2), "pad", (1, 1, 0, 1), (2, 1),
                      2).asnumpy()
    np.testing.assert_allclose(got, want, **F64)
    small = normal(1, 2, 4, 4), normal(2, 2, 2, 2)
    offsets = rng.uniform(-0.4, 0.4, (1, 12, 3, 3)) + 0.13
    check_grads(lambda x, w, o: ops.deformable_conv2d(x, w, o, (2, 2), (1, 1, 1, 1),
                                                      (0, 0, 0, 0)), (*small, offsets), order=2)


def test_vmap_of_the_compositions_matches_a_loop():
    xs, grids = normal(3, 1, 2, 4, 4), rng.uniform(-1.2, 1.2, (3, 1, 2, 3, 2))
    sample = ops.vmap(lambda x, g: ops.grid_sample(x, g, padding_mode="border"))
    got = sample(Tensor(xs), Tensor(grids)).asnumpy()
    for i in range(3):
        np.testing.assert_allclose(got[i], ops.grid_sample(
            Tensor(xs[i]), Tensor(grids[i]), padding_mode="border").asnumpy(), **F64)
    q, k, v = normal(3, 1, 2, 3, 4), normal(3, 1, 2, 5, 4), normal(3, 1, 2, 5, 4)
    attend = ops.vmap(lambda q, k, v: ops.flash_attention_score(
        q, k, v, 2, scalar_value=0.5, input_layout="BNSD", sparse_mode=3))
    got = attend(Tensor(q), Tensor(k), Tensor(v)).asnumpy()
    for i in range(3):
        np.testing.assert_allclose(got[i], attention_ref(
            q[i], k[i], v[i], 0.5, np.triu(np.ones((3, 5), bool), 1 + 2)), **F64)
