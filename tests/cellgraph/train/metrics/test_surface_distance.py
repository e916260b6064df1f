"""HausdorffDistance, MeanSurfaceDistance and RootMeanSquareDistance: values recorded from
MindSpore 2.10 (which measures with SciPy's distance transforms) on fixed label maps."""
import numpy as np
import pytest

from cellgraph import Tensor, train

RNG = np.random.RandomState(0)
A = RNG.randint(0, 3, (6, 7))
B = RNG.randint(0, 3, (6, 7))
C3 = RNG.randint(0, 2, (4, 5, 3))

HAUSDORFF = {  # (metric, options): MindSpore's value for update(A, B, 1)
    ("euclidean", ()): 3.1622776601683795, ("euclidean", (("percentile", 75.0),)): 1.4142135623730951,
    ("euclidean", (("directed", True),)): 3.1622776601683795,
    ("euclidean", (("crop", False),)): 3.1622776601683795,
    ("chessboard", ()): 3.0, ("chessboard", (("percentile", 75.0),)): 1.0,
    ("taxicab", ()): 4.0, ("taxicab", (("percentile", 75.0),)): 2.0,
    ("taxicab", (("crop", False),)): 4.0,
}
MEAN_SURFACE = {("euclidean", False): 0.6740194147611904, ("euclidean", True): 0.7048608375783532,
                ("chessboard", False): 0.6363636363636364, ("chessboard", True): 0.6515151515151515,
                ("taxicab", False): 0.7272727272727273, ("taxicab", True): 0.7803030303030303}
ROOT_MEAN_SQUARE = {("euclidean", False): 1.1, ("euclidean", True): 1.0567244989431572,
                    ("chessboard", False): 1.0, ("chessboard", True): 1.0,
                    ("taxicab", False): 1.3, ("taxicab", True): 1.161895003862225}


@pytest.mark.parametrize(("metric", "options"), sorted(HAUSDORFF))
def test_hausdorff_distance_matches_mindspore(metric, options):
    hd = train.HausdorffDistance(distance_metric=metric, **dict(options))
    hd.update(Tensor(A), Tensor(B), 1)
    assert hd.eval() == pytest.approx(HAUSDORFF[metric, options])


@pytest.mark.parametrize(("metric", "symmetric"), sorted(MEAN_SURFACE))
def test_mean_and_root_mean_square_surface_distance(metric, symmetric):
    msd = train.MeanSurfaceDistance(symmetric=symmetric, distance_metric=metric)
    msd.update(Tensor(A), Tensor(B), 2)
    assert msd.eval() == pytest.approx(MEAN_SURFACE[metric, symmetric])
    rmsd = train.RootMeanSquareDistance(symmetric=symmetric, distance_metric=metric)
    rmsd.update(C3, 1 - C3, 1)  # a 3-D volume
    assert rmsd.eval() == pytest.approx(ROOT_MEAN_SQUARE[metric, symmetric])


def test_empty_surface_is_inf_and_checks():
    hd = train.HausdorffDistance()
    hd.update(np.zeros((3, 3)), np.eye(3), 1)
    assert hd.eval() == np.inf
    fresh = train.MeanSurfaceDistance()
    assert fresh.eval() == np.inf  # MindSpore's: nothing measured yet
    fresh.clear()
    with pytest.raises(RuntimeError, match="update"):
        fresh.eval()
    with pytest.raises(ValueError, match="must be in"):
        train.HausdorffDistance(distance_metric="cosine")
    with pytest.raises(TypeError, match="percentile"):
        train.HausdorffDistance(percentile=50)  # MindSpore wants a float
    with pytest.raises(ValueError, match="label index"):
        train.MeanSurfaceDistance().update(A, B, 7)
    with pytest.raises(TypeError, match="label index"):  # RootMeanSquareDistance's is a TypeError
        train.RootMeanSquareDistance().update(A, B, "1")
    with pytest.raises(ValueError, match="3 inputs"):
        train.HausdorffDistance().update(A, B)
