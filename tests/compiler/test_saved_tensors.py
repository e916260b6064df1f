"""compiler/saved_tensors.saved_positions: which of an operation's inputs and outputs its bprop
rule reads for the gradients wanted (what MindSpore's backward pass saves: mul its inputs, exp
its output, add and a sum nothing)."""
import pytest

from cellgraph.compiler.builder import Builder
from cellgraph.compiler.saved_tensors import saved_positions
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import PRIMITIVES, TensorType

F32 = TensorType((2, 3), dt.float32)


def positions(name, n_in, needed=None, order="inputs", **params):
    prim = PRIMITIVES[name]
    builder = Builder("test")
    with builder.active():
        ins = [builder.add_param(F32) for _ in range(n_in)]
        outs = [prim(*ins, **params)]
        return saved_positions(prim, {**prim.params, **params}, ins, outs,
                               needed or (True,) * n_in, order)


@pytest.mark.parametrize("name, n_in, expected", [
    ("mul", 2, [0, 1]),   # x and y
    ("add", 2, []),       # the gradient is dout itself
    ("exp", 1, [1]),      # its output
    ("sin", 1, [0]),      # its input
    ("tanh", 1, [1]),
    ("neg", 1, []),
])
def test_what_a_rule_reads(name, n_in, expected):
    assert positions(name, n_in) == expected


def test_only_the_gradients_wanted():
    assert positions("mul", 2, needed=(True, False)) == [1]  # d/dx reads y only
    assert positions("mul", 2, needed=(False, True)) == [0]


def test_order_of_first_use():
    # mul's rule computes dout * y (for x) before dout * x (for y)
    assert positions("mul", 2, order="use") == [1, 0]
    assert positions("mul", 2, order="inputs") == [0, 1]


def test_shape_reads_are_not_saved():
    assert positions("reduce_sum", 1, axis=(1,)) == []
