"""Spectral audio transforms (mindspore.dataset.audio): the short-time Fourier transform and what
MindSpore builds on it (mel and linear filter banks, cepstral coefficients, the centroid).

The STFT follows MindSpore's kernel: the waveform padded by `pad` zeros, then (when `center`)
by n_fft // 2 samples each side in `pad_mode`; frames of n_fft samples every `hop_length`, each
multiplied by a periodic window of `win_length` samples centred in n_fft; a DFT of each frame.
Inputs other than float64 are computed as float32 and give float32.
"""
from __future__ import annotations

import math

import numpy as np

from cellgraph.dataset.core.validator_helpers import (
    check_float32,
    check_non_negative_float32,
    check_non_negative_int32,
    check_pos_float32,
    check_pos_int32,
    type_check,
)

from .transforms import AmplitudeToDB, AudioTensorOperation
from .utils import (
    BorderType,
    MelType,
    NormMode,
    NormType,
    ScaleType,
    WindowType,
    _hz_to_mel,
    _mel_to_hz,
    _triangles,
    create_dct,
)

__all__ = ["LFCC", "MFCC", "GriffinLim", "InverseSpectrogram", "MelScale", "MelSpectrogram",
           "SlidingWindowCmn", "SpectralCentroid", "Spectrogram"]

_PAD_MODES = {BorderType.CONSTANT: "constant", BorderType.EDGE: "edge",
              BorderType.REFLECT: "reflect", BorderType.SYMMETRIC: "symmetric"}


def window(window_type: WindowType, length: int) -> np.ndarray:
    """MindSpore's periodic windows of `length` samples, as float32 (a one-sample window is 1)."""
    if length == 1:
        return np.ones(1, np.float32)
    i = np.arange(length, dtype=np.float64)
    if window_type == WindowType.BARTLETT:
        w = 1.0 - np.abs(2.0 * i / length - 1.0)
    elif window_type == WindowType.BLACKMAN:
        w = 0.42 - 0.5 * np.cos(2 * math.pi * i / length) + 0.08 * np.cos(4 * math.pi * i / length)
    elif window_type == WindowType.HAMMING:
        w = 0.54 - 0.46 * np.cos(2 * math.pi * i / length)
    elif window_type == WindowType.KAISER:
        beta = 12.0
        w = np.i0(beta * np.sqrt(np.maximum(0.0, 1 - (2.0 * i / length - 1.0) ** 2))) / np.i0(beta)
    else:
        w = 0.5 - 0.5 * np.cos(2 * math.pi * i / length)
    return w.astype(np.float32)


def _numeric(waveform, op: str, rank: int = 1, layout: str = "<..., time>") -> np.ndarray:
    array = np.asarray(waveform)
    if array.dtype.kind not in "biuf":
        name = "string" if array.dtype.kind in "USO" else array.dtype.name
        raise RuntimeError(f"{op}: input tensor type should be int, float or double, but got: "
                           f"{name}")
    if array.ndim < rank:
        raise RuntimeError(f"{op}: input tensor is not in shape of {layout}.")
    return array if array.dtype == np.float64 else array.astype(np.float32)


