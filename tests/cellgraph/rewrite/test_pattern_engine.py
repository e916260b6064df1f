"""PatternEngine: matching chains and trees of calls and replacing them, as MindSpore 2.10's
rewrite does."""
from collections import OrderedDict

import numpy as np
import pytest

from cellgraph import Tensor, nn
from cellgraph.rewrite import (
    Node,
    PatternEngine,
    PatternNode,
    Replacement,
    ScopedValue,
    SymbolTree,
    VarNode,
)


class Chain(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 3, weight_init="ones", bias_init="zeros")
        self.relu = nn.ReLU()
        self.relu2 = nn.ReLU()
        self.tanh = nn.Tanh()

    def construct(self, x):
        x = self.dense(x)
        x = self.relu(x)
        y = self.tanh(x)
        x = self.relu2(x)
        return x + y


class DenseReluToSigmoid(Replacement):
    def build(self, pattern: PatternNode, is_chain_pattern: bool, matched: OrderedDict) -> list:
        dense = matched[pattern.get_inputs()[0].name()]
        relu = matched[pattern.name()]
        return [Node.create_call_cell(nn.Sigmoid(), relu.get_targets(), dense.get_args(),
                                      name="sigmoid")]


def _x():
    return Tensor(np.array([[0.5, -1.0, 0.25]], np.float32))


def test_chain_pattern_replaces_the_match():
    tree = SymbolTree.create(Chain())
    assert PatternEngine([nn.Dense, nn.ReLU], DenseReluToSigmoid()).apply(tree)
    assert [n.get_name() for n in tree.nodes()] == \
        ["input_x", "sigmoid", "tanh", "relu2", "binop_add", "return"]
    s = 1 / (1 + np.exp(-_x().asnumpy()))
    np.testing.assert_allclose(tree.get_network()(_x()).asnumpy(), np.maximum(s, 0) + np.tanh(s),
                               rtol=1e-6)


def test_a_match_whose_inner_node_has_other_users_is_left():
    tree = SymbolTree.create(Chain())
    # ReLU's output also feeds tanh: replacing ReLU(ReLU(...)) would drop it
    pattern = PatternEngine([nn.ReLU, nn.ReLU], DenseReluToSigmoid())
    assert not pattern.apply(tree)
    assert tree.get_node("relu") is not None


def test_tree_pattern_and_var_node():
    root = PatternNode("relu", nn.ReLU)
    root.add_input(PatternNode("dense", nn.Dense, [VarNode()]))
    matched = []

    class Record(Replacement):
        def build(self, pattern, is_chain_pattern, found):
            matched.append((is_chain_pattern, list(found)))
            return []

    assert not PatternEngine(root, Record()).apply(SymbolTree.create(Chain()))
    # a VarNode matches the input without naming it; an empty replacement changes nothing
    assert matched == [(False, ["dense", "relu"])]


def test_pattern_from_nodes_and_errors():
    tree = SymbolTree.create(Chain())
    pattern = PatternNode.create_pattern_from_node(tree.get_node("relu"))
    assert pattern.type() is nn.ReLU and pattern.get_inputs()[0].type() is nn.Dense
    assert PatternNode.create_pattern_from_list([nn.Dense, nn.ReLU]).name() == \
        f"1-{nn.ReLU}"
    with pytest.raises(TypeError):
        PatternEngine([int], DenseReluToSigmoid())
    with pytest.raises(TypeError):
        PatternEngine([nn.ReLU], "replacement")
    with pytest.raises(TypeError):
        PatternNode("a", nn.ReLU, [ScopedValue.create_naming_value("x")])
