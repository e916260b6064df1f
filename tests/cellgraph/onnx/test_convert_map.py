"""Each primitive's ONNX form computes what cellgraph computes: small Cells exported and run by
onnxruntime."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


class Fn(nn.Cell):
    """A Cell around a function of its inputs (and of the Cell's sub-Cells in `layers`)."""

    def __init__(self, fn, *layers):
        super().__init__()
        self.fn = fn
        self.layers = nn.CellList(list(layers))

    def construct(self, *args):
        return self.fn(self.layers, *args)


def check(net, args, tmp_path, rtol=1e-5, atol=1e-5):
    ms.export(net, *args, file_name=str(tmp_path / "m"), file_format="ONNX")
    session = ort.InferenceSession(str(tmp_path / "m.onnx"), providers=["CPUExecutionProvider"])
    got = session.run(None, {i.name: a.asnumpy() for i, a in zip(session.get_inputs(), args)})
    net.set_train(False)
    want = net(*args)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = w.asnumpy()
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


def f32(rng, *shape):
    return Tensor(rng.standard_normal(shape).astype(np.float32))


CASES = {
    "elementwise": (lambda L, x, y: (x + y * 2 - 1 / (ops.abs(y) + 1), ops.maximum(x, y),
                                     ops.exp(x) * ops.sin(y) + ops.cos(x), ops.sqrt(ops.abs(x)),
                                     ops.pow(ops.abs(x), 1.5), ops.floor(x), ops.neg(y),
                                     ops.minimum(x, 0.5), ops.square(x), ops.rsqrt(ops.abs(x) + 1),
                                     ops.log1p(ops.abs(x)), ops.expm1(x), ops.sign(x),
                                     ops.erf(x), ops.erfc(x), ops.trunc(x * 3), ops.round(x * 3)),
                    [(3, 4), (3, 4)]),
    "unary": (lambda L, x: (ops.asin(x / 4), ops.acos(x / 4), ops.atan(x), ops.asinh(x),
                            ops.acosh(ops.abs(x) + 1), ops.atanh(x / 4), ops.ceil(x), ops.cosh(x),
                            ops.sinh(x), ops.tan(x / 4), ops.log2(ops.abs(x) + 1),
                            ops.log10(ops.abs(x) + 1), ops.reciprocal(x + 5),
                            ops.stop_gradient(x), x >= 0.2, x < -0.1,
                            ops.logical_or(x > 0, x < -1)),
              [(3, 4)]),
    "scatter": (lambda L, x, i: (
        ops.tensor_scatter_update(x, ops.expand_dims(i % 3, 1), x[:4] * 2),
        ops.tensor_scatter_add(x, ops.expand_dims(i % 3, 1), x[:4]),
        ops.tensor_scatter_mul(x, ops.expand_dims(i % 3, 1), x[:4]),
        ops.tensor_scatter_elements(x, ops.zeros((2, 5), ms.int32) + 1, x[:2], 0, "add"),
        ops.GatherD()(x, 1, ops.zeros((4, 2), ms.int32) + 2)),
                [(4, 5), "idx"]),
    "cross_entropy": (lambda L, x: ops.SoftmaxCrossEntropyWithLogits()(x, ops.softmax(x * 3, 1)),
                      [(3, 4)]),
    "floor_division": (lambda L, x, y: (x // (ops.abs(y) + 0.5), x % (ops.abs(y) + 0.5)),
                       [(3, 4), (3, 4)]),
    "activations": (lambda L, x: (ops.relu(x), ops.sigmoid(x), ops.tanh(x), ops.gelu(x),
                                  ops.gelu(x, approximate="tanh"), ops.softplus(x),
                                  ops.softmax(x, 0), ops.log_softmax(x, -1), ops.silu(x),
                                  ops.elu(x), ops.leaky_relu(x, 0.2), ops.hardswish(x),
                                  ops.relu6(x * 4)),
                    [(3, 5)]),
    "comparisons": (lambda L, x, y: (x > y, x <= 0.1, ops.equal(x, y), x != y,
                                     ops.logical_and(x > 0, y > 0), ops.logical_not(x > 0),
                                     ops.where(x > y, x, y), ops.clamp(x, -0.5, 0.5)),
                    [(3, 4), (3, 4)]),
    "reductions": (lambda L, x: (x.sum(), x.mean(axis=1), x.max(axis=(0, 2), keepdims=True),
                                 x.min(axis=0), ops.prod(x, 2), ops.argmax(x, 1), ops.argmin(x, -1),
                                 ops.cumsum(x, 1), ops.logsumexp(x, 2), x.std(axis=2),
                                 ops.ReduceMean(keep_dims=True)(x, (1, 2))),
                   [(2, 3, 4)]),
    "shapes": (lambda L, x, y: (x.reshape(6, 4), x.transpose(2, 0, 1), ops.expand_dims(x, 1),
                                ops.squeeze(x[:, :1]), ops.concat((x, y), 1),
                                ops.stack((x, x * 2), 3), ops.split(x, (1, 3), axis=2)[1],
                                ops.tile(x, (2, 1, 1, 2)), ops.broadcast_to(x[:, :1], (2, 3, 4)),
                                ops.pad(x, (1, 2)), ops.flatten(x), ops.cast(x, ms.int32),
                                ops.chunk(y, 2, 1)[0], ops.flip(x, (2,))),
               [(2, 3, 4), (2, 2, 4)]),
    "slicing": (lambda L, x: (x[0], x[:, 1:, ::2], x[..., -1], x[None, 1, ::-1, 2:0:-1],
                              x[:, -2:], x[1:2, None]),
                [(3, 4, 5)]),
    "gather": (lambda L, x, i: (ops.gather(x, i, 1), x[i], ops.gather_elements(
        x, 1, ops.zeros((3, 2), ms.int32) + 1), ops.gather_nd(x, ops.stack((i % 3, i), 1))),
               [(3, 5), "idx"]),
    "one_hot_topk_sort": (lambda L, x, i: (ops.one_hot(i, 4, Tensor(1.0), Tensor(0.0)),
                                           ops.topk(x, 2)[0], ops.topk(x, 2)[1], ops.sort(x)[0],
                                           ops.sort(x, descending=True)[1]),
                          [(3, 5), "idx"]),
    "matmul": (lambda L, x, y: (ops.matmul(x, y), ops.bmm(ops.stack((x, x)), ops.stack((y, y))),
                                ops.MatMul(transpose_a=True)(y, y)),
               [(3, 4), (4, 5)]),
    "fill": (lambda L, x: (ops.zeros_like(x) + 1, ops.ones((2, 3), ms.float32), ops.full(
        (2,), 3, dtype=ms.int32), ops.fill(ms.float32, (3,), 2.5)), [(2, 3)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_operations(name, tmp_path, rng):
    fn, shapes = CASES[name]
    args = [Tensor(rng.integers(0, 3, (4,)).astype(np.int32)) if s == "idx" else
            f32(rng, *s) for s in shapes]
    check(Fn(fn), args, tmp_path)


LAYERS = {
    "conv_transpose": ([nn.Conv2dTranspose(4, 3, 3, stride=2, pad_mode="same"),
                        nn.Conv2dTranspose(4, 2, 2, stride=2, pad_mode="valid", has_bias=True),
                        nn.Conv2dTranspose(4, 2, 3, pad_mode="pad", padding=1, dilation=2)],
                       [(2, 4, 5, 5)]),
    "conv_groups_dilation": ([nn.Conv2d(4, 6, 3, group=2, dilation=2, pad_mode="same"),
                              nn.Conv2d(4, 4, (3, 1), stride=(2, 1), pad_mode="pad",
                                        padding=(1, 2, 0, 1), has_bias=True)],
                             [(2, 4, 9, 9)]),
    "conv1d": ([nn.Conv1d(3, 5, 3, pad_mode="pad", padding=1, has_bias=True),
                nn.Conv1dTranspose(3, 2, 3, stride=2)], [(2, 3, 7)]),
    "conv3d": ([nn.Conv3d(2, 3, 3, pad_mode="same", has_bias=True)], [(1, 2, 4, 5, 4)]),
    "pooling": ([nn.MaxPool2d(3, 2, pad_mode="same"), nn.AvgPool2d(3, 2, pad_mode="same"),
                 nn.AvgPool2d(2, 1), nn.AdaptiveAvgPool2d(1), nn.MaxPool1d(2, 2),
                 nn.AvgPool1d(2, 2)], [(2, 3, 7, 7)]),
    "norms": ([nn.BatchNorm2d(3), nn.LayerNorm((7,)), nn.LayerNorm((7, 7), begin_norm_axis=2,
                                                                   begin_params_axis=2),
               nn.GroupNorm(1, 3), nn.InstanceNorm2d(3)], [(2, 3, 7, 7)]),
    "attention": ([nn.MultiheadAttention(8, 2, batch_first=True)], [(2, 5, 8)]),
}


def _apply_layers(name):
    def conv_transpose(L, x):
        return L[0](x), L[1](x), L[2](x)

    def pooling(L, x):
        return L[0](x), L[1](x), L[2](x), L[3](x), L[4](x[:, :, 0]), L[5](x[:, :, 0])

    def conv1d(L, x):
        return L[0](x), L[1](x)

    def attention(L, x):
        return L[0](x, x, x)[0]

    def each(L, x):
        return tuple(layer(x) for layer in L)

    return {"conv_transpose": conv_transpose, "pooling": pooling, "conv1d": conv1d,
            "attention": attention}.get(name, each)


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layers(name, tmp_path, rng):
    layers, shapes = LAYERS[name]
    for layer in layers:  # non-trivial statistics and affine parameters
        for p in layer.get_parameters():
            p.set_data(Tensor(rng.uniform(0.5, 1.5, p.shape).astype(np.float32)))
    check(Fn(_apply_layers(name), *layers), [f32(rng, *s) for s in shapes], tmp_path)


def test_every_rule_names_a_primitive():
    import cellgraph.ops  # noqa: F401  every primitive declared
    from cellgraph.onnx import nn_convert_map  # noqa: F401
    from cellgraph.onnx.convert_map import CONVERT_MAP
    from cellgraph.primitives.core import PRIMITIVES

    assert set(CONVERT_MAP) <= set(PRIMITIVES), set(CONVERT_MAP) - set(PRIMITIVES)


@pytest.mark.parametrize("dtype", [np.float16, np.float64])
def test_other_float_dtypes(dtype, tmp_path, rng):
    ms_dtype = ms.float16 if dtype == np.float16 else ms.float64
    net = nn.SequentialCell([nn.Dense(6, 8, dtype=ms_dtype), nn.LayerNorm((8,), dtype=ms_dtype),
                             nn.GELU(), nn.Dense(8, 3, dtype=ms_dtype)])
    x = Tensor(rng.standard_normal((4, 6)).astype(dtype))
    tol = 2e-3 if dtype == np.float16 else 1e-12
    check(net, [x], tmp_path, rtol=tol, atol=tol)
