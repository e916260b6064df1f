"""CellContainer nodes: a called SequentialCell's cells as nodes, edited in place and rebuilt
in the rewritten network. Names and types are MindSpore 2.10's."""
import numpy as np
import pytest

from cellgraph import Tensor, nn
from cellgraph.rewrite import Node, NodeType, PatternEngine, Replacement, ScopedValue, SymbolTree


class Double(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.relu(x)
        return x * 2


class Stack(nn.Cell):
    def __init__(self):
        super().__init__()
        self.seq = nn.SequentialCell([nn.ReLU(), nn.Dense(2, 2, weight_init="ones",
                                                          bias_init="zeros"), Double()])

    def construct(self, x):
        y = self.seq(x)
        return y


def _x():
    return Tensor(np.array([[1.0, -2.0]], np.float32))


def _cells(tree):
    return tree.get_node("seq").get_handler().nodes()


def test_cells_are_nodes():
    tree = SymbolTree.create(Stack())
    seq = tree.get_node("seq")
    assert seq.get_node_type() == NodeType.CellContainer
    cells = _cells(tree)
    assert [(c.name, c.node_type) for c in cells] == [
        ("ReLU", NodeType.CallCell), ("Dense", NodeType.CallCell), ("Double", NodeType.Tree)]
    # each shows the call's targets and arguments, as MindSpore's do
    assert [str(t) for t in Node(cells[1]).get_targets()] == ["y"]
    assert [str(a) for a in Node(cells[1]).get_args()] == ["x"]
    assert tree.get_node("Dense") == Node(cells[1])
    # all_nodes() goes into the sub-trees, those of a container's cells too
    assert [n.get_name() for n in tree.all_nodes()][-4:] == \
        ["input_x", "relu", "binop_mult", "return"]
    np.testing.assert_allclose(tree.get_network()(_x()).asnumpy(), [[2.0, 2.0]])


def test_insert_erase_and_replace_cells():
    net = Stack()
    tree = SymbolTree.create(net)
    dense = tree.get_node("Dense")
    tree.insert(tree.after(dense), Node.create_call_cell(nn.Tanh(), ["y"], name="tanh"))
    tree.erase(tree.get_node("ReLU"))
    assert [c.name for c in _cells(tree)] == ["Dense", "tanh", "Double"]
    new = tree.get_network()
    assert len(new.seq.cell_list) == 3 and isinstance(new.seq.cell_list[1], nn.Tanh)
    assert len(net.seq.cell_list) == 3 and isinstance(net.seq.cell_list[0], nn.ReLU)
    np.testing.assert_allclose(new(_x()).asnumpy(), [[0.0, 0.0]])
    tree.replace(tree.get_node("tanh"), [Node.create_call_cell(nn.Sigmoid(), ["y"],
                                                               name="sigmoid")])
    assert tree.get_code().count("self.seq = nn.SequentialCell([obj.seq[1], sigmoid, "
                                 "DoubleOpt(obj.seq[2])])") == 1
    s = 1 / (1 + np.exp(1.0))
    np.testing.assert_allclose(tree.get_network()(_x()).asnumpy(), [[2 * s, 2 * s]], rtol=1e-6)


def test_sub_network_in_a_container_is_rewritten():
    tree = SymbolTree.create(Stack())
    double = Node(tree.get_node("Double").get_handler()).get_sub_tree()
    double.get_node("binop_mult").set_arg(1, ScopedValue.create_variable_value(3))
    np.testing.assert_allclose(tree.get_network()(_x()).asnumpy(), [[3.0, 3.0]])


def test_pattern_inside_a_container():
    class ReluDenseToDense(Replacement):
        def build(self, pattern, is_chain_pattern, matched):
            return [Node.create_call_cell(nn.Dense(2, 2, weight_init="ones", bias_init="ones"),
                                          ["y"], name="dense")]

    tree = SymbolTree.create(Stack())
    # within a SequentialCell, each cell's input is the cell before it
    assert PatternEngine([nn.ReLU, nn.Dense], ReluDenseToDense()).apply(tree)
    assert [c.name for c in _cells(tree)] == ["dense", "Double"]
    np.testing.assert_allclose(tree.get_network()(_x()).asnumpy(), [[0.0, 0.0]])


class Blocks(nn.Cell):
    def __init__(self, as_list):
        super().__init__()
        cells = [nn.ReLU(), nn.Tanh(), Double()]
        self.blocks = cells if as_list else nn.CellList(cells)

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x


@pytest.mark.parametrize("as_list", [False, True])
def test_iterated_cell_list_is_a_container(as_list):
    net = Blocks(as_list)
    tree = SymbolTree.create(net)
    blocks = tree.get_node("self.blocks")
    # MindSpore 2.10 lists `self_blocks = self.blocks` as the CellContainer "self.blocks"
    assert blocks.get_node_type() == NodeType.CellContainer
    assert [str(t) for t in blocks.get_targets()] == ["self_blocks"]
    assert [c.name for c in blocks.get_handler().nodes()] == ["ReLU", "Tanh", "Double"]
    tree.erase(tree.get_node("Tanh"))
    tree.insert(tree.before(tree.get_node("ReLU")), Node.create_call_cell(
        nn.Sigmoid(), ["self_blocks"], name="sigmoid"))
    code = tree.get_code()
    assert code.count("for block in self_blocks:") == 1
    container = "[sigmoid, obj.blocks[0], DoubleOpt(obj.blocks[2])]" if as_list else \
        "nn.CellList([sigmoid, obj.blocks[0], DoubleOpt(obj.blocks[2])])"
    assert code.count(f"self.blocks = {container}") == 1
    x = Tensor(np.array([-1.0, 2.0], np.float32))
    s = 1 / (1 + np.exp(-x.asnumpy()))
    np.testing.assert_allclose(tree.get_network()(x).asnumpy(), s * 2, rtol=1e-6)
    assert len(net.blocks) == 3  # the original keeps its cells
