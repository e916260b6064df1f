"""Audio transforms (mindspore.dataset.audio) on NumPy waveforms of shape (..., time).

The filters follow the formulas MindSpore shares with torchaudio: a biquad's coefficients from
the Audio EQ Cookbook, run as a direct-form IIR filter whose output is clamped to [-1, 1];
resampling by band-limited (windowed sinc) interpolation.
"""
from __future__ import annotations

import math
import numbers
from typing import ClassVar

import numpy as np

from cellgraph.dataset.core.validator_helpers import (
    INT32_MAX,
    check_float32,
    check_float32_not_zero,
    check_int32_not_zero,
    check_list_same_size,
    check_non_negative_float32,
    check_non_negative_int32,
    check_pos_float32,
    check_pos_int32,
    check_value,
    type_check,
)
from cellgraph.dataset.transforms.transforms import TensorOperation

from .utils import BorderType, FadeShape, GainType, ResampleMethod, ScaleType

__all__ = ["AllpassBiquad", "AmplitudeToDB", "Angle", "BandBiquad", "BandpassBiquad", "BandrejectBiquad", "BassBiquad", "Biquad", "ComplexNorm", "ComputeDeltas", "Contrast", "DBToAmplitude", "DCShift", "DeemphBiquad", "EqualizerBiquad", "Fade", "Gain", "HighpassBiquad", "LFilter", "LowpassBiquad", "Magphase", "MuLawDecoding", "MuLawEncoding", "Overdrive", "Resample", "RiaaBiquad", "TrebleBiquad", "Vol"]


def _waveform(waveform, op: str) -> np.ndarray:
    """The waveform a filter runs on: a float or double array of shape <..., time>, refused
    with MindSpore's words (a RuntimeError of the pipeline) otherwise."""
    array = np.asarray(waveform)
    if array.ndim < 1:
        raise RuntimeError(f"{op}: the shape of input tensor does not match the requirement of "
                           f"operator. Expecting tensor in shape of <..., time>. But got tensor "
                           f"with dimension {array.ndim}.")
    if array.dtype.kind != "f":
        name = "string" if array.dtype.kind in "USO" else array.dtype.name
        raise RuntimeError(f"{op}: the data type of input tensor does not match the requirement "
                           f"of operator. Expecting tensor in type of [float, double]. But got "
                           f"type {name}.")
    return array


def lfilter(waveform: np.ndarray, b, a, clamp=True) -> np.ndarray:
    """y[n] = (sum_k b[k] x[n-k] - sum_{k>=1} a[k] y[n-k]) / a[0] along the last axis, run in
    the waveform's own precision (float16, float32 or float64) as MindSpore's kernel is, and
    clamped to [-1, 1] once the whole output is known when `clamp`."""
    dtype = waveform.dtype
    b = np.asarray(b, np.float64) / a[0]
    a = np.asarray(a, np.float64) / a[0]
    b, a = b.astype(dtype), a.astype(dtype)
    x = waveform.reshape(-1, waveform.shape[-1])
    order = max(len(a), len(b))
    length = x.shape[-1]
    xp = np.concatenate([np.zeros((x.shape[0], order - 1), dtype), x], axis=1)
    yp = np.zeros_like(xp)
    for n in range(length):
        i = n + order - 1
        acc = np.zeros(x.shape[0], dtype)
        for k in range(len(b)):
            acc = acc + b[k] * xp[:, i - k]
        for k in range(1, len(a)):
            acc = acc - a[k] * yp[:, i - k]
        yp[:, i] = acc
    y = yp[:, order - 1:]
    if clamp:
        y = np.clip(y, -1.0, 1.0)
    return y.reshape(waveform.shape).astype(dtype)


class AudioTensorOperation(TensorOperation):
    """An audio transform: called on NumPy waveforms only."""

    def __call__(self, *waveforms):
        for waveform in waveforms:
            if not isinstance(waveform, np.ndarray):
                raise TypeError(f"Input should be NumPy audio, got {type(waveform)}.")
        return self.apply(*waveforms)

    def apply(self, waveform):
        raise NotImplementedError


def _check_sample_rate(sample_rate):
    type_check(sample_rate, (int,), "sample_rate")
    check_int32_not_zero(sample_rate, "sample_rate")


def _check_frequency(value, name):
    type_check(value, (float, int), name)
    check_float32(value, name)


def _check_q(q):
    type_check(q, (float, int), "Q")
    check_value(q, [0, 1], "Q", True)


def _check_bool(value, name):
    type_check(value, (bool,), name)


