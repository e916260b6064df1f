"""User functions and methods the forward method calls are parsed into CallFunction nodes
with a body, edited there and written back (MindSpore 2.10's rewrite parses them too)."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.rewrite import Node, NodeType, ScopedValue, SymbolTree


def shift(x):
    x = ops.abs(x)
    return x + 1


class WithHelpers(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()
        self.neg = ops.Neg()

    def construct(self, x):
        x = shift(x)
        x = self.scale(x)
        return x

    def scale(self, x):
        x = self.neg(x)
        return self.relu(x * -2.0)


def _x():
    return Tensor(np.array([-1.0, 0.5], np.float32))


def _bodies(tree):
    return {name: [n.name for n in tree.get_node(name).get_handler().nodes()]
            for name in ("shift", "scale")}


def test_calls_of_user_functions_have_bodies():
    tree = SymbolTree.create(WithHelpers())
    # the helpers are parsed as their calls are met, so construct's return is `return_2`
    assert [n.get_name() for n in tree.nodes()] == ["input_x", "shift", "scale", "return_2"]
    assert tree.get_node("shift").get_node_type() == NodeType.CallFunction
    assert tree.get_node("scale").get_node_type() == NodeType.CallFunction
    assert _bodies(tree) == {"shift": ["input_x_1", "abs", "binop_add", "return"],
                             "scale": ["input_x_2", "neg", "unaryop_usub", "binop_mult", "relu",
                                       "return_1"]}
    relu = tree.get_node("relu")
    assert [n.get_name() for n in relu.get_inputs()] == ["binop_mult"]
    code = tree.get_code()
    assert code.count("def shift(x):") == 1 and code.count("def scale(self, x):") == 1
    assert code.count("add_var = x + 1") == 1


@pytest.mark.parametrize("mode", [cellgraph.GRAPH_MODE, cellgraph.PYNATIVE_MODE])
def test_edits_inside_functions_reach_the_network(mode):
    cellgraph.set_context(mode=mode)
    tree = SymbolTree.create(WithHelpers())
    tree.erase(tree.get_node("abs"))  # in the global function
    relu = tree.get_node("relu")  # in the method: a Cell held by the network
    tanh = Node.create_call_cell(nn.Tanh(), ["relu_var"], [ScopedValue.create_naming_value(
        "relu_var")], name="tanh")
    tree.insert(tree.after(relu), tanh)
    tree.get_node("return_1").set_arg(0, "relu_var")
    x = _x().asnumpy()
    want = np.tanh(np.maximum(-(x + 1) * -2.0, 0))
    np.testing.assert_allclose(tree.get_network()(_x()).asnumpy(), want, rtol=1e-6)
    # the original functions are untouched
    np.testing.assert_allclose(shift(_x()).asnumpy(), np.abs(x) + 1)


def test_a_cell_cannot_join_a_global_function():
    tree = SymbolTree.create(WithHelpers())
    node = Node.create_call_cell(nn.Tanh(), ["x"], [ScopedValue.create_naming_value("x")])
    with pytest.raises(TypeError):
        tree.insert(tree.after(tree.get_node("abs")), node)
    function = Node.create_call_function(ops.tanh, ["x"], [ScopedValue.create_naming_value("x")])
    tree.insert(tree.after(tree.get_node("abs")), function)
    x = _x().asnumpy()
    np.testing.assert_allclose(tree.get_network()(_x()).asnumpy(),
                               np.maximum(-(np.tanh(np.abs(x)) + 1) * -2.0, 0), rtol=1e-6)
