"""make_gen_ops_fixtures.py's cases of gen_ops_prim's gradient classes of padding, resizing,
pooling, normalization, convolution, embedding and linear algebra
(cellgraph/ops/auto_generate/nn_grad_classes.py). Where MindSpore's CPU build cannot run a
class, the reference is MindSpore's own reverse mode through the forward (mindspore.vjp)."""
import mindspore as ms
import numpy as np
from gen_ops_case_values import reference, t, tup

RNG = np.random.default_rng(5)
F = ms.ops
SIGNAL = t(RNG.standard_normal((1, 2, 5)))
IMAGE = t(RNG.standard_normal((1, 2, 4, 4)))
VOLUME = t(RNG.standard_normal((1, 1, 2, 3, 3)))


def _vjp_at(doc, forward, grad_at, dout_at, *, zeros_of=None):
    """A reference: mindspore.vjp of forward(x) at the argument in position `grad_at` (or at
    zeros of the shape the argument in position `zeros_of` gives), for the output gradient in
    position `dout_at`; forward takes the arguments' values by position as `args`."""
    def call(*args):
        x = (ms.ops.zeros(tuple(args[zeros_of]), ms.float32) if zeros_of is not None
             else args[grad_at])
        _, pullback = ms.vjp(lambda v: forward(v, args), x)
        out = pullback(args[dout_at])
        return out[0] if isinstance(out, tuple) and len(out) == 1 else out

    return reference(f"mindspore.vjp of {doc}", call)


def _pad(mode):
    return _vjp_at(f"ops.pad({mode!r})", lambda x, a: F.pad(x, a[2], mode), 1, 0)


def _resize(mode, size_at=2, corners_at=None):
    return _vjp_at(f"ops.interpolate({mode!r})", lambda x, a: F.interpolate(
        x, a[size_at], mode=mode, align_corners=None if corners_at is None else a[corners_at]),
        None, 0, zeros_of=1)


def _layer_norm(x, gamma, beta):
    mean = x.mean(axis=-1, keep_dims=True)
    return (x - mean) * F.rsqrt(((x - mean) ** 2).mean(axis=-1, keep_dims=True) + 1e-5) \
        * gamma + beta


def _layer_norm_grad(dy, x, shape, mean, variance, gamma, beta):
    _, pullback = ms.vjp(_layer_norm, x, gamma, beta)
    return pullback(dy)


def _conv_grad(dout, x, w, bias, stride, padding, dilation, transposed, output_padding, groups,
               output_mask):
    _, pullback = ms.vjp(lambda a, b, c: F.conv2d(a, b, None, stride, "pad", padding, dilation,
                                                  groups) + c.reshape(1, -1, 1, 1), x, w, bias)
    return pullback(dout)


def _embedding_grad(grad, indices, num_weights, padding_idx):
    table = ms.ops.zeros((num_weights, grad.shape[-1]), ms.float32)
    _, pullback = ms.vjp(lambda w: F.gather(w, indices, 0), table)
    out = pullback(grad)[0]
    return F.tensor_scatter_update(out, ms.Tensor([[padding_idx]]), ms.ops.zeros(
        (1, grad.shape[-1]), ms.float32))


def _repeat_grad(dout, repeats, dim):
    x = ms.ops.zeros((2, 2), ms.float32)
    return ms.vjp(lambda v: F.repeat_interleave(v, repeats, dim), x)[1](dout)[0]


GN_X = RNG.standard_normal((2, 4, 3)).astype(np.float32)
GN_GROUPS = GN_X.reshape(2, 2, -1)


