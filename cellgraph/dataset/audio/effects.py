"""Effects of dataset.audio (mindspore.dataset.audio): Dither, Phaser, Flanger and Vad.

Dither: a waveform <..., time> quantised to 16 bits.

MindSpore's kernel scales the signal by 2**15 - 2, adds its "noise", rounds half away from
zero and divides by 2**15. The noise is not drawn from a distribution: TPDF adds MindSpore's
periodic Bartlett window over the time axis; RPDF adds one input sample picked at random; GPDF
adds a running sum of seven input samples picked at random, writing each partial sum back into
the (copied) input as it goes. Noise shaping then adds each row's quantisation error (against
that input), delayed by one sample. Inputs other than float64 are computed as float32.

Vad: SoX's voice activity detector as MindSpore 2.10's kernel runs it. The kernel keeps a ring
of the last `samples_len` = pre-trigger + search + measure samples and, every measure period
(the first once `measure_len` samples are in), takes a spectral/cepstral measure and smooths it
into a running mean; activity triggers when that mean reaches `trigger_level`, and the output is
the waveform from `samples_len` samples before the stop position on (all of it when shorter).
In 2.10 the measure always comes out 0: the kernel sizes its magnitude buffer to the band and
then appends the magnitudes after that zero-filled head, so the cepstrum is taken of zeros and
its log power (INT_MIN for 0) is clamped to 0. Its flush step likewise keeps no measures (its
counter is shadowed by the loop's own), so a trigger flushes the whole search span. Hence a
`trigger_level` above 0 never triggers and the last `samples_len` samples are kept, and one at or
below 0 triggers at the first measure. That observable behaviour is what is reproduced here.
"""
from __future__ import annotations

import math

import numpy as np

from cellgraph.dataset.core.validator_helpers import (
    check_float32,
    check_int32,
    check_int32_not_zero,
    check_non_negative_float32,
    check_pos_float32,
    check_pos_int32,
    check_value,
    type_check,
)
from cellgraph.dataset.transforms.transforms import RandomOperation

from .transforms import AudioTensorOperation
from .utils import DensityFunction, Interpolation, Modulation

__all__ = ["DetectPitchFrequency", "Dither", "Flanger", "Phaser", "Vad"]


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


def wave_table(modulation: Modulation, size: int, low: float, high: float, phase: float,
               integer: bool) -> np.ndarray:
    """MindSpore's modulation table: `size` samples of a sine or triangle between `low` and
    `high`, started `phase` radians in; float32, or rounded half away from zero to int32."""
    offset = int(phase / math.pi / 2 * size + 0.5)
    point = (np.arange(size) + offset) % size
    if modulation == Modulation.SINUSOIDAL:
        table = ((np.sin(point * math.pi / size * 2) + 1) / 2).astype(np.float32)
    else:
        table = (point * 2.0 / size).astype(np.float32)
        quarter = (4 * point) // size
        table = np.where(quarter == 0, table + np.float32(0.5),
                         np.where((quarter == 1) | (quarter == 2), np.float32(1.5) - table,
                                  np.where(quarter == 3, table - np.float32(1.5), table)))
        table = table.astype(np.float32)
    table = (table * np.float32(high - low) + np.float32(low)).astype(np.float32)
    if integer:
        return np.where(table < 0, table - np.float32(0.5),
                        table + np.float32(0.5)).astype(np.float32).astype(np.int32)
    return table


def _numeric_wave(waveform, op: str, rank: int, layout: str) -> np.ndarray:
    array = np.asarray(waveform)
    if array.ndim < rank:
        raise RuntimeError(f"{op}: the shape of input tensor does not match the requirement of "
                           f"operator. Expecting tensor in shape of {layout}. But got tensor "
                           f"with dimension {array.ndim}.")
    if array.dtype.kind not in "biuf":
        raise RuntimeError(f"{op}: the data type of input tensor does not match the requirement "
                           f"of operator. Expecting tensor in type of [int, float, double]. But "
                           f"got type string.")
    return array