class _Biquad(AudioTensorOperation):
    """A second-order IIR filter given by `coefficients()`: (b, a), unnormalised."""

    def coefficients(self) -> tuple[list, list]:
        raise NotImplementedError

    def apply(self, waveform):
        b, a = self.coefficients()
        return lfilter(_waveform(waveform, type(self).__name__), b, a)

    def _angle(self, freq: float) -> tuple[float, float]:
        """(w0, alpha): the cookbook's angular frequency of `freq` Hz and its bandwidth term."""
        w0 = 2 * math.pi * freq / self.sample_rate
        return w0, math.sin(w0) / 2 / self.Q


class _CentralBiquad(_Biquad):
    """A filter about `central_freq` Hz of quality factor Q, checked as MindSpore checks them."""

    def __init__(self, sample_rate, central_freq, Q=0.707):
        _check_sample_rate(sample_rate)
        _check_frequency(central_freq, "central_freq")
        _check_q(Q)
        self.sample_rate, self.central_freq, self.Q = sample_rate, central_freq, Q


def _cookbook_denominator(w0: float, alpha: float) -> list:
    return [1 + alpha, -2 * math.cos(w0), 1 - alpha]


class AllpassBiquad(_CentralBiquad):
    """A two-pole all-pass filter about `central_freq` Hz: the phase turns, the gain stays."""

    def coefficients(self):
        w0, alpha = self._angle(self.central_freq)
        return [1 - alpha, -2 * math.cos(w0), 1 + alpha], _cookbook_denominator(w0, alpha)


class BandBiquad(_Biquad):
    """A two-pole band-pass filter about `central_freq` Hz of bandwidth `central_freq / Q`
    (SoX's `band`); with `noise`, tuned for unpitched audio (equal power rather than equal
    peak)."""

    def __init__(self, sample_rate, central_freq, Q=0.707, noise=False):
        _check_sample_rate(sample_rate)
        _check_frequency(central_freq, "central_freq")
        _check_q(Q)
        _check_bool(noise, "noise")
        self.sample_rate, self.central_freq, self.Q, self.noise = (sample_rate, central_freq,
                                                                   Q, noise)

    def coefficients(self):
        w0 = 2 * math.pi * self.central_freq / self.sample_rate
        bandwidth = self.central_freq / self.Q
        a2 = math.exp(-2 * math.pi * bandwidth / self.sample_rate)
        a1 = -4 * a2 / (1 + a2) * math.cos(w0)
        b0 = math.sqrt(1 - a1 * a1 / (4 * a2)) * (1 - a2)
        if self.noise:
            b0 *= math.sqrt(((1 + a2) * (1 + a2) - a1 * a1) * (1 - a2) / (1 + a2)) / b0
        return [b0, 0.0, 0.0], [1.0, a1, a2]


class BandpassBiquad(_Biquad):
    """A two-pole band-pass filter about `central_freq` Hz; with `const_skirt_gain`, a constant
    skirt gain (peak gain Q), else a constant 0 dB peak."""

    def __init__(self, sample_rate, central_freq, Q=0.707, const_skirt_gain=False):
        _check_sample_rate(sample_rate)
        _check_frequency(central_freq, "central_freq")
        _check_q(Q)
        _check_bool(const_skirt_gain, "const_skirt_gain")
        self.sample_rate, self.central_freq, self.Q = sample_rate, central_freq, Q
        self.const_skirt_gain = const_skirt_gain

    def coefficients(self):
        w0, alpha = self._angle(self.central_freq)
        gain = math.sin(w0) / 2 if self.const_skirt_gain else alpha
        return [gain, 0.0, -gain], _cookbook_denominator(w0, alpha)


class BandrejectBiquad(_CentralBiquad):
    """A two-pole band-reject (notch) filter about `central_freq` Hz."""

    def coefficients(self):
        w0, alpha = self._angle(self.central_freq)
        return [1.0, -2 * math.cos(w0), 1.0], _cookbook_denominator(w0, alpha)


def _shelf(gain: float, w0: float, alpha: float, high: bool) -> tuple[list, list]:
    """The cookbook's low shelf (high=False) or high shelf of `gain` dB."""
    amp = 10 ** (gain / 40)
    shelf = 2 * math.sqrt(amp) * alpha
    sign = 1 if high else -1
    minus_cos, plus_cos = sign * (amp - 1) * math.cos(w0), (amp + 1) * math.cos(w0)
    b = [amp * ((amp + 1) + minus_cos + shelf), -2 * sign * amp * ((amp - 1) + sign * plus_cos),
         amp * ((amp + 1) + minus_cos - shelf)]
    a = [(amp + 1) - minus_cos + shelf, 2 * sign * ((amp - 1) - sign * plus_cos),
         (amp + 1) - minus_cos - shelf]
    return b, a


