"""nn.ASGD against values recorded from MindSpore 2.10 (CPU) on the same program."""
import numpy as np
import pytest

from cellgraph import Parameter, Tensor, nn


def test_asgd_matches_mindspore():
    w = Parameter(Tensor(np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)), name="w")
    b = Parameter(Tensor(np.array([0.1, -0.1], np.float32)), name="b")
    opt = nn.ASGD([w, b], learning_rate=0.1, lambd=0.01, alpha=0.75, t0=2.0, weight_decay=0.05)
    for i in range(5):  # past t0, so the average moves with mu < 1
        opt((Tensor(np.array([[0.3, -0.2], [0.1, 0.4]], np.float32) * (i + 1)),
             Tensor(np.array([0.2, -0.5], np.float32))))
    np.testing.assert_allclose(w.asnumpy(), [[0.5248701572418213, -1.6437824964523315],
                                             [0.33669036626815796, 2.3171629905700684]],
                               rtol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), [-0.0016209650784730911, 0.1496126651763916],
                               rtol=1e-6)
    np.testing.assert_allclose(opt.ax[0].asnumpy(), [[0.601675271987915, -1.6988792419433594],
                                                     [0.3627787232398987, 2.424436569213867]],
                               rtol=1e-6)
    np.testing.assert_allclose(opt.ax[1].asnumpy(), [0.008404264226555824, 0.12498758733272552],
                               rtol=1e-6)
    np.testing.assert_allclose([float(m.asnumpy()) for m in opt.mu], [1 / 3, 1 / 3], rtol=1e-6)
    np.testing.assert_allclose([float(e.asnumpy()) for e in opt.eta],
                               [0.09962663054466248] * 2, rtol=1e-6)
    assert [n for n, _ in opt.parameters_and_names()] == [
        "global_step", "learning_rate", "w", "b", "mu_w", "mu_b", "eta_w", "eta_b", "ax_.w",
        "ax_.b"]


@pytest.mark.parametrize("name", ["lambd", "alpha", "t0"])
def test_asgd_takes_floats_only(name):
    w = Parameter(Tensor(np.ones((2,), np.float32)), name="w")
    with pytest.raises(TypeError, match=f"'{name}' must be float"):
        nn.ASGD([w], **{name: 1})
