"""Phase-vocoder transforms of dataset.audio (mindspore.dataset.audio): TimeStretch and
PhaseVocoder on complex spectrograms <..., freq, time, complex=2>.

A stretch by `rate` reads the spectrogram at times 0, rate, 2 rate, ... (while below its
length): magnitudes interpolated linearly between the two neighbouring frames, phases
accumulated from each bin's expected advance plus the measured deviation (wrapped to
[-pi, pi]), starting from the phase of the first frame, as MindSpore's kernel (and torchaudio's
phase_vocoder) computes them. Inputs other than float64 are computed as float32.
"""
from __future__ import annotations

import math

import numpy as np

from cellgraph.dataset.core.validator_helpers import check_pos_float32, check_pos_int32, type_check

from .transforms import AudioTensorOperation

__all__ = ["PhaseVocoder", "TimeStretch"]


def _complex_spectrogram(spec, op: str) -> np.ndarray:
    array = np.asarray(spec)
    if array.ndim <= 2 or array.shape[-1] != 2:
        raise RuntimeError(f"{op}: the shape of input tensor does not match the requirement of "
                           f"operator. Expecting tensor in shape of <..., freq, num_frame, "
                           f"complex=2>. But got tensor with dimension {array.ndim}.")
    if array.dtype.kind not in "biuf":
        raise RuntimeError(f"{op}: the data type of input tensor does not match the requirement "
                           f"of operator. Expecting tensor in type of [int, float, double]. But "
                           f"got type string.")
    return array.astype(np.float64 if array.dtype == np.float64 else np.float32)


def phase_vocoder(spec: np.ndarray, rate: float, phase_advance: np.ndarray) -> np.ndarray:
    """`spec` <..., freq, time, 2> stretched by `rate`; `phase_advance` (freq,) is each bin's
    expected phase advance per frame."""
    if abs(rate - 1.0) <= np.finfo(np.float32).eps:
        return spec
    dtype = spec.dtype
    n_time = spec.shape[-2]
    steps = []
    while True:
        value = float(np.float32(len(steps)) * np.float32(rate))
        if dtype != np.float64:
            value = float(np.float32(value))
        if value >= n_time:
            break
        steps.append(value)
    steps = np.array(steps, np.float64)
    x = spec.astype(np.float64)
    z = x[..., 0] + 1j * x[..., 1]  # <..., freq, time>
    phase_0 = np.angle(z[..., :1])
    z = np.concatenate([z, np.zeros(z.shape[:-1] + (2,), z.dtype)], axis=-1)
    index = steps.astype(np.int64)
    alphas = np.fmod(steps, 1.0)
    z_0, z_1 = z[..., index], z[..., index + 1]
    # MindSpore's kernel walks the advances row by row over the flattened <..., freq> rows,
    # starting again from the first when they run out
    advance = np.asarray(phase_advance, np.float64).reshape(-1)
    rows = int(np.prod(z.shape[:-1]))
    advance = advance[np.arange(rows) % advance.size].reshape(z.shape[:-1] + (1,))
    phase = np.angle(z_1) - np.angle(z_0) - advance
    phase = phase - 2 * math.pi * np.where(phase >= 0, np.floor(phase / (2 * math.pi) + 0.5),
                                           np.ceil(phase / (2 * math.pi) - 0.5))
    phase = phase + advance
    phase = np.concatenate([phase_0, phase[..., :-1]], axis=-1)
    phase = np.cumsum(phase, axis=-1)
    mag = alphas * np.abs(z_1) + (1 - alphas) * np.abs(z_0)
    return np.stack([np.cos(phase) * mag, np.sin(phase) * mag], axis=-1).astype(dtype)


class TimeStretch(AudioTensorOperation):
    """Stretch a complex spectrogram <..., freq, time, complex=2> in time by `fixed_rate`
    (faster above 1) without changing its pitch; `hop_length` defaults to n_freq - 1."""

    def __init__(self, hop_length=None, n_freq=201, fixed_rate=None):
        if hop_length is not None:
            type_check(hop_length, (int,), "hop_length")
            check_pos_int32(hop_length, "hop_length")
        type_check(n_freq, (int,), "n_freq")
        check_pos_int32(n_freq, "n_freq")
        if fixed_rate is not None:
            type_check(fixed_rate, (int, float), "fixed_rate")
            check_pos_float32(fixed_rate, "fixed_rate")
        self.n_freq = n_freq
        self.hop_length = hop_length if hop_length is not None else (n_freq - 1) * 2 // 2
        self.fixed_rate = fixed_rate if fixed_rate is not None else 1

    def apply(self, spectrogram):
        array = _complex_spectrogram(spectrogram, "TimeStretch")
        advance = np.linspace(0, math.pi * self.hop_length, self.n_freq)
        if array.dtype != np.float64:
            advance = advance.astype(np.float32)
        return phase_vocoder(array, self.fixed_rate, advance)


class PhaseVocoder(AudioTensorOperation):
    """Stretch a complex spectrogram <..., freq, time, complex=2> by `rate` with the given
    per-bin `phase_advance` (an array of shape (freq, 1), the input's dtype)."""

    def __init__(self, rate, phase_advance):
        type_check(rate, (int, float), "rate")
        check_pos_float32(rate, "rate")
        type_check(phase_advance, (np.ndarray,), "phase_advance")
        self.rate, self.phase_advance = rate, phase_advance

    def apply(self, spectrogram):
        array = np.asarray(spectrogram)
        if array.ndim <= 2 or array.shape[-1] != 2:
            raise RuntimeError("PhaseVocoder: the shape of input tensor does not match the "
                               "requirement of operator. Expecting tensor in shape of <..., "
                               "freq, num_frame, complex=2>. But got tensor with dimension "
                               f"{array.ndim}.")
        if self.phase_advance.shape[0] != array.shape[-3]:
            raise RuntimeError(f"PhaseVocoder: invalid parameter, 'first dimension of "
                               f"'phase_advance'' should be equal to 'freq dimension length of "
                               f"input tensor', but got: first dimension of 'phase_advance' "
                               f"{self.phase_advance.shape[0]} while freq dimension length of "
                               f"input tensor {array.shape[-3]}.")
        if self.phase_advance.dtype != array.dtype:
            raise RuntimeError(f"PhaseVocoder: invalid parameter, data type of phase_advance "
                               f"should be equal to data type of input tensor, but got: data "
                               f"type of phase_advance {self.phase_advance.dtype} while data "
                               f"type of input tensor {array.dtype}.")
        array = _complex_spectrogram(array, "PhaseVocoder")
        return phase_vocoder(array, self.rate, self.phase_advance)