def _window_argmax(image):
    """The flat in-plane index of each 2x2 window's maximum (stride 2)."""
    n, c, h, w = image.shape
    out = np.zeros((n, c, h // 2, w // 2), np.int64)
    for i in range(h // 2):
        for j in range(w // 2):
            window = image[:, :, 2 * i:2 * i + 2, 2 * j:2 * j + 2].reshape(n, c, 4)
            k = window.argmax(-1)
            out[:, :, i, j] = (2 * i + k // 2) * w + 2 * j + k % 2
    return out

# (case id, class, constructor keyword arguments, call arguments, reference or None)
CASES = [
    ("reflection_pad_1d_grad", "ReflectionPad1DGrad", {}, [t(RNG.standard_normal((1, 2, 8))),
                                                          SIGNAL, tup(2, 1)], _pad("reflect")),
    ("reflection_pad_2d_grad", "ReflectionPad2DGrad", {}, [t(RNG.standard_normal((1, 2, 6, 5))),
                                                          IMAGE, tup(1, 0, 1, 1)],
     _pad("reflect")),
    ("replication_pad_1d_grad", "ReplicationPad1DGrad", {}, [t(RNG.standard_normal((1, 2, 8))),
                                                            SIGNAL, tup(0, 3)], _pad("replicate")),
    ("replication_pad_2d_grad", "ReplicationPad2DGrad", {}, [t(RNG.standard_normal((1, 2, 7, 5))),
                                                            IMAGE, tup(1, 0, 2, 1)],
     _pad("replicate")),
    ("replication_pad_3d_grad", "ReplicationPad3DGrad", {}, [t(RNG.standard_normal((1, 1, 3, 4, 4))),
                                                            VOLUME, tup(1, 0, 0, 1, 1, 0)],
     _pad("replicate")),
    ("upsample_nearest1d_grad", "UpsampleNearest1DGrad", {}, [t(RNG.standard_normal((1, 2, 7))),
                                                             tup(1, 2, 5), tup(7)],
     _resize("nearest")),
    ("upsample_nearest2d_grad", "UpsampleNearest2DGrad", {}, [t(RNG.standard_normal((1, 2, 6, 8))),
                                                             tup(1, 2, 4, 4), tup(6, 8)],
     _resize("nearest")),
    ("upsample_nearest3d_grad", "UpsampleNearest3DGrad", {}, [t(RNG.standard_normal((1, 1, 4, 3, 6))),
                                                             tup(1, 1, 2, 3, 3), tup(4, 3, 6)],
     _resize("nearest")),
    ("upsample_linear1d_grad", "UpsampleLinear1DGrad", {}, [t(RNG.standard_normal((1, 2, 8))),
                                                           tup(1, 2, 5), tup(8), None, True],
     _resize("linear", corners_at=4)),
    ("upsample_bilinear2d_grad", "UpsampleBilinear2DGrad", {}, [t(RNG.standard_normal((1, 2, 7, 3))),
                                                               tup(1, 2, 4, 4), tup(7, 3)],
     _resize("bilinear")),
    ("upsample_trilinear3d_grad", "UpsampleTrilinear3DGrad", {"align_corners": True},
     [t(RNG.standard_normal((1, 1, 3, 5, 4))), tup(1, 1, 2, 3, 3), tup(3, 5, 4)],
     _vjp_at("ops.interpolate('trilinear')", lambda x, a: F.interpolate(
         x, a[2], mode="trilinear", align_corners=True), None, 0, zeros_of=1)),
    ("adaptive_avg_pool2d_grad_ext", "AdaptiveAvgPool2DGradExt", {}, [t(RNG.standard_normal((1, 2, 3, 2))),
                                                                     IMAGE],
     _vjp_at("ops.adaptive_avg_pool2d", lambda x, a: F.adaptive_avg_pool2d(x, (3, 2)), 1, 0)),
    ("adaptive_avg_pool3d_grad_ext", "AdaptiveAvgPool3DGradExt", {}, [t(RNG.standard_normal((1, 1, 1, 2, 2))),
                                                                     VOLUME],
     _vjp_at("ops.adaptive_avg_pool3d", lambda x, a: F.adaptive_avg_pool3d(x, (1, 2, 2)), 1, 0)),
    ("avg_pool2d_grad", "AvgPool2DGrad", {}, [t(RNG.standard_normal((1, 2, 3, 3))), IMAGE, 2, 2, 1],
     _vjp_at("ops.avg_pool2d", lambda x, a: F.avg_pool2d(x, 2, 2, 1), 1, 0)),
    ("avg_pool3d_grad_ext", "AvgPool3DGradExt", {}, [t(RNG.standard_normal((1, 1, 1, 2, 2))), VOLUME,
                                                    2, 1],
     _vjp_at("ops.avg_pool3d", lambda x, a: F.avg_pool3d(x, 2, 1), 1, 0)),
    ("embedding_dense_backward", "EmbeddingDenseBackward", {}, [t(RNG.standard_normal((2, 2, 3))),
                                                               t([[0, 2], [2, 3]], "int64"), 5, 3],
     reference("mindspore.vjp of ops.gather, the padding row zeroed", _embedding_grad)),
    ("repeat_interleave_grad", "RepeatInterleaveGrad", {}, [t(RNG.standard_normal((2, 5))),
                                                           t([2, 3], "int64"), 1],
     reference("mindspore.vjp of ops.repeat_interleave", _repeat_grad)),
    ("trace_v2_grad", "TraceV2Grad", {}, [t([1.5, -2.0]), t([2, 3, 4], "int64"), 1, 1, 2], None),
    ("col2im_grad", "Col2ImGrad", {}, [IMAGE, tup(2, 2), 1, 0, 2],
     reference("ops.unfold", lambda x, k, d, p, s: F.unfold(x, k, d, p, s))),
    ("group_norm_grad", "GroupNormGrad", {}, [t(RNG.standard_normal((2, 4, 3))), t(GN_X),
                                             t(GN_GROUPS.mean(-1)),
                                             t(1 / np.sqrt(GN_GROUPS.var(-1) + 1e-5)),
                                             t([1.0, 2.0, 0.5, 1.0]), 2], None),
    ("layer_norm_grad_ext", "LayerNormGradExt", {}, [t(RNG.standard_normal((2, 4))),
                                                    t(RNG.standard_normal((2, 4))), tup(4),
                                                    t(np.zeros((2, 1))), t(np.ones((2, 1))),
                                                    t([1.0, 2.0, 0.5, 1.5]), t(np.zeros(4))],
     reference("mindspore.vjp of the layer norm", _layer_norm_grad)),
    ("convolution_grad", "ConvolutionGrad", {}, [t(RNG.standard_normal((1, 3, 4, 4))), IMAGE,
                                                t(RNG.standard_normal((3, 2, 3, 3))), t([0.5, 1.0, -1.0]),
                                                tup(1, 1), tup(1, 1), tup(1, 1), False, tup(0, 0),
                                                1, tup(1, 1, 1)],
     reference("mindspore.vjp of ops.conv2d plus the bias", _conv_grad)),
    ("lstsq_v2_grad", "LstsqV2Grad", {}, [t(np.ones((2, 1))), t([[2.0, 1.0], [1.0, 3.0], [0.5, 1.0]]),
                                         t([[1.0], [2.0], [3.0]])], None),
    ("max_pool_grad_with_indices", "MaxPoolGradWithIndices", {"kernel_size": 2},
     [IMAGE, t([[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]),
      t(_window_argmax(np.array(IMAGE["tensor"], np.float32)), "int64")],
     reference("mindspore.vjp of ops.max_pool2d", lambda x, g, i: ms.vjp(
         lambda v: F.max_pool2d(v, 2, 2), x)[1](g)[0])),
]
