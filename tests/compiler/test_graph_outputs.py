"""What a graph may return: values, not functions. MindSpore 2.10 raises RuntimeError
"Function in output is not supported." for a function, method, builtin, Primitive or Cell
returned alone or in a tuple, and returns a class (the cases and outcomes recorded from it)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

X = Tensor(np.array([1.0], np.float32))


def helper(x):
    return x


class Identity(nn.Cell):
    def construct(self, x):
        return x


ADD, IDENTITY = ops.Add(), Identity()


class ReturnsFunction(nn.Cell):
    def construct(self, x):
        return helper


class ReturnsFunctionInTuple(nn.Cell):
    def construct(self, x):
        return 1, helper


class ReturnsPrimitive(nn.Cell):
    def construct(self, x):
        return ADD


class ReturnsCell(nn.Cell):
    def construct(self, x):
        return IDENTITY


class ReturnsBuiltin(nn.Cell):
    def construct(self, x):
        return abs


class ReturnsOpsFunction(nn.Cell):
    def construct(self, x):
        return ops.abs


class ReturnsTensorMethod(nn.Cell):
    def construct(self, x):
        return x.abs


class ReturnsClass(nn.Cell):
    def construct(self, x):
        return Identity


@pytest.mark.parametrize("net", [ReturnsFunction, ReturnsFunctionInTuple, ReturnsPrimitive,
                                 ReturnsCell, ReturnsBuiltin, ReturnsOpsFunction,
                                 ReturnsTensorMethod])
def test_a_function_in_the_output_is_refused(net):
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(RuntimeError, match=r"^Function in output is not supported\. Please check "
                                           r"your code\.\n  In file .*test_graph_outputs\.py"):
        net()(X)


def test_a_class_may_be_returned():
    ms.set_context(mode=ms.GRAPH_MODE)
    assert ReturnsClass()(X) is Identity
