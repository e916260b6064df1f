"""`Node`: the public handle of one node of a SymbolTree."""
from __future__ import annotations

import types

from cellgraph.nn.cell import Cell
from cellgraph.ops.primitive import Primitive
from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives.core import Primitive as OpPrimitive

from ..cells import is_user_cell
from ..node import NodeImpl
from ..symbol_tree import set_node_arg, set_node_arg_by_node
from ..values import as_value, check_identifier
from .node_type import NodeType
from .scoped_value import ScopedValue

# a functional op (`ops.abs`) is a primitive object in cellgraph, a function in MindSpore
_CALLABLE_FUNCTIONS = (types.FunctionType, types.BuiltinFunctionType, type, OpPrimitive)


def check_type(owner: str, name: str, value, types_) -> None:
    """TypeError, as MindSpore's validator words it, when `value` is not of `types_`."""
    if not isinstance(value, types_) or (isinstance(value, bool) and bool not in types_
                                         and int in types_):
        wanted = ", ".join(t.__name__ for t in types_)
        raise TypeError(f"For '{owner}', the type of '{name}' should be one of [{wanted}], "
                        f"but got {value!r} with type {type(value).__name__}.")


def _check_items(owner: str, name: str, values, types_) -> None:
    check_type(owner, name, values, (list, tuple))
    for value in values:
        check_type(owner, f"element of {name}", value, types_)


def _check_kwargs(owner: str, kwargs) -> None:
    check_type(owner, "kwargs", kwargs, (dict,))
    for key, value in kwargs.items():
        check_type(owner, "key of kwargs", key, (str,))
        check_type(owner, "value of kwargs", value, (ScopedValue,))


def _targets(targets) -> list:
    values = [as_value(t) for t in targets]
    for value in values:
        check_identifier(value.value, "a target's name")
    return values


def _wrap(impl):
    return None if impl is None else Node(impl)


