"""The spectral transforms of dataset.audio (Spectrogram, SpectralCentroid, MelScale,
MelSpectrogram, MFCC, LFCC) against values and errors recorded from MindSpore 2.10."""
import numpy as np
import pytest

from cellgraph.dataset import audio
from cellgraph.dataset.audio import (  # noqa: F401 (the names the cases spell)
    LFCC,
    MFCC,
    BorderType,
    MelScale,
    MelSpectrogram,
    MelType,
    NormMode,
    NormType,
    SpectralCentroid,
    Spectrogram,
    WindowType,
)

X = np.array([[0.1, -0.4, 0.7, 0.2, -0.9, 0.5, 0.05, -0.3, 0.6, 0.0, -0.2, 0.4],
              [0.9, 0.8, -0.6, 0.3, 0.0, -0.2, 0.4, 0.6, -0.1, 0.3, 0.2, -0.5]], np.float32)
S = np.abs(X[:, :9]).reshape(2, 9, 1).repeat(2, axis=2) * np.array([1.0, 0.5])

WAVE_CASES = {
    'Spectrogram(n_fft=8)':
        [[[0.0308831, 0.0009015, 0.1605893, 0.0884987], [0.18, 0.1818887, 0.1081934, 0.0215139], [0.36, 1.6839092, 0.5289094, 0.2484987], [0.3897057, 2.2126458, 0.8517824, 0.6754836], [2.0285282, 1.0403484, 0.4215438, 0.0884987]], [[3.07495, 0.0362448, 0.7494113, 0.0445595], [3.2528043, 0.0386712, 0.3633579, 0.132623], [2.25, 0.1679962, 0.205, 0.4307044], [1.26e-05, 0.6836459, 0.5247792, 0.6120953], [1.330686, 0.152397, 0.2168629, 0.0834683]]],
    'Spectrogram(n_fft=8, win_length=5, hop_length=3, pad=1, window=WindowType.KAISER)':
        [[[0.0023829, 0.0720374, 0.0850942, 0.0590462, 0.0251602], [0.0040663, 0.1713475, 0.2489354, 0.1211819, 0.0546012], [0.0064283, 0.4108203, 0.6580993, 0.278138, 0.1257607], [0.0120253, 0.6470667, 1.0849005, 0.444748, 0.1969002], [0.0169496, 0.7431505, 1.2663828, 0.5165375, 0.2263211]], [[0.7859488, 0.0787654, 0.0076415, 0.2187088, 0.0430028], [0.5958882, 0.2688991, 0.0168497, 0.2040711, 0.1011914], [0.3936675, 0.6864604, 0.0374132, 0.2126508, 0.2074687], [0.45271, 1.0072324, 0.0386292, 0.2663813, 0.265348], [0.5238664, 1.1005771, 0.0284692, 0.2968892, 0.2751387]]],
    'Spectrogram(n_fft=6, window=WindowType.BLACKMAN, pad_mode=BorderType.SYMMETRIC, normalized=True, power=1.0)':
        [[[0.0369853, 0.0643545, 0.1013398, 0.1960222, 0.3698533], [0.1106696, 0.578884, 0.2208826, 0.2789459, 0.4181168], [0.3206847, 0.7452376, 0.4478084, 0.3935593, 0.3660703], [0.2426237, 0.2507605, 0.0850662, 0.1767899, 0.1834472]], [[1.4771937, 0.0, 0.4726724, 0.2781296, 0.4615769], [1.0638731, 0.1675595, 0.5040691, 0.2422039, 0.5474408], [0.2709517, 0.4655146, 0.3908193, 0.2877373, 0.4244342], [0.1072575, 0.5592181, 0.0998604, 0.1849266, 0.1819678]]],
    'Spectrogram(n_fft=6, window=WindowType.BARTLETT, pad_mode=BorderType.EDGE, power=0.0, onesided=False, center=False)':
        [[[[0.1, 0.0], [0.0833334, 0.0], [0.3, 0.0]], [[-0.1166667, -0.6639527], [-0.1666667, -0.0288675], [-0.1166667, -0.2598076]], [[0.25, 1.1835679], [0.0333333, 0.8948929], [-0.15, 0.6639528]], [[-0.3666666, -0.0], [0.1833333, -0.0], [0.2333334, -0.0]], [[0.25, 1.1835679], [0.0333333, 0.8948929], [-0.15, 0.6639528]], [[-0.1166667, -0.6639527], [-0.1666667, -0.0288675], [-0.1166667, -0.2598076]]], [[[0.1, 0.0], [0.6333333, 0.0], [0.4, 0.0]], [[0.0, 0.057735], [-0.55, 0.4330127], [-0.3166667, -0.1443376]], [[0.4, -0.6350853], [0.2833333, -0.4907477], [0.25, -0.4907477]], [[-0.9000001, -0.0], [-0.1, 0.0], [-0.2666667, 0.0]], [[0.4, -0.6350853], [0.2833333, -0.4907477], [0.25, -0.4907477]], [[0.0, 0.057735], [-0.55, 0.4330127], [-0.3166667, -0.1443376]]]],
    'Spectrogram(n_fft=6, window=WindowType.HAMMING, pad_mode=BorderType.CONSTANT)':
        [[[8.1e-05, 0.007225, 0.016129, 0.117649, 0.060516], [0.032617, 0.691057, 0.041907, 0.137491, 0.079612], [0.227889, 1.7849711, 0.8776811, 0.547807, 0.117804], [0.390625, 0.142129, 0.045369, 0.078961, 0.1369]], [[1.7689002, 0.009216, 0.491401, 0.1936, 0.089401], [1.8312761, 0.026544, 0.5542391, 0.093756, 0.139503], [0.951628, 0.7070881, 0.3954671, 0.3226721, 0.184267], [0.009604, 0.7673761, 0.001369, 0.049284, 0.178929]]],
    'SpectralCentroid(sample_rate=8000, n_fft=8)':
        [[[2830.239502, 2713.5549316, 2360.1879883, 2327.4460449]], [[1517.2358398, 2511.4802246, 1781.9674072, 2249.1838379]]],
    'MelSpectrogram(sample_rate=8000, n_fft=8, n_mels=4)':
        [[[0.0, 0.0, 0.0, 0.0], [0.1280269, 0.1293702, 0.0769537, 0.015302], [0.2329881, 0.8992206, 0.2971856, 0.1311619], [0.440783, 2.3236263, 0.8351769, 0.5773275]], [[0.0, 0.0, 0.0, 0.0], [2.3135905, 0.0275053, 0.258442, 0.0943295], [2.0705574, 0.0956377, 0.2079938, 0.25486], [1.1186649, 0.5427866, 0.4544601, 0.6253335]]],
    'MFCC(sample_rate=8000, n_mfcc=3, melkwargs=dict(n_fft=8, n_mels=4, win_length=8, hop_length=4, f_min=0.0, f_max=4000.0, pad=0, power=2.0, normalized=False, center=True, onesided=True, window=WindowType.HANN, pad_mode=BorderType.REFLECT, norm=NormType.NONE, mel_scale=MelType.HTK))':
        [[[-47.5748634, -41.0098305, -46.7639809, -52.8492737], [-48.2498474, -54.5410385, -50.9472809, -50.8366776], [-32.3212166, -31.6668339, -30.3565578, -25.8748302]], [[-34.5237923, -52.3957939, -46.2296143, -47.2838554], [-50.0581436, -49.6013145, -47.3776932, -49.706501], [-41.3275337, -26.5962429, -33.5337524, -31.0933514]]],
    'MFCC(sample_rate=8000, n_mfcc=3, log_mels=True, norm=NormMode.NONE, melkwargs=dict(n_fft=8, n_mels=4, win_length=8, hop_length=4, f_min=0.0, f_max=4000.0, pad=0, power=2.0, normalized=False, center=True, onesided=True, window=WindowType.HANN, pad_mode=BorderType.REFLECT, norm=NormType.SLANEY, mel_scale=MelType.SLANEY))':
        [[[-76.2291641, -69.9725647, -75.3280029, -80.8160477], [-10.7099104, -14.882658, -12.516118, -12.4510775], [-7.6559525, -7.3910875, -6.5019751, -3.6778336]], [[-64.5325546, -80.5136414, -75.4633865, -75.8650589], [-11.7975235, -11.617548, -9.9535723, -11.689292], [-13.2163172, -4.0741692, -8.1364784, -6.9353943]]],
    'LFCC(sample_rate=8000, n_filter=4, n_lfcc=3, speckwargs=dict(n_fft=8, win_length=8, hop_length=4, pad=0, power=2.0, normalized=False, center=True, onesided=True, window=WindowType.HANN, pad_mode=BorderType.REFLECT))':
        [[[-13.0426884, -2.7620852, -10.7091103, -17.5389938], [-2.4376757, -7.6204624, -6.4339666, -10.7377987], [-0.9959915, -3.6895137, -2.1443694, -3.3364377]], [[-21.4888935, -17.2484531, -11.5729828, -11.8940382], [35.9881363, -9.3258915, -1.265692, -4.8016863], [-24.8744164, -1.0281327, 1.8773215, -1.510355]]],
    'LFCC(sample_rate=8000, n_filter=4, n_lfcc=3, log_lf=True, speckwargs=dict(n_fft=8, win_length=6, hop_length=4, pad=1, power=2.0, normalized=False, center=True, onesided=True, window=WindowType.HAMMING, pad_mode=BorderType.SYMMETRIC))':
        [[[-8.2490263, -0.6325212, -3.3207765, -4.143671], [-1.2889779, -0.9685601, -1.9682683, -1.041782], [0.4352555, -0.5905136, -0.5520891, -0.2692273]], [[-1.8602425, -4.3361735, -2.0714145, -2.965533], [-0.0981051, -3.3071296, 0.3486559, -0.5089485], [-0.5696048, -1.3940281, -0.0063662, -0.2594879]]],
}
MEL_CASES = {
    'MelScale(n_mels=3, sample_rate=8000, n_stft=9)':
        [[[0.473368, 0.236684], [0.9356405, 0.4678202], [1.3246289, 0.6623145]], [[0.8141825, 0.4070912], [0.7810647, 0.3905323], [0.6664765, 0.3332383]]],
    'MelScale(n_mels=3, sample_rate=8000, f_min=100.0, f_max=3000.0, n_stft=9, norm=NormType.SLANEY, mel_type=MelType.SLANEY)':
        [[[0.0009117, 0.0004558], [0.0010861, 0.0005431], [0.001129, 0.0005645]], [[0.0015341, 0.000767], [0.0010214, 0.0005107], [0.0002674, 0.0001337]]],
}


