"""The element-wise audio transforms (gains, mu-law coding, decibels, contrast, overdrive,
deltas, fades, complex norms) and the filter banks of dataset.audio.utils against values and
errors recorded from MindSpore 2.10."""
import numpy as np
import pytest

from cellgraph.dataset import audio

W = np.array([[0.1, -0.4, 0.7, 0.2, -0.9, 0.5, 0.05, -0.3],
              [0.9, 0.8, -0.6, 0.3, 0.0, -0.2, 0.4, 0.6]])
C = np.array([[[1.0, 1.0], [2.0, -3.0]], [[-0.5, 0.25], [0.0, -2.0]]])
S = np.array([[[0.5, 2.0, 3.5, 0.1], [1.5, 0.2, 4.0, 2.5], [0.05, 0.7, 1.1, 3.0]]])
Q = np.array([[10, 100, 70, 200], [0, 255, 128, 3]])
NAMES = {**{name: getattr(audio, name) for name in audio.__all__}, "W": W, "C": C, "S": S,
         "Q": Q}

TRANSFORMS = [
    ('Angle()', 'C', [[[0.78539816, -0.98279372], [2.67794504, -1.57079633]]], 'float64'),
    ('ComplexNorm()', 'C', [[[1.41421356, 3.60555128], [0.55901699, 2.0]]], 'float64'),
    ('ComplexNorm(2)', 'C', [[[2.0, 13.0], [0.3125, 4.0]]], 'float64'),
    ('ComplexNorm(0.5)', 'C', [[[1.18920712, 1.89882892], [0.74767439, 1.41421356]]], 'float64'),
    ('Magphase(2.0)', 'C', [[[2.0, 13.0], [0.3125, 4.0]], [[0.78539816, -0.98279372], [2.67794504, -1.57079633]]], 'float64'),
    ('Gain()', 'W', [[[0.11220185, -0.44880738, 0.78541292, 0.22440369, -1.00981661, 0.56100923, 0.05610092, -0.33660554], [1.00981661, 0.89761476, -0.67321107, 0.33660554, 0.0, -0.22440369, 0.44880738, 0.67321107]]], 'float64'),
    ('Gain(-3.5)', 'W', [[[0.06683439, -0.26733757, 0.46784074, 0.13366878, -0.60150953, 0.33417196, 0.0334172, -0.20050318], [0.60150953, 0.53467513, -0.40100635, 0.20050318, 0.0, -0.13366878, 0.26733757, 0.40100635]]], 'float64'),
    ('Vol(3.0)', 'W', [[[0.3, -1.0, 1.0, 0.6, -1.0, 1.0, 0.15, -0.9], [1.0, 1.0, -1.0, 0.9, 0.0, -0.6, 1.0, 1.0]]], 'float64'),
    ('Vol(6.0, GainType.DB)', 'W', [[[0.19952623, -0.79810493, 1.0, 0.39905246, -1.0, 0.99763116, 0.09976312, -0.59857869], [1.0, 1.0, -1.0, 0.59857869, 0.0, -0.39905246, 0.79810493, 1.0]]], 'float64'),
    ('Vol(0.4, GainType.POWER)', 'W', [[[0.06324555, -0.25298221, 0.44271888, 0.12649111, -0.56920998, 0.31622777, 0.03162278, -0.18973666], [0.56920998, 0.50596443, -0.37947332, 0.18973666, 0.0, -0.12649111, 0.25298221, 0.37947332]]], 'float64'),
    ('DCShift(0.5)', 'W', [[[0.6, 0.1, 1.0, 0.7, -0.4, 1.0, 0.55, 0.2], [1.0, 1.0, -0.1, 0.8, 0.5, 0.3, 0.9, 1.0]]], 'float64'),
    ('DCShift(0.5, 0.05)', 'W', [[[0.6, 0.1, 0.55000001, 0.7, -0.4, 1.0, 0.55, 0.2], [0.55000001, 0.55000001, -0.1, 0.8, 0.5, 0.3, 0.9, 0.55000001]]], 'float64'),
    ('DCShift(-0.6, 0.1)', 'W', [[[-0.50000002, -1.0, 0.09999998, -0.40000002, -0.18000003, -0.10000002, -0.55000002, -0.90000002], [0.29999998, 0.19999998, -0.12000002, -0.30000002, -0.60000002, -0.80000002, -0.20000002, -2e-08]]], 'float64'),
    ('MuLawEncoding()', 'W', [[[203, 21, 247, 218, 2, 239, 188, 27], [253, 250, 12, 228, 128, 37, 234, 243]]], 'int32'),
    ('MuLawEncoding(16)', 'W', [[[10, 2, 14, 11, 0, 13, 9, 3], [15, 14, 1, 12, 8, 4, 13, 14]]], 'int32'),
    ('MuLawDecoding()', 'Q', [[[-0.6459359526634216, -0.009046760387718678, -0.04388953000307083, 0.08788024634122849], [-1.0, 1.0, 8.620999869890511e-05, -0.877199113368988]]], 'float32'),
    ('MuLawDecoding(128)', 'Q', [[[-0.4615466892719269, 0.12019000202417374, 0.005064810160547495, 266.5969543457031], [-1.0, 17824.212890625, 1.080030083656311, -0.7935331463813782]]], 'float32'),
    ('DBToAmplitude(0.5, 0.5)', 'W', [[[0.50578973, 0.47749629, 0.54196346, 0.5116465, 0.45078557, 0.52962686, 0.50288653, 0.48302544], [0.55458741, 0.5482391, 0.46662715, 0.51757108, 0.5, 0.48861861, 0.52356427, 0.53575965]]], 'float64'),
    ('AmplitudeToDB()', 'S', [[[[-3.01029996, 3.01029996, 5.44068044, -10.0], [1.76091259, -6.98970004, 6.02059991, 3.97940009], [-13.01029996, -1.5490196, 0.41392685, 4.77121255]]]], 'float64'),
    ('AmplitudeToDB(ScaleType.MAGNITUDE, 2.0, 1e-5, 10.0)', 'S', [[[[-3.97940037, -2.9e-07, 4.86076069, -3.97940037], [-2.49877502, -3.97940037, 6.02059963, 1.93819997], [-3.97940037, -3.97940037, -3.97940037, 3.52182489]]]], 'float64'),
    ('AmplitudeToDB(top_db=3.0)', 'S', [[[[3.02059991, 3.02059991, 5.44068044, 3.02059991], [3.02059991, 3.02059991, 6.02059991, 3.97940009], [3.02059991, 3.02059991, 3.02059991, 4.77121255]]]], 'float64'),
    ('Contrast()', 'W', [[[0.21418575, -0.63429562, 0.84386794, 0.39793506, -0.97679295, 0.70710678, 0.10922317, -0.53655092], [0.97679295, 0.91741359, -0.77309059, 0.53655092, 0.0, -0.39793506, 0.63429562, 0.77309059]]], 'float64'),
    ('Contrast(30)', 'W', [[[0.17961104, -0.60664218, 0.8730952, 0.34496503, -0.98373771, 0.70710678, 0.09077536, -0.48754976], [0.98373771, 0.93861554, -0.79497501, 0.48754976, 0.0, -0.34496503, 0.60664218, 0.79497501]]], 'float64'),
    ('Overdrive()', 'W', [[[0.55, -0.7025, 0.8500125, 0.59751244, -0.95497512, 0.74754975, 0.416062, -0.65689331], [0.95, 0.8975, -0.8049875, 0.64753744, 0.06979975, -0.60529925, 0.69722725, 0.79474111]]], 'float64'),
    ('Overdrive(5, 60)', 'W', [[[0.3810966, -0.49274314, 0.84980823, 0.51858701, -0.95478374, 0.74774018, 0.29723075, -0.32804047], [0.95, 0.8975, -0.76742309, 0.62770817, 0.21321108, -0.14780379, 0.69413404, 0.79166337]]], 'float64'),
    ('ComputeDeltas()', 'S', [[[[0.75, 0.22, -0.27, -0.72], [0.37, 0.45, 0.43, 0.31], [0.275, 0.695, 0.82, 0.65]]]], 'float64'),
    ('ComputeDeltas(3, BorderType.CONSTANT)', 'S', [[[[1.0, 1.5, -0.95, -1.75], [0.1, 1.25, 1.15, -2.0], [0.35, 0.525, 1.15, -0.55]]]], 'float64'),
    ('ComputeDeltas(5, BorderType.REFLECT)', 'S', [[[[0.0, -0.08, 0.41, 0.0], [0.0, 0.71, 0.73, 0.0], [0.0, 0.565, 0.44, 0.0]]]], 'float64'),
    ('ComputeDeltas(5, BorderType.SYMMETRIC)', 'S', [[[[0.45, 0.22, -0.27, -0.04], [0.63, 0.45, 0.43, 0.61], [0.145, 0.695, 0.82, 0.27]]]], 'float64'),
    ('Fade(3, 4)', 'W', [[[0.0, -0.2, 0.7, 0.2, -0.9, 0.33333333, 0.01666667, -0.0], [0.0, 0.4, -0.6, 0.3, 0.0, -0.13333333, 0.13333333, 0.0]]], 'float64'),
    ('Fade(5, 2, FadeShape.QUARTER_SINE)', 'W', [[[0.0, -0.15307337, 0.49497475, 0.18477591, -0.9, 0.5, 0.05, -0.0], [0.0, 0.30614675, -0.42426407, 0.27716386, 0.0, -0.2, 0.4, 0.0]]], 'float64'),
    ('Fade(5, 5, FadeShape.HALF_SINE)', 'W', [[[0.0, -0.05857864, 0.35, 0.17071068, -0.76819805, 0.25, 0.00732233, -0.0], [0.0, 0.11715729, -0.3, 0.25606602, 0.0, -0.1, 0.05857864, 0.0]]], 'float64'),
    ('Fade(4, 6, FadeShape.LOGARITHMIC)', 'W', [[[0.0, -0.25472884, 0.64485598, 0.19874823, -0.76058824, 0.349485, 0.02385606, -0.0], [0.0, 0.50945768, -0.55273369, 0.29812235, 0.0, -0.139794, 0.1908485, 0.0]]], 'float64'),
    ('Fade(6, 3, FadeShape.EXPONENTIAL)', 'W', [[[0.0, -0.04594793, 0.18473111, 0.09094299, -0.62679641, 0.5, 0.01767767, -0.0], [0.0, 0.09189587, -0.15834095, 0.13641449, 0.0, -0.2, 0.14142136, 0.0]]], 'float64'),
]
FUNCTIONS = [
    ('create_dct(4, 6)', [[2.0, 1.9318516254425049, 1.7320507764816284, 1.4142135381698608], [2.0, 1.4142135381698608, -1.0000000116860974e-07, -1.4142135381698608], [2.0, 0.5176382064819336, -1.7320507764816284, -1.4142136573791504], [2.0, -0.517638087272644, -1.7320507764816284, 1.4142132997512817], [2.0, -1.4142135381698608, 0.0, 1.4142135381698608], [2.0, -1.9318516254425049, 1.7320506572723389, -1.4142131805419922]]),
    ('create_dct(3, 5, NormMode.ORTHO)', [[0.4472135901451111, 0.6015009880065918, 0.5116671919822693], [0.4472135901451111, 0.3717480003833771, -0.19543950259685516], [0.4472135901451111, -0.0, -0.632455587387085], [0.4472135901451111, -0.3717480003833771, -0.19543960690498352], [0.4472135901451111, -0.6015009880065918, 0.5116671919822693]]),
    ('melscale_fbanks(9, 0.0, 4000.0, 4, 8000)', [[0.0, 0.0, 0.0, 0.0], [0.6303521990776062, 0.36964771151542664, 0.0, 0.0], [0.0, 0.7112603187561035, 0.28873971104621887, 0.0], [0.0, 0.0, 0.9944053888320923, 0.0055945999920368195], [0.0, 0.0, 0.5028194189071655, 0.49718061089515686], [0.0, 0.0, 0.011233299970626831, 0.9887666702270508], [0.0, 0.0, 0.0, 0.6717836260795593], [0.0, 0.0, 0.0, 0.3358916938304901], [0.0, 0.0, 0.0, 0.0]]),
    ('melscale_fbanks(9, 100.0, 3000.0, 3, 8000, NormType.SLANEY, MelType.SLANEY)', [[0.0, 0.0, 0.0], [0.0016463999636471272, 0.0, 0.0], [0.0003614999877754599, 0.0013505000388249755, 0.0], [0.0, 0.0007037000032141805, 0.0005987000185996294], [0.0, 0.0, 0.0008775999885983765], [0.0, 0.0, 0.00043879999429918826], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
    ('linear_fbanks(9, 0.0, 4000.0, 4, 8000)', [[0.0, 0.0, 0.0, 0.0], [0.625, 0.0, 0.0, 0.0], [0.75, 0.25, 0.0, 0.0], [0.125, 0.875, 0.0, 0.0], [0.0, 0.5, 0.5, 0.0], [0.0, 0.0, 0.875, 0.125], [0.0, 0.0, 0.25, 0.75], [0.0, 0.0, 0.0, 0.625], [0.0, 0.0, 0.0, 0.0]]),
]
ERRORS = [
    ('Contrast(101)', ValueError, 'Input enhancement_amount is not within the required interval of [0, 100].'),
    ('Vol(-1)', ValueError, 'Input gain is not within the required interval of [0, 16777216].'),
    ('Vol(0, GainType.POWER)', ValueError, 'Input gain is not within the required interval of (0, 16777216].'),
    ('Fade(-1)', ValueError, 'Input fade_in_len is not within the required interval of [0, 2147483647].'),
    ("Fade(1, 1, 'linear')", TypeError, "Argument fade_shape with value linear is not of type [<enum 'FadeShape'>], but got <class 'str'>."),
    ('ComputeDeltas(2)', ValueError, 'Input win_length is not within the required interval of [3, 2147483647].'),
    ('ComplexNorm(-1.0)', ValueError, 'Input power is not within the required interval of [0, 16777216].'),
    ('MuLawEncoding(0)', ValueError, 'Input quantization_channels is not within the required interval of [1, 2147483647].'),
    ('AmplitudeToDB(amin=0)', ValueError, 'Input amin is not within the required interval of (0, 16777216].'),
    ('DCShift(3)', ValueError, 'Input shift is not within the required interval of [-2.0, 2.0].'),
    ('create_dct(0, 3)', ValueError, 'n_mfcc must be greater than 0, but got 0.'),
    ('create_dct(2.0, 3)', TypeError, "n_mfcc with value 2.0 is not of type <class 'int'>, but got <class 'float'>."),
    ('melscale_fbanks(9, 500.0, 100.0, 4, 8000)', ValueError, 'Input f_min should be no more than f_max, but got f_min: 500.0 and f_max: 100.0.'),
    ('linear_fbanks(9, 0.0, 400.0, 0, 8000)', ValueError, 'Input n_filter is not within the required interval of [1, 2147483647].'),
]


@pytest.mark.parametrize("spelled, data, expected, dtype", TRANSFORMS)
def test_transform_gives_mindspores_values(spelled, data, expected, dtype):
    out = eval(spelled, NAMES)(NAMES[data])  # the constructor call as written above
    outs = out if isinstance(out, tuple) else (out,)
    assert len(outs) == len(expected) and str(outs[0].dtype) == dtype
    for got, want in zip(outs, expected):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_float32_stays_float32_and_integer_codes_decode_to_float32():
    assert audio.Gain(2.0)(W.astype(np.float32)).dtype == np.float32
    assert audio.MuLawEncoding()(W.astype(np.float32)).dtype == np.int32
    decoded = audio.MuLawDecoding(128)(np.array([70, 170]))
    assert decoded.dtype == np.float32
    # MindSpore's own test compares these bit for bit
    assert decoded.tolist() == [0.00506480922922492, 26.928272247314453]
    assert audio.ComplexNorm(2)(C[0].astype(np.float32)).tolist() == [2.0, 13.0]


@pytest.mark.parametrize("spelled, expected", FUNCTIONS)
def test_utils_give_mindspores_matrices(spelled, expected):
    out = eval(spelled, NAMES)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("spelled, error, message", ERRORS)
def test_arguments_are_checked_with_mindspores_words(spelled, error, message):
    with pytest.raises(error) as info:
        eval(spelled, NAMES)
    assert str(info.value) == message


def test_fade_longer_than_the_waveform_is_refused():
    with pytest.raises(RuntimeError) as info:
        audio.Fade(9)(W)
    assert str(info.value) == ("Fade: invalid parameter, 'fade_in_len' should be no greater "
                               "than 'length of waveform', but got: fade_in_len 9 while length "
                               "of waveform 8.")
    with pytest.raises(RuntimeError, match=r"Expecting tensor in shape of <\.\.\., complex=2>"):
        audio.Angle()(W)
