"""Phase-vocoder transforms of dataset.audio (mindspore.dataset.audio): TimeStretch and
PhaseVocoder on complex spectrograms <..., freq, time, complex=2>, and PitchShift built on them.

A stretch by `rate` reads the spectrogram at times 0, rate, 2 rate, ... (while below its
length): magnitudes interpolated linearly between the two neighbouring frames, phases
accumulated from each bin's expected advance plus the measured deviation (wrapped to
[-pi, pi]), starting from the phase of the first frame, as MindSpore's kernel (and torchaudio's
phase_vocoder) computes them. Inputs other than float64 are computed as float32.
"""
from __future__ import annotations

import math

import numpy as np

from cellgraph.dataset.core.validator_helpers import (
    check_int32,
    check_int32_not_zero,
    check_non_negative_int32,
    check_pos_float32,
    check_pos_int32,
    type_check,
)

from .transforms import AudioTensorOperation
from .utils import BorderType, WindowType

__all__ = ["PhaseVocoder", "PitchShift", "TimeStretch"]


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
        # MindSpore checks the operation's own parameter first, when it builds the op
        if self.phase_advance.ndim != 2 or self.phase_advance.shape[-1] != 1:
            raise RuntimeError("PhaseVocoder: invalid parameter, 'phase_advance' should be in "
                               "shape of <freq, 1>.")
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


class PitchShift(AudioTensorOperation):
    """Shift a waveform <..., time> by `n_steps` of `bins_per_octave` per octave, as MindSpore's
    kernel does: its complex STFT stretched in time by 2 ** (-n_steps / bins_per_octave),
    turned back into a waveform, resampled from sample_rate / rate to sample_rate, and cut
    (or zero-padded) to the input's length."""

    def __init__(self, sample_rate, n_steps, bins_per_octave=12, n_fft=512, win_length=None,
                 hop_length=None, window=WindowType.HANN):
        check_non_negative_int32(sample_rate, "sample_rate")
        check_int32(n_steps, "n_steps")
        check_int32_not_zero(bins_per_octave, "bins_per_octave")
        check_pos_int32(n_fft, "n_fft")
        type_check(window, (WindowType,), "window")
        if win_length is not None:
            check_pos_int32(win_length, "win_length")
            if win_length > n_fft:
                raise ValueError(f"Input win_length should be no more than n_fft, but got "
                                 f"win_length: {win_length} and n_fft: {n_fft}.")
        if hop_length is not None:
            check_pos_int32(hop_length, "hop_length")
        self.sample_rate, self.n_steps, self.bins_per_octave = (sample_rate, n_steps,
                                                                bins_per_octave)
        self.n_fft = n_fft
        self.win_length = win_length if win_length is not None else n_fft
        self.hop_length = hop_length if hop_length is not None else self.win_length // 4
        self.window = window

    def apply(self, waveform):
        from .spectral import _complex_rows, _numeric, istft, stft
        from .transforms import Resample

        array = _numeric(waveform, "PitchShift")
        dtype = array.dtype
        length = array.shape[-1]
        rows = array.reshape(-1, length)
        spec = stft(rows, self.n_fft, self.win_length, self.hop_length, 0, self.window, 0.0,
                    False, True, BorderType.REFLECT, True, "PitchShift")
        advance = np.linspace(0, math.pi * self.hop_length, spec.shape[-3])
        advance = advance.astype(np.float64 if dtype == np.float64 else np.float32)
        rate = float(np.float32(2.0) ** np.float32(np.float32(-self.n_steps)
                                                   / np.float32(self.bins_per_octave)))
        stretched = phase_vocoder(spec, rate, advance)
        ratio = length / rate
        len_stretch = math.floor(ratio + 0.5)  # C's round: half away from zero
        waves = np.stack([istft(_complex_rows(s), self.n_fft, self.hop_length, self.win_length,
                                self.window, True, len_stretch) for s in stretched]).astype(dtype)
        shifted = Resample(float(int(self.sample_rate / rate)), float(self.sample_rate))(waves)
        if shifted.shape[-1] > length:
            shifted = shifted[:, :length]
        else:
            shifted = np.pad(shifted, [(0, 0), (0, length - shifted.shape[-1])])
        return shifted.reshape(array.shape[:-1] + (length,)).astype(dtype)
