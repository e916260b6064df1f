"""The fixed colour adjustments of dataset.vision (AdjustBrightness, AdjustContrast,
AdjustSaturation, AdjustSharpness, AdjustHue) against pixels and errors recorded from
MindSpore 2.10."""
import numpy as np
import pytest

from cellgraph.dataset import vision

IMAGE = [[[172, 47, 117], [192, 67, 251], [195, 103, 9], [211, 21, 242], [36, 87, 70]], [[216, 88, 140], [58, 193, 230], [39, 87, 174], [88, 81, 165], [25, 77, 72]], [[9, 148, 115], [208, 243, 197], [254, 79, 175], [192, 82, 99], [216, 177, 243]], [[29, 147, 147], [142, 167, 32], [193, 9, 185], [127, 32, 31], [202, 244, 151]]]
CASES = {
    'AdjustBrightness(0.5)': [[[86, 24, 58], [96, 34, 126], [98, 52, 4], [106, 10, 121], [18, 44, 35]], [[108, 44, 70], [29, 96, 115], [20, 44, 87], [44, 40, 82], [12, 38, 36]], [[4, 74, 58], [104, 122, 98], [127, 40, 88], [96, 41, 50], [108, 88, 122]], [[14, 74, 74], [71, 84, 16], [96, 4, 92], [64, 16, 16], [101, 122, 76]]],
    'AdjustBrightness(1.7)': [[[255, 80, 199], [255, 114, 255], [255, 175, 15], [255, 36, 255], [61, 148, 119]], [[255, 150, 238], [99, 255, 255], [66, 148, 255], [150, 138, 255], [42, 131, 122]], [[15, 252, 196], [255, 255, 255], [255, 134, 255], [255, 139, 168], [255, 255, 255]], [[49, 250, 250], [241, 255, 54], [255, 15, 255], [216, 54, 53], [255, 255, 255]]],
    'AdjustContrast(0.3)': [[[137, 100, 120], [143, 106, 161], [144, 116, 88], [149, 92, 158], [96, 112, 106]], [[150, 112, 127], [103, 143, 154], [97, 112, 138], [112, 110, 135], [93, 108, 107]], [[88, 130, 120], [148, 158, 144], [162, 109, 138], [143, 110, 115], [150, 138, 158]], [[94, 130, 130], [128, 136, 95], [143, 88, 141], [124, 95, 95], [146, 159, 131]]],
    'AdjustContrast(1.8)': [[[212, 0, 113], [248, 23, 255], [253, 88, 0], [255, 0, 255], [0, 59, 28]], [[255, 61, 154], [7, 250, 255], [0, 59, 216], [61, 48, 199], [0, 41, 32]], [[0, 169, 109], [255, 255, 255], [255, 45, 217], [248, 50, 81], [255, 221, 255]], [[0, 167, 167], [158, 203, 0], [250, 0, 235], [131, 0, 0], [255, 255, 174]]],
    'AdjustSaturation(0.2)': [[[108, 83, 97], [138, 113, 150], [135, 117, 98], [125, 87, 131], [63, 73, 70]], [[149, 123, 134], [137, 164, 172], [74, 84, 101], [92, 91, 107], [54, 64, 63]], [[84, 112, 105], [223, 230, 221], [164, 129, 149], [132, 110, 113], [200, 192, 205]], [[95, 119, 119], [144, 149, 122], [106, 69, 104], [73, 54, 54], [217, 226, 207]]],
    'AdjustSaturation(2.5)': [[[255, 0, 154], [255, 0, 255], [255, 78, 0], [255, 0, 255], [0, 112, 70]], [[255, 22, 152], [0, 247, 255], [0, 93, 255], [80, 63, 255], [0, 101, 88]], [[0, 216, 133], [180, 255, 152], [255, 0, 224], [255, 30, 72], [246, 148, 255]], [[0, 200, 200], [139, 202, 0], [255, 0, 255], [228, 0, 0], [174, 255, 46]]],
    'AdjustSharpness(0.0)': [[[172, 47, 117], [192, 67, 251], [195, 103, 9], [211, 21, 242], [36, 87, 70]], [[216, 88, 140], [121, 141, 179], [123, 100, 172], [124, 86, 147], [25, 77, 72]], [[9, 148, 115], [152, 164, 168], [178, 99, 153], [162, 92, 130], [216, 177, 243]], [[29, 147, 147], [142, 167, 32], [193, 9, 185], [127, 32, 31], [202, 244, 151]]],
    'AdjustSharpness(2.0)': [[[172, 47, 117], [192, 67, 251], [195, 103, 9], [211, 21, 242], [36, 87, 70]], [[216, 88, 140], [0, 245, 255], [0, 74, 176], [52, 76, 183], [25, 77, 72]], [[9, 148, 115], [255, 255, 226], [255, 59, 197], [222, 72, 68], [216, 177, 243]], [[29, 147, 147], [142, 167, 32], [193, 9, 185], [127, 32, 31], [202, 244, 151]]],
}
HUE = {
    0.0: [[[172, 47, 115], [197, 67, 251], [195, 105, 9], [213, 21, 242], [36, 87, 71]], [[216, 88, 136], [58, 191, 230], [39, 83, 174], [89, 81, 165], [25, 77, 73]], [[9, 148, 117], [208, 243, 197], [254, 79, 169], [192, 82, 98], [217, 177, 243]], [[29, 146, 147], [140, 167, 32], [193, 9, 182], [127, 31, 31], [201, 244, 151]]],
    0.2: [[[172, 126, 47], [251, 67, 84], [62, 195, 9], [242, 31, 21], [36, 42, 87]], [[216, 190, 88], [131, 58, 230], [157, 39, 174], [165, 81, 140], [31, 25, 77]], [[9, 13, 148], [197, 243, 241], [254, 194, 79], [188, 192, 82], [243, 177, 190]], [[54, 29, 147], [32, 167, 86], [193, 52, 9], [108, 127, 31], [151, 244, 212]]],
    -0.35: [[[47, 126, 172], [67, 251, 180], [92, 9, 195], [21, 242, 193], [87, 66, 36]], [[88, 148, 216], [208, 230, 58], [96, 174, 39], [81, 165, 81], [77, 68, 25]], [[148, 104, 9], [243, 197, 211], [79, 186, 254], [82, 108, 192], [177, 243, 211]], [[147, 137, 29], [167, 32, 150], [9, 193, 187], [31, 38, 127], [244, 151, 208]]],
    0.5: [[[47, 172, 100], [128, 251, 67], [9, 101, 195], [57, 242, 21], [87, 36, 53]], [[88, 216, 163], [230, 90, 58], [174, 125, 39], [160, 165, 81], [77, 25, 30]], [[148, 9, 42], [232, 197, 243], [79, 254, 157], [82, 192, 173], [205, 243, 177]], [[147, 29, 29], [57, 32, 167], [9, 193, 13], [31, 127, 126], [193, 151, 244]]],
}
ERRORS = [
    ('AdjustBrightness(-1.0)', ValueError, 'Input brightness_factor is not within the required interval of [0, 16777216].'),
    ('AdjustBrightness([1, 2])', TypeError, "Argument brightness_factor with value [1, 2] is not of type [<class 'float'>, <class 'int'>], but got <class 'list'>."),
    ('AdjustContrast(-2)', ValueError, 'Input contrast_factor is not within the required interval of [0, 16777216].'),
    ('AdjustSaturation(-1)', ValueError, 'Input is not within the required interval of [0, 16777216].'),
    ('AdjustSharpness(-1)', ValueError, 'Input is not within the required interval of [0, 16777216].'),
    ('AdjustHue(0.6)', ValueError, 'Input hue_factor is not within the required interval of [-0.5, 0.5].'),
    ("AdjustHue('0.1')", TypeError, "Argument hue_factor with value 0.1 is not of type [<class 'float'>, <class 'int'>], but got <class 'str'>."),
]


