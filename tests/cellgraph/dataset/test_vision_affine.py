"""vision.Affine against pixels and errors recorded from MindSpore 2.10 (nearest neighbour on
a small random image). A quarter turn is left out: there source positions fall on exact pixel
ties, which MindSpore's float32 matrix breaks differently."""
import numpy as np
import pytest

from cellgraph.dataset import vision  # noqa: F401 (the calls in CASES and ERRORS use it)

IMAGE = [[[37, 235, 140], [72, 255, 137], [203, 133, 79], [192, 144, 129], [204, 71, 237], [252, 134, 25]], [[178, 20, 254], [101, 146, 212], [139, 252, 234], [156, 157, 142], [50, 68, 215], [215, 233, 241]], [[247, 222, 96], [86, 141, 233], [137, 7, 63], [61, 22, 57], [1, 128, 60], [209, 8, 216]], [[141, 115, 175], [234, 121, 200], [30, 71, 131], [198, 149, 49], [57, 3, 196], [24, 241, 43]], [[76, 26, 52], [80, 109, 115], [41, 210, 15], [64, 196, 25], [111, 226, 215], [135, 26, 153]]]
CASES = [
    ('degrees=30, translate=[0.5, 0.5], scale=1.0, shear=[0, 0]', [[[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [178, 20, 254], [72, 255, 137]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [247, 222, 96], [178, 20, 254], [101, 146, 212]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [141, 115, 175], [86, 141, 233], [137, 7, 63]]]),
    ('degrees=-45, translate=[0.2, -0.4], scale=0.8, shear=[10, -5]', [[[0, 0, 0], [37, 235, 140], [101, 146, 212], [139, 252, 234], [61, 22, 57], [57, 3, 196]], [[0, 0, 0], [0, 0, 0], [247, 222, 96], [86, 141, 233], [30, 71, 131], [64, 196, 25]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [141, 115, 175], [80, 109, 115], [0, 0, 0]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [76, 26, 52], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]]),
    ('degrees=10, translate=[0, 0], scale=1.3, shear=7, fill_value=(9, 8, 7)', [[[178, 20, 254], [101, 146, 212], [139, 252, 234], [203, 133, 79], [192, 144, 129], [204, 71, 237]], [[247, 222, 96], [101, 146, 212], [139, 252, 234], [156, 157, 142], [156, 157, 142], [50, 68, 215]], [[86, 141, 233], [86, 141, 233], [137, 7, 63], [61, 22, 57], [1, 128, 60], [1, 128, 60]], [[234, 121, 200], [30, 71, 131], [30, 71, 131], [198, 149, 49], [57, 3, 196], [209, 8, 216]], [[80, 109, 115], [41, 210, 15], [64, 196, 25], [198, 149, 49], [57, 3, 196], [24, 241, 43]]]),
]
ERRORS = [
    ('degrees=[15.0], translate=[-1, 1], scale=1.0, shear=[1, 1]', TypeError, "Argument degrees with value [15.0] is not of type [<class 'int'>, <class 'float'>], but got <class 'list'>."),
    ('degrees=15, translate=[1, 1], scale=0.0, shear=10', ValueError, 'Input scale must be greater than 0.'),
    ('degrees=15, translate=[1, 1], scale=1.5, shear=[1.5, 3.5, 3.5]', TypeError, 'The length of shear should be 2.'),
    ('degrees=15, translate=(0.1,), scale=2.1, shear=[1.5, 1.5]', TypeError, 'The length of translate should be 2.'),
    ('degrees=200, translate=[0, 0], scale=1.0, shear=0', ValueError, 'Input degrees is not within the required interval of [-180, 180].'),
    ('degrees=1, translate=[0, 0], scale=1.0, shear=0, fill_value=300', ValueError, 'Input fill_value is not within the required interval of [0, 255].'),
]


@pytest.mark.parametrize("spelled, expected", CASES)
def test_affine_gives_mindspores_pixels(spelled, expected):
    out = eval("vision.Affine(" + spelled + ")")(np.array(IMAGE, np.uint8))  # as written
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("spelled, error, message", ERRORS)
def test_affine_arguments_are_checked_with_mindspores_words(spelled, error, message):
    with pytest.raises(error) as info:
        eval("vision.Affine(" + spelled + ")")
    assert str(info.value) == message
