"""The NumPy-like override kernels (runtime/strided_kernels.py): their fast paths against their
general ones."""
import numpy as np
import pytest

from cellgraph.runtime import strided_kernels
from cellgraph.runtime.strided_kernels import TABLE


@pytest.mark.parametrize("x_shape, kernel", [((2, 3, 6, 8), (2, 2)), ((1, 2, 6, 9), (3, 3))])
def test_tiled_max_pool_scatter_matches_the_general_one(monkeypatch, x_shape, kernel):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(x_shape).astype(np.float32)
    params = {"kernel": kernel, "stride": kernel, "pad": (0, 0, 0, 0)}
    _, argmax = TABLE["max_pool2d_argmax"](np, x, **params)
    g = rng.standard_normal(argmax.shape).astype(np.float32)
    tiled = TABLE["max_pool2d_scatter"](np, argmax, g, x_shape, **params)
    monkeypatch.setattr(strided_kernels, "_tiling", lambda *args: False)
    general = TABLE["max_pool2d_scatter"](np, argmax, g, x_shape, **params)
    np.testing.assert_array_equal(tiled, general)


def test_tiled_max_pool_scatter_of_an_infinite_gradient_selects():
    """inf * 0 is NaN: a gradient that is not finite takes the selecting path."""
    x = np.array([[[[1.0, 2.0], [3.0, 4.0]]]], np.float32)
    params = {"kernel": (2, 2), "stride": (2, 2), "pad": (0, 0, 0, 0)}
    _, argmax = TABLE["max_pool2d_argmax"](np, x, **params)
    out = TABLE["max_pool2d_scatter"](np, argmax, np.full((1, 1, 1, 1), np.inf, np.float32),
                                      x.shape, **params)
    np.testing.assert_array_equal(out, [[[[0.0, 0.0], [0.0, np.inf]]]])
