"""BassBiquad and Resample against hand-computed filters and sampled sinusoids."""
import math

import numpy as np
import pytest

from cellgraph.dataset import audio
from cellgraph.dataset.audio.transforms import lfilter


def test_bass_biquad_coefficients_follow_the_cookbook_low_shelf():
    op = audio.BassBiquad(44100, 6.0, central_freq=200.0, Q=0.5)
    b, a = op.coefficients()
    amp, w0 = 10 ** (6 / 40), 2 * math.pi * 200 / 44100
    alpha = math.sin(w0) / 2 / 0.5
    expected_b0 = amp * ((amp + 1) - (amp - 1) * math.cos(w0) + 2 * math.sqrt(amp) * alpha)
    np.testing.assert_allclose(b[0], expected_b0)
    # a shelf: unit gain at Nyquist (z = -1) and `gain` dB at DC (z = 1)
    nyquist = (b[0] - b[1] + b[2]) / (a[0] - a[1] + a[2])
    dc = sum(b) / sum(a)
    np.testing.assert_allclose([nyquist, 20 * math.log10(dc)], [1.0, 6.0], rtol=1e-10)


def test_bass_biquad_runs_the_recursion_and_clamps():
    op = audio.BassBiquad(8000, -3.0, central_freq=300.0)
    b, a = op.coefficients()
    b, a = np.array(b) / a[0], np.array(a) / a[0]
    x = np.random.default_rng(0).uniform(-0.5, 0.5, (2, 50))
    y = np.zeros_like(x)
    for n in range(50):  # the difference equation, written out
        y[:, n] = b[0] * x[:, n] + (b[1] * x[:, n - 1] - a[1] * y[:, n - 1] if n >= 1 else 0)
        if n >= 2:
            y[:, n] += b[2] * x[:, n - 2] - a[2] * y[:, n - 2]
    np.testing.assert_allclose(op(x), np.clip(y, -1, 1), atol=1e-12)
    loud = audio.BassBiquad(8000, 20.0)(np.full(400, 0.5, np.float32))
    assert loud.dtype == np.float32 and loud.max() == 1.0  # +20 dB of 0.5 clamps to 1


def test_lfilter_without_scipy_matches(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_scipy(name, *args, **kwargs):
        if name.startswith("scipy"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    x = np.random.default_rng(1).uniform(-0.3, 0.3, 40)
    expected = lfilter(x, [0.5, 0.2, 0.1], [1.0, -0.3, 0.05])
    monkeypatch.setattr(builtins, "__import__", no_scipy)
    np.testing.assert_allclose(lfilter(x, [0.5, 0.2, 0.1], [1.0, -0.3, 0.05]), expected,
                               atol=1e-12)


@pytest.mark.parametrize("method", list(audio.ResampleMethod))
@pytest.mark.parametrize("new_freq", [8000, 12000, 22050])
def test_resample_keeps_a_band_limited_sinusoid(method, new_freq):
    t = np.arange(3200) / 16000
    wave = np.sin(2 * math.pi * 60 * t).astype(np.float32)
    out = audio.Resample(16000, new_freq, resample_method=method)(wave)
    assert out.shape == (math.ceil(3200 * new_freq / 16000),) and out.dtype == np.float32
    expected = np.sin(2 * math.pi * 60 * np.arange(len(out)) / new_freq)
    margin = new_freq // 100  # the zero padding at both ends bends the edges
    np.testing.assert_allclose(out[margin:-margin], expected[margin:-margin], atol=2e-3)


def test_resample_at_the_same_rate_is_the_identity_and_batches():
    wave = np.random.default_rng(2).standard_normal((2, 3, 100)).astype(np.float32)
    np.testing.assert_array_equal(audio.Resample(16000, 16000)(wave), wave)
    halves = audio.Resample(200, 100)(wave)
    np.testing.assert_allclose(halves[1, 2], audio.Resample(200, 100)(wave[1, 2]))
    ints = audio.Resample(2, 1)(np.arange(4))  # integers resample as float32, as in MindSpore
    np.testing.assert_allclose(ints, [0.05002478, 2.241822], rtol=1e-5)
    assert ints.dtype == np.float32
    with pytest.raises(RuntimeError, match=r"Expecting tensor in type of \[float, double\]"):
        audio.Resample(2, 1)(np.array(["a", "b"]))


@pytest.mark.parametrize("kwargs, error, text", [
    ({"orig_freq": -1}, ValueError, ("Input orig_freq is not within the required interval of "
                                    "(0, 16777216].")),
    ({"orig_freq": "x"}, TypeError, "Argument orig_freq with value x is not of type"),
    ({"lowpass_filter_width": 0}, ValueError, ("Input lowpass_filter_width is not within the "
                                              "required interval of [1, 2147483647].")),
    ({"rolloff": 0}, TypeError, ("Argument rolloff with value 0 is not of type [<class "
                                "'float'>]")),
    ({"rolloff": 1.5}, ValueError, ("Input rolloff is not within the required interval of "
                                   "(0, 1.0].")),
    ({"resample_method": 1}, TypeError, "Argument resample_method with value 1"),
])
def test_resample_argument_checks(kwargs, error, text):
    with pytest.raises(error) as info:
        audio.Resample(**kwargs)
    assert text in str(info.value)


def test_detect_pitch_frequency():
    """MindSpore 2.10's pitches: a 50 Hz sine at 400 Hz, and a random float32 batch
    <2, 3, 50> (NumPy's default_rng(0) normals)."""
    from cellgraph.dataset import audio as ds_audio

    sine = np.sin(2 * np.pi * 50 * np.arange(400) / 400)
    out = ds_audio.DetectPitchFrequency(400, 0.05, 3, 20, 200)(sine)
    assert out.dtype == np.float32 and out.shape == (19,)
    np.testing.assert_array_equal(out, np.full(19, 50.0, np.float32))
    noise = np.random.default_rng(0).standard_normal((2, 3, 50)).astype(np.float32)
    out = ds_audio.DetectPitchFrequency(400, 0.02, 3, 40, 150)(noise)
    s, e, t, n = 57.142857, 66.666664, 44.444443, 100.0
    np.testing.assert_allclose(out, [
        [[n, 80, 80, 50, 80, 80], [s, s, 50, s, 50, n], [80, 80, n, n, 50, 50]],
        [[n, n, 80, 80, 80, 80], [80, e, s, s, s, s], [80, e, t, 40, 40, s]]], rtol=1e-6)
    with pytest.raises(RuntimeError, match=r"Expecting tensor in type of \[float, double\]\. "
                                           r"But got type int64\."):
        ds_audio.DetectPitchFrequency(400)(np.arange(10))
    with pytest.raises(ValueError, match=r"Input freq_high is not within the required interval "
                                         r"of \(0, 16777216\]\."):
        ds_audio.DetectPitchFrequency(44100, 0.01, 30, 85, 0)
    with pytest.raises(TypeError, match=r"Argument win_length with value 30.1 is not of type "
                                        r"\[<class 'int'>\], but got <class 'float'>\."):
        ds_audio.DetectPitchFrequency(44100, 0.01, 30.1)
