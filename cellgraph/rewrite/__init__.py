"""Rewriting a network's source: `SymbolTree.create(net)` parses the class's construct into
nodes (one per statement, nested calls flattened into their own statements); nodes are read,
inserted, erased and replaced, and `get_network()` gives a new network running the result
(`get_code()` shows it). MindSpore's `mindspore.rewrite`."""
from .api.node import Node
from .api.node_type import NodeType
from .api.pattern_engine import PatternEngine, PatternNode, Replacement, VarNode  # noqa: F401
from .api.scoped_value import ScopedValue, ValueType
from .api.symbol_tree import SymbolTree

# PatternEngine and its helpers are exported outside __all__, as MindSpore does
__all__ = ["Node", "NodeType", "ScopedValue", "SymbolTree", "ValueType"]