class Node:
    """A node of a SymbolTree: one statement of a network's forward method."""

    def __init__(self, node: NodeImpl):
        self._node = node

    def __eq__(self, other):
        return isinstance(other, Node) and self._node is other._node

    def __hash__(self):
        return id(self._node)

    @staticmethod
    def create_call_cell(cell, targets, args=None, kwargs=None, name: str = "",
                         is_sub_net: bool = False) -> Node:
        """A node `targets = self.<name>(*args, **kwargs)` calling `cell` (a Cell or a
        primitive), held by the network as the attribute `name` once inserted. With
        `is_sub_net`, a user-defined Cell becomes a Tree node with its own SymbolTree."""
        check_type("Node", "cell", cell, (Cell, Primitive, PrimitiveClass))
        _check_items("Node", "targets", targets, (ScopedValue, str))
        check_type("Node", "name", name, (str,))
        check_type("Node", "is_sub_net", is_sub_net, (bool,))
        if args is not None:
            _check_items("Node", "args", args, (ScopedValue,))
        if kwargs is not None:
            _check_kwargs("Node", kwargs)
        name = check_identifier(name or type(cell).__name__.lower(), "the node's name")
        node_type = NodeType.Tree if is_sub_net and is_user_cell(cell) else NodeType.CallCell \
            if isinstance(cell, Cell) else NodeType.CallPrimitive
        impl = NodeImpl(node_type, name, "call", targets=_targets(targets),
                        func=ScopedValue.create_naming_value(name, "self"),
                        args=list(args or ()), kwargs=dict(kwargs or {}), instance=cell)
        impl.holds_callee = True
        return Node(impl)

    @staticmethod
    def create_call_function(function, targets, args=None, kwargs=None) -> Node:
        """A node `targets = function(*args, **kwargs)`."""
        check_type("create_call_function", "function", function, _CALLABLE_FUNCTIONS)
        _check_items("create_call_function", "targets", targets, (ScopedValue, str))
        if args is not None:
            _check_items("create_call_function", "args", args, (ScopedValue,))
        if kwargs is not None:
            _check_kwargs("create_call_function", kwargs)
        name = check_identifier(getattr(function, "__name__", None) or function.name,
                                "the function's name")
        impl = NodeImpl(NodeType.CallFunction, name, "call", targets=_targets(targets),
                        func=ScopedValue.create_naming_value(name), args=list(args or ()),
                        kwargs=dict(kwargs or {}), instance=function)
        impl.function = function
        return Node(impl)

    @staticmethod
    def create_input(param_name: str, default=None) -> Node:
        """An Input node for a parameter `param_name` of the forward method."""
        check_type("Node", "param_name", param_name, (str,))
        if default is not None:
            check_type("Node", "default", default, (ScopedValue,))
        check_identifier(param_name, "param_name")
        impl = NodeImpl(NodeType.Input, f"input_{param_name}", "input",
                        targets=[ScopedValue.create_naming_value(param_name)])
        impl.default = default
        return Node(impl)

    def get_handler(self) -> NodeImpl:
        return self._node

    def get_inputs(self) -> list:
        """The nodes whose targets this node's arguments read."""
        tree = self._node.tree
        if tree is None or self._node.owner is None:
            return []
        seen = []
        for provider, _ in tree.providers(self._node).values():
            if all(provider is not s for s in seen):
                seen.append(provider)
        return [Node(n) for n in seen]

    def get_users(self) -> list:
        """The nodes that read this node's targets."""
        tree = self._node.tree
        if tree is None or self._node.owner is None:
            return []
        seen = []
        for readers in tree.users(self._node).values():
            for reader, _ in readers:
                if all(reader is not s for s in seen):
                    seen.append(reader)
        return [Node(n) for n in seen]

    def set_arg(self, index: int, arg) -> None:
        """Make argument `index` read `arg` (a ScopedValue or a name)."""
        check_type("Node", "index", index, (int,))
        check_type("Node", "arg", arg, (ScopedValue, str))
        set_node_arg(self._node, index, arg)

    def set_arg_by_node(self, arg_idx: int, src_node: Node, out_idx=None) -> None:
        """Make argument `arg_idx` read target `out_idx` of `src_node`."""
        check_type("Node", "arg_idx", arg_idx, (int,))
        check_type("Node", "src_node", src_node, (Node,))
        if out_idx is not None:
            check_type("Node", "out_idx", out_idx, (int,))
        set_node_arg_by_node(self._node, arg_idx, src_node._node, out_idx)

    def get_targets(self) -> list:
        return list(self._node.targets)

    def get_name(self) -> str:
        return self._node.name

    def get_node_type(self) -> NodeType:
        return self._node.node_type

    def get_instance_type(self) -> type:
        """The type of the object called; a called function or class itself."""
        instance = self._node.instance
        if isinstance(instance, _CALLABLE_FUNCTIONS) or (
                instance is not None and self._node.node_type == NodeType.CallFunction):
            return instance
        return type(instance)

    def get_instance(self):
        return self._node.instance

    def get_args(self) -> list:
        return list(self._node.args)

    def get_kwargs(self) -> dict:
        return dict(self._node.kwargs)

    def get_symbol_tree(self):
        from .symbol_tree import SymbolTree

        tree = self._node.tree
        return None if tree is None else SymbolTree(tree)

    def get_sub_tree(self):
        """The SymbolTree of a Tree node's sub-network."""
        if self._node.node_type != NodeType.Tree:
            raise TypeError(f"For get_sub_tree, the type of node should be 'NodeType.Tree', "
                            f"but got {self._node.node_type}")
        if self._node.symbol_tree is None:
            raise AttributeError(f"For get_sub_tree, no symbol tree is stored in node "
                                 f"{self._node.name}.")
        from .symbol_tree import SymbolTree

        return SymbolTree(self._node.symbol_tree)

    def set_attribute(self, key: str, value) -> None:
        check_type("Node attribute", "key", key, (str,))
        self._node.attributes[key] = value

    def get_attributes(self) -> dict:
        return dict(self._node.attributes)

    def get_attribute(self, key: str):
        check_type("Node attribute", "key", key, (str,))
        return self._node.attributes.get(key)

    def get_arg_providers(self) -> dict:
        """{argument index: (the Node that assigns what it reads, that node's target index)}."""
        tree = self._node.tree
        if tree is None or self._node.owner is None:
            return {}
        return {i: (Node(n), t) for i, (n, t) in tree.providers(self._node).items()}

    def get_target_users(self, index: int = -1):
        """The (Node, argument index) pairs that read target `index`; all targets by index
        when `index` is -1."""
        check_type("get_target_users", "index", index, (int,))
        tree = self._node.tree
        users = tree.users(self._node) if tree is not None and self._node.owner else {}
        wrapped = {t: [(Node(n), i) for n, i in readers] for t, readers in users.items()}
        if index == -1:
            return wrapped
        return wrapped.get(index, [])
