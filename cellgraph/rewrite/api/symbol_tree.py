"""`SymbolTree`: the public handle of a network's parsed forward method."""
from __future__ import annotations

from cellgraph.nn.cell import Cell
from cellgraph.safe_io import write_bytes

from ..codegen import code_text
from ..network import build_network
from ..static_if import flatten_branch, flatten_static_ifs
from ..symbol_tree import Position, SymbolTreeImpl
from .node import Node, check_type


def dump_text(tree) -> str:
    """The text `dump` prints."""
    lines = [f"SymbolTree of {tree.cls.__name__}:"]

    def add(nodes, depth):
        for node in nodes:
            args = [str(a) for a in node.args] + [f"{k}={v}" for k, v in node.kwargs.items()]
            head = f"{', '.join(str(t) for t in node.targets)} = " if node.targets else ""
            lines.append(f"{'  ' * depth}{head}{node.node_type.name} {node.name}"
                         f"({', '.join(args)})")
            add(node.children(), depth + 1)

    add(tree.root_nodes, 1)
    return "\n".join(lines)


def _impl(node):
    return node.get_handler() if isinstance(node, Node) else node


class SymbolTree:
    """A network's construct as nodes, to be read, edited and turned back into a network."""

    def __init__(self, handler: SymbolTreeImpl):
        check_type("SymbolTree", "handler", handler, (SymbolTreeImpl,))
        self._symbol_tree = handler

    @classmethod
    def create(cls, network) -> SymbolTree:
        """Parse `network`'s class's construct (and those of its user-defined sub-Cells)."""
        check_type("SymbolTree", "network", network, (Cell,))
        return cls(SymbolTreeImpl(network))

    def get_handler(self) -> SymbolTreeImpl:
        return self._symbol_tree

    def nodes(self, all_nodes: bool = False):
        """The top-level nodes; with `all_nodes`, those inside branches too."""
        check_type("nodes", "all_nodes", all_nodes, (bool,))
        tree = self._symbol_tree
        for node in tree.all_nodes() if all_nodes else tree.nodes():
            yield Node(node)

    def all_nodes(self, subtree_nodes: bool = True) -> list:
        check_type("all_nodes", "subtree_nodes", subtree_nodes, (bool,))
        return [Node(n) for n in self._symbol_tree.all_nodes(subtree_nodes)]

    def get_node(self, node_name: str) -> Node | None:
        check_type("SymbolTree", "node_name", node_name, (str,))
        found = self._symbol_tree.get_node(node_name)
        return None if found is None else Node(found)

    def get_inputs(self) -> list:
        return [Node(n) for n in self._symbol_tree.input_nodes()]

    def before(self, node) -> Position:
        """The position just before `node` (a Node or a node name)."""
        check_type("SymbolTree", "node", node, (Node, str))
        return self._symbol_tree.position(_impl(node), True)

    def after(self, node) -> Position:
        """The position just after `node` (a Node or a node name)."""
        check_type("SymbolTree", "node", node, (Node, str))
        return self._symbol_tree.position(_impl(node), False)

    def insert(self, position: Position, node: Node) -> Node:
        check_type("SymbolTree", "position", position, (Position,))
        check_type("SymbolTree", "node", node, (Node,))
        tree = position.tree
        return Node(tree.insert_node(node.get_handler(), position.node, position.before_node))

    def erase(self, node) -> Node:
        check_type("SymbolTree", "node", node, (Node, str))
        impl = _impl(node)
        tree = self._tree_of(impl)
        return Node(tree.erase_node(impl))

    def replace(self, old_node: Node, new_nodes: list) -> Node:
        check_type("SymbolTree", "old_node", old_node, (Node,))
        check_type("SymbolTree", "new_nodes", new_nodes, (list, tuple))
        for new in new_nodes:
            check_type("SymbolTree", "element of new_nodes", new, (Node,))
        if not new_nodes:
            raise ValueError("For replace, new_nodes should not be empty.")
        impl = old_node.get_handler()
        tree = self._tree_of(impl)
        return Node(tree.replace(impl, [n.get_handler() for n in new_nodes]))

    def _tree_of(self, impl):
        """A node of this tree or of one of its sub-trees is edited in its own tree."""
        if isinstance(impl, str) or impl.tree is None:
            return self._symbol_tree
        if impl.tree not in self._symbol_tree.trees_in_build_order():
            raise RuntimeError(f"Node is not belong to current SymbolTree: {impl.name}")
        return impl.tree

    def set_output(self, index: int, return_value: str) -> Node:
        check_type("SymbolTree", "index", index, (int,))
        check_type("SymbolTree", "return_value", return_value, (str,))
        return Node(self._symbol_tree.set_output(return_value, index))

    def unique_name(self, name: str = "output") -> str:
        """A name no node of the tree has yet (the name, or the name with a `_n` suffix)."""
        check_type("SymbolTree", "name", name, (str,))
        tree = self._symbol_tree
        taken = tree.names | {t for n in tree.walk() for t in n.target_names()}
        candidate, suffix = name, 0
        while candidate in taken:
            suffix += 1
            candidate = f"{name}_{suffix}"
        return candidate

    def flatten_nodes(self, node: Node, erase_nodes_after_return: bool = False) -> None:
        """Put the nodes of a ControlFlow node where it was (and, with
        `erase_nodes_after_return`, drop the nodes a `return` among them makes dead)."""
        check_type("flatten_nodes", "node", node, (Node,))
        check_type("flatten_nodes", "erase_nodes_after_return", erase_nodes_after_return,
                   (bool,))
        impl = node.get_handler()
        flatten_branch(self._tree_of(impl), impl, erase_nodes_after_return)

    def flatten_static_if_control_flow(self) -> None:
        """Keep, in place of each `if` whose test reads only `self`, globals and builtins,
        the branch that test takes on the original network."""
        flatten_static_ifs(self._symbol_tree)

    def get_code(self) -> str:
        """The rewritten classes as Python text (for reading: the network is built from the
        AST, not from this text)."""
        return code_text(self._symbol_tree)

    def get_network(self) -> Cell:
        """A new network that runs the tree as it is now."""
        return build_network(self._symbol_tree)

    def set_saved_file_name(self, file_name: str) -> None:
        """The file save_network_to_file writes (".py" added unless it ends so)."""
        check_type("Saving network", "file_name", file_name, (str,))
        self._symbol_tree.saved_file_name = file_name if file_name.endswith(".py") \
            else file_name + ".py"

    def get_saved_file_name(self) -> str:
        return self._symbol_tree.saved_file_name

    def save_network_to_file(self) -> None:
        """Write get_code()'s text to the saved file name (atomically), for reading."""
        write_bytes(self._symbol_tree.saved_file_name, self.get_code().encode("utf-8"))

    def get_origin_network(self) -> Cell:
        return self._symbol_tree.network

    def dump(self) -> None:
        """Print the tree, one line per node (`targets = Type name(args)`), the nodes of
        branches, containers and parsed functions indented under theirs."""
        print(dump_text(self._symbol_tree))

    def print_node_tabulate(self, all_nodes: bool = False) -> None:
        """Print one line per node: type, name, code, targets, args, kwargs."""
        check_type("print_node_tabulate", "all_nodes", all_nodes, (bool,))
        rows = [("node type", "name", "targets", "args", "kwargs")]
        for node in self.nodes(all_nodes):
            rows.append((node.get_node_type().name, node.get_name(),
                         str(node.get_targets()), str(node.get_args()),
                         str(node.get_kwargs())))
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        print("\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
                        for r in rows))
