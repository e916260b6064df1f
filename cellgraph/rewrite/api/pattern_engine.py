"""PatternEngine: find a pattern of calls in a SymbolTree and replace each match.

A pattern is a tree of PatternNodes read from its root back through inputs: the root matches
a node whose instance type is the root's type and whose inputs match the root's inputs, in
order. A chain pattern `[nn.Conv2d, nn.ReLU]` is the pattern ReLU(Conv2d(...)). A match is
replaced by what the Replacement builds from it, unless a node inside it other than the root
has a user outside it (the match would leak)."""
from __future__ import annotations

import abc
from collections import OrderedDict

from cellgraph.nn.cell import Cell
from cellgraph.ops.primitive import Primitive
from cellgraph.ops.primitive_class import PrimitiveClass

from .node import Node, check_type
from .node_type import NodeType
from .symbol_tree import SymbolTree

_MATCHABLE = (NodeType.CallCell, NodeType.CallPrimitive, NodeType.Input)
_MATCHES_NOTHING = type[None]  # MindSpore's default match type: no node's type equals it


class PatternNode:
    """A node of a pattern: a name, the type it matches and the patterns of its inputs."""

    def __init__(self, pattern_node_name: str, match_type=_MATCHES_NOTHING, inputs=None):
        check_type("PatternNode", "pattern_node_name", pattern_node_name, (str,))
        if inputs is not None:
            _check_patterns(inputs)
        self._name = pattern_node_name
        self._type = match_type
        self._inputs = list(inputs) if inputs is not None else []

    @staticmethod
    def from_node(node: Node) -> PatternNode:
        """A pattern node named after `node`'s first target, matching its type if it calls a
        Cell."""
        check_type("PatternNode", "node", node, (Node,))
        pattern = PatternNode(str(node.get_targets()[0]))
        if node.get_node_type() is NodeType.CallCell:
            pattern._type = node.get_instance_type()
        return pattern

    @staticmethod
    def create_pattern_from_node(node: Node) -> PatternNode:
        """The pattern of `node` and, recursively, of its inputs."""
        check_type("PatternNode", "node", node, (Node,))
        pattern = PatternNode.from_node(node)
        pattern._inputs = [PatternNode.create_pattern_from_node(n) for n in node.get_inputs()]
        return pattern

    @staticmethod
    def create_pattern_from_list(type_list: list) -> PatternNode:
        """The chain pattern of `type_list`: each type's input is the one before it."""
        check_type("PatternNode", "type_list", type_list, (list,))
        last = None
        for i, cell_type in enumerate(type_list):
            last = PatternNode(f"{i}-{cell_type}", cell_type, [last] if last else [])
        return last

    def add_input(self, node: PatternNode) -> None:
        check_type("PatternNode", "node", node, (PatternNode,))
        self._inputs.append(node)

    def set_inputs(self, inputs: list) -> None:
        _check_patterns(inputs)
        self._inputs = list(inputs)

    def match(self, node: Node) -> bool:
        check_type("PatternNode", "node", node, (Node,))
        return self._type == node.get_instance_type()

    def get_inputs(self) -> list:
        return self._inputs

    def name(self) -> str:
        return self._name

    def type(self):
        return self._type


class VarNode(PatternNode):
    """A pattern node that matches any node."""

    def __init__(self):
        super().__init__("placeholder", Cell, [])

    def match(self, node: Node) -> bool:
        return node is not None and node.get_handler() is not None


class Replacement(abc.ABC):
    """Builds the nodes that replace a match."""

    @abc.abstractmethod
    def build(self, pattern: PatternNode, is_chain_pattern: bool, matched: OrderedDict) -> list:
        """The new nodes, from the pattern's root and the matched nodes by pattern name."""
        raise NotImplementedError

    def __call__(self, pattern, is_chain_pattern, matched):
        return self.build(pattern, is_chain_pattern, matched)