def stft(array: np.ndarray, n_fft: int, win_length: int, hop_length: int, pad: int,
         window_type: WindowType, power: float, normalized: bool, center: bool,
         pad_mode: BorderType, onesided: bool, op: str = "Spectrogram") -> np.ndarray:
    """The spectrogram <..., freq, time> (power 0: the complex STFT <..., freq, time, 2>) of a
    float32 or float64 waveform <..., time>, in the waveform's dtype."""
    dtype = array.dtype
    lead = array.shape[:-1]
    x = array.reshape(-1, array.shape[-1]).astype(np.float64)
    if pad:
        x = np.pad(x, [(0, 0), (pad, pad)])
    if center:
        half = n_fft // 2
        x = np.pad(x, [(0, 0), (half, half)], mode=_PAD_MODES[pad_mode])
    length = x.shape[-1]
    if n_fft > length:
        raise RuntimeError(f"{op}: n_fft should be more than 0 and less than {length}, but got "
                           f"n_fft: {n_fft}.")
    win = np.zeros(n_fft, np.float64)
    left = (n_fft - win_length) // 2
    win[left:left + win_length] = window(window_type, win_length)
    n_columns = (length - n_fft) // hop_length + 1
    frames = np.lib.stride_tricks.sliding_window_view(x, n_fft, axis=-1)[:, ::hop_length][:, :n_columns]
    frames = frames * win
    k = np.arange(n_fft // 2 + 1, dtype=np.float64)[:, None] * np.arange(n_fft)[None, :]
    angle = 2 * math.pi * k / n_fft
    real = np.einsum("rtn,fn->rft", frames, np.cos(angle))
    imag = -np.einsum("rtn,fn->rft", frames, np.sin(angle))
    if normalized:
        norm = math.sqrt(float(np.sum(win ** 2)))
        real, imag = real / norm, imag / norm
    if not onesided:  # the upper half mirrors the lower one, as MindSpore's kernel fills it
        upper = np.arange(n_fft // 2 + 1, n_fft)
        real = np.concatenate([real, real[:, n_fft - upper]], axis=1)
        imag = np.concatenate([imag, imag[:, n_fft - upper]], axis=1)
    if abs(power) <= np.finfo(np.float32).eps:
        out = np.stack([real, imag], axis=-1)
    else:
        out = np.sqrt(real ** 2 + imag ** 2) ** power
    return out.reshape(lead + out.shape[1:]).astype(dtype)


def _check_stft_options(window, normalized, center, pad_mode, onesided, pad, n_fft,
                        win_length, hop_length):
    """The STFT options' checks that Spectrogram-like transforms end with, in MindSpore's
    order."""
    type_check(window, (WindowType,), "window")
    type_check(normalized, (bool,), "normalized")
    type_check(center, (bool,), "center")
    type_check(pad_mode, (BorderType,), "pad_mode")
    type_check(onesided, (bool,), "onesided")
    check_non_negative_int32(pad, "pad")
    _check_window_lengths(n_fft, win_length, hop_length, typed=False)


def _check_window_lengths(n_fft, win_length, hop_length, typed=True):
    if typed:
        type_check(n_fft, (int,), "n_fft")
    check_pos_int32(n_fft, "n_fft")
    if win_length is not None:
        if typed:
            type_check(win_length, (int,), "win_length")
        check_pos_int32(win_length, "win_length")
        if win_length > n_fft:
            raise ValueError(f"Input win_length should be no more than n_fft, but got win_length: "
                             f"{win_length} and n_fft: {n_fft}.")
    if hop_length is not None:
        if typed:
            type_check(hop_length, (int,), "hop_length")
        check_pos_int32(hop_length, "hop_length")


class Spectrogram(AudioTensorOperation):
    """The power spectrogram <..., freq, time> of a waveform <..., time> (see the module)."""

    def __init__(self, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN,
                 power=2.0, normalized=False, center=True, pad_mode=BorderType.REFLECT,
                 onesided=True):
        _check_window_lengths(n_fft, win_length, hop_length)
        type_check(pad, (int,), "pad")
        check_non_negative_int32(pad, "pad")
        type_check(window, (WindowType,), "window")
        type_check(power, (int, float), "power")
        check_non_negative_float32(power, "power")
        type_check(normalized, (bool,), "normalized")
        type_check(center, (bool,), "center")
        type_check(onesided, (bool,), "onesided")
        type_check(pad_mode, (BorderType,), "pad_mode")
        self.n_fft = n_fft
        self.win_length = win_length if win_length else n_fft
        self.hop_length = hop_length if hop_length else self.win_length // 2
        self.pad, self.window, self.power = pad, window, power
        self.normalized, self.center, self.pad_mode, self.onesided = (normalized, center,
                                                                      pad_mode, onesided)

    def apply(self, waveform):
        array = _numeric(waveform, "Spectrogram")
        return stft(array, self.n_fft, self.win_length, self.hop_length, self.pad, self.window,
                    self.power, self.normalized, self.center, self.pad_mode, self.onesided)


class SpectralCentroid(AudioTensorOperation):
    """The centroid frequency of each frame <..., 1, time>: the magnitude spectrogram's mean
    frequency, the bins spread evenly over [0, sample_rate // 2]."""

    def __init__(self, sample_rate, n_fft=400, win_length=None, hop_length=None, pad=0,
                 window=WindowType.HANN):
        type_check(sample_rate, (int,), "sample_rate")
        check_non_negative_int32(sample_rate, "sample_rate")
        type_check(pad, (int,), "pad")
        check_non_negative_int32(pad, "pad")
        type_check(window, (WindowType,), "window")
        _check_window_lengths(n_fft, win_length, hop_length)
        self.sample_rate, self.n_fft, self.pad, self.window = sample_rate, n_fft, pad, window
        self.win_length = win_length if win_length else n_fft
        self.hop_length = hop_length if hop_length else self.win_length // 2

    def apply(self, waveform):
        array = _numeric(waveform, "SpectralCentroid")
        spec = stft(array, self.n_fft, self.win_length, self.hop_length, self.pad, self.window,
                    1.0, False, True, BorderType.REFLECT, True, "SpectralCentroid")
        freqs = np.linspace(0, self.sample_rate // 2, 1 + self.n_fft // 2)[:, None]
        spec64 = spec.astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = (freqs * spec64).sum(axis=-2, keepdims=True) / spec64.sum(axis=-2, keepdims=True)
        return out.astype(spec.dtype)


def _fbanks(n_freqs, f_min, f_max, n_mels, sample_rate, norm, mel_type) -> np.ndarray:
    """melscale_fbanks without its argument checks: (n_freqs, n_mels), float64."""
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    f_pts = _mel_to_hz(m_pts, mel_type)
    banks = _triangles(all_freqs, f_pts)
    if norm == NormType.SLANEY:
        banks = banks * (2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels])[None, :])
    return banks


def _apply_bank(spec: np.ndarray, bank: np.ndarray) -> np.ndarray:
    """<..., freq, time> through a (freq, n) filter bank: <..., n, time>."""
    return np.swapaxes(np.swapaxes(spec.astype(np.float64), -1, -2) @ bank, -1, -2)


def _check_mel_scale_freq(f_min, f_max, sample_rate):
    type_check(f_min, (int, float), "f_min")
    check_float32(f_min, "f_min")
    if f_max is not None:
        type_check(f_max, (int, float), "f_max")
        check_pos_float32(f_max, "f_max")
        if f_min >= f_max:
            raise ValueError("MelScale: f_max should be greater than f_min.")
    elif f_min >= sample_rate // 2:
        raise ValueError("MelScale: sample_rate // 2 should be greater than f_min when f_max is "
                         "set to None.")


def _check_mel_spectrogram_freq(f_min, f_max, sample_rate):
    type_check(f_min, (float,), "f_min")
    if f_max is not None:
        check_non_negative_float32(f_max, "f_max")
        if f_min > f_max:
            raise ValueError(f"f_max should be greater than or equal to f_min, but got f_min: "
                             f"{f_min} and f_max: {f_max}.")
    elif f_min >= sample_rate // 2:
        raise ValueError(f"MelSpectrogram: sample_rate // 2 should be greater than f_min when "
                         f"f_max is set to None, but got f_min: {f_min}.")


class MelScale(AudioTensorOperation):
    """A spectrogram <..., n_stft, time> onto `n_mels` mel bands: <..., n_mels, time>."""

    def __init__(self, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, n_stft=201,
                 norm=NormType.NONE, mel_type=MelType.HTK):
        type_check(n_mels, (int,), "n_mels")
        check_pos_int32(n_mels, "n_mels")
        type_check(sample_rate, (int,), "sample_rate")
        check_pos_int32(sample_rate, "sample_rate")
        _check_mel_scale_freq(f_min, f_max, sample_rate)
        type_check(n_stft, (int,), "n_stft")
        check_pos_int32(n_stft, "n_stft")
        type_check(norm, (NormType,), "norm")
        type_check(mel_type, (MelType,), "mel_type")
        self.n_mels, self.sample_rate, self.f_min = n_mels, sample_rate, f_min
        self.f_max = f_max if f_max is not None else sample_rate // 2
        self.n_stft, self.norm, self.mel_type = n_stft, norm, mel_type

    def apply(self, spectrogram):
        if self.n_stft == 1:
            raise RuntimeError("MelScale: n_stft can not be 1.")
        array = np.asarray(spectrogram)
        if array.ndim < 2:
            raise RuntimeError(f"MelScale: the shape of input tensor does not match the "
                               f"requirement of operator. Expecting tensor in shape of <..., "
                               f"freq, time>. But got tensor with dimension {array.ndim}.")
        if array.shape[-2] != self.n_stft:
            raise RuntimeError(f"MelScale: invalid parameter, 'n_stft' should be equal to 'freq', "
                               f"but got: n_stft {self.n_stft} while freq {array.shape[-2]}.")
        array = _numeric(array, "MelScale", 2, "<..., freq, time>")
        bank = _fbanks(self.n_stft, self.f_min, self.f_max, self.n_mels, self.sample_rate,
                       self.norm, self.mel_type)
        return _apply_bank(array, bank).astype(array.dtype)


def _check_mel_spectrogram(sample_rate, n_fft, win_length, hop_length, f_min, f_max, pad, n_mels,
                           window, power, normalized, center, pad_mode, onesided, norm,
                           mel_scale):
    check_non_negative_int32(sample_rate, "sample_rate")
    check_pos_int32(n_fft, "n_fft")
    check_non_negative_int32(n_mels, "n_mels")
    _check_mel_spectrogram_freq(f_min, f_max, sample_rate)
    type_check(norm, (NormType,), "norm")
    type_check(mel_scale, (MelType,), "mel_type")
    check_pos_float32(power, "power")
    _check_stft_options(window, normalized, center, pad_mode, onesided, pad, n_fft,
                        win_length, hop_length)


class MelSpectrogram(AudioTensorOperation):
    """The mel-scale spectrogram <..., n_mels, time> of a waveform <..., time>: Spectrogram
    then MelScale, computed in float32."""

    def __init__(self, sample_rate=16000, n_fft=400, win_length=None, hop_length=None, f_min=0.0,
                 f_max=None, pad=0, n_mels=128, window=WindowType.HANN, power=2.0,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True,
                 norm=NormType.NONE, mel_scale=MelType.HTK):
        _check_mel_spectrogram(sample_rate, n_fft, win_length, hop_length, f_min, f_max, pad,
                               n_mels, window, power, normalized, center, pad_mode, onesided,
                               norm, mel_scale)
        self.sample_rate, self.n_fft = sample_rate, n_fft
        self.win_length = win_length if win_length is not None else n_fft
        self.hop_length = hop_length if hop_length is not None else self.win_length // 2
        self.f_min = f_min
        self.f_max = f_max if f_max is not None else sample_rate // 2
        self.pad, self.n_mels, self.window, self.power = pad, n_mels, window, power
        self.normalized, self.center, self.pad_mode, self.onesided = (normalized, center,
                                                                      pad_mode, onesided)
        self.norm, self.mel_scale = norm, mel_scale

    def apply(self, waveform):
        array = _numeric(waveform, "MelSpectrogram")
        if array.ndim and not self.n_fft < 2 * array.shape[-1]:
            raise RuntimeError("MelSpectrogram: Padding size should be less than the "
                               "corresponding input dimension.")
        return mel_spectrogram(array.astype(np.float32), self)


def mel_spectrogram(array, spec) -> np.ndarray:
    """The mel spectrogram of `array` with the parameters held by `spec` (float32)."""
    power = stft(array, spec.n_fft, spec.win_length, spec.hop_length, spec.pad, spec.window,
                 spec.power, spec.normalized, spec.center, spec.pad_mode, spec.onesided,
                 "MelSpectrogram")
    bank = _fbanks(spec.n_fft // 2 + 1, spec.f_min, spec.f_max, spec.n_mels, spec.sample_rate,
                   spec.norm, spec.mel_scale)
    return _apply_bank(power, bank).astype(np.float32)


def _no_edge(pad_mode, op):
    if pad_mode == BorderType.EDGE:  # refused when MindSpore builds the operation
        raise RuntimeError(f"{op}: invalid BorderType, kEdge is not supported.")


def _cepstrum(filtered: np.ndarray, n_coeffs: int, n_bands: int, norm: NormMode,
              log: bool) -> np.ndarray:
    """Log (or top-80 dB decibel) band energies <..., n_bands, time> through a DCT-II."""
    if log:
        energies = np.log(filtered.astype(np.float32) + np.float32(1e-6))
    else:
        energies = AmplitudeToDB(ScaleType.POWER, 1.0, 1e-10, 80.0).apply(
            filtered.astype(np.float32))
    dct = create_dct(n_coeffs, n_bands, norm).astype(np.float64)
    return _apply_bank(energies, dct).astype(np.float32)


class _MelKwargs:
    """The Spectrogram and MelScale parameters MFCC reads from `melkwargs`."""

    def __init__(self, kwargs):
        for name, value in kwargs.items():
            setattr(self, name, value)


class MFCC(AudioTensorOperation):
    """The mel-frequency cepstral coefficients <..., n_mfcc, time> of a waveform <..., time>:
    MelSpectrogram (parameters from `melkwargs`), decibels (or the log when `log_mels`), and a
    DCT-II normalised by `norm`."""

    def __init__(self, sample_rate=16000, n_mfcc=40, dct_type=2, norm=NormMode.ORTHO,
                 log_mels=False, melkwargs=None):
        check_non_negative_int32(sample_rate, "sample_rate")
        type_check(log_mels, (bool,), "log_mels")
        type_check(norm, (NormMode,), "norm")
        check_non_negative_int32(n_mfcc, "n_mfcc")
        if dct_type != 2:
            raise ValueError(f"Input dct_type must be 2, but got : {dct_type}.")
        if melkwargs is not None:
            type_check(melkwargs, (dict,), "melkwargs")
            self._check_melkwargs(melkwargs, sample_rate, n_mfcc)
        self.sample_rate, self.n_mfcc, self.dct_type, self.norm = (sample_rate, n_mfcc,
                                                                  dct_type, norm)
        self.log_mels = log_mels
        self.melkwargs = {} if melkwargs is None else melkwargs
        kw = self.melkwargs
        kw.setdefault("n_fft", 400)
        kw.setdefault("win_length", kw.get("n_fft"))
        kw.setdefault("hop_length", kw.get("win_length") // 2)
        kw.setdefault("f_min", 0.0)
        kw.setdefault("f_max", sample_rate // 2)
        kw.setdefault("pad", 0)
        kw.setdefault("n_mels", 128)
        kw.setdefault("window", WindowType.HANN)
        kw.setdefault("power", 2.0)
        kw.setdefault("normalized", False)
        kw.setdefault("center", True)
        kw.setdefault("pad_mode", BorderType.REFLECT)
        kw.setdefault("onesided", True)
        kw.setdefault("norm", NormType.NONE)
        kw.setdefault("mel_scale", MelType.HTK)

    @staticmethod
    def _check_melkwargs(kw, sample_rate, n_mfcc):
        """MindSpore reads every key (a missing one raises KeyError) and checks them."""
        n_fft, win_length, hop_length = kw["n_fft"], kw["win_length"], kw["hop_length"]
        f_min, f_max, pad, power = kw["f_min"], kw["f_max"], kw["pad"], kw["power"]
        normalized, center, onesided = kw["normalized"], kw["center"], kw["onesided"]
        window, pad_mode, norm_mel = kw["window"], kw["pad_mode"], kw["norm"]
        mel_scale, n_mels = kw["mel_scale"], kw["n_mels"]
        check_pos_int32(n_fft, "n_fft")
        type_check(n_mels, (int,), "n_mels")
        check_pos_int32(n_mels, "n_mels")
        _check_mel_scale_freq(f_min, f_max, sample_rate)
        type_check(norm_mel, (NormType,), "norm")
        type_check(mel_scale, (MelType,), "mel_type")
        type_check(power, (int, float), "power")
        check_non_negative_float32(power, "power")
        type_check(window, (WindowType,), "window")
        type_check(normalized, (bool,), "normalized")
        type_check(center, (bool,), "center")
        type_check(pad_mode, (BorderType,), "pad_mode")
        type_check(onesided, (bool,), "onesided")
        check_non_negative_int32(pad, "pad")
        if hop_length is not None:
            check_pos_int32(hop_length, "hop_length")
        if f_max is not None:
            check_non_negative_float32(f_max, "f_max")
        if win_length is not None:
            check_non_negative_int32(win_length, "win_length")
        if n_mels < n_mfcc:
            raise ValueError(f"Input n_mels should be greater than or equal to n_mfcc, but got "
                             f"n_mfcc: {n_mfcc} and n_mels: {n_mels}.")

    def apply(self, waveform):
        _no_edge(self.melkwargs["pad_mode"], "MFCC")
        array = _numeric(waveform, "MFCC")
        kw = _MelKwargs(self.melkwargs)
        kw.sample_rate = self.sample_rate
        mels = mel_spectrogram(array.astype(np.float32), kw)
        return _cepstrum(mels, self.n_mfcc, kw.n_mels, self.norm, self.log_mels)


class LFCC(AudioTensorOperation):
    """The linear-frequency cepstral coefficients <..., n_lfcc, time> of a waveform <..., time>:
    a spectrogram (parameters from `speckwargs`) through `n_filter` triangular filters equally
    spaced in Hz, decibels (or the log when `log_lf`), and a DCT-II normalised by `norm`."""

    def __init__(self, sample_rate=16000, n_filter=128, n_lfcc=40, f_min=0.0, f_max=None,
                 dct_type=2, norm=NormMode.ORTHO, log_lf=False, speckwargs=None):
        type_check(sample_rate, (int,), "sample_rate")
        check_non_negative_int32(sample_rate, "sample_rate")
        type_check(n_filter, (int,), "n_filter")
        check_pos_int32(n_filter, "n_filter")
        type_check(n_lfcc, (int,), "n_lfcc")
        check_pos_int32(n_lfcc, "n_lfcc")
        type_check(log_lf, (bool,), "log_lf")
        type_check(norm, (NormMode,), "norm")
        type_check(f_min, (int, float), "f_min")
        check_non_negative_float32(f_min, "f_min")
        if f_max is not None:
            type_check(f_max, (int, float), "f_max")
            check_non_negative_float32(f_max, "f_max")
            if f_min > f_max:
                raise ValueError(f"f_max should be greater than or equal to f_min, but got "
                                 f"f_min: {f_min} and f_max: {f_max}.")
        elif f_min >= sample_rate // 2:
            raise ValueError(f"Input sample_rate // 2 should be greater than f_min when f_max is "
                             f"set to None, but got f_min: {f_min} and sample_rate: "
                             f"{sample_rate}.")
        if dct_type != 2:
            raise ValueError(f"Input dct_type must be 2, but got : {dct_type}.")
        if speckwargs is not None:
            type_check(speckwargs, (dict,), "speckwargs")
            self._check_speckwargs(speckwargs, n_lfcc)
        self.sample_rate, self.n_filter, self.n_lfcc, self.f_min = (sample_rate, n_filter,
                                                                   n_lfcc, f_min)
        self.f_max = f_max if f_max is not None else sample_rate // 2
        self.dct_type, self.norm, self.log_lf = dct_type, norm, log_lf
        self.speckwargs = {} if speckwargs is None else speckwargs
        kw = self.speckwargs
        kw.setdefault("n_fft", 400)
        kw.setdefault("win_length", kw.get("n_fft"))
        kw.setdefault("hop_length", kw.get("win_length") // 2)
        kw.setdefault("pad", 0)
        kw.setdefault("window", WindowType.HANN)
        kw.setdefault("power", 2.0)
        kw.setdefault("normalized", False)
        kw.setdefault("center", True)
        kw.setdefault("pad_mode", BorderType.REFLECT)
        kw.setdefault("onesided", True)

    @staticmethod
    def _check_speckwargs(kw, n_lfcc):
        window, pad_mode, n_fft = kw["window"], kw["pad_mode"], kw["n_fft"]
        win_length, pad, power = kw["win_length"], kw["pad"], kw["power"]
        type_check(window, (WindowType,), "window")
        type_check(pad_mode, (BorderType,), "pad_mode")
        type_check(pad, (int,), "pad")
        check_non_negative_int32(pad, "pad")
        type_check(power, (float,), "power")
        check_non_negative_float32(power, "power")
        if n_fft < n_lfcc:
            raise ValueError(f"n_fft should be greater than or equal to n_lfcc, but got n_fft: "
                             f"{n_fft} and n_lfcc: {n_lfcc}.")
        if win_length > n_fft:
            raise ValueError(f"win_length must be less than or equal to n_fft, but got "
                             f"win_length: {win_length} and n_fft: {n_fft}.")

    def apply(self, waveform):
        _no_edge(self.speckwargs["pad_mode"], "LFCC")
        array = _numeric(waveform, "LFCC").astype(np.float32)
        kw = self.speckwargs
        power = stft(array, kw["n_fft"], kw["win_length"], kw["hop_length"], kw["pad"],
                     kw["window"], kw["power"], kw["normalized"], kw["center"], kw["pad_mode"],
                     kw["onesided"], "LFCC")
        n_freqs = kw["n_fft"] // 2 + 1
        all_freqs = np.linspace(0, self.sample_rate // 2, n_freqs)
        bank = _triangles(all_freqs, np.linspace(self.f_min, self.f_max, self.n_filter + 2))
        filtered = _apply_bank(power, bank.astype(np.float32).astype(np.float64))
        return _cepstrum(filtered, self.n_lfcc, self.n_filter, self.norm, self.log_lf)


def istft(spec: np.ndarray, n_fft: int, hop_length: int, win_length: int,
          window_type: WindowType, center: bool, length: int) -> np.ndarray:
    """MindSpore's inverse STFT of one complex spectrogram (freq, time) (a complex array):
    windowed inverse real FFTs overlap-added, divided by the summed squared window where that
    exceeds the smallest float32, then trimmed (or zero-padded) to `length`; float64."""
    if n_fft != (spec.shape[0] - 1) * 2:
        raise RuntimeError("GriffinLim: the frequency of the input should equal to n_fft / 2 + 1")
    win = np.zeros(n_fft, np.float32)
    left = (n_fft - win_length) // 2
    win[left:left + win_length] = window(window_type, win_length)
    if length and hop_length:
        padded = length + n_fft if center else length
        n_frames = min(spec.shape[1], math.ceil(np.float32(padded) / np.float32(hop_length)))
    else:
        n_frames = spec.shape[1]
    total = n_fft + hop_length * (n_frames - 1)
    frames = np.fft.irfft(spec[:, :n_frames], n=n_fft, axis=0) * win.astype(np.float64)[:, None]
    y = np.zeros(total, np.float64)
    norm = np.zeros(total, np.float32)
    square = (win * win).astype(np.float32)
    for frame in range(n_frames):
        start = frame * hop_length
        y[start:start + n_fft] += frames[:, frame]
        norm[start:start + n_fft] += square
    tiny = np.finfo(np.float32).tiny
    y = np.where(norm > tiny, y / np.where(norm > tiny, norm, 1).astype(np.float64), y)
    if length == 0 and center:
        return y[n_fft // 2:total - n_fft // 2]
    y = y[n_fft // 2:] if center else y
    return np.concatenate([y, np.zeros(max(0, length - y.size))])[:length]


def _complex_rows(array: np.ndarray) -> np.ndarray:
    return array[..., 0].astype(np.float64) + 1j * array[..., 1].astype(np.float64)


class InverseSpectrogram(AudioTensorOperation):
    """The waveform <..., time> of a complex spectrogram <..., freq, time, complex=2> by
    MindSpore's inverse STFT (see `istft`), `pad` samples removed from each end."""

    def __init__(self, length=None, n_fft=400, win_length=None, hop_length=None, pad=0,
                 window=WindowType.HANN, normalized=False, center=True,
                 pad_mode=BorderType.REFLECT, onesided=True):
        if length is not None:
            check_non_negative_int32(length, "length")
        check_pos_int32(n_fft, "n_fft")
        _check_stft_options(window, normalized, center, pad_mode, onesided, pad, n_fft,
                            win_length, hop_length)
        self.length = length if length is not None else 0
        self.n_fft = n_fft
        self.win_length = win_length if win_length is not None else n_fft
        self.hop_length = hop_length if hop_length is not None else self.win_length // 2
        self.pad, self.window, self.normalized, self.center = pad, window, normalized, center
        self.pad_mode, self.onesided = pad_mode, onesided

    def apply(self, spectrogram):
        array = np.asarray(spectrogram)
        if array.ndim <= 2 or array.shape[-1] != 2:
            raise RuntimeError("InverseSpectrogram: the shape of input tensor does not match the "
                               "requirement of operator. Expecting tensor in shape of <..., freq, "
                               f"time, complex=2>. But got tensor with dimension {array.ndim}.")
        array = _numeric(array, "InverseSpectrogram", 3, "<..., freq, time, complex=2>")
        dtype = array.dtype
        spec = _complex_rows(array.reshape((-1,) + array.shape[-3:]))
        if self.normalized:
            win = np.zeros(self.n_fft, np.float32)
            left = (self.n_fft - self.win_length) // 2
            win[left:left + self.win_length] = window(self.window, self.win_length)
            spec = spec * float(np.sqrt(np.float32(np.sum(win * win, dtype=np.float32))))
        out_length = ((array.shape[-2] - 1) * self.hop_length if self.length == 0
                      else self.length + 2 * self.pad)
        waves = np.stack([istft(s, self.n_fft, self.hop_length, self.win_length, self.window,
                                self.center, out_length) for s in spec])
        if self.length != 0 and self.pad > 0:
            waves = waves[:, self.pad:waves.shape[1] - self.pad]
        return waves.reshape(array.shape[:-3] + waves.shape[-1:]).astype(dtype)


class GriffinLim(AudioTensorOperation):
    """A waveform <..., time> from a magnitude (`power` 2: power) spectrogram <..., freq, time>
    by Griffin-Lim phase recovery: `n_iter` rounds of MindSpore's inverse STFT and STFT with
    `momentum`, phases starting at 1 (or, with `rand_init`, at u + i v, u and v uniform in
    [0, 1), unnormalised, as MindSpore's kernel starts them)."""

    def __init__(self, n_fft=400, n_iter=32, win_length=None, hop_length=None,
                 window_type=WindowType.HANN, power=2.0, momentum=0.99, length=None,
                 rand_init=True):
        from cellgraph.dataset.transforms.transforms import RandomOperation

        type_check(n_fft, (int,), "n_fft")
        check_pos_int32(n_fft, "n_fft")
        type_check(n_iter, (int,), "n_iter")
        check_pos_int32(n_iter, "n_iter")
        if win_length is not None:
            type_check(win_length, (int,), "win_length")
            check_non_negative_int32(win_length, "win_length")
            if win_length > n_fft:
                raise ValueError(f"Input win_length should be no more than n_fft, but got "
                                 f"win_length: {win_length} and n_fft: {n_fft}.")
        if hop_length is not None:
            type_check(hop_length, (int,), "hop_length")
            check_non_negative_int32(hop_length, "hop_length")
        type_check(window_type, (WindowType,), "window_type")
        type_check(power, (int, float), "power")
        check_pos_float32(power, "power")
        type_check(momentum, (int, float), "momentum")
        check_non_negative_float32(momentum, "momentum")
        if length is not None:
            type_check(length, (int,), "length")
            check_non_negative_int32(length, "length")
        type_check(rand_init, (bool,), "rand_init")
        self.n_fft, self.n_iter = n_fft, n_iter
        self.win_length = win_length if win_length else n_fft
        self.hop_length = hop_length if hop_length else self.win_length // 2
        self.window_type, self.power, self.momentum = window_type, power, momentum
        self.length = length if length else 0
        self.rand_init = rand_init
        self._random = RandomOperation()

    def _validate_params(self):
        """MindSpore's checks when it builds the operation (a pipeline runs them before reading
        any row), and the lengths it builds with."""
        if self.length != 0 and self.n_fft >= self.length:
            raise RuntimeError("GriffinLim: n_fft must be less than length.")
        if not self.momentum < 1:
            raise RuntimeError(f"GriffinLim: momentum equal to or greater than 1 can be unstable, "
                               f"but got: {self.momentum:.6f}")
        win_length = self.win_length or self.n_fft
        return win_length, self.hop_length or win_length // 2

    def apply(self, spectrogram):
        win_length, hop_length = self._validate_params()
        # MindSpore turns momentum m into m / (1 + m) when it builds the operation and its kernel
        # weighs the previous estimate by m' / (1 + m') of that again
        momentum = np.float32(self.momentum) / np.float32(1 + np.float32(self.momentum))
        factor = float(np.float32(momentum / (1 + momentum)))
        array = _numeric(spectrogram, "GriffinLim", 2, "<..., freq, time>")
        dtype = array.dtype
        mags = array.reshape((-1,) + array.shape[-2:]).astype(dtype)
        mags = np.power(mags, dtype.type(1 / np.float32(self.power))).astype(np.float64)
        waves = []
        for spec in mags:
            if self.rand_init:
                rng = self._random.rng
                angles = rng.random(spec.shape) + 1j * rng.random(spec.shape)
            else:
                angles = np.ones(spec.shape, np.complex128)
            previous = np.zeros(spec.shape, np.complex128)
            for _ in range(self.n_iter):
                wave = istft(angles * spec, self.n_fft, hop_length, win_length,
                             self.window_type, True, self.length).astype(dtype)
                rebuilt = stft(wave, self.n_fft, win_length, hop_length, 0,
                               self.window_type, 0.0, False, True, BorderType.REFLECT, True)
                # MindSpore's kernel fills its (freq, time) estimate from the STFT's values in
                # order, so an STFT with more frames than the input spills into the next bins
                rebuilt = _complex_rows(rebuilt).reshape(-1)[:spec.size].reshape(spec.shape)
                angles = rebuilt
                if abs(momentum) > np.finfo(np.float32).eps:
                    angles = angles - previous * factor
                angles = angles / (np.abs(angles) + 1e-16)
                previous = rebuilt
            waves.append(istft(angles * spec, self.n_fft, hop_length, win_length,
                               self.window_type, True, self.length))
        waves = np.stack(waves)
        return waves.reshape(array.shape[:-2] + waves.shape[-1:]).astype(dtype)


def _cmn_window(t: int, frames: int, cmn_window: int, min_cmn_window: int, center: bool):
    """The frames [start, end) whose statistics normalise frame `t` (Kaldi's rule)."""
    if center:
        start = t - cmn_window // 2
        end = start + cmn_window
    else:
        start, end = t - cmn_window, t + 1
    if start < 0:
        end -= start
        start = 0
    if not center and end > t:
        end = max(t + 1, min_cmn_window)
    if end > frames:
        start = max(start - (end - frames), 0)
        end = frames
    return start, end


class SlidingWindowCmn(AudioTensorOperation):
    """Cepstral mean (and with `norm_vars` variance) normalisation of a spectrogram
    <..., time, freq> over a window of `cmn_window` frames sliding with each frame (centred
    on it, or ending at it and then at least `min_cmn_window` frames), as MindSpore's kernel
    (Kaldi's apply-cmvn-sliding) computes it: running sums over the window; float64 stays
    float64, other dtypes come out float32."""

    def __init__(self, cmn_window=600, min_cmn_window=100, center=False, norm_vars=False):
        type_check(cmn_window, (int,), "cmn_window")
        check_non_negative_int32(cmn_window, "cmn_window")
        type_check(min_cmn_window, (int,), "min_cmn_window")
        check_non_negative_int32(min_cmn_window, "min_cmn_window")
        type_check(center, (bool,), "center")
        type_check(norm_vars, (bool,), "norm_vars")
        self.cmn_window, self.min_cmn_window = cmn_window, min_cmn_window
        self.center, self.norm_vars = center, norm_vars

    def apply(self, spectrogram):
        array = np.asarray(spectrogram)
        if array.ndim < 2:
            raise RuntimeError(f"SlidingWindowCmn: the shape of input tensor does not match the "
                               f"requirement of operator. Expecting tensor in shape of <..., "
                               f"freq, time>. But got tensor with dimension {array.ndim}.")
        frames, feats = array.shape[-2:]
        x = array.reshape(-1, frames, feats).astype(np.float64)
        out = np.zeros_like(x)
        total = np.zeros((x.shape[0], feats))
        squares = np.zeros_like(total)
        last_start = last_end = -1
        for t in range(frames):
            start, end = _cmn_window(t, frames, self.cmn_window, self.min_cmn_window,
                                     self.center)
            if last_start == -1:
                first = x[:, start:end - start]  # (Kaldi's first window, as the kernel reads it)
                total += first.sum(axis=1)
                squares += (first ** 2).sum(axis=1)
            else:
                if start > last_start:
                    total -= x[:, last_start]
                    squares -= x[:, last_start] ** 2
                if end > last_end:
                    total += x[:, last_end]
                    squares += x[:, last_end] ** 2
            count = end - start
            last_start, last_end = start, end
            out[:, t] = x[:, t] - total / count
            if self.norm_vars:
                if count == 1:
                    out[:, t] = 0.0
                else:
                    variance = squares / count - total ** 2 / count ** 2
                    with np.errstate(divide="ignore", invalid="ignore"):
                        out[:, t] *= variance ** -0.5
        return out.reshape(array.shape).astype(
            np.float64 if array.dtype == np.float64 else np.float32)

