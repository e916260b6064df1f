"""ops.RandomChoiceWithMask: `count` distinct True coordinates of a bool input picked at random
(from the op's seeds), padded with zero rows and a False mask past the number of True elements;
MindSpore 2.10's shapes, dtypes and errors."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

X = np.array([[1, 0, 1, 0], [0, 0, 0, 1], [1, 1, 1, 1], [0, 0, 0, 1]], bool)


class Net(nn.Cell):
    def __init__(self, count, seed=1):
        super().__init__()
        self.op = ops.RandomChoiceWithMask(count=count, seed=seed)

    def construct(self, x):
        return self.op(x)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("count", [4, 8, 10])
def test_picks_distinct_true_coordinates(mode, count):
    ms.set_context(mode=mode)
    try:
        coords, mask = Net(count)(Tensor(X))
        assert coords.shape == (count, 2) and mask.shape == (count,)
        assert coords.dtype == ms.int32 and mask.dtype == ms.bool_
        coords, mask = coords.asnumpy(), mask.asnumpy()
        assert mask.sum() == min(count, X.sum())
        picked = [tuple(c) for c in coords[mask]]
        assert len(set(picked)) == len(picked) and all(X[c] for c in picked)
        assert not coords[~mask].any()
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)


def test_three_dimensions():
    coords, mask = Net(10)(Tensor(np.ones([3, 4, 5], bool)))
    assert coords.shape == (10, 3) and mask.asnumpy().all()


@pytest.mark.parametrize("make, x, error, message", [
    (lambda: ops.RandomChoiceWithMask(), np.ones((2, 2), np.int32), TypeError,
     r"must be a type of \{Tensor\[Bool\]\}, but got Tensor\[Int32\]"),
    (lambda: ops.RandomChoiceWithMask(), np.ones((2,) * 6, bool), ValueError,
     "rank should be between 1 and 5, but got:6"),
    (lambda: ops.RandomChoiceWithMask(count=0), X, ValueError, "'count' must be int and must > 0"),
    (lambda: ops.RandomChoiceWithMask(count=1.5), X, TypeError,
     "the type of 'count' should be 'int', but got type 'float'"),
])
def test_checks_are_mindspores(make, x, error, message):
    with pytest.raises(error, match=message):
        make()(Tensor(x))


def test_negative_seeds_and_the_output_size_limit_as_mindspore():
    from cellgraph.ops import operations as P
    x = Tensor(np.array([True, False, True, True]))
    coords, mask = P.RandomChoiceWithMask(count=3, seed=0, seed2=-1024)(x)
    assert sorted(coords.asnumpy()[:, 0].tolist()) == [0, 2, 3] and mask.asnumpy().all()
    with pytest.raises(RuntimeError, match="output size exceed INT_MAX"):
        P.RandomChoiceWithMask(count=2051328285, seed=0, seed2=-1024)(
            Tensor(np.ones((4, 4), np.bool_)))