class BassBiquad(_Biquad):
    """A two-pole low-shelf filter: `gain` dB below about `central_freq` Hz, slope set by the
    quality factor `Q`."""

    def __init__(self, sample_rate, gain, central_freq=100.0, Q=0.707):
        _check_sample_rate(sample_rate)
        _check_frequency(gain, "gain")
        _check_frequency(central_freq, "central_freq")
        _check_q(Q)
        self.sample_rate, self.gain, self.central_freq, self.Q = (sample_rate, gain,
                                                                  central_freq, Q)

    def coefficients(self) -> tuple[list, list]:
        """(b, a) of the shelf, unnormalised."""
        w0 = 2 * math.pi * self.central_freq / self.sample_rate
        return _shelf(self.gain, w0, math.sin(w0) / 2 / self.Q, high=False)


class TrebleBiquad(_Biquad):
    """A two-pole high-shelf filter: `gain` dB above about `central_freq` Hz."""

    def __init__(self, sample_rate, gain, central_freq=3000, Q=0.707):
        _check_sample_rate(sample_rate)
        _check_frequency(gain, "gain")
        _check_frequency(central_freq, "central_freq")
        _check_q(Q)
        self.sample_rate, self.gain, self.central_freq, self.Q = (sample_rate, gain,
                                                                  central_freq, Q)

    def coefficients(self):
        w0 = 2 * math.pi * self.central_freq / self.sample_rate
        return _shelf(self.gain, w0, math.sin(w0) / 2 / self.Q, high=True)


class Biquad(_Biquad):
    """The biquad of the six coefficients given: (b0 + b1 z^-1 + b2 z^-2) /
    (a0 + a1 z^-1 + a2 z^-2)."""

    def __init__(self, b0, b1, b2, a0, a1, a2):
        for name, value in (("b0", b0), ("b1", b1), ("b2", b2)):
            _check_frequency(value, name)
        type_check(a0, (float, int), "a0")
        check_float32_not_zero(a0, "a0")
        for name, value in (("a1", a1), ("a2", a2)):
            _check_frequency(value, name)
        self.b0, self.b1, self.b2, self.a0, self.a1, self.a2 = b0, b1, b2, a0, a1, a2

    def coefficients(self):
        return [self.b0, self.b1, self.b2], [self.a0, self.a1, self.a2]


class DeemphBiquad(_Biquad):
    """The ISO 908 CD de-emphasis (a treble cut of about -9.5 dB) at 44100 or 48000 Hz."""

    _DESIGN: ClassVar[dict] = {44100: (5283, 0.4845, -9.477), 48000: (5356, 0.479, -9.62)}

    def __init__(self, sample_rate):
        type_check(sample_rate, (int,), "sample_rate")
        if sample_rate not in (44100, 48000):
            raise ValueError(f"Argument sample_rate should be 44100 or 48000, but got "
                             f"{sample_rate}.")
        self.sample_rate = sample_rate

    def coefficients(self):
        central_freq, width_slope, gain = self._DESIGN[self.sample_rate]
        w0 = 2 * math.pi * central_freq / self.sample_rate
        amp = 10 ** (gain / 40)
        alpha = math.sin(w0) / 2 * math.sqrt((amp + 1 / amp) * (1 / width_slope - 1) + 2)
        return _shelf(gain, w0, alpha, high=True)


class EqualizerBiquad(_Biquad):
    """A two-pole peaking equaliser: `gain` dB about `center_freq` Hz."""

    def __init__(self, sample_rate, center_freq, gain, Q=0.707):
        _check_sample_rate(sample_rate)
        _check_frequency(center_freq, "central_freq")
        _check_frequency(gain, "gain")
        _check_q(Q)
        self.sample_rate, self.center_freq, self.gain, self.Q = (sample_rate, center_freq,
                                                                 gain, Q)

    def coefficients(self):
        w0, alpha = self._angle(self.center_freq)
        amp = 10 ** (self.gain / 40)
        return ([1 + alpha * amp, -2 * math.cos(w0), 1 - alpha * amp],
                [1 + alpha / amp, -2 * math.cos(w0), 1 - alpha / amp])


class _CutoffBiquad(_Biquad):
    """A filter of cutoff `cutoff_freq` Hz and quality factor Q, checked as MindSpore checks
    them."""

    def __init__(self, sample_rate, cutoff_freq, Q=0.707):
        _check_sample_rate(sample_rate)
        _check_frequency(cutoff_freq, "cutoff_freq")
        _check_q(Q)
        self.sample_rate, self.cutoff_freq, self.Q = sample_rate, cutoff_freq, Q