class Phaser(AudioTensorOperation):
    """SoX's phaser: the waveform <..., time> times `gain_in`, plus a feedback delay line of
    `delay_ms` (decaying by `decay`) read at a position swept at `mod_speed` Hz by a sine (or
    triangle), times `gain_out`, clamped to [-1, 1]."""

    def __init__(self, sample_rate, gain_in=0.4, gain_out=0.74, delay_ms=3.0, decay=0.4,
                 mod_speed=0.5, sinusoidal=True):
        type_check(sample_rate, (int,), "sample_rate")
        check_int32(sample_rate, "sample_rate")
        for name, value, bounds in (("gain_in", gain_in, [0, 1]), ("gain_out", gain_out, [0, 1e9]),
                                    ("delay_ms", delay_ms, [0, 5.0]), ("decay", decay, [0, 0.99]),
                                    ("mod_speed", mod_speed, [0.1, 2])):
            type_check(value, (float, int), name)
            check_value(value, bounds, name)
        type_check(sinusoidal, (bool,), "sinusoidal")
        self.sample_rate, self.gain_in, self.gain_out = sample_rate, gain_in, gain_out
        self.delay_ms, self.decay, self.mod_speed, self.sinusoidal = (delay_ms, decay, mod_speed,
                                                                      sinusoidal)

    def apply(self, waveform):
        array = _numeric_wave(waveform, "Phaser", 1, "<..., time>")
        dtype = np.float64 if array.dtype == np.float64 else np.float32
        x = array.astype(dtype).reshape(-1, array.shape[-1]) * dtype(self.gain_in)
        channels, time = x.shape
        delay_len = int(self.delay_ms * 0.001 * self.sample_rate + 0.5)
        mod_len = int(self.sample_rate / self.mod_speed + 0.5)
        modulation = Modulation.SINUSOIDAL if self.sinusoidal else Modulation.TRIANGULAR
        mod = wave_table(modulation, mod_len, 1.0, float(delay_len), math.pi / 2, True)
        buf = np.zeros((channels, delay_len), dtype)
        out = np.zeros_like(x)
        decay = dtype(self.decay)
        delay_pos = mod_pos = 0
        for i in range(time):
            idx = (delay_pos + int(mod[mod_pos])) % delay_len
            mod_pos = (mod_pos + 1) % mod_len
            delay_pos = (delay_pos + 1) % delay_len
            out[:, i] = x[:, i] + buf[:, idx]
            buf[:, delay_pos] = (x[:, i] + buf[:, idx]) * decay
        out = np.clip((out * dtype(self.gain_out)).astype(np.float32), -1.0, 1.0)
        return out.astype(dtype).reshape(array.shape)


class Flanger(AudioTensorOperation):
    """SoX's flanger on a waveform <..., channel, time> (at most 4 channels): a delay of
    `delay` to `delay` + `depth` ms swept at `speed` Hz (sine or triangle, channels `phase`
    percent apart), read with linear or quadratic interpolation, fed back by `regen` percent and
    mixed in at `width` percent; clamped to [-1, 1]."""

    def __init__(self, sample_rate, delay=0.0, depth=2.0, regen=0.0, width=71.0, speed=0.5,
                 phase=25.0, modulation=Modulation.SINUSOIDAL,
                 interpolation=Interpolation.LINEAR):
        type_check(sample_rate, (int,), "sample_rate")
        check_int32_not_zero(sample_rate, "sample_rate")
        for name, value, bounds in (("delay", delay, [0, 30]), ("depth", depth, [0, 10]),
                                    ("regen", regen, [-95, 95]), ("width", width, [0, 100]),
                                    ("speed", speed, [0.1, 10]), ("phase", phase, [0, 100])):
            type_check(value, (float, int), name)
            check_value(value, bounds, name)
        type_check(modulation, (Modulation,), "modulation")
        type_check(interpolation, (Interpolation,), "interpolation")
        self.sample_rate, self.delay, self.depth, self.regen = sample_rate, delay, depth, regen
        self.width, self.speed, self.phase = width, speed, phase
        self.modulation, self.interpolation = modulation, interpolation

    def apply(self, waveform):
        array = _numeric_wave(waveform, "Flanger", 2, "<..., channel, time>")
        if array.shape[-2] > 4:
            raise RuntimeError(f"Flanger: the channel of input tensor does not match the "
                               f"requirement of operator. Expecting tensor with channel less than "
                               f"or equal to 4. But got channel: {array.shape[-2]}")
        dtype = np.float64 if array.dtype == np.float64 else np.float32
        x = array.astype(dtype).reshape((-1,) + array.shape[-2:])
        batch, channels, time = x.shape
        feedback = dtype(self.regen) / dtype(100)
        delay_gain = dtype(self.width) / dtype(100)
        channel_phase = dtype(self.phase) / dtype(100)
        delay_min = dtype(self.delay) / dtype(1000)
        delay_depth = dtype(self.depth) / dtype(1000)
        in_gain = dtype(1.0 / (1 + delay_gain))
        delay_gain = dtype(delay_gain / (1 + delay_gain))
        delay_gain = dtype(delay_gain * (1 - abs(feedback)))
        buf_len = int((delay_min + delay_depth) * self.sample_rate + 0.5) + 2
        lfo_len = int(self.sample_rate / self.speed)
        lfo = wave_table(self.modulation, lfo_len, float(np.floor(delay_min * self.sample_rate
                                                                  + 0.5)),
                         float(buf_len - 2.0), 3 * math.pi / 2, False)
        phases = [int(j * lfo_len * channel_phase + 0.5) for j in range(channels)]
        bufs = np.zeros((batch, channels, buf_len), dtype)
        last = np.zeros((batch, channels), dtype)
        out = np.zeros_like(x)
        pos = lfo_pos = 0
        rows = np.arange(channels)
        for i in range(time):
            pos = (pos + buf_len - 1) % buf_len
            delay = np.array([lfo[(lfo_pos + phases[j]) % lfo_len] for j in range(channels)],
                             np.float32).astype(dtype)
            frac = (delay - np.trunc(delay)).astype(dtype)
            whole = np.floor(delay).astype(np.int64)
            bufs[:, :, pos] = x[:, :, i] + last * feedback
            a = bufs[:, rows, (pos + whole) % buf_len]
            b = bufs[:, rows, (pos + whole + 1) % buf_len]
            if self.interpolation == Interpolation.LINEAR:
                delayed = a + (b - a) * frac
            else:
                c = bufs[:, rows, (pos + whole + 2) % buf_len] - a
                b = b - a
                coefficient = c * dtype(0.5) - b
                value = b * dtype(2) - c * dtype(0.5)
                delayed = a + (coefficient * frac + value) * frac
            last = delayed.astype(dtype)
            out[:, :, i] = x[:, :, i] * in_gain + last * delay_gain
            lfo_pos = (lfo_pos + 1) % lfo_len
        out = np.clip(out, -1, 1).reshape(array.shape)
        return out.astype(array.dtype)  # MindSpore casts back to the input's type


