"""Effects of dataset.audio (mindspore.dataset.audio): Dither, Phaser and Flanger.

Dither: a waveform <..., time> quantised to 16 bits.

MindSpore's kernel scales the signal by 2**15 - 2, adds its "noise", rounds half away from
zero and divides by 2**15. The noise is not drawn from a distribution: TPDF adds MindSpore's
periodic Bartlett window over the time axis; RPDF adds one input sample picked at random; GPDF
adds a running sum of seven input samples picked at random, writing each partial sum back into
the (copied) input as it goes. Noise shaping then adds each row's quantisation error (against
that input), delayed by one sample. Inputs other than float64 are computed as float32.
"""
from __future__ import annotations

import math

import numpy as np

from cellgraph.dataset.core.validator_helpers import (
    check_int32,
    check_int32_not_zero,
    check_value,
    type_check,
)
from cellgraph.dataset.transforms.transforms import RandomOperation

from .transforms import AudioTensorOperation
from .utils import DensityFunction, Interpolation, Modulation

__all__ = ["Dither", "Flanger", "Phaser"]


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
