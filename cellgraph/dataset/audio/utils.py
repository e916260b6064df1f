"""mindspore.dataset.audio.utils: the enums the audio transforms take, and the filter banks
and DCT matrix MFCC-style features are built from (float32, as MindSpore gives them)."""
from __future__ import annotations

import math
from enum import Enum

import numpy as np

from cellgraph.dataset.core.validator_helpers import (
    check_non_negative_float32,
    check_non_negative_int32,
    check_pos_float32,
    check_pos_int32,
    type_check,
)

__all__ = ["BorderType", "DensityFunction", "FadeShape", "GainType", "Interpolation",
           "MelType", "Modulation", "NormMode", "NormType", "ResampleMethod", "ScaleType",
           "WindowType", "create_dct", "linear_fbanks", "melscale_fbanks"]


class BorderType(str, Enum):
    CONSTANT: str = "constant"
    EDGE: str = "edge"
    REFLECT: str = "reflect"
    SYMMETRIC: str = "symmetric"


class DensityFunction(str, Enum):
    TPDF: str = "TPDF"
    RPDF: str = "RPDF"
    GPDF: str = "GPDF"


class FadeShape(str, Enum):
    QUARTER_SINE: str = "quarter_sine"
    HALF_SINE: str = "half_sine"
    LINEAR: str = "linear"
    LOGARITHMIC: str = "logarithmic"
    EXPONENTIAL: str = "exponential"


class GainType(str, Enum):
    AMPLITUDE: str = "amplitude"
    POWER: str = "power"
    DB: str = "db"


class Interpolation(str, Enum):
    LINEAR: str = "linear"
    QUADRATIC: str = "quadratic"


class MelType(str, Enum):
    HTK: str = "htk"
    SLANEY: str = "slaney"


class Modulation(str, Enum):
    SINUSOIDAL: str = "sinusoidal"
    TRIANGULAR: str = "triangular"


class NormMode(str, Enum):
    ORTHO: str = "ortho"
    NONE: str = "none"


class NormType(str, Enum):
    SLANEY: str = "slaney"
    NONE: str = "none"


class ResampleMethod(str, Enum):
    SINC_INTERPOLATION: str = "sinc_interpolation"
    KAISER_WINDOW: str = "kaiser_window"


class ScaleType(str, Enum):
    POWER: str = "power"
    MAGNITUDE: str = "magnitude"


class WindowType(str, Enum):
    BARTLETT: str = "bartlett"
    BLACKMAN: str = "blackman"
    HAMMING: str = "hamming"
    HANN: str = "hann"
    KAISER: str = "kaiser"


def create_dct(n_mfcc, n_mels, norm=NormMode.NONE) -> np.ndarray:
    """The DCT-II matrix of shape (n_mels, n_mfcc); with NormMode.ORTHO, orthonormal."""
    for name, value, kind in (("n_mfcc", n_mfcc, int), ("n_mels", n_mels, int),
                              ("norm", norm, NormMode)):
        if not isinstance(value, kind):
            raise TypeError(f"{name} with value {value} is not of type {kind}, but got "
                            f"{type(value)}.")
    for name, value in (("n_mfcc", n_mfcc), ("n_mels", n_mels)):
        if value <= 0:
            raise ValueError(f"{name} must be greater than 0, but got {value}.")
    n = np.arange(n_mels, dtype=np.float64)
    k = np.arange(n_mfcc, dtype=np.float64)[:, None]
    dct = np.cos(math.pi / n_mels * (n + 0.5) * k)
    if norm == NormMode.ORTHO:
        dct[0] *= 1 / math.sqrt(2)
        dct *= math.sqrt(2 / n_mels)
    else:
        dct *= 2
    return dct.T.astype(np.float32)


def _check_bank(n_freqs, f_min, f_max, count_name, count, sample_rate):
    type_check(n_freqs, (int,), "n_freqs")
    check_non_negative_int32(n_freqs, "n_freqs")
    type_check(f_min, (int, float), "f_min")
    check_non_negative_float32(f_min, "f_min")
    type_check(f_max, (int, float), "f_max")
    check_pos_float32(f_max, "f_max")
    if f_min > f_max:
        raise ValueError(f"Input f_min should be no more than f_max, but got f_min: {f_min} "
                         f"and f_max: {f_max}.")
    type_check(count, (int,), count_name)
    check_pos_int32(count, count_name)
    type_check(sample_rate, (int,), "sample_rate")
    check_pos_int32(sample_rate, "sample_rate")


def _triangles(all_freqs: np.ndarray, f_pts: np.ndarray) -> np.ndarray:
    """Triangular filters with corners at f_pts, sampled at all_freqs: (n_freqs, len - 2)."""
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return np.maximum(0.0, np.minimum(down, up))


def _hz_to_mel(freq, mel_type):
    if mel_type == MelType.HTK:
        return 2595.0 * np.log10(1.0 + np.asarray(freq, np.float64) / 700.0)
    freq = np.asarray(freq, np.float64)
    f_sp, min_log_hz = 200.0 / 3, 1000.0
    min_log_mel, logstep = min_log_hz / f_sp, math.log(6.4) / 27.0
    return np.where(freq >= min_log_hz,
                    min_log_mel + np.log(np.maximum(freq, 1e-10) / min_log_hz) / logstep,
                    freq / f_sp)


def _mel_to_hz(mels, mel_type):
    if mel_type == MelType.HTK:
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    f_sp, min_log_hz = 200.0 / 3, 1000.0
    min_log_mel, logstep = min_log_hz / f_sp, math.log(6.4) / 27.0
    return np.where(mels >= min_log_mel, min_log_hz * np.exp(logstep * (mels - min_log_mel)),
                    f_sp * mels)


def melscale_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate, norm=NormType.NONE,
                    mel_type=MelType.HTK) -> np.ndarray:
    """Triangular filters equally spaced on the mel scale, shape (n_freqs, n_mels)."""
    _check_bank(n_freqs, f_min, f_max, "n_mels", n_mels, sample_rate)
    type_check(norm, (NormType,), "norm")
    type_check(mel_type, (MelType,), "mel_type")
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    f_pts = _mel_to_hz(m_pts, mel_type)
    banks = _triangles(all_freqs, f_pts)
    if norm == NormType.SLANEY:
        banks *= 2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels])[None, :]
    return banks.astype(np.float32)


def linear_fbanks(n_freqs, f_min, f_max, n_filter, sample_rate) -> np.ndarray:
    """Triangular filters equally spaced in Hz, shape (n_freqs, n_filter)."""
    _check_bank(n_freqs, f_min, f_max, "n_filter", n_filter, sample_rate)
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    f_pts = np.linspace(f_min, f_max, n_filter + 2)
    return _triangles(all_freqs, f_pts).astype(np.float32)