class HighpassBiquad(_CutoffBiquad):
    """A two-pole high-pass filter of cutoff `cutoff_freq` Hz."""

    def coefficients(self):
        w0, alpha = self._angle(self.cutoff_freq)
        cos = math.cos(w0)
        return [(1 + cos) / 2, -1 - cos, (1 + cos) / 2], _cookbook_denominator(w0, alpha)


class LowpassBiquad(_CutoffBiquad):
    """A two-pole low-pass filter of cutoff `cutoff_freq` Hz."""

    def coefficients(self):
        w0, alpha = self._angle(self.cutoff_freq)
        cos = math.cos(w0)
        return [(1 - cos) / 2, 1 - cos, (1 - cos) / 2], _cookbook_denominator(w0, alpha)


class RiaaBiquad(_Biquad):
    """The RIAA vinyl playback equalisation at 44100, 48000, 88200 or 96000 Hz, 0 dB at
    1 kHz."""

    _ZEROS_POLES: ClassVar[dict] = {44100: ((-0.2014898, 0.9233820), (0.7083149, 0.9924091)),
                    48000: ((-0.1766069, 0.9321590), (0.7396325, 0.9931330)),
                    88200: ((-0.1168735, 0.9648312), (0.8590646, 0.9964002)),
                    96000: ((-0.1141486, 0.9676817), (0.8699137, 0.9966946))}

    def __init__(self, sample_rate):
        type_check(sample_rate, (int,), "sample_rate")
        if sample_rate not in self._ZEROS_POLES:
            raise ValueError(f"sample_rate should be one of [44100, 48000, 88200, 96000], but "
                             f"got {sample_rate}.")
        self.sample_rate = sample_rate

    def coefficients(self):
        zeros, poles = self._ZEROS_POLES[self.sample_rate]
        b = [1.0, -(zeros[0] + zeros[1]), zeros[0] * zeros[1]]
        a = [1.0, -(poles[0] + poles[1]), poles[0] * poles[1]]
        y = 2 * math.pi * 1000 / self.sample_rate  # the response at 1 kHz, made 1

        def response(c):
            re = c[0] + c[1] * math.cos(-y) + c[2] * math.cos(-2 * y)
            im = c[1] * math.sin(-y) + c[2] * math.sin(-2 * y)
            return re * re + im * im

        gain = 1 / math.sqrt(response(b) / response(a))
        return [c * gain for c in b], a


class LFilter(AudioTensorOperation):
    """The IIR filter of denominator `a_coeffs` and numerator `b_coeffs` (the same length),
    clamped to [-1, 1] when `clamp`."""

    def __init__(self, a_coeffs, b_coeffs, clamp=True):
        type_check(a_coeffs, (list, tuple), "a_coeffs")
        type_check(b_coeffs, (list, tuple), "b_coeffs")
        for name, coeffs in (("a_coeffs", a_coeffs), ("b_coeffs", b_coeffs)):
            for i, value in enumerate(coeffs):
                _check_frequency(value, f"{name}[{i}]")
        check_list_same_size(a_coeffs, b_coeffs, "a_coeffs", "b_coeffs")
        type_check(clamp, (bool,), "clamp")
        self.a_coeffs, self.b_coeffs, self.clamp = list(a_coeffs), list(b_coeffs), clamp

    def apply(self, waveform):
        return lfilter(_waveform(waveform, "LFilter"), self.b_coeffs, self.a_coeffs,
                       self.clamp)


def _complex(spectrum, op: str) -> np.ndarray:
    """A complex spectrum as float pairs: shape <..., complex=2>."""
    array = np.asarray(spectrum)
    if array.ndim < 1 or array.shape[-1] != 2:
        raise RuntimeError(f"{op}: the shape of input tensor does not match the requirement of "
                           f"operator. Expecting tensor in shape of <..., complex=2>.")
    if array.dtype.kind not in "fiu":
        raise RuntimeError(f"{op}: the data type of input tensor does not match the requirement "
                           f"of operator. Expecting tensor in type of [int, float, double]. But "
                           f"got type string.")
    return array if array.dtype.kind == "f" else array.astype(np.float32)


def _check_power(power):
    type_check(power, (int, float), "power")
    check_non_negative_float32(power, "power")


