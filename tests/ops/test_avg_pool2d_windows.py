"""ops.avg_pool2d with ceil_mode and divisor_override (MindSpore runs these through AvgPool3D),
and mint's pooling layers with every argument of torch's, against PyTorch's values."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, mint, ops
from cellgraph.testing import check_grads

torch = pytest.importorskip("torch")

X = np.random.RandomState(0).randn(2, 3, 7, 9).astype(np.float32)


def torch_avg(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor):
    """PyTorch's avg_pool2d after padding (top, bottom, left, right) with zeros, whose count
    include-pad semantics then follow the explicit padding."""
    top, bottom, left, right = padding
    if count_include_pad:
        padded = torch.nn.functional.pad(torch.tensor(x), (left, right, top, bottom))
        return torch.nn.functional.avg_pool2d(padded, kernel, stride, 0, ceil_mode, True,
                                              divisor).numpy()
    assert top == bottom and left == right
    return torch.nn.functional.avg_pool2d(torch.tensor(x), kernel, stride, (top, left),
                                          ceil_mode, False, divisor).numpy()


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("kernel, stride, padding, ceil_mode, include, divisor", [
    (3, 2, 1, True, True, None),
    (3, 2, 1, True, False, None),
    (2, 2, 0, False, True, 3),
    ((2, 3), (1, 2), (1, 0, 1, 0), True, True, 4),
])
def test_avg_pool2d_ceil_mode_and_divisor(mode, kernel, stride, padding, ceil_mode, include,
                                          divisor):
    ms.set_context(mode=mode)
    try:
        got = ops.avg_pool2d(Tensor(X), kernel, stride, padding, ceil_mode, include,
                             divisor or 0)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    pads = (padding,) * 4 if isinstance(padding, int) else padding
    want = torch_avg(X, kernel, stride, pads, ceil_mode, include, divisor)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_avg_pool2d_ceil_mode_differentiates():
    x = np.random.RandomState(1).randn(1, 2, 5, 5)
    check_grads(lambda v: ops.avg_pool2d(v, 2, 2, 0, True, True, 3), (x,), order=2, rtol=1e-5)


@pytest.mark.parametrize("kwargs", [
    {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True},
    {"kernel_size": 2, "dilation": 2},
    {"kernel_size": (2, 3), "stride": (2, 1), "ceil_mode": True},
])
def test_mint_max_pool2d_takes_torch_arguments(kwargs):
    got = mint.nn.MaxPool2d(**kwargs)(Tensor(X))
    want = torch.nn.MaxPool2d(**kwargs)(torch.tensor(X)).numpy()
    np.testing.assert_array_equal(got.asnumpy(), want)


def test_mint_max_pool2d_returns_indices_and_avg_pool2d_its_divisor():
    values, indices = mint.nn.MaxPool2d(3, 1, 1, return_indices=True)(Tensor(X))
    want_values, want_indices = torch.nn.MaxPool2d(3, 1, 1, return_indices=True)(
        torch.tensor(X))
    np.testing.assert_array_equal(values.asnumpy(), want_values.numpy())
    np.testing.assert_array_equal(indices.asnumpy(), want_indices.numpy())
    got = mint.nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False)(Tensor(X))
    want = torch.nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False)(torch.tensor(X))
    np.testing.assert_allclose(got.asnumpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    got = mint.nn.AvgPool2d(3, 2, 1, divisor_override=5)(Tensor(X))
    want = torch.nn.AvgPool2d(3, 2, 1, divisor_override=5)(torch.tensor(X))
    np.testing.assert_allclose(got.asnumpy(), want.numpy(), rtol=1e-5, atol=1e-6)
