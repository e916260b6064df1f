"""An `if` on a Tensor computed from constants alone takes one branch at compile time, as in
MindSpore 2.10 (its results and errors for the same Cells): the other branch is never compiled,
and a `raise` in the taken one is raised then."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)


class Flagged(nn.Cell):
    def __init__(self, flag):
        super().__init__()
        self.flag = Tensor(flag)

    def construct(self, x):
        if (self.flag + 1) * 2 == 4:
            return x
        return self.never_set  # compiled only when the flag is not 1


def test_the_untaken_branch_is_never_compiled():
    assert Flagged(1)(Tensor(5)).asnumpy() == 5
    with pytest.raises(AttributeError, match="never_set"):
        Flagged(2)(Tensor(5))


def test_a_raise_in_the_taken_branch_is_raised_when_compiling():
    class Raises(nn.Cell):
        def __init__(self, value):
            super().__init__()
            self.input = Tensor(value)

        def construct(self):
            if self.input == 1:
                raise AssertionError("The input should not be 1.")
            return self.param_a

    with pytest.raises(AssertionError, match="The input should not be 1."):
        Raises(1)()
    with pytest.raises(AttributeError, match="param_a"):
        Raises(2)()


def test_conditions_on_inputs_parameters_and_draws_stay_switches():
    class OnInput(nn.Cell):
        def construct(self, x):
            if x == 1:
                raise ValueError("one")
            return self.param_a

    with pytest.raises(AttributeError, match="param_a"):  # MindSpore 2.10 compiles both
        OnInput()(Tensor(1))

    class OnParameter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array(1.0, np.float32)), name="w")

        def construct(self, x):
            if self.w > 0:
                y = x + 1
            else:
                y = x * 3
            return y

    net = OnParameter()
    assert net(Tensor(2.0)).asnumpy() == 3.0
    assert "switch" in ms.dump_ir(net, Tensor(2.0), stage="parse")

    class OnDraw(nn.Cell):
        def construct(self, x):
            if ops.uniform((1,), Tensor(0.0), Tensor(1.0)) < 2.0:
                y = x + 1
            else:
                y = x * 3
            return y

    assert "switch" in ms.dump_ir(OnDraw(), Tensor(2.0), stage="parse")
