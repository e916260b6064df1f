"""Vad of dataset.audio against MindSpore 2.10: the samples it trims off the front of a waveform
(silence, then a 50 Hz tone), its output types, and its argument and input errors."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset.audio import Vad


def silence_then_tone(sample_rate, length, dtype=np.float32, channels=()):
    t = np.arange(length) / sample_rate
    wave = np.where(t < length / sample_rate / 2, 0.0, 0.5 * np.sin(2 * np.pi * 50 * t))
    return np.broadcast_to(wave, channels + (length,)).astype(dtype)


# (arguments, waveform length, input type, leading shape) -> (samples MindSpore 2.10 trims off,
# output type); MindSpore's output is the rest of the waveform, unchanged
CASES = [
    ({"sample_rate": 600}, 3000, np.float32, (), 2340, np.float32),
    ({"sample_rate": 600}, 1000, np.float64, (2, 3), 340, np.float64),
    ({"sample_rate": 600}, 1000, np.int32, (), 340, np.float32),
    ({"sample_rate": 600}, 400, np.float32, (), 140, np.float32),
    ({"sample_rate": 600}, 200, np.float32, (), 0, np.float32),
    ({"sample_rate": 800, "trigger_level": 0.0, "pre_trigger_time": 0.2}, 2000, np.float32, (),
     1840, np.float32),
    ({"sample_rate": 800, "trigger_level": -1.0, "pre_trigger_time": 5.0}, 2000, np.float32, (),
     0, np.float32),
    ({"sample_rate": 800, "trigger_level": 0.0}, 50, np.float32, (), 0, np.float32),
    ({"sample_rate": 1000, "search_time": 0.33, "measure_freq": 7.0, "measure_duration": 0.3,
      "pre_trigger_time": 0.1}, 5000, np.float32, (), 4171, np.float32),
    ({"sample_rate": 1000, "search_time": 0.33, "measure_freq": 7.0, "measure_duration": 0.3,
      "pre_trigger_time": 0.1}, 5000, np.float64, (), 4171, np.float64),
]


@pytest.mark.parametrize("kwargs, length, dtype, channels, trimmed, out_dtype", CASES)
def test_vad_trims_as_mindspore(kwargs, length, dtype, channels, trimmed, out_dtype):
    wave = silence_then_tone(kwargs["sample_rate"], length, dtype, channels)
    out = Vad(**kwargs)(wave)
    assert out.dtype == out_dtype
    assert out.shape == channels + (length - trimmed,)
    np.testing.assert_array_equal(out, wave[..., trimmed:].astype(out_dtype))


def test_vad_in_a_dataset_map():
    wave = silence_then_tone(600, 3000)
    data = ds.NumpySlicesDataset(wave[np.newaxis, np.newaxis, :], column_names=["audio"],
                                 shuffle=False)
    data = data.map(operations=[Vad(600)], input_columns=["audio"])
    rows = [item["audio"] for item in data.create_dict_iterator(output_numpy=True)]
    assert len(rows) == 1
    np.testing.assert_array_equal(rows[0], wave[np.newaxis, 2340:])


def test_vad_measure_duration_defaults_to_two_periods():
    assert Vad(600).measure_duration == 0.1
    assert Vad(600, measure_freq=8.0, measure_duration=0).measure_duration == 0.25


@pytest.mark.parametrize("kwargs, error, message", [
    ({"sample_rate": 0}, ValueError,
     r"Input sample_rate is not within the required interval of \[1, 2147483647\]\."),
    ({"sample_rate": 1.5}, TypeError, "Argument sample_rate with value 1.5 is not of type"),
    ({"sample_rate": 100, "trigger_level": "a"}, TypeError, "Argument trigger_level with value a"),
    ({"sample_rate": 100, "trigger_level": 1e40}, ValueError,
     r"Input trigger_level is not within the required interval of \[-16777216, 16777216\]\."),
    ({"sample_rate": 100, "trigger_time": -1}, ValueError,
     r"Input trigger_time is not within the required interval of \[0, 16777216\]\."),
    ({"sample_rate": 100, "search_time": -10}, ValueError, "Input search_time is not within"),
    ({"sample_rate": 100, "noise_up_time": 0.1, "noise_down_time": 0.2}, ValueError,
     ("Input noise_up_time should be greater than noise_down_time, but got noise_up_time: 0.1 "
      "and noise_down_time: 0.2.")),
    ({"sample_rate": 100, "noise_reduction_amount": -1}, ValueError,
     "Input noise_reduction_amount is not within"),
    ({"sample_rate": 100, "measure_freq": 0}, ValueError,
     r"Input measure_freq is not within the required interval of \(0, 16777216\]\."),
    ({"sample_rate": 100, "measure_duration": -1}, ValueError,
     "Input measure_duration is not within"),
    ({"sample_rate": 100, "measure_duration": "x"}, TypeError, "Argument measure_duration"),
    ({"sample_rate": 100, "measure_smooth_time": -1}, ValueError,
     "Input measure_smooth_time is not within"),
    ({"sample_rate": 100, "lp_lifter_freq": 0.0}, ValueError,
     r"Input lp_lifter_freq is not within the required interval of \(0, 16777216\]\."),
    ({"sample_rate": 100, "hp_filter_freq": -10}, ValueError, "Input hp_filter_freq is not within"),
])
def test_vad_argument_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        Vad(**kwargs)


@pytest.mark.parametrize("kwargs, message", [
    ({"sample_rate": 1000, "hp_filter_freq": 600.0},
     "Vad: the end of spectrum must be greater than the start"),
    ({"sample_rate": 1000, "hp_lifter_freq": 400.0},
     "Vad: the end of cepstrum must be greater than the start"),
    ({"sample_rate": 1000, "search_time": 0.0},
     "UpdateVadParams: the length of measures cannot be zero"),
])
def test_vad_kernel_errors(kwargs, message):
    with pytest.raises(RuntimeError, match=message):
        Vad(**kwargs)(silence_then_tone(1000, 500))


def test_vad_input_errors():
    with pytest.raises(RuntimeError, match="Vad: the data type of input tensor does not match"):
        Vad(100)(np.array(["a", "b"]))
    with pytest.raises(RuntimeError, match="Expecting tensor in shape of <..., time>. But got "
                                           "tensor with dimension 0."):
        Vad(100)(np.array(1.0, np.float32))
