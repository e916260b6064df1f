# ruff: noqa: UP030, UP031, UP032  (the str.format and % forms are what is under test)
"""Strings built from Tensors inside a graph (f-strings, str.format, format, str, %): written
with the Tensors' values when the graph runs, and returned as strings, as MindSpore does.
Expected strings are MindSpore 2.10's for the same program."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn


def test_strings_with_tensor_parts_are_returned_with_their_values():
    @ms.jit
    def describe(x, y):
        return ("string is {}".format(x), "{1} and {0}".format(x, y), format(x), str(y),
                f"v={x}", "p %s" % y, x + 1)

    texts = describe(Tensor([1]), Tensor([2.5, 3.0]))
    assert texts[:6] == ("string is [1]", "[2.5 3. ] and [1]", "[1]", "[2.5 3. ]", "v=[1]",
                         "p [2.5 3. ]")
    assert texts[6].asnumpy().tolist() == [2]


def test_str_format_reaches_tensors_inside_a_list_or_tuple_argument():
    @ms.jit
    def greet(x, y):
        return ("hello {0[1]},It's me {0[0]}".format([x, y]),
                "{0[0]}-{1}".format((y, x), 7))

    # MindSpore 2.10 gives ("hello [0],It's me [1]", "[0]-7")
    assert greet(Tensor([1]), Tensor([0])) == ("hello [0],It's me [1]", "[0]-7")


def test_a_formatted_tuple_or_list_writes_its_tensors_as_their_repr():
    @ms.jit
    def describe(x, n):
        return f"{x} and {(n, 2)}", "v {}".format([x, 1])

    # MindSpore 2.10's strings for the same program
    assert describe(Tensor([1]), ms.mutable(3)) == (
        "[1] and (3, 2)", "v [Tensor(shape=[1], dtype=Int64, value= [1]), 1]")


def test_a_raised_message_writes_a_formatted_list_of_graph_values():
    @ms.jit
    def numbers(x):
        raise TypeError(f"The input is {x}")

    @ms.jit
    def nested(a):
        x = ms.mutable((a, [a, a + 1]))
        raise TypeError(f"The input is {x}")

    # MindSpore 2.10's messages for the same programs
    with pytest.raises(TypeError, match=r"^The input is \[1, 2, 3\]"):
        numbers(ms.mutable([1, 2, 3]))
    with pytest.raises(TypeError) as info:
        nested(Tensor([1]))
    assert str(info.value).startswith(
        "The input is (Tensor(shape=[1], dtype=Int64, value= [1]), [Tensor(shape=[1], "
        "dtype=Int64, value= [1]), Tensor(shape=[1], dtype=Int64, value= [2])])")


def test_type_of_a_tensor_in_a_graph_is_the_tensor_class():
    @ms.jit
    def describe(x):
        return str(type(x)), f"got {type(x)}", type(x) is Tensor

    # MindSpore 2.10: "<class 'mindspore.common.tensor.Tensor'>", with its own package name
    name = "<class 'cellgraph.common.tensor.Tensor'>"
    assert describe(Tensor([1])) == (name, "got " + name, True)


def test_a_formatted_string_prints_and_returns_from_a_cell(capsys):
    class Describe(nn.Cell):
        def construct(self, x):
            text = "x: {}".format(x)
            print(text)
            return text

    assert Describe()(Tensor(np.ones((2, 2), np.float32))) == "x: [[1. 1.]\n [1. 1.]]"
    assert capsys.readouterr().out == "x: [[1. 1.]\n [1. 1.]]\n"


def test_a_format_spec_on_a_tensor_is_refused():
    @ms.jit
    def padded(x):
        return "{:>8}".format(x)

    with pytest.raises(ms.CompileError, match="format spec"):
        padded(Tensor([1]))