@pytest.mark.parametrize("spec", list(WAVE_CASES))
def test_waveform_transforms_match_mindspore(spec):
    out = eval(spec)(X)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.array(WAVE_CASES[spec]), rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("spec", list(MEL_CASES))
def test_mel_scale_matches_mindspore(spec):
    out = eval(spec)(S)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, np.array(MEL_CASES[spec]), rtol=1e-6, atol=1e-7)


def test_spectrogram_shapes_and_dtypes():
    # float64 stays float64, integers are computed as float32; power 0 gives <..., 2>
    assert Spectrogram(n_fft=8)(X.astype(np.float64)).dtype == np.float64
    assert Spectrogram(n_fft=8)(np.arange(20, dtype=np.int32)).shape == (5, 6)
    assert Spectrogram(n_fft=8, power=0.0)(X).shape == (2, 5, 4, 2)
    assert Spectrogram(n_fft=8, onesided=False)(X).shape == (2, 8, 4)


def test_argument_errors_match_mindspore():
    with pytest.raises(ValueError, match=r"Input win_length should be no more than n_fft, but "
                                         r"got win_length: 9 and n_fft: 8."):
        Spectrogram(n_fft=8, win_length=9)
    with pytest.raises(TypeError, match=r"Argument window with value hann is not of type "
                                        r"\[<enum 'WindowType'>\]"):
        Spectrogram(window="hann")
    with pytest.raises(ValueError, match="MelScale: f_max should be greater than f_min."):
        MelScale(f_min=1000, f_max=1000)
    with pytest.raises(ValueError, match="Input dct_type must be 2, but got : 3."):
        MFCC(dct_type=3)
    with pytest.raises(ValueError, match="n_fft should be greater than or equal to n_lfcc"):
        LFCC(n_lfcc=40, speckwargs={"n_fft": 16, "win_length": 16, "pad": 0, "power": 2.0,
                                    "window": WindowType.HANN, "pad_mode": BorderType.REFLECT})