@pytest.mark.parametrize("spelled", sorted(CASES))
def test_adjustment_gives_mindspores_pixels(spelled):
    if spelled.startswith("AdjustSharpness"):
        pytest.importorskip("PIL")  # it blends as Pillow's ImageEnhance (the `vision` extra)
    out = eval("vision." + spelled)(np.array(IMAGE, np.uint8))  # the call as written
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, CASES[spelled])


@pytest.mark.parametrize("factor", sorted(HUE))
def test_hue_turn_stays_within_a_few_levels_of_mindspores(factor):
    # MindSpore turns the hue through a lossy 8-bit HSV (even a turn of 0 moves pixels);
    # cellgraph's OpenCV-style full-range HSV lands within a few levels of it
    out = vision.AdjustHue(factor)(np.array(IMAGE, np.uint8)).astype(int)
    assert np.abs(out - np.array(HUE[factor])).max() <= 8


@pytest.mark.parametrize("spelled, error, message", ERRORS)
def test_factors_are_checked_with_mindspores_words(spelled, error, message):
    with pytest.raises(error) as info:
        eval("vision." + spelled)
    assert str(info.value) == message


@pytest.mark.parametrize("args, error, message", [
    ((50,), ValueError, "Input cutoff is not within the required interval of [0, 50)."),
    (("1",), TypeError, ("Argument cutoff with value 1 is not of type [<class 'int'>, "
                        "<class 'float'>], but got <class 'str'>.")),
    ((1, 255.5), TypeError, ("Argument ignore with value 255.5 is not of type [<class 'list'>, "
                            "<class 'tuple'>, <class 'int'>], but got <class 'float'>.")),
    ((1, [1, 300]), ValueError, "Input ignore is not within the required interval of [0, 255]."),
    ((1, [1, "a"]), TypeError, ("Argument item with value a is not of type [<class 'int'>], but "
                               "got <class 'str'>.")),
])
def test_auto_contrast_checks_as_mindspore(args, error, message):
    with pytest.raises(error) as info:
        vision.AutoContrast(*args)
    assert str(info.value) == message
