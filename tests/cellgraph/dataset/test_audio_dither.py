"""Dither of dataset.audio against values recorded from MindSpore 2.10."""
import numpy as np
import pytest

from cellgraph.dataset.audio import DensityFunction, Dither

X = np.array([[0.1, -0.4, 0.7, 0.2, -0.9], [0.9, 0.8, -0.6, 0.3, 0.0]], np.float32)


def test_tpdf_matches_mindspore():
    out = Dither()(X)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[0.1000061, -0.39996338, 0.69998169, 0.20001221, -0.89993286],
                                     [0.89993286, 0.79995728, -0.59994507, 0.30001831, 0.0]],
                               rtol=0, atol=1e-7)


def test_noise_shaping_matches_mindspore():
    out = Dither(DensityFunction.TPDF, True)(X.astype(np.float64))
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, [[0.1000061, -0.39995728, 0.70001832, 0.19999391, -0.89992066],
                                     [0.89993286, 0.79989016, -0.5999878, 0.30007327, 1.83e-05]],
                               rtol=0, atol=1e-7)


@pytest.mark.parametrize("density", [DensityFunction.RPDF, DensityFunction.GPDF])
def test_random_densities_move_a_sample_by_little(density):
    out = Dither(density)(X)
    assert out.dtype == np.float32 and out.shape == X.shape
    # the added "noise" is one input sample (RPDF) or a running sum over seven picks that
    # writes each partial sum back (GPDF: at most 2**6 times the largest sample), over 2**15
    np.testing.assert_allclose(out, X, atol=2 ** 6 * 0.9 / 2 ** 15 + 2 ** -14)
    assert Dither()(np.arange(4, dtype=np.int32)).dtype == np.float32


def test_argument_errors_match_mindspore():
    with pytest.raises(TypeError, match=r"Argument density_function with value TPDF is not of "
                                        r"type \[<enum 'DensityFunction'>\]"):
        Dither("TPDF")
    with pytest.raises(TypeError, match=r"Argument noise_shaping with value 1 is not of type "
                                        r"\[<class 'bool'>\]"):
        Dither(DensityFunction.GPDF, 1)