class Angle(AudioTensorOperation):
    """The phase atan2(imag, real) of a complex spectrum <..., complex=2>."""

    def apply(self, spectrum):
        array = _complex(spectrum, "Angle")
        return np.arctan2(array[..., 1], array[..., 0]).astype(array.dtype)


class ComplexNorm(AudioTensorOperation):
    """The magnitude |z| ** power of a complex spectrum <..., complex=2>."""

    def __init__(self, power=1.0):
        _check_power(power)
        self.power = power

    def apply(self, spectrum):
        array = _complex(spectrum, "ComplexNorm")
        squares = array[..., 0] ** 2 + array[..., 1] ** 2  # (re^2 + im^2) ** (power / 2)
        return np.power(squares, array.dtype.type(self.power / 2)).astype(array.dtype)


class Magphase(AudioTensorOperation):
    """(|z| ** power, angle(z)) of a complex spectrum <..., complex=2>."""

    def __init__(self, power=1.0):
        _check_power(power)
        self.power = power

    def apply(self, spectrum):
        array = _complex(spectrum, "Magphase")
        squares = array[..., 0] ** 2 + array[..., 1] ** 2
        return (np.power(squares, array.dtype.type(self.power / 2)).astype(array.dtype),
                np.arctan2(array[..., 1], array[..., 0]).astype(array.dtype))


def _float_wave(waveform, op: str) -> np.ndarray:
    """A waveform of any real dtype; integers are taken as float32."""
    array = np.asarray(waveform)
    if array.dtype.kind in "biu":
        array = array.astype(np.float32)
    return _waveform(array, op)


class Gain(AudioTensorOperation):
    """The waveform amplified by `gain_db` decibels."""

    def __init__(self, gain_db=1.0):
        type_check(gain_db, (float, int), "gain_db")
        check_float32(gain_db, "gain_db")
        self.gain_db = gain_db

    def apply(self, waveform):
        array = _float_wave(waveform, "Gain")
        return (array * 10 ** (self.gain_db / 20)).astype(array.dtype)


class Vol(AudioTensorOperation):
    """The waveform scaled by `gain` (an amplitude ratio, a power ratio, or decibels) and
    clamped to [-1, 1]."""

    def __init__(self, gain, gain_type=GainType.AMPLITUDE):
        type_check(gain, (int, float), "gain")
        type_check(gain_type, (GainType,), "gain_type")
        if gain_type == GainType.AMPLITUDE:
            check_non_negative_float32(gain, "gain")
        elif gain_type == GainType.POWER:
            check_pos_float32(gain, "gain")
        else:
            check_float32(gain, "gain")
        self.gain, self.gain_type = gain, gain_type

    def apply(self, waveform):
        array = _float_wave(waveform, "Vol")
        if self.gain_type == GainType.AMPLITUDE:
            factor = self.gain
        elif self.gain_type == GainType.DB:
            factor = 10 ** (self.gain / 20)
        else:
            factor = 10 ** (10 * math.log10(self.gain) / 20)
        return np.clip(array * factor, -1, 1).astype(array.dtype)


class DCShift(AudioTensorOperation):
    """The waveform shifted by `shift`; with `limiter_gain`, the samples the shift would push
    past the limiter's threshold are compressed (SoX's dcshift)."""

    def __init__(self, shift, limiter_gain=None):
        type_check(shift, (float, int), "shift")
        check_value(shift, [-2.0, 2.0], "shift")
        if limiter_gain is not None:
            type_check(limiter_gain, (float, int), "limiter_gain")
        self.shift, self.limiter_gain = shift, limiter_gain

    def apply(self, waveform):
        array = _float_wave(waveform, "DCShift")
        x, shift, gain = array.astype(np.float64), self.shift, self.limiter_gain
        if gain is None or shift == 0:
            out = np.clip(x + shift, -1, 1)
        else:
            threshold = 1.0 - (abs(shift) - gain)
            if shift > 0:
                mask = x > threshold
                limited = (x - threshold) * gain / (1 - threshold) + threshold + shift
                out = np.where(mask, np.minimum(limited, threshold), np.clip(x + shift, -1, 1))
            else:
                mask = x < -threshold
                # MindSpore adds the threshold back on this side too (SoX subtracts it)
                limited = (x + threshold) * gain / (1 - threshold) + threshold + shift
                out = np.where(mask, np.maximum(limited, -threshold),
                               np.clip(x + shift, -1, 1))
        return out.astype(array.dtype)


