"""The biquad filters and LFilter of dataset.audio against values and errors recorded from
MindSpore 2.10 (the waveform X through each filter; the argument checks' types and words)."""
import numpy as np
import pytest

from cellgraph.dataset import audio
from cellgraph.dataset.audio import (  # noqa: F401 (the names CASES spells)
    AllpassBiquad,
    BandBiquad,
    BandpassBiquad,
    BandrejectBiquad,
    BassBiquad,
    Biquad,
    DeemphBiquad,
    EqualizerBiquad,
    HighpassBiquad,
    LFilter,
    LowpassBiquad,
    RiaaBiquad,
    TrebleBiquad,
)

X = np.array([[0.1, -0.4, 0.7, 0.2, -0.9, 0.5, 0.05, -0.3],
              [0.9, 0.8, -0.6, 0.3, 0.0, -0.2, 0.4, 0.6]])

CASES = {
    'AllpassBiquad(44100, 200.0)': [[0.096049707, -0.391940222, 0.695887244, 0.160497078, -0.91025895, 0.505987087, 0.034058812, -0.305388203], [0.864447366, 0.698725118, -0.705065914, 0.211127894, -0.096949025, -0.284878259, 0.31098206, 0.475474414]],
    'BandBiquad(16000, 1000.0, 0.5)': [[0.028040943, -0.079712559, 0.091251942, 0.198029901, -0.064797748, -0.025073783, 0.014546855, -0.055855956], [0.252368489, 0.516388472, 0.314295812, 0.212409795, 0.102518096, -0.034285501, 0.025743951, 0.213670678]],
    'BandBiquad(16000, 1000.0, 0.5, noise=True)': [[0.054004244, -0.153518961, 0.175742738, 0.381387136, -0.124794425, -0.04828977, 0.028015888, -0.107573366], [0.486038195, 0.994516079, 0.605304447, 0.409081472, 0.1974403, -0.066030679, 0.049580451, 0.411509816]],
    'BandpassBiquad(16000, 1200.0)': [[0.024303684, -0.064431053, 0.046419579, 0.241551129, -0.086882465, -0.168425762, 0.048343601, -0.04265948], [0.218733153, 0.4894826, 0.183304019, -0.125814264, -0.118095801, -0.216160738, -0.133675883, 0.125202322]],
    'BandpassBiquad(16000, 1200.0, 0.6, True)': [[0.016468916, -0.044583288, 0.03374446, 0.162549795, -0.068564816, -0.112555345, 0.041859059, -0.026865948], [0.148220242, 0.323382704, 0.10420946, -0.093471264, -0.069036112, -0.129441252, -0.070338902, 0.099194064]],
    'BandrejectBiquad(16000, 2000.0)': [[0.066663311, -0.298081794, 0.607174428, -0.121498412, -0.638773703, 0.753408613, -0.11485254, -0.273175662], [0.5999698, 0.250449541, -0.518054797, 0.727084839, 0.175309478, -0.010374464, 0.387000188, 0.257854979]],
    'BassBiquad(16000, 6.0, 300.0)': [[0.10292769, -0.405808482, 0.702847343, 0.229281155, -0.890743978, 0.497351188, 0.06301401, -0.294400881], [0.926349212, 0.876542032, -0.516684256, 0.37471343, 0.082746288, -0.124299525, 0.479678604, 0.706739905]],
    'TrebleBiquad(16000, -4.0, 2500)': [[0.073293378, -0.276066086, 0.454186723, 0.230887838, -0.570192041, 0.252021714, 0.042236597, -0.195239218], [0.659640402, 0.740313857, -0.216835839, 0.218939815, 0.011801781, -0.149771713, 0.25293354, 0.485090275]],
    'Biquad(0.4, 0.2, 0.1, 2.0, -0.3, 0.1)': [[0.02, -0.067000001, 0.093950001, 0.107442502, -0.113581126, -0.002409294, 0.020317662, -0.026831886], [0.180000003, 0.277000005, 0.037550002, 0.031782501, 0.002889875, -0.026155644, 0.05593216, 0.159697609]],
    'DeemphBiquad(44100)': [[0.046035078, -0.164046743, 0.254285713, 0.19084864, -0.313427766, 0.112068839, 0.051250178, -0.110948569], [0.414315701, 0.549122739, -0.00373195, 0.186890779, 0.092367319, -0.033883564, 0.180902486, 0.355342797]],
    'DeemphBiquad(48000)': [[0.044769274, -0.159898008, 0.248933797, 0.182709854, -0.305371265, 0.11409266, 0.048998821, -0.108044749], [0.402923465, 0.530765981, -0.004795853, 0.189162718, 0.095041701, -0.027236467, 0.181943402, 0.348250693]],
    'EqualizerBiquad(16000, 1500, 5.0, 0.9)': [[0.114627951, -0.438758426, 0.726299644, 0.347471314, -0.951317528, 0.382549262, 0.062388748, -0.326993582], [1.0, 1.0, -0.503483246, 0.173209359, -0.143684209, -0.388039439, 0.294258638, 0.691586477]],
    'HighpassBiquad(16000, 3000.0)': [[0.04181384, -0.231526976, 0.5530792, -0.364457266, -0.535543378, 0.873843366, -0.25677183, -0.260243812], [0.376324556, -0.243933843, -0.735393303, 0.672436165, -0.036318189, -0.115969882, 0.288440912, -0.009420765]],
    'LowpassBiquad(16000, 3000.0)': [[0.018668319, -0.028694879, -0.017196844, 0.22207492, 0.143742631, -0.185368046, -0.08794098, 0.05415731], [0.168014874, 0.563152137, 0.580163878, 0.131834572, -0.060599804, -0.037022179, -0.004433616, 0.229728913]],
    'RiaaBiquad(44100)': [[0.023806112, -0.071922266, 0.091901237, 0.151886355, -0.08591424, 0.011958089, 0.046568219, -0.031363045], [0.214255004, 0.400168514, 0.20978537, 0.2145909, 0.192512479, 0.115666715, 0.190988131, 0.326464795]],
    'RiaaBiquad(48000)': [[0.021973777, -0.066422039, 0.085373594, 0.138923967, -0.078279615, 0.014367692, 0.042928661, -0.028478277], [0.197763991, 0.369047827, 0.196986737, 0.206842193, 0.185609405, 0.114881016, 0.183821597, 0.306801688]],
    'RiaaBiquad(88200)': [[0.01267104, -0.037917998, 0.049044911, 0.0793037, -0.04036602, 0.014418614, 0.026777852, -0.013186079], [0.11403936, 0.216263778, 0.128813568, 0.144942801, 0.135014875, 0.096819777, 0.136249882, 0.20583769]],
    'RiaaBiquad(96000)': [[0.011714835, -0.034991329, 0.045233505, 0.0733848, -0.036728114, 0.013792694, 0.025098799, -0.011723244], [0.105433512, 0.200530767, 0.120970382, 0.136722849, 0.128089154, 0.093236626, 0.1298354, 0.194393163]],
    'LFilter([1.0, -0.5, 0.1], [0.3, 0.2, 0.1])': [[0.030000001, -0.085000004, 0.094500005, 0.215750007, -0.061575006, -0.062362501, -2.3749e-05, -0.023775627], [0.270000011, 0.555000018, 0.320500004, 0.154750002, 0.045325, -0.022812502, 0.064061253, 0.274311885]],
    'LFilter([0.5, -0.9], [3.0, 2.0], clamp=False)': [[0.6, -0.920000029, 0.943999992, 5.699199941, 5.658559622, 9.585407051, 19.553732234, 33.596717089], [5.4, 18.119999743, 32.215998672, 57.388796074, 104.499830197, 186.899689372, 338.019431958, 613.634961406]],
}

