"""The nodes of a SymbolTree. A node is one statement of the forward method: what it assigns
(targets), what it computes (`form`: a call, an operator, a container, a statement kept as
written...) and from what (args, kwargs). The statement is rebuilt from these when code is
generated, so a node changed through the API writes its new form."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .api.node_type import NodeType
from .api.scoped_value import ScopedValue, ValueType


@dataclass(eq=False)
class NodeImpl:
    """One statement (or `if`/`for`/`while` branch) of a forward method."""

    node_type: NodeType
    name: str
    form: str  # how the statement is written: see codegen.STATEMENT_WRITERS
    targets: list = field(default_factory=list)
    func: ScopedValue | None = None
    args: list = field(default_factory=list)
    kwargs: dict = field(default_factory=dict)
    instance: object = None
    op: ast.AST | None = None  # the operator of a MathOps node
    source: ast.AST | None = None  # the statement as parsed (its location; kept for Python)
    body: list | None = None  # the nodes of a ControlFlow branch
    loop_target: ast.AST | None = None  # `for <target> in ...`
    condition: ast.AST | None = None  # an `if`'s test as written, before flattening
    symbol_tree: object = None  # the SymbolTreeImpl of a Tree node
    function_scope: object = None  # the parsed user function a CallFunction node calls
    container: list | None = None  # the nodes of a CellContainer
    owner: list | None = None  # the list of nodes this node sits in
    tree: object = None  # the SymbolTreeImpl it belongs to
    parent: NodeImpl | None = None  # the ControlFlow node whose body holds it
    holds_callee: bool = False  # made by create_call_cell: the network holds what it calls
    function: object = None  # made by create_call_function: the function, bound as a global
    default: object = None  # an Input's default value
    attributes: dict = field(default_factory=dict)  # the user's (Node.set_attribute)

    def __repr__(self):
        return f"Node({self.name}: {self.node_type.name})"

    def target_names(self) -> list:
        """The names this node assigns, dotted for attributes (`self.c1`)."""
        return [str(t) for t in self.targets if t.type == ValueType.NamingValue]

    def read_names(self) -> list:
        """The names this node's arguments read (dotted for attributes), with the argument
        index each sits at (keyword arguments after the positional ones)."""
        reads = []
        values = list(self.args) + list(self.kwargs.values())
        for index, value in enumerate(values):
            for name in _names_in(value):
                reads.append((name, index))
        return reads

    def append_kwarg(self, kwargs: dict) -> None:
        """Add keyword arguments ({name: ScopedValue}) to a call."""
        for key, value in kwargs.items():
            if not isinstance(key, str) or not isinstance(value, ScopedValue):
                raise TypeError(f"For append_kwarg, kwargs should map str to ScopedValue, "
                                f"but got {key!r}: {value!r}.")
            self.kwargs[key] = value

    def get_target_users(self, index=None):
        """{target index: [(node, argument index)]}, or the list of one target's users."""
        users = self.tree.users(self) if self.tree is not None and self.owner else {}
        return users if index is None else users.get(index, [])

    def get_arg_providers(self) -> dict:
        """{argument index: (node, target index)}."""
        return self.tree.providers(self) if self.tree is not None and self.owner else {}

    def nodes(self) -> list:
        """The nodes of a ControlFlow branch or a CellContainer."""
        return list(self.body if self.body is not None else self.container or ())

    @property
    def node_list(self) -> list:
        """The nodes of a CellContainer, one per cell (MindSpore's name)."""
        return list(self.container or ())

    def in_container(self) -> bool:
        """A cell of a SequentialCell, not a statement."""
        return self.parent is not None and self.parent.node_type == NodeType.CellContainer

    def get_name(self) -> str:
        return self.name

    def get_node_type(self) -> NodeType:
        return self.node_type

    def get_instance_type(self) -> type:
        return type(self.instance)

    def children(self) -> list:
        """The nodes nested in this one (a branch's body, a container's cells)."""
        return list(self.body or ()) + list(self.container or ())


def _names_in(value: ScopedValue) -> list:
    if value.type == ValueType.NamingValue:
        return [str(value)]
    if value.type in (ValueType.TupleValue, ValueType.ListValue):
        return [name for v in value.value for name in _names_in(v)]
    if value.type == ValueType.DictValue:
        return [name for v in value.value.values() for name in _names_in(v)]
    if value.type == ValueType.UnsupportedValue and isinstance(value.value, ast.AST):
        return [n.id for n in ast.walk(value.value)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    return []


# MindSpore's name for its internal node class (`mindspore.rewrite.node.Node`), the one
# `rewrite.Node.get_handler()` returns
Node = NodeImpl
