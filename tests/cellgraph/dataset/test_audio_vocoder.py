"""TimeStretch and PhaseVocoder of dataset.audio against values recorded from MindSpore 2.10."""
import numpy as np
import pytest

from cellgraph.dataset.audio import PhaseVocoder, PitchShift, TimeStretch

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
    # MindSpore 2.10 checks phase_advance's shape <freq, 1> before the input's
    spec = np.ones((1, 2, 2), np.float32)
    for advance in (np.ones(4, np.float32), np.ones((4, 4, 1), np.float32),
                    np.ones((4, 2), np.float32)):
        with pytest.raises(RuntimeError, match="PhaseVocoder: invalid parameter, 'phase_advance' "
                                               "should be in shape of <freq, 1>."):
            PhaseVocoder(1.23, advance)(spec)
    with pytest.raises(RuntimeError, match="'first dimension of 'phase_advance'' should be "
                                           "equal"):
        PhaseVocoder(2, np.ones((3, 1), np.float32))(spec)


X = (np.sin(np.arange(60) * 0.37).reshape(2, 30) * 0.6).astype(np.float32)

SHIFTS = {
    'PitchShift(16, 4, n_fft=16)':
        [[0.008489, 0.24033, 0.433684, 0.541532, 0.536614, 0.454957, 0.369663, 0.308881, 0.260632, 0.15297, -0.022852, -0.193361, -0.333229, -0.412391, -0.410279, -0.341479, -0.218875, -0.063297, 0.088025, 0.21061, 0.280989, 0.289384, 0.240611, 0.13498, 0.006171, -0.122475, -0.210952, -0.182618, -0.138068, -0.130258], [-0.523034, -0.522929, -0.31845, -0.103841, 0.135709, 0.31257, 0.394301, 0.361842, 0.232173, 0.03936, -0.173019, -0.355743, -0.468777, -0.490767, -0.417156, -0.260786, -0.059244, 0.146572, 0.31418, 0.406448, 0.412074, 0.339944, 0.214664, 0.068309, -0.082715, -0.216644, -0.26579, -0.063354, 0.034633, 0.110135]],
    'PitchShift(100, -3, 12, 16, 12, 3)':
        [[0.000448, 0.172431, 0.346289, 0.461239, 0.544864, 0.566037, 0.53211, 0.443213, 0.308418, 0.142607, -0.037357, -0.213363, -0.365827, -0.47831, -0.541722, -0.554048, -0.514872, -0.427321, -0.298562, -0.138738, 0.035856, 0.206237, 0.354096, 0.461102, 0.512838, 0.498307, 0.426004, 0.324384, 0.150648, 0.016861], [-0.600112, -0.586503, -0.43046, -0.325931, -0.128993, 0.051371, 0.227883, 0.37468, 0.482618, 0.547855, 0.565643, 0.534652, 0.457042, 0.334612, 0.176057, -0.002566, -0.178295, -0.329867, -0.441206, -0.507999, -0.53395, -0.510607, -0.450961, -0.371689, -0.276568, -0.18125, -0.089568, 0.010631, 0.1149, 0.081002]],
}


@pytest.mark.parametrize("spec", list(SHIFTS))
def test_pitch_shift_matches_mindspore(spec):
    out = eval(spec)(X)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.array(SHIFTS[spec]), rtol=1e-5, atol=2e-6)


def test_pitch_shift_checks_as_mindspore():
    with pytest.raises(TypeError, match=r"Argument bins_per_octave  with value s is not of type "
                                        r"\[<class 'int'>\], but got <class 'str'>."):
        PitchShift(16000, 2, "s")
    assert PitchShift(100, 2, n_fft=16)(X.astype(np.float64)).dtype == np.float64
