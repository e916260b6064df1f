"""ops.cov against MindSpore 2.10 CPU: the values below are MindSpore's, rounded to 5 places."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import ops

X = ms.Tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])
INP = ms.Tensor([[0.0, 5.0, 7.0], [3.0, 5.0, 0.0]])
FW = ms.Tensor([5, 2, 4], dtype=ms.int64)
AW = ms.Tensor([0.4588, 0.9083, 0.7616], ms.float32)


@pytest.mark.parametrize("call, dtype, expected", [
    (lambda: ops.cov(X), ms.float32, [[1.0, -1.0], [-1.0, 1.0]]),
    (lambda: ops.cov(X, correction=0), ms.float32, [[0.66667, -0.66667], [-0.66667, 0.66667]]),
    (lambda: ops.cov(X, fweights=FW, aweights=AW), ms.float32,
     [[0.81505, -0.81505], [-0.81505, 0.81505]]),
    (lambda: ops.cov(INP, fweights=FW), ms.float32, [[11.47273, -3.63636], [-3.63636, 3.81818]]),
    (lambda: ops.cov(INP, aweights=AW, correction=2), ms.float32,
     [[23.30797, -7.75847], [-7.75847, 17.00073]]),
    (lambda: ops.cov(ms.Tensor(np.array([[1, 2, 4], [3, 3, 9]], np.int32))), ms.float32,
     [[2.33333, 5.0], [5.0, 12.0]]),
    (lambda: ops.cov(ms.Tensor(np.array([1.0, 2, 4]))), ms.float64, 2.33333),
    (lambda: ops.cov(ms.Tensor(np.array([[1.0, 2, 4], [0, 1, 0]])),
                     aweights=ms.Tensor(np.array([1.0, 2, 3]))), ms.float64,
     [[2.40909, -0.45455], [-0.45455, 0.36364]]),
    (lambda: ops.cov(ms.Tensor(np.array([1.0, 2], np.float16))), ms.float32, 0.5),
])
def test_cov_matches_mindspore(call, dtype, expected):
    out = call()
    assert out.dtype == dtype
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-5)


def test_cov_in_a_graph():
    class Net(ms.nn.Cell):
        def construct(self, x, fw, aw):
            return ops.cov(x, fweights=fw, aweights=aw)

    np.testing.assert_allclose(Net()(X, FW, AW).asnumpy(),
                               [[0.81505, -0.81505], [-0.81505, 0.81505]], rtol=1e-5)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.cov(ms.Tensor(np.ones((2, 2, 2)))), ValueError, "two or fewer dimensions"),
    (lambda: ops.cov(ms.Tensor([True, False])), TypeError, "can not be bool"),
    (lambda: ops.cov(INP, fweights=AW), TypeError, "fweights must be an integer type"),
    (lambda: ops.cov(INP, aweights=FW), TypeError, "aweights must be a floating point type"),
    (lambda: ops.cov(INP, fweights=ms.Tensor([1, 2])), ValueError, "numel:2, number of columns"),
])
def test_cov_refuses_what_mindspore_refuses(call, error, message):
    with pytest.raises(error, match=message):
        call()
