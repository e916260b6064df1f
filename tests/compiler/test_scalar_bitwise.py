"""`&`, `|`, `^`, `<<`, `>>` between Python scalars in a graph: MindSpore 2.10's results and
errors for the same programs."""
import pytest

import cellgraph as ms
from cellgraph import nn


class Expression(nn.Cell):
    """`a op b` for constants a and b (attributes, so the graph folds them)."""

    def __init__(self, text):
        super().__init__()
        left, self.op, right = text.split()
        self.a, self.b = eval(left), eval(right)  # the test's own literals

    def construct(self):
        if self.op == "&":
            return self.a & self.b
        if self.op == "|":
            return self.a | self.b
        if self.op == "^":
            return self.a ^ self.b
        if self.op == "<<":
            return self.a << self.b
        return self.a >> self.b


def _graph_of(expression):
    return Expression(expression)


@pytest.mark.parametrize("expression, expected", [
    ("True & 1", 1), ("True & False", 0), ("5 & -1", 5), ("True | 1", 1),
    ("True | False", 1), ("5 | -1", -1), ("5 ^ -1", -6), ("3 << 2", 12), ("16 >> 2", 4),
])
def test_values(expression, expected):
    out = _graph_of(expression)()
    assert out == expected and type(out) is int


_UNSUPPORTED = "Unsupported input type. For {}, only integer types are supported, but got "


@pytest.mark.parametrize("expression, error, message", [
    ("10.0 & 1", TypeError, ("For primitive[bit_and], the input argument[x_dtype] must be a "
                             "type of {Bool, Int32, Int64}, but got Float32.")),
    ("3 | 2.0", TypeError, ("For primitive[bit_or], the input argument[y_dtype] must be a type "
                            "of {Bool, Int32, Int64}, but got Float32.")),
    ("True ^ 1", TypeError, _UNSUPPORTED.format("BitXor")
     + "type of x:BoolImm, value of x:true, type of y:Int64Imm, value of y:1"),
    ("10.0 >> 1.0", TypeError, _UNSUPPORTED.format("BitRightShift")
     + "type of x:FP32Imm, value of x:10, type of y:FP32Imm, value of y:1"),
    ("5 << -1", ValueError, "For shift operator, shift count must be a non-negative integer."),
])
def test_errors(expression, error, message):
    with pytest.raises(error) as info:
        _graph_of(expression)()
    assert str(info.value).startswith(message)


def test_an_int_input_outside_int64_is_a_runtime_error():
    class Shift(nn.Cell):
        def construct(self, x, y):
            return x << y

    assert Shift()(2**62, 0) == 2**62
    with pytest.raises(RuntimeError, match="outside"):
        Shift()(2**63, 2)


def test_and_or_of_a_tensor_needs_one_element():
    """A Tensor has a truth value for `and`/`or` when it holds one element (MindSpore's
    ValueError otherwise)."""
    T = ms.Tensor

    @ms.jit
    def both(x, y):
        return x and y, x or y

    first, second = both(T([0]), T([1]))
    assert first.asnumpy().tolist() == [False] and second.asnumpy().tolist() == [True]
    with pytest.raises(ValueError, match=r"Only tensor which shape is \(\) or \(1,\) can be "
                                         r"converted to bool, but got tensor shape is \(2\)"):
        both(T([0, 1]), T([1, 2]))
