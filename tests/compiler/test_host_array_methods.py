"""NumPy's reductions over `x.asnumpy()` in construct (`np.max(a, axis=1)` calls
`a.max(axis=1, out=None)`), in graph and PyNative mode. Expected values are MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn

X = np.arange(6, dtype=np.float32).reshape(2, 3)
EXPECTED = {
    "max": [2.0, 5.0], "amax": [2.0, 5.0], "min": [0.0, 3.0], "sum": [3.0, 12.0],
    "mean": [1.0, 4.0], "argmax": [2, 2], "argmin": [0, 0],
    "std": [0.8164966, 0.8164966], "var": [0.6666667, 0.6666667],
    "any": [True, True], "all": [False, True], "cumsum": [[0.0, 1.0, 3.0], [3.0, 7.0, 12.0]],
}


@pytest.fixture(params=[ms.GRAPH_MODE, ms.PYNATIVE_MODE], autouse=True)
def mode(request):
    ms.set_context(mode=request.param)
    yield
    ms.set_context(mode=ms.GRAPH_MODE)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_numpy_reduction_of_asnumpy(name):
    reduce = getattr(np, name)

    class Net(nn.Cell):
        def construct(self, x):
            return Tensor(reduce(x.asnumpy(), axis=1))

    out = Net()(Tensor(X))
    np.testing.assert_allclose(out.asnumpy(), EXPECTED[name], rtol=1e-6)


def test_numpy_sum_with_dtype_and_keepdims():
    class Net(nn.Cell):
        def construct(self, x):
            return Tensor(np.sum(x.asnumpy(), axis=0, dtype=np.float64, keepdims=True))

    out = Net()(Tensor(X))
    assert out.dtype == ms.float64
    np.testing.assert_allclose(out.asnumpy(), [[3.0, 5.0, 7.0]])
