"""TimeStretch and PhaseVocoder of dataset.audio against values recorded from MindSpore 2.10."""
import numpy as np
import pytest

from cellgraph.dataset.audio import PhaseVocoder, TimeStretch

Z = np.array([[[0.5, -0.2], [0.1, 0.9], [-0.7, 0.3], [0.2, 0.2]],
              [[-0.4, 0.6], [0.8, -0.1], [0.3, -0.5], [-0.9, 0.0]],
              [[0.05, 0.4], [-0.3, -0.6], [0.7, 0.1], [0.2, -0.8]]], np.float32)

CASES = {
    'TimeStretch(4, 3, 1.3)':
        [[[0.5, -0.2], [0.095231, 0.857076], [-0.435984, 0.18685], [0.02, 0.02]], [[-0.4, 0.6], [0.733578, -0.091697], [0.397828, -0.663046], [-0.09, -0.0]], [[0.05, 0.4], [-0.304869, -0.609736], [0.7698, 0.109971], [0.02, -0.08]]],
    'TimeStretch(None, 3, 0.6)':
        [[[0.5, -0.2], [0.083788, 0.754089], [-0.86566, -0.138982], [-0.106409, -0.783174], [0.518358, -0.237277], [-0.204817, -0.195064], [-0.113103, 0.002759]], [[-0.4, 0.6], [0.766217, -0.095777], [-0.565446, -0.510201], [-0.618466, 0.107398], [-0.335852, 0.62538], [0.898981, -0.042808], [-0.359592, 0.017123]], [[0.05, 0.4], [-0.252111, -0.504222], [0.48781, 0.470989], [-0.686259, 0.137252], [0.299316, -0.692167], [-0.719187, -0.403448], [0.086789, -0.318226]]],
    'TimeStretch(2, 2, 0.75)':
        [[[0.5, -0.2], [0.089867, 0.808806], [-0.823018, -0.132136], [-0.08642, -0.63605], [-0.246079, 0.139445], [-0.01885, 0.068152]], [[-0.4, 0.6], [0.778885, -0.09736], [-0.515747, -0.465358], [-0.652556, 0.113317], [0.588257, 0.681142], [-0.147064, -0.170285]], [[0.05, 0.4], [-0.270069, -0.540139], [0.495641, 0.47855], [-0.722183, 0.144436], [0.077658, 0.820956], [-0.194402, 0.068613]]],
    'PhaseVocoder(1.5, np.array([[0.0], [1.5], [3.0]], np.float32))':
        [[[0.5, -0.2], [0.092051, 0.82846], [-0.259973, 0.111417]], [[-0.4, 0.6], [0.689296, -0.086162], [0.463046, -0.771744]], [[0.05, 0.4], [-0.308114, -0.616228], [0.816333, 0.116619]]],
}


@pytest.mark.parametrize("spec", list(CASES))
def test_stretch_matches_mindspore(spec):
    out = eval(spec)(Z)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.array(CASES[spec]), rtol=1e-5, atol=2e-6)


def test_rate_one_and_float64():
    np.testing.assert_array_equal(TimeStretch(4, 3, 1.0)(Z), Z)
    assert TimeStretch(4, 3, 1.3)(Z.astype(np.float64)).dtype == np.float64


def test_errors_match_mindspore():
    with pytest.raises(ValueError, match=r"Input fixed_rate is not within the required interval "
                                         r"of \(0, 16777216\]."):
        TimeStretch(512, 3, -1.3)
    with pytest.raises(RuntimeError, match="Expecting tensor in shape of <..., freq, num_frame, "
                                           "complex=2>"):
        TimeStretch(4, 3, 1.3)(np.ones((3, 4), np.float32))
    with pytest.raises(TypeError, match=r"Argument phase_advance with value 1.0 is not of type "
                                        r"\[<class 'numpy.ndarray'>\]"):
        PhaseVocoder(1.5, 1.0)
