"""Tensor.tolist() in construct: nested Python lists of the elements (ints, floats, bools by
dtype), as MindSpore's graph mode returns them; a scalar for a 0-d Tensor; the size limit."""
import numpy as np
import pytest

from cellgraph import Tensor, nn
from cellgraph.primitives.errors import UnsupportedError


class _ToList(nn.Cell):
    def construct(self, x):
        return x.tolist()


@pytest.mark.parametrize("value", [
    np.array([[1, 2], [3, 4]], np.int32), np.array([0.5, -1.25], np.float32),
    np.array([True, False]), np.zeros((0,), np.float32), np.array(7, np.int64)])
def test_tolist_matches_numpy(value):
    out = _ToList()(Tensor(value))
    assert out == value.tolist()
    if value.size:
        first = out if value.ndim == 0 else np.asarray(out).ravel()[0].item()
        assert type(first) is type(value.ravel()[0].item())


def test_too_many_elements():
    with pytest.raises(UnsupportedError, match="asnumpy"):
        _ToList()(Tensor(np.zeros((100, 100), np.float32)))
