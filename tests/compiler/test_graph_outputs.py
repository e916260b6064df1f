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


def test_a_result_nesting_tuples_and_lists_deeper_than_six_levels_is_refused():
    # MindSpore 2.10: RuntimeError for seven levels returned; six, a dict's level, and a deep
    # value the graph does not return are taken
    @ms.jit
    def seven():
        return [[[[[[[1]]]]]]]

    @ms.jit
    def seven_tuples():
        return ((((((((1,),),),),),),),)

    for fn in (seven, seven_tuples):
        with pytest.raises(RuntimeError, match="List, tuple and dict nesting is not allowed "
                                               "more than 6 levels."):
            fn()
    assert ms.jit(lambda: [[[[[[1]]]]]])() == [[[[[[1]]]]]]
    assert ms.jit(lambda: {"a": [[[[[[1]]]]]]})() == {"a": [[[[[[1]]]]]]}

    @ms.jit
    def deep_inside():
        x = [[[[[[[1]]]]]]]
        return len(x)

    assert deep_inside() == 1
