"""ops.interpolate as MindSpore 2.10's: the resize each mode and rank stands for, which of them
take a scale factor or align_corners, and its argument errors (values and messages recorded
from MindSpore 2.10 CPU)."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, mint, ops
from tests.ops.nn_helpers import both_ways

X4 = np.arange(15, dtype=np.float32).reshape(1, 1, 3, 5)
X3 = np.arange(10, dtype=np.float32).reshape(1, 2, 5)
X5 = np.arange(24, dtype=np.float32).reshape(1, 1, 2, 3, 4)


def _check(fn, x, expected, shape, rtol=1e-6):
    for got in both_ways(fn, x):
        assert got.shape == shape
        np.testing.assert_allclose(got.ravel()[:len(expected)], expected, rtol=rtol, atol=1e-5)


def test_nearest_modes():
    _check(lambda x: ops.interpolate(x, size=(3,), mode="nearest"), X3,
           [0, 1, 3, 5, 6, 8], (1, 2, 3))
    _check(lambda x: ops.interpolate(x, size=(5, 3), mode="nearest"), X4,
           [0, 1, 3, 0, 1, 3, 5, 6, 8, 5, 6, 8], (1, 1, 5, 3))
    _check(lambda x: ops.interpolate(x, size=(4, 3), mode="nearest-exact"), X4,
           [0, 2, 4, 5, 7, 9, 5, 7, 9, 10, 12, 14], (1, 1, 4, 3))
    _check(lambda x: ops.interpolate(x, size=(3,), mode="nearest-exact"), X3,
           [0, 2, 4, 5, 7, 9], (1, 2, 3))
    # a 5-D input takes a scale factor as it is
    _check(lambda x: ops.interpolate(x, scale_factor=(1.0, 2.0, 0.5)), X5,
           [0, 2, 0, 2, 4, 6, 4, 6, 8, 10, 8, 10], (1, 1, 2, 6, 2))
    u8 = ops.interpolate(Tensor(np.ones((1, 1, 2, 2), np.uint8)), size=(3, 3))
    assert u8.dtype == Tensor(np.ones(1, np.uint8)).dtype and u8.asnumpy().tolist() == [
        [[[1, 1, 1]] * 3]]


def test_interpolating_modes():
    _check(lambda x: ops.interpolate(x, size=(4, 3), mode="bilinear"), X4,
           [0.33333, 2, 3.66667, 3.45833, 5.125, 6.79167, 7.20833, 8.875, 10.54167, 10.33333,
            12, 13.66667], (1, 1, 4, 3), rtol=1e-5)
    _check(lambda x: ops.upsample(x, size=(4, 3), mode="bilinear"), X4,
           [0.33333, 2, 3.66667, 3.45833], (1, 1, 4, 3), rtol=1e-5)
    _check(lambda x: ops.interpolate(x, size=(4, 3), mode="bicubic", align_corners=True), X4,
           [0, 2, 4, 2.87213, 4.87213, 6.87213, 7.12787, 9.12787, 11.12787, 10, 12, 14],
           (1, 1, 4, 3), rtol=1e-5)
    _check(lambda x: ops.interpolate(x, scale_factor=(1.0, 1.5, 0.5), mode="trilinear"), X5,
           [0.5, 2.5, 2.5, 4.5, 5.16667, 7.16667, 7.83333, 9.83333, 12.5, 14.5, 14.5, 16.5],
           (1, 1, 2, 4, 2), rtol=1e-5)
    _check(lambda x: ops.interpolate(x, scale_factor=(0.7, 0.5), mode="area"), X4,
           [3.5, 5.5, 8.5, 10.5], (1, 1, 2, 2))
    # recompute_scale_factor: the size floor(in * scale), sampled in / out apart
    _check(lambda x: ops.interpolate(x, scale_factor=1.5, mode="linear",
                                     recompute_scale_factor=True), X3,
           [0, 0.57143, 1.28571, 2, 2.71429, 3.42857, 4, 5, 5.57143, 6.28571, 7, 7.71429],
           (1, 2, 7), rtol=1e-5)


def test_mint_interpolate_keeps_scale_factors():
    out = mint.nn.functional.interpolate(Tensor(X4), scale_factor=2.0, mode="nearest")
    np.testing.assert_array_equal(out.asnumpy(), X4.repeat(2, 2).repeat(2, 3))


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: ops.interpolate(np.ones((1, 1, 2, 2)), size=(2, 2)), TypeError, "must be a tensor"),
    (lambda: ops.interpolate(Tensor(X4), size=(0, 2)), ValueError,
     r"the 'size\[0\]' must be int and must > 0"),
    (lambda: ops.interpolate(Tensor(X4), size=-1), ValueError, "'size' must be int and must > 0"),
    (lambda: ops.interpolate(Tensor(X4), size=(2.0, 2)), TypeError,
     r"'size\[0\]' must be int, but got 'float'"),
    (lambda: ops.interpolate(Tensor(X4), size=(2, 2, 2)), ValueError,
     "'input' is 2D, 'size' is 3D"),
    (lambda: ops.interpolate(Tensor(X4), scale_factor=(2.0,), recompute_scale_factor=True),
     ValueError, "'input' is 2D, 'scale_factor' is 1D"),
    (lambda: ops.interpolate(Tensor(X4), scale_factor=0.0, recompute_scale_factor=True),
     ValueError, "'scale_factor' must be float and must > 0"),
    (lambda: ops.interpolate(Tensor(X4), scale_factor=2), TypeError,
     "'scale_factor' must be float, but got 'int'"),
    (lambda: ops.interpolate(Tensor(X3), size=(2,), mode="bilinear"), ValueError,
     r"bilinear only support '\[4\]'D, but got 3D"),
    (lambda: ops.interpolate(Tensor(X4), size=(2, 2), mode="foo"), ValueError, "'mode' must be in"),
    (lambda: ops.interpolate(Tensor(X4), scale_factor=2.0, recompute_scale_factor=1), TypeError,
     "'recompute_scale_factor' must be a bool"),
    (lambda: ops.interpolate(Tensor(X4), size=(2, 2), mode="bilinear", align_corners=1),
     TypeError, "'align_corners' must be a bool"),
    (lambda: ops.interpolate(Tensor(X4), size=(2, 2), align_corners=False), ValueError,
     "'align_corners' option cannot currently be set with the mode = nearest, and dim = 4D"),
    (lambda: ops.interpolate(Tensor(X4), scale_factor=2.0), ValueError,
     "'scale_factor' option cannot currently be set with the mode = nearest and dim = 4D"),
    (lambda: ops.interpolate(Tensor(X3), scale_factor=1.5, mode="linear"), ValueError,
     "'scale_factor' option cannot currently be set with the mode = linear and dim = 3D"),
    (lambda: ops.interpolate(Tensor(X4), size=(2, 2), recompute_scale_factor=True), ValueError,
     "incorrect to set 'recompute_scale_factor' to True"),
    (lambda: ops.interpolate(Tensor(np.ones((1, 1, 2, 2), np.int32)), size=(3, 3),
                             mode="bilinear"), TypeError, "dtype"),
    (lambda: ops.interpolate(Tensor(np.ones((1, 1, 2, 2), np.int32)), size=(3, 3)), TypeError,
     "dtype"),
])
def test_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
