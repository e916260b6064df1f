"""A Tensor `if` that leaves a value in one branch and None in the other: the caller gets
whichever the branch taken gave, as from MindSpore 2.10's graphs (values below are its)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn


class ReturnsOnlyIfAny(nn.Cell):
    def construct(self, inp):
        result = inp.any()
        if result:
            return 6


class TensorOrNone(nn.Cell):
    def construct(self, x):
        if x.any():
            return x + 1
        return None


class AssignedInOneBranch(nn.Cell):
    def construct(self, x):
        if x.any():
            y = 6
        else:
            y = None
        return y


class ComparedWithNone(nn.Cell):
    def construct(self, x):
        y = None
        if x.sum() > 0:
            y = x * 2
        if y is None:
            return x - 1
        return y


class ReportsPresence(nn.Cell):
    def construct(self, x):
        y = None
        if x.sum() > 0:
            y = x * 2
        return y is not None, y is None, x


class TruthOfMaybeNone(nn.Cell):
    def construct(self, x):
        y = None
        if x.sum() > 0:
            y = x * 2
        if y:
            return x
        return x + 1


ONES, ZEROS = np.ones(3, np.bool_), np.zeros(3, np.bool_)


@pytest.mark.parametrize("net", [ReturnsOnlyIfAny(), AssignedInOneBranch()])
def test_number_or_none(net):
    out = net(Tensor(ONES))
    assert isinstance(out, Tensor) and out.dtype == ms.int64 and out.shape == ()
    assert out.asnumpy() == 6
    assert net(Tensor(ZEROS)) is None


def test_tensor_or_none():
    net = TensorOrNone()
    np.testing.assert_array_equal(net(Tensor(np.ones(3, np.float32))).asnumpy(),
                                  [2.0, 2.0, 2.0])
    assert net(Tensor(np.zeros(3, np.float32))) is None


@pytest.mark.parametrize("x, expected", [(6.0, 12.0), (1.0, 2.0), (-1.0, -2.0)])
def test_is_none_picks_at_run_time(x, expected):
    out = ComparedWithNone()(Tensor(np.full(2, x, np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [expected, expected])


@pytest.mark.parametrize("x, present", [(1.0, True), (-1.0, False)])
def test_is_none_gives_a_bool(x, present):
    is_not_none, is_none, _ = ReportsPresence()(Tensor(np.full(2, x, np.float32)))
    assert (is_not_none, is_none) == (present, not present)
    assert type(is_not_none) is bool


def test_truth_of_a_value_that_may_be_none_is_refused():
    with pytest.raises(TypeError, match="test `value is None` first"):
        TruthOfMaybeNone()(Tensor(np.ones(2, np.float32)))
