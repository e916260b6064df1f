"""What a graph may not call (MindSpore 2.10's jit-forbidden APIs): the initializers, the
context and the logger (whole modules), the Cell methods that walk its parameters and buffers,
and the Tensor and Parameter methods that change a value in place of the graph's assignment.
MindSpore raises RuntimeError with these words while it compiles; outside a graph all work."""
import logging

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, context, jit, nn
from cellgraph import log as logger
from cellgraph._check_jit_forbidden_api import forbidden_call, jit_forbidden_register
from cellgraph.common.initializer import Normal, initializer


class _Calls(nn.Cell):
    def __init__(self, which):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
        self.which = which

    def construct(self, y):
        if self.which == "set_data":
            self.w.set_data(y)
        elif self.which == "set_dtype":
            return self.w.set_dtype(ms.float16)
        elif self.which == "assign_value":
            return y.assign_value(y)
        elif self.which == "set_const_arg":
            return y.set_const_arg(False)
        elif self.which == "trainable_params":
            return self.trainable_params()
        elif self.which == "get_context":
            return context.get_context("mode")
        elif self.which == "log":
            logger.info("x")
        elif self.which == "Normal":
            Normal()
        elif self.which == "initializer":
            return initializer("ones", [1, 2], ms.float32)
        elif self.which == "allowed":
            return self.w.sum() + context.GRAPH_MODE
        return y


PREFIX = "Failed to compile in GRAPH_MODE because the "
SUFFIX = (" is not supported in 'construct' or function with @jit decorator. Try to use the ")


@pytest.mark.parametrize("which, words", [
    ("set_data", "'Parameter' object's method 'set_data'"),
    ("set_dtype", "'Parameter' object's method 'set_dtype'"),
    ("assign_value", "'Tensor' object's method 'assign_value'"),
    ("set_const_arg", "'Tensor' object's method 'set_const_arg'"),
    ("trainable_params", "method or function 'cellgraph.nn.cell.Cell.trainable_params'"),
    ("get_context", "method or function 'cellgraph.context.get_context'"),
    ("log", "method or function 'cellgraph.log.info'"),
    ("Normal", "class 'cellgraph.common.initializer.Normal'"),
    ("initializer", "method or function 'cellgraph.common.initializer.initializer'")])
def test_a_forbidden_call_in_construct_raises_mindspores_runtime_error(which, words):
    with pytest.raises(RuntimeError) as info:
        _Calls(which)(Tensor(np.array([3.0, 4.0], np.float32)))
    assert str(info.value).startswith(PREFIX + words + SUFFIX)


def test_what_graphs_may_use_stays_allowed():
    assert float(_Calls("allowed")(Tensor(np.array([3.0], np.float32)))) == 3.0


def test_a_jit_function_and_a_registered_user_function():
    @jit_forbidden_register
    def helper():
        return 1

    @jit
    def foo():
        return helper()

    with pytest.raises(RuntimeError, match="the method or function '.*helper' is not supported"):
        foo()
    assert helper() == 1 and forbidden_call(helper) is not None
    assert forbidden_call(len) is None and forbidden_call(Tensor) is None


def test_the_forbidden_apis_work_outside_a_graph(caplog):
    net = _Calls("allowed")
    assert [p.name for p in net.trainable_params()] == ["w"]
    with caplog.at_level(logging.INFO, logger="cellgraph"):
        logger.info("seen %d", 3)
    assert caplog.records[-1].getMessage() == "seen 3"
    assert caplog.records[-1].filename == "test_check_jit_forbidden_api.py"


def test_a_graph_may_not_create_parameters_or_multitype_func_graphs():
    # MindSpore 2.10's ValueError, raised while it compiles; outside a graph both are made
    class MakesParameter(nn.Cell):
        def construct(self, x):
            return Parameter(x, name="weight")

    class MakesMultitype(nn.Cell):
        def construct(self, x):
            add = ms.ops.MultitypeFuncGraph("add")
            return add(x, 1)

    @jit
    def makes_parameter(x):
        return Parameter(x, name="w")

    ms.set_context(mode=ms.GRAPH_MODE)
    for call, name in ((MakesParameter(), "cellgraph.common.parameter.Parameter"),
                       (makes_parameter, "cellgraph.common.parameter.Parameter"),
                       (MakesMultitype(), "cellgraph.ops.composite.MultitypeFuncGraph")):
        with pytest.raises(ValueError, match=f"Failed to compile in GRAPH_MODE because creating "
                                             f"class '{name}' instances is not supported in "
                                             f"'construct' or @jit decorated function"):
            call(Tensor([1, 2, 3]))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert MakesParameter()(Tensor([1, 2, 3])).name == "weight"
