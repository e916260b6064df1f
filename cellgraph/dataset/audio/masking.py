"""Masking transforms of dataset.audio (mindspore.dataset.audio) on spectrograms
<..., freq, time>, and Filtfilt (a filter run forward then backward).

A mask sets `mask_width` rows (frequency, axis 1) or columns (time, axis 2) from `mask_start`
to `mask_value` in every <freq, time> block. The random masks draw, as MindSpore's kernel does,
a width uniform in [0, mask_param] and then a start uniform in [0, length - width], once per
call: the same mask for every block. Inputs other than float64 become float32.
"""
from __future__ import annotations

import numpy as np

from cellgraph.dataset.core.validator_helpers import (
    check_float32,
    check_non_negative_float32,
    check_non_negative_int32,
    check_pos_int32,
    check_value,
    type_check,
)
from cellgraph.dataset.transforms.transforms import RandomOperation

from .transforms import AudioTensorOperation, LFilter, _waveform, lfilter

__all__ = ["Filtfilt", "FrequencyMasking", "MaskAlongAxis", "MaskAlongAxisIID", "TimeMasking"]


def _spectrogram(spec, op: str, integer_ok: bool = True) -> np.ndarray:
    array = np.asarray(spec)
    if array.ndim < 2:
        raise RuntimeError(f"{op}: the shape of input tensor does not match the requirement of "
                           f"operator. Expecting tensor in shape of <..., freq, time>. But got "
                           f"tensor with dimension {array.ndim}.")
    if array.dtype.kind not in "biuf":
        name = "string" if array.dtype.kind in "USO" else array.dtype.name
        raise RuntimeError(f"{op}: the data type of input tensor does not match the requirement "
                           f"of operator. Expecting tensor in type of [int, float, double]. But "
                           f"got type {name}.")
    return array.astype(np.float64 if array.dtype == np.float64 else np.float32)


def mask_along_axis(array: np.ndarray, mask_width: int, mask_start: int, mask_value: float,
                    axis: int) -> np.ndarray:
    """A copy of `array` <..., freq, time> with `mask_width` rows (axis 1) or columns (axis 2)
    from `mask_start` set to `mask_value`, refused with MindSpore's words when out of range."""
    out = array.copy()
    if mask_width == 0:
        return out
    length = array.shape[-2] if axis == 1 else array.shape[-1]
    if not 0 <= mask_start <= length:
        raise RuntimeError(f"MaskAlongAxis: invalid parameter, 'mask_start' should be less than "
                           f"the length of the masked dimension, but got: 'mask_start' "
                           f"{mask_start} and length {length}")
    if mask_start + mask_width > length:
        raise RuntimeError(f"MaskAlongAxis: invalid parameter, the sum of 'mask_start' and "
                           f"'mask_width' should be no more than the length of the masked "
                           f"dimension, but got: 'mask_start' {mask_start}, 'mask_width' "
                           f"{mask_width} and length {length}")
    if axis == 1:
        out[..., mask_start:mask_start + mask_width, :] = mask_value
    else:
        out[..., mask_start:mask_start + mask_width] = mask_value
    return out


def _random_mask(array, mask_param, mask_value, axis, rng) -> np.ndarray:
    length = array.shape[-2] if axis == 1 else array.shape[-1]
    width = int(rng.integers(0, mask_param + 1))
    start = int(rng.integers(0, length - width + 1))
    return mask_along_axis(array, width, start, mask_value, axis)


def _check_masking(iid_masks, mask_param, mask_start, mask_value):
    type_check(iid_masks, (bool,), "iid_masks")
    type_check(mask_param, (int,), "mask_param")
    check_non_negative_float32(mask_param, "mask_param")
    type_check(mask_start, (int,), "mask_start")
    check_non_negative_float32(mask_start, "mask_start")
    type_check(mask_value, (int, float), "mask_value")
    check_non_negative_float32(mask_value, "mask_value")


