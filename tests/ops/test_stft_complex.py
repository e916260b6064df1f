"""ops.stft with a complex window, of a complex or a real signal, against values recorded from
MindSpore 2.10 (CPU)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops

X = np.array([[1 + 2j, 0.5j, -1, 2 - 1j, 1j, 3, 0.25, -2j]], np.complex64)
XR = np.array([1., 2., -1., 0.5, 3., -2., 1., 0.], np.float32)
W = np.array([1j, 0.5, 1 - 1j, 2], np.complex64)

COMPLEX_BOTH = [[[1 + 0.25j, 8 - 0.5j, 0.75 - 4.25j], [1.25 + 4j, -1.5 + 3j, 2.75 - 1.25j],
                 [-7 + 3.75j, -6 + 0.5j, -2.25 + 3.75j], [-3.25 - 4j, -0.5 - 7j, -5.25 + 1.75j]]]
REAL_SIGNAL = [[1 + 2j, -0.75 - 4j, 2j], [1, -3 - 2.25j, -1 + 5j], [-3 + 2j, 6.75 - 4j, 2 + 2j],
               [1, -3 + 6.25j, -1 + 3j]]


@pytest.mark.parametrize("graph", [False, True])
@pytest.mark.parametrize("signal, expected", [(X, COMPLEX_BOTH), (XR, REAL_SIGNAL)])
def test_stft_with_a_complex_window(graph, signal, expected):
    def run(x, w):
        return ops.stft(x, 4, hop_length=2, window=w, center=False, onesided=False,
                        return_complex=True)

    out = (ms.jit(run) if graph else run)(Tensor(signal), Tensor(W))
    np.testing.assert_allclose(out.asnumpy(), expected, atol=1e-5)
    # a complex window makes the result complex and two-sided by default, as in MindSpore
    default = ops.stft(Tensor(signal), 4, hop_length=2, window=Tensor(W), center=False)
    np.testing.assert_allclose(default.asnumpy(), expected, atol=1e-5)
