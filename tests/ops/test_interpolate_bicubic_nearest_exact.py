"""ops.interpolate(mode="bicubic") (4-D, MindSpore's ResizeBicubic with half-pixel centres
unless align_corners) and mode="nearest-exact" (3-D and 4-D, the nearest pixel centre), with
MindSpore 2.10's values and errors for the same calls (recorded below)."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, ops

X = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4) ** 1.5
ROOTS = [0.0, 1.0, 2.8284270763397217, 5.196152687072754, 8.0, 11.180339813232422,
         14.696938514709473, 18.5202579498291, 22.627416610717773, 27.0, 31.62277603149414,
         36.482872009277344]


def test_bicubic_as_mindspore():
    out = ops.interpolate(Tensor(X), size=(5, 3), mode="bicubic")
    np.testing.assert_allclose(out.asnumpy(), [[[
        [-0.5276, 0.99268, 3.95099], [2.32303, 4.98189, 8.77317],
        [8.32414, 12.89845, 18.12278], [18.26378, 24.02374, 30.29888],
        [24.1895, 30.51821, 37.3279]]]], rtol=1e-5, atol=1e-5)
    out = ops.interpolate(Tensor(X), size=(2, 6), mode="bicubic", align_corners=True)
    np.testing.assert_allclose(out.asnumpy(), [[[
        [0.0, 0.41416, 1.36128, 2.3029, 3.94554, 5.19615],
        [22.62742, 24.80244, 28.11763, 30.4466, 34.0097, 36.48287]]]], rtol=1e-5, atol=1e-5)


def test_bicubic_gradient_is_the_transposed_resize():
    weights = Tensor(np.arange(15, dtype=np.float32).reshape(1, 1, 5, 3))

    class Loss(nn.Cell):
        def construct(self, x):
            return (ops.interpolate(x, size=(5, 3), mode="bicubic") * weights).sum()

    grad = ops.grad(Loss())(Tensor(X)).asnumpy()
    # the resize is linear in x: the loss is <grad, x>
    assert float((grad * X).sum()) == pytest.approx(float(Loss()(Tensor(X)).asnumpy()),
                                                    rel=1e-5)


def test_nearest_exact_as_mindspore():
    r = ROOTS
    out = ops.interpolate(Tensor(X), size=(4, 7), mode="nearest-exact")
    rows = [[r[0], r[0], r[1], r[2], r[2], r[3], r[3]],
            [r[4], r[4], r[5], r[6], r[6], r[7], r[7]]]
    rows += [rows[1], [r[8], r[8], r[9], r[10], r[10], r[11], r[11]]]
    np.testing.assert_allclose(out.asnumpy(), [[rows]], rtol=1e-6)
    out = ops.interpolate(Tensor(X[0]), size=6, mode="nearest-exact")
    np.testing.assert_allclose(out.asnumpy(), [[
        [r[0], r[1], r[1], r[2], r[3], r[3]], [r[4], r[5], r[5], r[6], r[7], r[7]],
        [r[8], r[9], r[9], r[10], r[11], r[11]]]], rtol=1e-6)
    out = ops.interpolate(Tensor(X), scale_factor=(1.5, 0.6), mode="nearest-exact",
                          recompute_scale_factor=True)
    np.testing.assert_allclose(out.asnumpy(), [[[[r[1], r[3]], [r[5], r[7]], [r[5], r[7]],
                                                  [r[9], r[11]]]]], rtol=1e-6)


@pytest.mark.parametrize("call, message", [
    (lambda x: ops.interpolate(x[None], size=(2, 2, 2), mode="nearest-exact"),
     "nearest-exact only support '[3, 4]'D, but got 5D"),
    (lambda x: ops.interpolate(x[0], size=2, mode="bicubic"),
     "bicubic only support '[4]'D, but got 3D"),
    (lambda x: ops.interpolate(x, scale_factor=2.0, mode="nearest-exact"),
     "'scale_factor' option cannot currently be set with the mode = nearest-exact and dim = 4D"),
    (lambda x: ops.interpolate(x, size=(2, 2), mode="nearest-exact", align_corners=True),
     "'align_corners' option cannot currently be set with the mode = nearest-exact, and dim = 4D"),
    (lambda x: ops.interpolate(x, scale_factor=2.0, mode="bicubic"),
     "'scale_factor' option cannot currently be set with the mode = bicubic and dim = 4D"),
    (lambda x: ops.interpolate(x, size=(2, 2), mode="cubic"),
     "'mode' must be in .*'nearest-exact', 'trilinear'.*but got cubic"),
])
def test_mode_errors_as_mindspore(call, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")
                       if "'mode'" not in message else message):
        call(Tensor(X))