_VAD_NON_NEGATIVE = ("trigger_time", "search_time", "allowed_gap", "pre_trigger_time", "boot_time",
                     "noise_up_time", "noise_down_time")
_VAD_POSITIVE_FREQUENCIES = ("hp_filter_freq", "lp_filter_freq", "hp_lifter_freq",
                             "lp_lifter_freq")


def _kernel_float(value, dtype):
    """A float parameter as MindSpore's kernel holds it: a C++ float, widened to `dtype`."""
    return dtype(np.float32(value))


class Vad(AudioTensorOperation):
    """SoX's voice activity detector on a waveform <..., time>: trims the audio before the
    detected activity, keeping `pre_trigger_time` seconds and the `search_time` span before it
    (see the module for what MindSpore 2.10's measure yields)."""

    def __init__(self, sample_rate, trigger_level=7.0, trigger_time=0.25, search_time=1.0,
                 allowed_gap=0.25, pre_trigger_time=0.0, boot_time=0.35, noise_up_time=0.1,
                 noise_down_time=0.01, noise_reduction_amount=1.35, measure_freq=20.0,
                 measure_duration=None, measure_smooth_time=0.4, hp_filter_freq=50.0,
                 lp_filter_freq=6000.0, hp_lifter_freq=150.0, lp_lifter_freq=2000.0):
        type_check(sample_rate, (int,), "sample_rate")
        check_pos_int32(sample_rate, "sample_rate")
        type_check(trigger_level, (int, float), "trigger_level")
        check_float32(trigger_level, "trigger_level")
        times = dict(zip(_VAD_NON_NEGATIVE, (trigger_time, search_time, allowed_gap,
                                             pre_trigger_time, boot_time, noise_up_time,
                                             noise_down_time)))
        for name, value in times.items():
            type_check(value, (int, float), name)
            check_non_negative_float32(value, name)
        if noise_up_time < noise_down_time:
            raise ValueError(f"Input noise_up_time should be greater than noise_down_time, but got "
                             f"noise_up_time: {noise_up_time} and noise_down_time: "
                             f"{noise_down_time}.")
        type_check(noise_reduction_amount, (int, float), "noise_reduction_amount")
        check_non_negative_float32(noise_reduction_amount, "noise_reduction_amount")
        type_check(measure_freq, (int, float), "measure_freq")
        check_pos_float32(measure_freq, "measure_freq")
        if measure_duration:  # MindSpore checks (and keeps) only a truthy duration
            type_check(measure_duration, (int, float), "measure_duration")
            check_non_negative_float32(measure_duration, "measure_duration")
        type_check(measure_smooth_time, (int, float), "measure_smooth_time")
        check_non_negative_float32(measure_smooth_time, "measure_smooth_time")
        frequencies = dict(zip(_VAD_POSITIVE_FREQUENCIES, (hp_filter_freq, lp_filter_freq,
                                                           hp_lifter_freq, lp_lifter_freq)))
        for name, value in frequencies.items():
            type_check(value, (int, float), name)
            check_pos_float32(value, name)
        self.sample_rate, self.trigger_level = sample_rate, trigger_level
        self.trigger_time, self.search_time, self.allowed_gap = (trigger_time, search_time,
                                                                 allowed_gap)
        self.pre_trigger_time, self.boot_time = pre_trigger_time, boot_time
        self.noise_up_time, self.noise_down_time = noise_up_time, noise_down_time
        self.noise_reduction_amount, self.measure_freq = noise_reduction_amount, measure_freq
        self.measure_duration = measure_duration if measure_duration else 2.0 / measure_freq
        self.measure_smooth_time = measure_smooth_time
        self.hp_filter_freq, self.lp_filter_freq = hp_filter_freq, lp_filter_freq
        self.hp_lifter_freq, self.lp_lifter_freq = hp_lifter_freq, lp_lifter_freq

    def _lengths(self, dtype) -> dict:
        """The kernel's sample counts, from its float parameters computed in `dtype` (the
        waveform's precision) with the + 0.5 roundings done in double, as in C++."""
        def param(value):
            return _kernel_float(value, dtype)

        rate = dtype(self.sample_rate)
        measure_len = int(float(rate * param(self.measure_duration)) + 0.5)
        dft_len = 16
        while dft_len < measure_len:
            dft_len *= 2
        period = int(float(rate / param(self.measure_freq)) + 0.5)
        measures_len = math.ceil(float(param(self.search_time) * param(self.measure_freq)))
        pre_trigger = int(float(param(self.pre_trigger_time) * rate) + 0.5)
        band = [int(float(param(f) / rate * dtype(dft_len)) + 0.5)
                for f in (self.hp_filter_freq, self.lp_filter_freq)]
        half_rate = self.sample_rate * 0.5
        lifter = (math.ceil(half_rate / float(param(self.lp_lifter_freq))),
                  min(math.floor(half_rate / float(param(self.hp_lifter_freq))), dft_len // 4))
        return {"measure": measure_len, "period": period, "measures": measures_len,
                "samples": pre_trigger + measures_len * period + measure_len,
                "band": (max(band[0], 1), min(band[1], dft_len // 2)), "lifter": lifter}

    def apply(self, waveform):
        array = _numeric_wave(waveform, "Vad", 1, "<..., time>")
        dtype = np.float64 if array.dtype == np.float64 else np.float32
        x = array.astype(dtype)
        lengths = self._lengths(dtype)
        if lengths["band"][1] <= lengths["band"][0]:
            raise RuntimeError("Vad: the end of spectrum must be greater than the start. Check if "
                               "`hp_filter_freq` is too large or `lp_filter_freq` is too small.")
        if lengths["lifter"][1] <= lengths["lifter"][0]:
            raise RuntimeError("Vad: the end of cepstrum must be greater than the start. Check if "
                               "`hp_lifter_freq` is too large or `lp_lifter_freq` is too small.")
        time = x.shape[-1]
        if time and lengths["measures"] == 0:
            raise RuntimeError("UpdateVadParams: the length of measures cannot be zero.")
        if time and lengths["samples"] == 0:
            raise RuntimeError("UpdateVadParams: the number of columns of samples cannot be zero.")
        # every measure (hence its running mean) is 0: the first one, taken once `measure`
        # samples are in, triggers when 0 reaches the level, flushing the whole search span
        level = _kernel_float(self.trigger_level, dtype)
        if 0 < lengths["measure"] <= time and dtype(0) >= level:
            stop, flushed = lengths["measure"], lengths["measures"] * lengths["period"]
        else:
            stop, flushed = time, 0
        start = stop - lengths["samples"] + flushed
        if start < -time:
            start = 0
        elif start < 0:
            start += time
        return np.ascontiguousarray(x[..., start:])


class DetectPitchFrequency(AudioTensorOperation):
    """The pitch (Hz) of each `frame_time`-second frame of a float waveform <..., time>, as
    MindSpore's kernel finds it: the normalised cross-correlation of each frame with itself
    `1..ceil(sample_rate / freq_low)` samples later, the lag of its largest value from
    `ceil(sample_rate / freq_high)` on (an early lag within 0.99 of it preferred), a running
    median over `win_length` frames, and `sample_rate / lag`; float32 <..., frames>."""

    def __init__(self, sample_rate, frame_time=0.01, win_length=30, freq_low=85, freq_high=3400):
        type_check(sample_rate, (int,), "sample_rate")  # MindSpore's checks, in its order
        check_int32_not_zero(sample_rate, "sample_rate")
        type_check(frame_time, (float, int), "frame_time")
        check_pos_float32(frame_time, "frame_time")
        type_check(win_length, (int,), "win_length")
        check_pos_int32(win_length, "win_length")
        for name, value in (("freq_low", freq_low), ("freq_high", freq_high)):
            type_check(value, (int, float), name)
            check_pos_float32(value, name)
        self.sample_rate, self.frame_time, self.win_length = sample_rate, frame_time, win_length
        self.freq_low, self.freq_high = freq_low, freq_high

    def apply(self, waveform):
        array = np.asarray(waveform)
        if array.ndim < 1:
            raise RuntimeError("DetectPitchFrequency: the shape of input tensor does not match "
                               "the requirement of operator. Expecting tensor in shape of "
                               "<..., time>. But got tensor with dimension 0.")
        if array.dtype.kind != "f":
            raise RuntimeError(f"DetectPitchFrequency: the data type of input tensor does not "
                               f"match the requirement of operator. Expecting tensor in type of "
                               f"[float, double]. But got type "
                               f"{_DE_NAMES.get(array.dtype.kind, array.dtype.name)}.")
        signal = array.reshape(-1, array.shape[-1])
        lags = self._best_lags(self._nccf(signal))
        smooth = _running_median(lags, self.win_length)
        freq = (self.sample_rate / (1e-9 + smooth.astype(np.float64))).astype(np.float32)
        return freq.reshape(array.shape[:-1] + freq.shape[-1:])

    def _nccf(self, signal):
        """<channel, frame, lag>: each frame times itself `lag` samples on, over the two
        squared norms (0 where either is 0), in the waveform's precision."""
        dtype = signal.dtype
        channels, length = signal.shape
        lags = math.ceil(np.float32(self.sample_rate) / np.float32(int(self.freq_low)))
        frame = math.ceil(np.float32(self.sample_rate) * np.float32(self.frame_time))
        frames = math.ceil(np.float32(length) / np.float32(frame))
        padded = np.zeros((channels, lags + frames * frame), dtype)
        padded[:, :length] = signal
        first = padded[:, :frames * frame].reshape(channels, frames, frame)
        out = np.zeros((channels, frames, lags), dtype)
        for lag in range(1, lags + 1):
            later = padded[:, lag:lag + frames * frame].reshape(channels, frames, frame)
            numerator = (first * later).sum(-1, dtype=dtype)
            norm1 = (first * first).sum(-1, dtype=dtype)
            norm2 = (later * later).sum(-1, dtype=dtype)
            nonzero = (norm1 != 0) & (norm2 != 0)
            with np.errstate(divide="ignore", invalid="ignore"):
                out[..., lag - 1] = np.where(nonzero, numerator / norm1 / norm2, 0)
        return out

    def _best_lags(self, nccf):
        """<channel, frame>: MindSpore's choice of lag (1-based) in each frame."""
        lags = nccf.shape[-1]
        lag_min = math.ceil(np.float32(self.sample_rate) / np.float32(int(self.freq_high)))
        out = np.zeros(nccf.shape[:2], np.int32)
        for c, f in np.ndindex(*nccf.shape[:2]):
            row = nccf[c, f]
            best = half = row[lag_min]
            best_at = half_at = lag_min
            for lag in range(lag_min + 1, lags):
                if row[lag] > best:
                    best, best_at = row[lag], lag
                    if lag < lags // 2:
                        half, half_at = row[lag], lag
            out[c, f] = (half_at if half > best * nccf.dtype.type(0.99) else best_at) + 1
        return out


_DE_NAMES = {"b": "bool", "U": "string", "S": "bytes"}


def _running_median(lags, win_length: int):
    """MindSpore's median smoothing: the first lag repeated (win_length - 1) // 2 times in
    front, then the middle of each sorted window of `win_length`."""
    pad = (win_length - 1) // 2
    padded = np.concatenate([np.repeat(lags[:, :1], pad, axis=1), lags], axis=1)
    count = padded.shape[1] - win_length + 1
    if count <= 0:
        return np.zeros((lags.shape[0], 0), np.int32)
    windows = np.lib.stride_tricks.sliding_window_view(padded, win_length, axis=1)[:, :count]
    return np.sort(windows, axis=-1)[..., pad]