ERRORS = [
    ('AllpassBiquad', (44100.5, 200), TypeError, "Argument sample_rate with value 44100.5 is not of type [<class 'int'>], but got <class 'float'>."),
    ('AllpassBiquad', ('44100', 200), TypeError, "Argument sample_rate with value 44100 is not of type [<class 'int'>], but got <class 'str'>."),
    ('AllpassBiquad', (44100, '200'), TypeError, "Argument central_freq with value 200 is not of type [<class 'float'>, <class 'int'>], but got <class 'str'>."),
    ('AllpassBiquad', (0, 200), ValueError, 'Input sample_rate is not within the required interval of [-2147483648, 0) and (0, 2147483647].'),
    ('AllpassBiquad', (44100, 32434324324234321), ValueError, 'Input central_freq is not within the required interval of [-16777216, 16777216].'),
    ('AllpassBiquad', (44100, 200, 1.707), ValueError, 'Input Q is not within the required interval of (0, 1].'),
    ('AllpassBiquad', (True, 200), TypeError, "Argument sample_rate with value True is not of type (<class 'int'>,), but got <class 'bool'>."),
    ('BandBiquad', (44100, 200, 0.7, 1), TypeError, "Argument noise with value 1 is not of type [<class 'bool'>], but got <class 'int'>."),
    ('Biquad', (1, 1, 1, 0, 1, 1), ValueError, 'Input a0 is not within the required interval of [-16777216, 0) and (0, 16777216].'),
    ('DeemphBiquad', (44000,), ValueError, 'Argument sample_rate should be 44100 or 48000, but got 44000.'),
    ('RiaaBiquad', (44000,), ValueError, 'sample_rate should be one of [44100, 48000, 88200, 96000], but got 44000.'),
    ('LFilter', ([1.0, 2.0], [1.0]), ValueError, 'The size of a_coeffs should be the same as that of b_coeffs.'),
    ('LFilter', ([1.0, '2'], [1.0, 2.0]), TypeError, "Argument a_coeffs[1] with value 2 is not of type [<class 'float'>, <class 'int'>], but got <class 'str'>."),
    ('LFilter', ([1.0], [1.0], 1), TypeError, "Argument clamp with value 1 is not of type [<class 'bool'>], but got <class 'int'>."),
]


@pytest.mark.parametrize("spelled", sorted(CASES))
def test_filter_gives_mindspores_values(spelled):
    op = eval(spelled)  # the constructor call as written in CASES
    out = op(X)
    assert out.dtype == np.float64 and out.shape == X.shape
    # MindSpore keeps the coefficients as C floats: poles near 1 (RIAA at 96 kHz) move the
    # output by about 1e-6 relative
    np.testing.assert_allclose(out, CASES[spelled], rtol=1e-5, atol=1e-7)
    single = op(X.astype(np.float32))
    assert single.dtype == np.float32
    np.testing.assert_allclose(single, CASES[spelled], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name, args, error, message", ERRORS)
def test_arguments_are_checked_with_mindspores_words(name, args, error, message):
    with pytest.raises(error) as info:
        getattr(audio, name)(*args)
    assert str(info.value) == message


def test_the_waveform_is_a_float_array_of_rank_one_or_more():
    op = audio.AllpassBiquad(44100, 200.0)
    with pytest.raises(TypeError, match="Input should be NumPy audio, got <class 'list'>"):
        op([0.1, 0.2])
    with pytest.raises(RuntimeError, match="Expecting tensor in shape of <..., time>. But got "
                                           "tensor with dimension 0"):
        op(np.array(1.0))
    with pytest.raises(RuntimeError, match=r"Expecting tensor in type of \[float, double\]. "
                                           r"But got type int64"):
        op(np.array([1, 2, 3]))
