"""_cell_graph_executor.compile refuses a network in which two different Parameters carry one
name, with MindSpore 2.10's ValueError and message; one Parameter reached twice is fine."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Parameter, Tensor, nn
from cellgraph.common.api import _cell_graph_executor

T = Tensor(np.ones([2, 3]), cg.float32)


class Twice(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w2 = Parameter(T, name="weight")
        self.w1 = Parameter(T, name="weight")

    def construct(self, x):
        return x + self.w1


class Shared(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(T, name="weight")
        self.v = self.w
        self.w3 = Parameter(T, name=None)
        self.w4 = Parameter(T, name=None)

    def construct(self, x):
        return x + self.w + self.v


def test_two_parameters_one_name_do_not_compile():
    with pytest.raises(ValueError, match="The value of w1 is Parameter \\(name=weight, shape="
                                         "\\(2, 3\\), dtype=Float32, requires_grad=True\\), its "
                                         "name 'weight' already exists"):
        _cell_graph_executor.compile(Twice(), T)


def test_one_parameter_reached_twice_compiles():
    phase, _ = _cell_graph_executor.compile(Shared(), T)
    assert phase.startswith("predict.")


def test_one_name_in_two_cells_compiles():
    """The check is per Cell, as MindSpore's: sub-cells may each hold a Parameter of one name
    (the optimizers' per-group learning rates)."""
    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.lr = Parameter(T, name="learning_rate")

        def construct(self, x):
            return x + self.lr

    class Both(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a, self.b = Holder(), Holder()

        def construct(self, x):
            return self.a(x) + self.b(x)

    phase, _ = _cell_graph_executor.compile(Both(), T)
    assert phase.startswith("predict.")