class _Masking(AudioTensorOperation, RandomOperation):
    """TimeMasking and FrequencyMasking: the mask of `mask_param` from `mask_start`, or (when
    `iid_masks`) a random one."""

    _axis = 2
    _param_name = "time_mask_param"
    _dim_name = "time"

    def _init(self, iid_masks, mask_param, mask_start, mask_value):
        _check_masking(iid_masks, mask_param, mask_start, mask_value)
        self.iid_masks, self.mask_start, self.mask_value = iid_masks, mask_start, mask_value
        setattr(self, self._param_name, mask_param)
        self._mask_param = mask_param

    def apply(self, spectrogram):
        op = type(self).__name__
        array = np.asarray(spectrogram)
        if array.ndim < 2:
            _spectrogram(array, op)
        length = array.shape[-2] if self._axis == 1 else array.shape[-1]
        if length < self._mask_param:
            raise RuntimeError(f"{op}: invalid parameter, '{self._param_name}' should be less "
                               f"than or equal to the length of {self._dim_name} dimension, but "
                               f"got: 'frequency_mask_param' {self._mask_param} and length "
                               f"{length}")
        array = _spectrogram(array, op)
        if self.iid_masks:
            return _random_mask(array, self._mask_param, self.mask_value, self._axis, self.rng)
        return mask_along_axis(array, self._mask_param, self.mask_start, self.mask_value,
                               self._axis)


class TimeMasking(_Masking):
    """Masks `time_mask_param` columns of a spectrogram <..., freq, time> from `mask_start`
    (when `iid_masks`, a random width in [0, time_mask_param] at a random start)."""

    def __init__(self, iid_masks=False, time_mask_param=0, mask_start=0, mask_value=0.0):
        self._init(iid_masks, time_mask_param, mask_start, mask_value)


class FrequencyMasking(_Masking):
    """Masks `freq_mask_param` rows of a spectrogram <..., freq, time> from `mask_start`
    (when `iid_masks`, a random width in [0, freq_mask_param] at a random start)."""

    _axis = 1
    _param_name = "frequency_mask_param"
    _dim_name = "frequency"

    def __init__(self, iid_masks=False, freq_mask_param=0, mask_start=0, mask_value=0.0):
        self._init(iid_masks, freq_mask_param, mask_start, mask_value)
        self.freq_mask_param = freq_mask_param


class MaskAlongAxis(AudioTensorOperation):
    """Masks `mask_width` rows (axis 1) or columns (axis 2) of a spectrogram <..., freq, time>
    from `mask_start` with `mask_value`."""

    def __init__(self, mask_start, mask_width, mask_value, axis):
        type_check(mask_start, (int,), "mask_start")
        type_check(mask_width, (int,), "mask_width")
        type_check(mask_value, (int, float), "mask_value")
        type_check(axis, (int,), "axis")
        check_non_negative_int32(mask_start, "mask_start")
        check_pos_int32(mask_width, "mask_width")
        check_float32(mask_value, "mask_value")
        check_value(axis, [1, 2], "axis")
        self.mask_start, self.mask_width, self.mask_value, self.axis = (mask_start, mask_width,
                                                                        mask_value, axis)

    def apply(self, spectrogram):
        array = _spectrogram(spectrogram, "MaskAlongAxis")
        return mask_along_axis(array, self.mask_width, self.mask_start, self.mask_value,
                               self.axis)


class MaskAlongAxisIID(AudioTensorOperation, RandomOperation):
    """Masks a random width in [0, mask_param] of rows (axis 1) or columns (axis 2) of a
    spectrogram <..., freq, time>, at a random start, with `mask_value`."""

    def __init__(self, mask_param, mask_value, axis):
        type_check(mask_param, (int,), "mask_param")
        check_non_negative_int32(mask_param, "mask_param")
        type_check(mask_value, (int, float), "mask_value")
        check_float32(mask_value, "mask_value")
        type_check(axis, (int,), "axis")
        check_value(axis, [1, 2], "axis")
        self.mask_param, self.mask_value, self.axis = mask_param, mask_value, axis

    def apply(self, spectrogram):
        array = _spectrogram(spectrogram, "MaskAlongAxisIID")
        length = array.shape[-2] if self.axis == 1 else array.shape[-1]
        if length < self.mask_param:
            dim = "frequency" if self.axis == 1 else "time"
            raise RuntimeError(f"MaskAlongAxisIID: mask_param should be less than or equal to "
                               f"the length of {dim} dimension.")
        return _random_mask(array, self.mask_param, self.mask_value, self.axis, self.rng)


class Filtfilt(LFilter):
    """The IIR filter of LFilter run forward, then backward over the reversed output (zero
    phase); only the backward pass is clamped to [-1, 1] when `clamp`."""

    def apply(self, waveform):
        array = _waveform(waveform, "Filtfilt")
        forward = lfilter(array, self.b_coeffs, self.a_coeffs, False)
        backward = lfilter(np.ascontiguousarray(forward[..., ::-1]), self.b_coeffs,
                           self.a_coeffs, self.clamp)
        return np.ascontiguousarray(backward[..., ::-1])