class MuLawEncoding(AudioTensorOperation):
    """A waveform in [-1, 1] mu-law companded to int32 codes 0 .. quantization_channels - 1."""

    def __init__(self, quantization_channels=256):
        check_pos_int32(quantization_channels, "quantization_channels")
        self.quantization_channels = quantization_channels

    def apply(self, waveform):
        array = _float_wave(waveform, "MuLawEncoding")
        mu = float(self.quantization_channels - 1)
        x = array.astype(np.float64)
        companded = np.sign(x) * np.log1p(mu * np.abs(x)) / math.log1p(mu)
        return ((companded + 1) / 2 * mu + 0.5).astype(np.int32)


class MuLawDecoding(AudioTensorOperation):
    """mu-law codes 0 .. quantization_channels - 1 back to a waveform in [-1, 1] (float32 for
    integer codes)."""

    def __init__(self, quantization_channels=256):
        check_pos_int32(quantization_channels, "quantization_channels")
        self.quantization_channels = quantization_channels

    def apply(self, codes):
        array = _float_wave(codes, "MuLawDecoding")
        kind = array.dtype.type  # in the codes' precision, the exponential taken in double
        mu = kind(self.quantization_channels - 1)
        x = array / mu * kind(2) - kind(1)
        grown = np.exp((np.abs(x) * np.log1p(mu)).astype(np.float64)).astype(array.dtype)
        return (np.sign(x) * (grown - kind(1)) / mu).astype(array.dtype)


class DBToAmplitude(AudioTensorOperation):
    """Decibels back to amplitude: ref * (10 ** (x / 10)) ** power."""

    def __init__(self, ref, power):
        type_check(ref, (float, int), "ref")
        check_float32(ref, "ref")
        type_check(power, (float, int), "power")
        check_float32(power, "power")
        self.ref, self.power = ref, power

    def apply(self, spectrum):
        array = _float_wave(spectrum, "DBToAmplitude")
        out = self.ref * np.power(np.power(10.0, array.astype(np.float64) * 0.1), self.power)
        return out.astype(array.dtype)


class AmplitudeToDB(AudioTensorOperation):
    """A power (or magnitude) spectrogram <..., freq, time> in decibels relative to
    `ref_value`, floored at `amin`, and at `top_db` below each spectrogram's peak."""

    def __init__(self, stype=ScaleType.POWER, ref_value=1.0, amin=1e-10, top_db=80.0):
        type_check(stype, (ScaleType,), "stype")
        for name, value in (("ref_value", ref_value), ("amin", amin), ("top_db", top_db)):
            type_check(value, (int, float), name)
            check_pos_float32(value, name)
        self.stype, self.ref_value, self.amin, self.top_db = stype, ref_value, amin, top_db

    def apply(self, spectrogram):
        array = _float_wave(spectrogram, "AmplitudeToDB")
        multiplier = 10.0 if self.stype == ScaleType.POWER else 20.0
        x = np.maximum(array.astype(np.float64), self.amin)
        db = multiplier * np.log10(x) - multiplier * math.log10(max(self.amin, self.ref_value))
        if self.top_db is not None:  # below the peak of each <channel, freq, time> block
            shape = db.shape
            flat = db.reshape((-1,) + shape[-3:]) if db.ndim >= 3 else db[None]
            peak = flat.max(axis=tuple(range(1, flat.ndim)), keepdims=True)
            db = np.maximum(flat, peak - self.top_db).reshape(shape)
        return db.astype(array.dtype)


class Contrast(AudioTensorOperation):
    """SoX's contrast: sin(x * pi/2 + amount/750 * sin(x * 2 pi)), louder without clipping."""

    def __init__(self, enhancement_amount=75.0):
        type_check(enhancement_amount, (float, int), "enhancement_amount")
        check_value(enhancement_amount, [0, 100], "enhancement_amount")
        self.enhancement_amount = enhancement_amount

    def apply(self, waveform):
        array = _float_wave(waveform, "Contrast")
        x = array.astype(np.float64) * (math.pi / 2)
        return np.sin(x + self.enhancement_amount / 750 * np.sin(x * 4)).astype(array.dtype)


class Overdrive(AudioTensorOperation):
    """SoX's overdrive: a cubic soft clip of the waveform driven by `gain` dB with `color`
    even harmonics, through a DC-blocking filter, mixed with the dry signal."""

    def __init__(self, gain=20.0, color=20.0):
        for name, value in (("gain", gain), ("color", color)):
            type_check(value, (float, int), name)
            check_value(value, [0, 100], name)
        self.gain, self.color = gain, color

    def apply(self, waveform):
        array = _float_wave(waveform, "Overdrive")
        x = array.astype(np.float64).reshape(-1, array.shape[-1])
        driven = x * 10 ** (self.gain / 20) + self.color / 200
        driven = np.where(driven < -1, -2.0 / 3, np.where(driven > 1, 2.0 / 3,
                                                          driven - driven ** 3 / 3))
        out = np.zeros_like(x)
        last_in = last_out = np.zeros(x.shape[0])
        for i in range(x.shape[1]):
            last_out = driven[:, i] - last_in + 0.995 * last_out
            last_in = driven[:, i]
            out[:, i] = x[:, i] * 0.5 + last_out * 0.75
        return np.clip(out, -1, 1).reshape(array.shape).astype(array.dtype)