def test_call_errors_match_mindspore():
    with pytest.raises(RuntimeError, match="Spectrogram: input tensor type should be int, float "
                                           "or double, but got: string"):
        Spectrogram(n_fft=8)(np.array(["a", "b"]))
    with pytest.raises(RuntimeError, match="MelScale: invalid parameter, 'n_stft' should be equal to 'freq', but got: n_stft 201 while freq 3."):
        MelScale(n_stft=201)(np.ones((3, 4), np.float32))
    with pytest.raises(RuntimeError, match="LFCC: invalid BorderType, kEdge is not supported."):
        LFCC(speckwargs={"n_fft": 400, "win_length": 400, "pad": 0, "power": 2.0,
                         "window": WindowType.HANN, "pad_mode": BorderType.EDGE})(
            np.ones(800, np.float32))


def test_in_a_pipeline():
    import cellgraph.dataset as ds
    data = ds.NumpySlicesDataset([X], column_names=["audio"], shuffle=False)
    data = data.map(operations=audio.Spectrogram(n_fft=8), input_columns=["audio"])
    row = next(data.create_dict_iterator(num_epochs=1, output_numpy=True))
    np.testing.assert_allclose(row["audio"], np.array(WAVE_CASES["Spectrogram(n_fft=8)"]),
                               rtol=2e-5, atol=2e-6)
