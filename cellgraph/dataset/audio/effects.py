"""Dither (mindspore.dataset.audio.Dither): a waveform <..., time> quantised to 16 bits.

MindSpore's kernel scales the signal by 2**15 - 2, adds its "noise", rounds half away from
zero and divides by 2**15. The noise is not drawn from a distribution: TPDF adds MindSpore's
periodic Bartlett window over the time axis; RPDF adds one input sample picked at random; GPDF
adds a running sum of seven input samples picked at random, writing each partial sum back into
the (copied) input as it goes. Noise shaping then adds each row's quantisation error (against
that input), delayed by one sample. Inputs other than float64 are computed as float32.
"""
from __future__ import annotations

import numpy as np

from cellgraph.dataset.core.validator_helpers import type_check
from cellgraph.dataset.transforms.transforms import RandomOperation

from .transforms import AudioTensorOperation
from .utils import DensityFunction

__all__ = ["Dither"]


def _round_half_away(x: np.ndarray) -> np.ndarray:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


class Dither(AudioTensorOperation, RandomOperation):
    """Quantise a waveform <..., time> to 16 bits with `density_function` noise (see the
    module), adding the delayed quantisation error when `noise_shaping`."""

    def __init__(self, density_function=DensityFunction.TPDF, noise_shaping=False):
        type_check(density_function, (DensityFunction,), "density_function")
        type_check(noise_shaping, (bool,), "noise_shaping")
        self.density_function, self.noise_shaping = density_function, noise_shaping

    def apply(self, waveform):
        array = np.asarray(waveform)
        if array.ndim < 1:
            raise RuntimeError(f"Dither: the shape of input tensor does not match the requirement "
                               f"of operator. Expecting tensor in shape of <..., time>. But got "
                               f"tensor with dimension {array.ndim}.")
        if array.dtype.kind not in "biuf":
            raise RuntimeError("Dither: the data type of input tensor does not match the "
                               "requirement of operator. Expecting tensor in type of [int, float, "
                               "double]. But got type string.")
        dtype = np.float64 if array.dtype == np.float64 else np.float32
        x = array.astype(dtype).reshape(-1, array.shape[-1]).copy()
        rows, length = x.shape
        scaled = x * dtype(2 ** 15 - 2)

        def pick():
            r = int(self.rng.integers(0, rows)) if rows > 1 else 0
            t = int(self.rng.integers(0, length)) if length > 1 else 0
            return r, t

        r, t = pick()
        if self.density_function == DensityFunction.RPDF:
            noisy = scaled + x[r, t]
        elif self.density_function == DensityFunction.GPDF:
            gaussian = x[r, t]
            for _ in range(6):
                r, t = pick()
                gaussian = dtype(gaussian + x[r, t])
                x[r, t] = gaussian
            noisy = scaled + gaussian
        else:
            i = np.arange(length, dtype=np.float64)
            bartlett = (1.0 - np.abs(2.0 * i / length - 1.0)).astype(np.float32).astype(dtype)
            noisy = scaled + bartlett
        out = (_round_half_away(noisy.astype(dtype)) / dtype(2 ** 15)).astype(dtype)
        if self.noise_shaping:
            error = out - x
            out = out + np.concatenate([np.zeros((rows, 1), dtype), error[:, :-1]], axis=1)
        return out.reshape(array.shape).astype(dtype)