_PAD_MODES = {BorderType.CONSTANT: "constant", BorderType.EDGE: "edge",
              BorderType.REFLECT: "reflect", BorderType.SYMMETRIC: "symmetric"}


class ComputeDeltas(AudioTensorOperation):
    """The delta (local slope over `win_length` frames) of a spectrogram <..., freq, time>, the
    time axis padded by `pad_mode`."""

    def __init__(self, win_length=5, pad_mode=BorderType.EDGE):
        type_check(pad_mode, (BorderType,), "pad_mode")
        type_check(win_length, (int,), "win_length")
        check_value(win_length, (3, INT32_MAX), "win_length")
        self.win_length, self.pad_mode = win_length, pad_mode

    def apply(self, spectrogram):
        array = _float_wave(spectrogram, "ComputeDeltas")
        n = (self.win_length - 1) // 2
        denom = n * (n + 1) * (2 * n + 1) / 3
        x = array.astype(np.float64)
        padded = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n, n)], mode=_PAD_MODES[self.pad_mode])
        length = x.shape[-1]
        out = sum(k * padded[..., n + k:n + k + length] for k in range(-n, n + 1))
        return (out / denom).astype(array.dtype)


class Fade(AudioTensorOperation):
    """The waveform faded in over its first `fade_in_len` samples and out over its last
    `fade_out_len`, along a linear, exponential, logarithmic, quarter- or half-sine curve."""

    def __init__(self, fade_in_len=0, fade_out_len=0, fade_shape=FadeShape.LINEAR):
        type_check(fade_in_len, (int,), "fade_in_len")
        check_non_negative_int32(fade_in_len, "fade_in_len")
        type_check(fade_out_len, (int,), "fade_out_len")
        check_non_negative_int32(fade_out_len, "fade_out_len")
        type_check(fade_shape, (FadeShape,), "fade_shape")
        self.fade_in_len, self.fade_out_len, self.fade_shape = (fade_in_len, fade_out_len,
                                                                fade_shape)

    def _curve(self, ramp: np.ndarray) -> np.ndarray:
        shape = self.fade_shape
        if shape == FadeShape.LINEAR:
            return ramp
        if shape == FadeShape.EXPONENTIAL:  # MindSpore's curve: r * 2 ** (r - 1)
            return ramp * np.power(2.0, ramp - 1)
        if shape == FadeShape.LOGARITHMIC:
            return np.log10(0.1 + ramp) + 1
        if shape == FadeShape.QUARTER_SINE:
            return np.sin(ramp * math.pi / 2)
        return np.sin(ramp * math.pi - math.pi / 2) / 2 + 0.5

    def apply(self, waveform):
        array = _float_wave(waveform, "Fade")
        length = array.shape[-1]
        for name, value in (("fade_in_len", self.fade_in_len),
                            ("fade_out_len", self.fade_out_len)):
            if value > length:
                raise RuntimeError(f"Fade: invalid parameter, '{name}' should be no greater "
                                   f"than 'length of waveform', but got: {name} {value} while "
                                   f"length of waveform {length}.")
        fade_in = np.ones(length)
        if self.fade_in_len:
            fade_in[:self.fade_in_len] = self._curve(np.linspace(0, 1, self.fade_in_len))
        fade_out = np.ones(length)
        if self.fade_out_len:
            curve = self._curve(np.linspace(0, 1, self.fade_out_len))
            fade_out[length - self.fade_out_len:] = curve[::-1]
        return (array.astype(np.float64) * fade_in * fade_out).astype(array.dtype)


