"""The masking transforms and Filtfilt of dataset.audio against values and errors recorded from
MindSpore 2.10."""
import numpy as np
import pytest

from cellgraph.dataset import audio
from cellgraph.dataset.audio import (  # noqa: F401 (the names the cases spell)
    Filtfilt,
    FrequencyMasking,
    MaskAlongAxis,
    MaskAlongAxisIID,
    TimeMasking,
)

X = np.array([[0.1, -0.4, 0.7, 0.2, -0.9, 0.5, 0.05, -0.3],
              [0.9, 0.8, -0.6, 0.3, 0.0, -0.2, 0.4, 0.6]], np.float32)
S = np.arange(24, dtype=np.float32).reshape(2, 3, 4)

FILTFILT = {
    'Filtfilt([1.0, -0.3, 0.1], [0.4, 0.2, 0.1])':
        [[0.0213662, 0.1133865, 0.3412978, 0.0888684, -0.2582006, -0.0367182, 0.0010053,
          -0.0537124],
         [1.0, 0.9109008, 0.2423409, 0.0507753, 0.0150256, 0.1898798, 0.4465399, 0.4037132]],
    'Filtfilt([1.0, -0.3, 0.1], [0.4, 0.2, 0.1], clamp=False)':
        [[0.0213662, 0.1133865, 0.3412978, 0.0888684, -0.2582006, -0.0367182, 0.0010053,
          -0.0537124],
         [1.0927563, 0.9109008, 0.2423409, 0.0507753, 0.0150256, 0.1898798, 0.4465399,
          0.4037132]],
}

MASKS = {
    'TimeMasking(False, 2, 1, 7.0)':
        [[[0.0, 7.0, 7.0, 3.0], [4.0, 7.0, 7.0, 7.0], [8.0, 7.0, 7.0, 11.0]],
         [[12.0, 7.0, 7.0, 15.0], [16.0, 7.0, 7.0, 19.0], [20.0, 7.0, 7.0, 23.0]]],
    'FrequencyMasking(False, 2, 1, 7.0)':
        [[[0.0, 1.0, 2.0, 3.0], [7.0, 7.0, 7.0, 7.0], [7.0, 7.0, 7.0, 7.0]],
         [[12.0, 13.0, 14.0, 15.0], [7.0, 7.0, 7.0, 7.0], [7.0, 7.0, 7.0, 7.0]]],
    'MaskAlongAxis(1, 2, -1.5, 2)':
        [[[0.0, -1.5, -1.5, 3.0], [4.0, -1.5, -1.5, 7.0], [8.0, -1.5, -1.5, 11.0]],
         [[12.0, -1.5, -1.5, 15.0], [16.0, -1.5, -1.5, 19.0], [20.0, -1.5, -1.5, 23.0]]],
    'MaskAlongAxis(0, 3, 2.0, 1)': [[[2.0] * 4] * 3] * 2,
}

ERRORS = {
    'TimeMasking(False, 2, 3, 0.0)':
        "MaskAlongAxis: invalid parameter, the sum of 'mask_start' and 'mask_width' should be no "
        "more than the length of the masked dimension, but got: 'mask_start' 3, 'mask_width' 2 "
        "and length 4",
    'MaskAlongAxis(3, 2, 0.0, 1)':
        "MaskAlongAxis: invalid parameter, the sum of 'mask_start' and 'mask_width' should be no "
        "more than the length of the masked dimension, but got: 'mask_start' 3, 'mask_width' 2 "
        "and length 3",
    'TimeMasking(False, 9, 0, 0.0)':
        "TimeMasking: invalid parameter, 'time_mask_param' should be less than or equal to the "
        "length of time dimension, but got: 'frequency_mask_param' 9 and length 4",
    'MaskAlongAxisIID(5, 0.0, 1)':
        "MaskAlongAxisIID: mask_param should be less than or equal to the length of frequency "
        "dimension.",
}


@pytest.mark.parametrize("spec", list(FILTFILT))
def test_filtfilt_matches_mindspore(spec):
    out = eval(spec)(X * 3)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.array(FILTFILT[spec]), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("spec", list(MASKS))
def test_masks_match_mindspore(spec):
    out = eval(spec)(S)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, np.array(MASKS[spec]))


@pytest.mark.parametrize("spec", list(ERRORS))
def test_mask_errors_match_mindspore(spec):
    with pytest.raises(RuntimeError) as info:
        eval(spec)(S)
    assert str(info.value) == ERRORS[spec]


def test_integer_input_becomes_float32_and_float64_stays():
    assert TimeMasking(False, 1)(S.astype(np.int32)).dtype == np.float32
    assert TimeMasking(False, 1)(S.astype(np.float64)).dtype == np.float64


@pytest.mark.parametrize("op", [TimeMasking(True, 3, 0, 9.5), FrequencyMasking(True, 2, 0, 9.5),
                                MaskAlongAxisIID(3, 9.5, 2)])
def test_random_masks_are_one_band_shared_by_every_block(op):
    axis = 1 if isinstance(op, FrequencyMasking) else 2
    for _ in range(10):
        masked = op(S + 100) == 9.5
        lines = masked.any(axis=3 - axis)  # which rows (or columns) were masked, per block
        assert (lines == lines[0]).all()  # the same band in every block
        idx = np.flatnonzero(lines[0])
        assert len(idx) <= 3 and (len(idx) == 0 or idx[-1] - idx[0] == len(idx) - 1)


def test_argument_errors_match_mindspore():
    with pytest.raises(ValueError, match=r"Input mask_start is not within the required interval "
                                         r"of \[0, 16777216\]."):
        audio.TimeMasking(True, 2, -10)
    with pytest.raises(TypeError, match=r"Argument iid_masks with value True is not of type "
                                        r"\[<class 'bool'>\], but got <class 'str'>."):
        audio.FrequencyMasking("True", 2, 10)
    with pytest.raises(ValueError, match=r"Input axis is not within the required interval of "
                                         r"\[1, 2\]."):
        audio.MaskAlongAxis(0, 10, 1.0, 3)
    with pytest.raises(TypeError, match=r"Argument mask_param with value 1.0 is not of type"):
        audio.MaskAlongAxisIID(1.0, 1.0, 1)