class PatternEngine:
    """Applies a pattern (a PatternNode, or a list of Cell/primitive types for a chain) and
    its Replacement to SymbolTrees."""

    def __init__(self, pattern, replacement: Replacement = None):
        check_type("PatternEngine", "replacement", replacement, (Replacement,))
        if isinstance(pattern, list):
            for item in pattern:
                if not (isinstance(item, type) and issubclass(item, (Cell, Primitive,
                                                                     PrimitiveClass))):
                    raise TypeError(f"The type of 'pattern' should be one of [Cell, Primitive]"
                                    f"but got '{item}' with type '{type(item).__name__}'.")
            self._pattern, self._is_chain = PatternNode.create_pattern_from_list(pattern), True
        else:
            check_type("PatternEngine", "pattern", pattern, (PatternNode,))
            self._pattern, self._is_chain = pattern, False
        self._replacement = replacement

    def pattern(self) -> PatternNode:
        return self._pattern

    def apply(self, stree: SymbolTree) -> bool:
        """Replace every match in `stree` (and its sub-trees), walking from the inputs along
        users; True if anything changed."""
        check_type("PatternEngine", "stree", stree, (SymbolTree,))
        changed = False
        queue, visited = list(stree.get_inputs()), []
        while queue:
            node = queue.pop(0)
            if node is None or node in visited:
                continue
            visited.append(node)
            if node.get_node_type() in (NodeType.Tree, NodeType.CellContainer):
                changed |= self._apply_inside(stree, node)
                queue.extend(node.get_users())
                continue
            root = self._replace_match(stree, node, check_leaks=True)
            if root is None:
                queue.extend(node.get_users())
            else:
                changed = True
                queue.append(root)
        return changed

    def _apply_inside(self, stree: SymbolTree, node: Node) -> bool:
        """Apply to a sub-network's tree, or to the cells of a SequentialCell in turn."""
        if node.get_node_type() == NodeType.Tree:
            return self.apply(node.get_sub_tree())
        changed = False
        for cell in node.get_handler().nodes():
            if cell.owner is None:  # erased by an earlier replacement
                continue
            if cell.node_type == NodeType.Tree:
                changed |= self.apply(Node(cell).get_sub_tree())
            else:
                changed |= self._replace_match(stree, Node(cell), check_leaks=False) is not None
        return changed

    def _replace_match(self, stree: SymbolTree, node: Node, check_leaks: bool):
        """Replace the match rooted at `node`, if any; the last new node, or None."""
        matched = self._match(self._pattern, node)
        if matched is None or (check_leaks and self._leaks(matched)):
            return None
        new_nodes = self._replacement(self._pattern, self._is_chain, matched) \
            if self._replacement is not None else []
        if not new_nodes:
            return None
        root = stree.replace(node, new_nodes)
        for old in reversed(list(matched.values())):
            if old != node:
                stree.erase(old)
        return root

    def _match(self, pattern: PatternNode, node: Node):
        """The matched nodes by pattern name, or None."""
        if node.get_node_type() not in _MATCHABLE or not pattern.match(node):
            return None
        if isinstance(pattern, VarNode):
            return OrderedDict()
        wanted, inputs = pattern.get_inputs(), node.get_inputs()
        if not wanted:
            return OrderedDict({pattern.name(): node})
        if len(wanted) != len(inputs):
            return None
        result = OrderedDict()
        for sub_pattern, sub_node in zip(wanted, inputs):
            found = self._match(sub_pattern, sub_node)
            if found is None:
                return None
            result.update(found)
        result[pattern.name()] = node
        return result

    def _leaks(self, matched: OrderedDict) -> bool:
        """A matched node other than the root has a user outside the match."""
        nodes = list(matched.values())
        return any(user not in nodes for key, node in matched.items()
                   if key != self._pattern.name() for user in node.get_users())


def _check_patterns(inputs) -> None:
    check_type("PatternNode", "inputs", inputs, (list, tuple))
    for item in inputs:
        check_type("PatternNode", "element of inputs", item, (PatternNode,))
