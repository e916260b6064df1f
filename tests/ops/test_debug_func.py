"""ops.print_ (ops.function.debug_func) and ops.Print: what MindSpore 2.10 prints, in a graph
(every run, a bool as 0) and eagerly (each value on its own line, a Tensor as its repr)."""
import numpy as np

import cellgraph
from cellgraph import Tensor, jit, nn, ops
from cellgraph.ops import functional as F


class PrintTuple(nn.Cell):
    def construct(self, x):
        ops.print_("tuple_x:", (1, 2, 3), x, "scalar bool:", False)
        return x


def test_print_in_a_graph_prints_every_run(capsys):
    cellgraph.set_context(mode=cellgraph.GRAPH_MODE)  # as a program that chose graph mode
    net = PrintTuple()
    for last in (10, 11):
        net(Tensor(np.array([6, last])))
        # MindSpore 2.10 graph mode, recorded
        assert capsys.readouterr().out == (
            f"tuple_x:\n(1, 2, 3)\nTensor(shape=[2], dtype=Int64, value=[ 6 {last}])\n"
            f"scalar bool:\n0\n")


def test_print_eagerly_one_value_a_line(capsys):
    assert ops.print_("a", 1, 1.5, (1, 2), True, Tensor(np.array([1]))) is None
    ops.Print()("b", Tensor(np.array([True])))
    # MindSpore 2.10 PyNative, recorded
    assert capsys.readouterr().out == (
        "a\n1\n1.5\n(1, 2)\nTrue\nTensor(shape=[1], dtype=Int64, value= [1])\n"
        "b\nTensor(shape=[1], dtype=Bool, value= [ True])\n")


def test_print_is_a_functional_name():
    assert F.print_ is ops.print_
    assert jit(lambda x: (F.print_("x", x), x)[1])(Tensor(np.ones(1))).shape == (1,)
