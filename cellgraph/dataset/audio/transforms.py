"""Audio transforms (mindspore.dataset.audio) on NumPy waveforms of shape (..., time).

The filters follow the formulas MindSpore shares with torchaudio: a biquad's coefficients from
the Audio EQ Cookbook, run as a direct-form IIR filter whose output is clamped to [-1, 1];
resampling by band-limited (windowed sinc) interpolation.
"""
from __future__ import annotations

import math
import numbers
from enum import Enum

import numpy as np

from cellgraph.dataset.transforms.transforms import TensorOperation

__all__ = ["BassBiquad", "Resample", "ResampleMethod"]


def _waveform(waveform, op: str) -> np.ndarray:
    array = np.asarray(waveform)
    if array.ndim < 1 or array.dtype.kind != "f":
        raise TypeError(f"{op}: expected a float waveform of shape <..., time>, got "
                        f"{array.dtype} of shape {array.shape}")
    return array


def _number(value, op: str, name: str, positive=False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or (
            positive and not value > 0):
        raise ValueError(f"{op}: `{name}` must be a{' positive' if positive else ''} number, "
                         f"got {value!r}")
    return float(value)


def lfilter(waveform: np.ndarray, b, a, clamp=True) -> np.ndarray:
    """y[n] = (sum_k b[k] x[n-k] - sum_{k>=1} a[k] y[n-k]) / a[0] along the last axis, in
    float64, optionally clamped to [-1, 1]."""
    b, a = np.asarray(b, np.float64) / a[0], np.asarray(a, np.float64) / a[0]
    x = waveform.astype(np.float64)
    try:
        from scipy.signal import lfilter as scipy_lfilter
    except ImportError:
        y = np.zeros_like(x)
        for n in range(x.shape[-1]):
            acc = sum(b[k] * x[..., n - k] for k in range(len(b)) if n - k >= 0)
            acc = acc - sum(a[k] * y[..., n - k] for k in range(1, len(a)) if n - k >= 0)
            y[..., n] = acc
    else:
        y = scipy_lfilter(b, a, x, axis=-1)
    if clamp:
        y = np.clip(y, -1.0, 1.0)
    return y.astype(waveform.dtype)


class BassBiquad(TensorOperation):
    """A two-pole low-shelf filter: `gain` dB below about `central_freq` Hz, slope set by the
    quality factor `Q`."""

    def __init__(self, sample_rate, gain, central_freq=100.0, Q=0.707):
        op = "BassBiquad"
        self.sample_rate = _number(sample_rate, op, "sample_rate")
        if self.sample_rate == 0:
            raise ValueError(f"{op}: `sample_rate` must not be 0")
        self.gain = _number(gain, op, "gain")
        self.central_freq = _number(central_freq, op, "central_freq")
        self.Q = _number(Q, op, "Q", positive=True)
        if self.Q > 1:
            raise ValueError(f"{op}: `Q` must be in (0, 1], got {Q!r}")

    def coefficients(self) -> tuple[list, list]:
        """(b, a) of the shelf, unnormalised."""
        w0 = 2 * math.pi * self.central_freq / self.sample_rate
        alpha = math.sin(w0) / 2 / self.Q
        amp = 10 ** (self.gain / 40)
        shelf = 2 * math.sqrt(amp) * alpha
        minus_cos, plus_cos = (amp - 1) * math.cos(w0), (amp + 1) * math.cos(w0)
        b = [amp * ((amp + 1) - minus_cos + shelf), 2 * amp * ((amp - 1) - plus_cos),
             amp * ((amp + 1) - minus_cos - shelf)]
        a = [(amp + 1) + minus_cos + shelf, -2 * ((amp - 1) + plus_cos),
             (amp + 1) + minus_cos - shelf]
        return b, a

    def __call__(self, waveform):
        b, a = self.coefficients()
        return lfilter(_waveform(waveform, "BassBiquad"), b, a)


class ResampleMethod(str, Enum):
    SINC_INTERPOLATION = "sinc_interpolation"
    KAISER_WINDOW = "kaiser_window"


class Resample(TensorOperation):
    """From `orig_freq` to `new_freq` Hz by windowed-sinc interpolation (a Hann window, or a
    Kaiser window of shape `beta`), the pass band `rolloff` times the lower Nyquist rate."""

    def __init__(self, orig_freq=16000, new_freq=16000,
                 resample_method=ResampleMethod.SINC_INTERPOLATION, lowpass_filter_width=6,
                 rolloff=0.99, beta=None):
        op = "Resample"
        self.orig_freq = _number(orig_freq, op, "orig_freq", positive=True)
        self.new_freq = _number(new_freq, op, "new_freq", positive=True)
        if not isinstance(resample_method, ResampleMethod):
            raise TypeError(f"{op}: `resample_method` must be a ResampleMethod, got "
                            f"{resample_method!r}")
        if isinstance(lowpass_filter_width, bool) or not isinstance(
                lowpass_filter_width, numbers.Integral) or lowpass_filter_width < 1:
            raise ValueError(f"{op}: `lowpass_filter_width` must be a positive int, got "
                             f"{lowpass_filter_width!r}")
        self.rolloff = _number(rolloff, op, "rolloff", positive=True)
        self.resample_method, self.width = resample_method, int(lowpass_filter_width)
        self.beta = 14.769656459379492 if beta is None else _number(beta, op, "beta")

    def kernels(self, orig: int, new: int) -> tuple[np.ndarray, int]:
        """One interpolation kernel per output phase, shape (new, 2 * pad + orig), and pad."""
        base = min(orig, new) * self.rolloff
        pad = math.ceil(self.width * orig / base)
        offsets = np.arange(-pad, pad + orig, dtype=np.float64) / orig
        t = (-np.arange(new, dtype=np.float64)[:, None] / new + offsets[None, :]) * base
        t = np.clip(t, -self.width, self.width)
        if self.resample_method is ResampleMethod.SINC_INTERPOLATION:
            window = np.cos(t * math.pi / self.width / 2) ** 2
        else:
            window = np.i0(self.beta * np.sqrt(1 - (t / self.width) ** 2)) / np.i0(self.beta)
        return np.sinc(t) * window * (base / orig), pad

    def __call__(self, waveform):
        array = _waveform(waveform, "Resample")
        if self.orig_freq == self.new_freq:
            return array
        orig, new = int(self.orig_freq), int(self.new_freq)
        divisor = math.gcd(orig, new)
        orig, new = orig // divisor, new // divisor
        kernels, pad = self.kernels(orig, new)
        length = array.shape[-1]
        padded = np.pad(array.astype(np.float64),
                        [(0, 0)] * (array.ndim - 1) + [(pad, pad + orig)])
        frames = np.lib.stride_tricks.sliding_window_view(padded, kernels.shape[1],
                                                          axis=-1)[..., ::orig, :]
        out = (frames @ kernels.T).reshape(array.shape[:-1] + (-1,))
        return out[..., :math.ceil(new * length / orig)].astype(array.dtype)