def _number(value, op: str, name: str, positive=False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or (
            positive and not value > 0):
        raise ValueError(f"{op}: `{name}` must be a{' positive' if positive else ''} number, "
                         f"got {value!r}")
    return float(value)


class Resample(TensorOperation):
    """From `orig_freq` to `new_freq` Hz by windowed-sinc interpolation (a Hann window, or a
    Kaiser window of shape `beta`), the pass band `rolloff` times the lower Nyquist rate."""

    def __init__(self, orig_freq=16000, new_freq=16000,
                 resample_method=ResampleMethod.SINC_INTERPOLATION, lowpass_filter_width=6,
                 rolloff=0.99, beta=None):
        op = "Resample"
        for name, freq in (("orig_freq", orig_freq), ("new_freq", new_freq)):  # MindSpore's
            type_check(freq, (float, int), name)
            check_value(freq, [0, 16777216], name, left_open_interval=True)
        self.orig_freq, self.new_freq = float(orig_freq), float(new_freq)
        type_check(resample_method, (ResampleMethod,), "resample_method")
        type_check(lowpass_filter_width, (int,), "lowpass_filter_width")
        check_value(lowpass_filter_width, [1, INT32_MAX], "lowpass_filter_width")
        type_check(rolloff, (float,), "rolloff")
        check_value(rolloff, [0, 1.0], "rolloff", left_open_interval=True)
        self.rolloff = float(rolloff)
        self.resample_method, self.width = resample_method, int(lowpass_filter_width)
        self.beta = 14.769656459379492 if beta is None else _number(beta, op, "beta")

    def kernels(self, orig: int, new: int, phases: int | None = None) -> tuple[np.ndarray, int]:
        """One interpolation kernel per output phase, shape (new, 2 * pad + orig) (only the
        first `phases` rows when given), and pad."""
        base = min(orig, new) * self.rolloff
        pad = math.ceil(self.width * orig / base)
        offsets = np.arange(-pad, pad + orig, dtype=np.float64) / orig
        rows = np.arange(new if phases is None else min(phases, new), dtype=np.float64)
        t = (-rows[:, None] / new + offsets[None, :]) * base
        t = np.clip(t, -self.width, self.width)
        if self.resample_method is ResampleMethod.SINC_INTERPOLATION:
            window = np.cos(t * math.pi / self.width / 2) ** 2
        else:
            window = np.i0(self.beta * np.sqrt(1 - (t / self.width) ** 2)) / np.i0(self.beta)
        return np.sinc(t) * window * (base / orig), pad

    def __call__(self, waveform):
        array = np.asarray(waveform)
        if array.dtype.kind in "biu":  # MindSpore resamples integer audio as float32
            array = array.astype(np.float32)
        array = _waveform(array, "Resample")
        if self.orig_freq == self.new_freq:
            return array
        orig, new = int(self.orig_freq), int(self.new_freq)
        divisor = math.gcd(orig, new)
        orig, new = orig // divisor, new // divisor
        length = array.shape[-1]
        # a short waveform needs only the phases of its few output samples (the kernel matrix
        # of rates with a small common divisor is otherwise large)
        kernels, pad = self.kernels(orig, new, math.ceil(new * length / orig))
        padded = np.pad(array.astype(np.float64),
                        [(0, 0)] * (array.ndim - 1) + [(pad, pad + orig)])
        frames = np.lib.stride_tricks.sliding_window_view(padded, kernels.shape[1],
                                                          axis=-1)[..., ::orig, :]
        if kernels.shape[0] < new:  # all the output lies in the first frame's phases
            frames = frames[..., :1, :]
        out = (frames @ kernels.T).reshape(array.shape[:-1] + (-1,))
        return out[..., :math.ceil(new * length / orig)].astype(array.dtype)


# MindSpore's audio.transforms module holds every transform: the spectral, masking, vocoder and
# effect ones live in their own files (which build on the definitions above) and are named here
from .effects import DetectPitchFrequency, Dither, Flanger, Phaser, Vad
from .masking import Filtfilt, FrequencyMasking, MaskAlongAxis, MaskAlongAxisIID, TimeMasking
from .spectral import (
    LFCC,
    MFCC,
    GriffinLim,
    InverseSpectrogram,
    MelScale,
    MelSpectrogram,
    SlidingWindowCmn,
    SpectralCentroid,
    Spectrogram,
)
from .vocoder import PhaseVocoder, PitchShift, TimeStretch

__all__ += [
    "LFCC",
    "MFCC",
    "DetectPitchFrequency",
    "Dither",
    "Filtfilt",
    "Flanger",
    "FrequencyMasking",
    "GriffinLim",
    "InverseSpectrogram",
    "MaskAlongAxis",
    "MaskAlongAxisIID",
    "MelScale",
    "MelSpectrogram",
    "PhaseVocoder",
    "Phaser",
    "PitchShift",
    "SlidingWindowCmn",
    "SpectralCentroid",
    "Spectrogram",
    "TimeMasking",
    "TimeStretch",
    "Vad",
]
