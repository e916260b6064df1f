"""audio.SlidingWindowCmn: MindSpore 2.10's values (recorded from it for a seeded 1 x 7 x 3
spectrogram), dtypes, checks and errors."""
import numpy as np
import pytest

from cellgraph import dataset as ds
from cellgraph.dataset import audio

_X = np.random.RandomState(0).rand(1, 7, 3)

# MindSpore 2.10's outputs, rounded to 5 places
_TRAILING = [[0.00197, 0.14577, -0.02157], [-0.00197, -0.14577, 0.02157],
             [-0.07284, 0.2149, 0.22622], [-0.09524, 0.08614, -0.15641],
             [0.08456, 0.16741, -0.48134], [-0.28192, -0.63711, 0.23357],
             [0.32396, 0.21812, 0.37583]]
_CENTRED_VARS = [[0.99032, 0.05507, -0.49703], [0.93482, -1.61657, -0.23731],
                 [-0.58028, 1.06758, 1.67618], [-1.31838, 0.16826, -0.07332],
                 [1.13029, 0.72287, -1.53839], [-1.44628, -1.71751, 0.66188],
                 [1.27646, 0.59308, 1.08234]]
_MIN_WINDOW_VARS = [[0.71853, -0.19206, 0.14041], [0.66449, -1.81982, 0.29063],
                    [-0.81075, 0.79388, 1.3974], [-1.31838, 0.16826, -0.07332],
                    [1.35544, 0.98347, -1.23517], [-1.30787, -1.40088, 1.1344],
                    [1.03851, 0.63897, 0.88258]]


@pytest.mark.parametrize("args, expected", [((3, 2, False, False), _TRAILING),
                                            ((4, 1, True, True), _CENTRED_VARS),
                                            ((2, 5, False, True), _MIN_WINDOW_VARS)])
def test_values_are_mindspores(args, expected):
    out = audio.SlidingWindowCmn(*args)(_X)
    assert out.dtype == np.float64 and out.shape == (1, 7, 3)
    np.testing.assert_allclose(out[0], expected, atol=6e-6)


def test_dtypes_and_pipeline():
    assert audio.SlidingWindowCmn()(np.ones((2, 3), np.int32)).dtype == np.float32
    data = ds.NumpySlicesDataset(np.array([[[3.2, 2.1, 1.3], [6.2, 5.3, 6.0]]]), ["audio"],
                                 shuffle=False)
    data = data.map(audio.SlidingWindowCmn(600, 100, False, True), ["audio"])
    row = next(data.create_tuple_iterator(output_numpy=True))[0]
    np.testing.assert_allclose(row, [[-1, -1, -1], [1, 1, 1]], atol=1e-6)


def test_errors():
    with pytest.raises(TypeError, match="Argument cmn_window with value 600 is not of type"):
        audio.SlidingWindowCmn("600")
    with pytest.raises(ValueError, match=r"Input min_cmn_window is not within the required "
                                         r"interval of \[0, 2147483647\]"):
        audio.SlidingWindowCmn(600, 2 ** 40)
    with pytest.raises(RuntimeError, match="But got tensor with dimension 1"):
        audio.SlidingWindowCmn()(np.ones(3, np.float32))
