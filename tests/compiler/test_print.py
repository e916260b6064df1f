"""print in a graph prints when the graph runs, in MindSpore's form for where MindSpore runs
the code: its Print operator's where it runs a graph (a jit function; any graph after
set_context(mode=GRAPH_MODE)), Python's where it runs Python (its default PyNative mode).
The expected texts are what MindSpore 2.10 (CPU) printed for the same programs."""
from __future__ import annotations

import sys

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import context, nn
from cellgraph.primitives.errors import CompileError


def t(values, dtype=np.float32):
    return ms.Tensor(np.asarray(values, dtype))


class Printing(nn.Cell):
    def construct(self, x, i, b, s):
        print("x:", x)
        print("tuple", (x, 1.5, "q"), [i, 2])
        print("int:", i, "bool:", b, "scalar:", s)
        print("consts", 2.0, 7, False, 1e-5, 123456789.0, None)
        print("shape", x.shape, (1, 2), x.dtype)
        print("x:\n", x)
        print(f"fstr {x}")
        return x * 2


ARGS = (np.arange(3), np.array([1, -2], np.int32), np.array([True, False]), np.float32(2.5))

GRAPH_FORM = """\
x:
Tensor(shape=[3], dtype=Float32, value=[ 0.00000000e+00  1.00000000e+00  2.00000000e+00])
tuple
Tensor(shape=[3], dtype=Float32, value=[ 0.00000000e+00  1.00000000e+00  2.00000000e+00])
1.5
q
Tensor(shape=[2], dtype=Int32, value=[ 1 -2])
2
int:
Tensor(shape=[2], dtype=Int32, value=[ 1 -2])
bool:
Tensor(shape=[2], dtype=Bool, value=[ True False])
scalar:
2.5
consts
2
7
0
1e-05
1.23457e+08
None
shape
(3)
(1, 2)
Float32
x:

Tensor(shape=[3], dtype=Float32, value=[ 0.00000000e+00  1.00000000e+00  2.00000000e+00])
fstr [0. 1. 2.]
"""

PYTHON_FORM = """\
x: [0. 1. 2.]
tuple (Tensor(shape=[3], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  \
2.00000000e+00]), 1.5, 'q') [Tensor(shape=[2], dtype=Int32, value= [ 1, -2]), 2]
int: [ 1 -2] bool: [ True False] scalar: 2.5
consts 2.0 7 False 1e-05 123456789.0 None
shape (3,) (1, 2) Float32
x:
 [0. 1. 2.]
fstr [0. 1. 2.]
"""


def _arguments():
    x, i, b, s = ARGS
    return t(x), ms.Tensor(i), ms.Tensor(b), ms.Tensor(s)


def test_after_set_context_graph_mode_as_mindspores_print_operator(capsys):
    ms.set_context(mode=context.GRAPH_MODE)
    Printing()(*_arguments())
    assert capsys.readouterr().out == GRAPH_FORM


def test_in_the_default_mode_as_pythons_print(capsys):
    Printing()(*_arguments())  # compiled, but MindSpore would run it in PyNative mode
    assert capsys.readouterr().out == PYTHON_FORM


def test_a_jit_function_prints_as_a_graph_in_any_mode(capsys):
    @ms.jit
    def f(x):
        print("x:", x, "end")
        return x

    f(t([0.0, 1.0]))
    assert capsys.readouterr().out == ("x:\nTensor(shape=[2], dtype=Float32, value=[ "
                                       "0.00000000e+00  1.00000000e+00])\nend\n")


def test_a_two_dimensional_tensor_and_summarised_ones(capsys):
    @ms.jit
    def f(m, v):
        print(m)
        print(v)
        return m

    f(t(np.arange(6).reshape(2, 3)), t(np.arange(2000)))
    assert capsys.readouterr().out == (
        "Tensor(shape=[2, 3], dtype=Float32, value=\n"
        "[[ 0.00000000e+00  1.00000000e+00  2.00000000e+00]\n"
        " [ 3.00000000e+00  4.00000000e+00  5.00000000e+00]])\n"
        "Tensor(shape=[2000], dtype=Float32, value=[ 0.00000000e+00  1.00000000e+00  "
        "2.00000000e+00 ...  1.99700000e+03  1.99800000e+03  1.99900000e+03])\n")


def test_constants_print_on_every_run(capsys):
    @ms.jit
    def f(x):
        print("hello", 3)
        return x + 1

    f(t([1.0]))
    f(t([1.0]))
    assert capsys.readouterr().out == "hello\n3\nhello\n3\n"


def test_a_forward_pre_hook_under_grad_sees_a_tuple_of_tensors(capsys):
    ms.set_context(mode=context.PYNATIVE_MODE)

    def pre_hook(cell, inputs):
        print("forward inputs: ", inputs)
        return inputs[0]

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.relu = nn.ReLU()
            self.relu.register_forward_pre_hook(pre_hook)

        def construct(self, x, y):
            return self.relu(x + y)

    x = t([1.0])
    ms.grad(Net(), grad_position=(0, 1))(x, x)
    assert capsys.readouterr().out == (
        "forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)\n")


def test_print_arguments_python_takes_and_those_a_graph_cannot():
    @ms.jit
    def sep_end(x):
        print("a", x, sep="|", end="!\n", flush=True)
        return x

    @ms.jit
    def to_file(x):
        print("a", x, file=sys.stderr)
        return x

    sep_end(t([1.0]))
    with pytest.raises(CompileError, match="file="):
        to_file(t([1.0]))


def test_sep_and_end_in_both_forms(capsys):
    @ms.jit
    def f(x):
        print("a", x, sep="|", end="!\n")
        return x

    class N(nn.Cell):
        def construct(self, x):
            print("a", x, sep="|", end="!\n")
            return x

    f(t([1.0]))
    N()(t([1.0]))
    assert capsys.readouterr().out == ("a|Tensor(shape=[1], dtype=Float32, value=[ "
                                       "1.00000000e+00])!\na|[1.]!\n")
