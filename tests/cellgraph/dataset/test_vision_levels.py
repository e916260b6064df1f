"""Posterize, Solarize, RandomInvert, RandomAdjustSharpness, RandomGrayscale and ToNumpy:
pixels, output types and errors as MindSpore 2.10 gives them (recorded from it)."""
import numpy as np
import pytest

from cellgraph.dataset import vision as v

PIL = pytest.importorskip("PIL.Image")

A = (np.arange(48, dtype=np.uint8) * 5).reshape(4, 4, 3)


def test_posterize():
    img = PIL.fromarray(A)
    out = v.Posterize(3)(img)
    assert isinstance(out, np.ndarray) and out.tolist() == (A & 0xE0).tolist()
    assert not v.Posterize(0)(A).any()
    assert v.Posterize(2)(A[..., 0]).ravel()[:6].tolist() == [0, 0, 0, 0, 0, 64]
    assert v.Posterize(2)(np.zeros((2, 2, 4), np.uint8)).shape == (2, 2, 4)
    with pytest.raises(ValueError, match=r"^Input bits is not within the required interval of "
                                         r"\[0, 8\].$"):
        v.Posterize(9)
    with pytest.raises(TypeError, match="Argument bits with value 1.1 is not of type"):
        v.Posterize(1.1)
    with pytest.raises(RuntimeError, match="data type of input image should be int8 or uint8, "
                                           "but got float32"):
        v.Posterize(2)(A.astype(np.float32))
    with pytest.raises(RuntimeError, match="not in shape of <H,W,C> or <H,W>, but got rank: 1"):
        v.Posterize(2)(np.zeros(4, np.uint8))


SOLARIZED_100 = [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95,
                 155, 150, 145, 140, 135, 130, 125, 120, 115, 110, 105, 100, 95, 90, 85, 80, 75,
                 70, 65, 60, 55, 50, 45, 40, 35, 30, 25, 20]
SOLARIZED_50_100 = [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 205, 200, 195, 190, 185, 180, 175, 170,
                    165, 160, 155, 105, 110, 115, 120, 125, 130, 135, 140, 145, 150, 155, 160,
                    165, 170, 175, 180, 185, 190, 195, 200, 205, 210, 215, 220, 225, 230, 235]


def test_solarize():
    assert v.Solarize(100)(A).ravel().tolist() == SOLARIZED_100
    assert v.Solarize((50, 100))(PIL.fromarray(A)).ravel().tolist() == SOLARIZED_50_100
    out = v.Solarize(100.5)(A.astype(np.float32))
    assert out.dtype == np.float32 and out.ravel()[18:24].tolist() == [90, 95, 100, 150, 145, 140]
    for bad, error, message in [
            ((100, 50), ValueError, r"threshold must be in order of \(min, max\)."),
            (-1, ValueError, r"Input threshold\[0\] is not within the required interval"),
            ("a", TypeError, "Argument threshold with value a is not of type"),
            ((1, 2, 3), TypeError, "threshold must be a single number or sequence of two")]:
        with pytest.raises(error, match=message):
            v.Solarize(bad)
    with pytest.raises(RuntimeError, match="But got dimension 1"):
        v.Solarize(1)(np.zeros(4, np.uint8))


def test_random_invert():
    assert v.RandomInvert(1.0)(PIL.fromarray(A)).ravel()[:4].tolist() == [255, 250, 245, 240]
    assert v.RandomInvert(0.0)(A).tolist() == A.tolist()
    assert v.RandomInvert(1.0)(A.astype(np.float32)).ravel()[:2].tolist() == [255.0, 250.0]
    with pytest.raises(ValueError, match=r"Input prob is not within the required interval"):
        v.RandomInvert(1.5)
    with pytest.raises(RuntimeError, match="image shape is not <H,W,C>, got rank: 2"):
        v.RandomInvert(1.0)(A[..., 0])
    with pytest.raises(RuntimeError, match="expected num of channels is 3, but got:4"):
        v.RandomInvert(1.0)(np.zeros((2, 2, 4), np.uint8))


def test_random_adjust_sharpness():
    out = v.RandomAdjustSharpness(2.0, 1.0)(PIL.fromarray(A))
    assert isinstance(out, np.ndarray) and out.ravel()[:6].tolist() == [0, 5, 10, 15, 20, 25]
    assert v.RandomAdjustSharpness(2.0, 1.0)(A[..., 0]).shape == (4, 4)
    with pytest.raises(ValueError, match=r"Input degree is not within the required interval of "
                                         r"\[0, 16777216\]."):
        v.RandomAdjustSharpness(-1, 1.0)
    with pytest.raises(TypeError, match="Argument degree with value a"):
        v.RandomAdjustSharpness("a")
    with pytest.raises(RuntimeError, match=r"is not <H,W,C> or <H,W>, got rank: 1"):
        v.RandomAdjustSharpness(2.0, 1.0)(np.zeros(4, np.uint8))


def test_random_grayscale_and_to_numpy():
    out = v.RandomGrayscale(1.0)(PIL.fromarray(A))
    assert out.mode == "RGB" and np.asarray(out).ravel()[:6].tolist() == [4, 4, 4, 19, 19, 19]
    assert v.RandomGrayscale(1.0)(PIL.fromarray(A[..., 0])).mode == "L"
    with pytest.raises(AttributeError):
        v.RandomGrayscale(1.0)(A)
    with pytest.raises(ValueError, match="Input prob is not within the required interval"):
        v.RandomGrayscale(1.5)
    assert v.ToNumpy()(PIL.fromarray(A)).tolist() == A.tolist()
    out = v.ToNumpy()(A)
    assert out is not A and out.tolist() == A.tolist()


@pytest.mark.parametrize("threshold, error, words", [
    (("122.1", "140"), TypeError, ("Argument threshold[0] with value 122.1 is not of type "
                                   "[<class 'float'>, <class 'int'>], but got <class 'str'>.")),
    ((122, 100, 30), TypeError, "threshold must be a single number or sequence of two numbers."),
    ((120,), TypeError, "threshold must be a single number or sequence of two numbers."),
    ((-1, 200), ValueError, "Input threshold[0] is not within the required interval of [0, 255]."),
    ((12, 1), ValueError, "threshold must be in order of (min, max)."),
])
def test_solarize_threshold_errors_as_mindspore(threshold, error, words):
    with pytest.raises(error) as info:
        v.Solarize(threshold)
    assert words in str(info.value)
