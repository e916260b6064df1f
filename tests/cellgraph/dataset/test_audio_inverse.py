"""InverseSpectrogram and GriffinLim of dataset.audio against values recorded from MindSpore
2.10."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset.audio import GriffinLim, InverseSpectrogram, WindowType  # noqa: F401

rng = np.random.RandomState(3)
Z = rng.randn(2, 5, 4, 2).astype(np.float32)
M = np.abs(rng.randn(5, 4)).astype(np.float32)

CASES = {
    'InverseSpectrogram(n_fft=8)':
        ('Z', [[0.198624, 0.418624, -0.331937, 0.05051, 0.329338, 1.008847, -0.411503, -0.669916, -0.47453, -0.003099, 0.98483, -0.166868], [0.719981, 0.723454, -0.850864, -0.979792, -0.426314, 0.031798, 0.594584, -0.638604, -0.118682, -0.055001, -0.191062, 0.281291]]),
    'InverseSpectrogram(length=10, n_fft=8, win_length=6, hop_length=3, pad=1, window=WindowType.HAMMING, normalized=True)':
        ('Z', [[0.245766, 0.272783, 0.525244, 1.246289, -0.954553, -0.803044, 0.421925, 0.012865, 0.467753, 0.382303], [0.71311, -1.579059, -0.765876, 0.282161, -0.380741, -0.16928, 0.073305, -0.141831, -0.692879, -1.727203]]),
    'GriffinLim(n_fft=8, n_iter=3, rand_init=False)':
        ('M', [0.810392, 0.161271, -0.748355, -0.534888, 0.230486, -0.400489, -0.19817, 0.679349, 0.025297, -0.036466, 0.0612, -0.881722]),
    'GriffinLim(n_fft=8, n_iter=4, win_length=6, hop_length=3, power=1.0, momentum=0.5, length=12, rand_init=False)':
        ('M', [-0.323495, -1.167939, -0.51126, -0.316826, -0.187605, 0.106518, -0.101555, 0.340196, -0.07325, 0.302043, 0.099863, 2.488388]),
}


@pytest.mark.parametrize("spec", list(CASES))
def test_inverse_matches_mindspore(spec):
    source, expected = CASES[spec]
    out = eval(spec)(eval(source))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.array(expected), rtol=1e-5, atol=2e-6)


def test_griffin_lim_checks_when_the_pipeline_is_built():
    # MindSpore refuses momentum >= 1 when it builds the pipeline: before any row is read, and
    # before the maps it reads from have run
    data = ds.NumpySlicesDataset(M[None], column_names=["spec"], shuffle=False)
    data = data.map(operations=[GriffinLim(n_fft=100)], input_columns=["spec"])
    data = data.map(operations=[GriffinLim(n_fft=8, momentum=1)], input_columns=["spec"])
    with pytest.raises(RuntimeError, match="GriffinLim: momentum equal to or greater than 1 can "
                                           "be unstable, but got: 1.000000"):
        data.create_tuple_iterator(num_epochs=1)
        next(data.create_tuple_iterator(num_epochs=1))
    with pytest.raises(RuntimeError, match="GriffinLim: n_fft must be less than length."):
        GriffinLim(n_fft=8, length=8)(M)
    with pytest.raises(RuntimeError, match=r"GriffinLim: the frequency of the input should equal "
                                           r"to n_fft / 2 \+ 1"):
        GriffinLim(n_fft=100)(M)
