"""SymbolTreeImpl: the nodes of one network's forward method, with what is needed to write
them back (the class, its module's namespace, the parsed method) and the edits the API makes."""
from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass

from cellgraph.nn.cell import Cell
from cellgraph.nn.layer.container import SequentialCell
from cellgraph.ops.primitive import Primitive
from cellgraph.ops.primitive_class import PrimitiveClass

from .api.node_type import NodeType
from .api.scoped_value import ScopedValue, ValueType
from .cells import container_cells, is_user_cell
from .flattener import Flattener, used_names
from .functions import enclosing_scope
from .node import NodeImpl
from .parser import parse_body, resolve_dotted
from .values import as_value, check_identifier


@dataclass(frozen=True)
class Position:
    """Where a node goes: before or after `node`, in the body `node` sits in."""

    tree: object
    node: NodeImpl
    before_node: bool


def _class_source(cls) -> tuple:
    """(the class's ClassDef with line numbers of its file, the file, the indent removed)."""
    try:
        lines, start = inspect.getsourcelines(cls)
        filename = inspect.getsourcefile(cls) or inspect.getfile(cls)
    except (OSError, TypeError) as e:
        raise RuntimeError(f"For rewrite, the source of {cls.__name__} is not available "
                           f"({e}); define the network in a file.") from None
    text = "".join(lines)
    indent = len(text) - len(text.lstrip(" \t"))
    module = ast.parse(textwrap.dedent(text))
    ast.increment_lineno(module, start - 1)
    class_ast = next(n for n in module.body if isinstance(n, ast.ClassDef))
    return class_ast, filename, indent


class SymbolTreeImpl:
    """The nodes of `network`'s construct and how to write them back."""

    def __init__(self, network: Cell):
        self.network = network
        self.cls = type(network)
        owner = next((k for k in self.cls.__mro__ if "construct" in vars(k)), self.cls)
        self.owner_cls = owner  # the class whose construct is parsed
        class_ast, self.filename, self.indent = _class_source(owner)
        function = next((n for n in class_ast.body
                         if isinstance(n, ast.FunctionDef) and n.name == "construct"), None)
        if function is None:
            raise RuntimeError(f"For rewrite, {owner.__name__} has no construct method.")
        self.namespace = vars(inspect.getmodule(owner)) if inspect.getmodule(owner) else {}
        self.function_ast = function
        self.names: set = set()  # node names
        self.added_attributes: dict = {}  # attribute name -> value given with an inserted node
        self.sub_trees: dict = {}  # attribute name -> SymbolTreeImpl of a user-defined Cell
        self.function_scopes: dict = {}  # user function -> its FunctionScope
        self.global_bindings: dict = {}  # global name -> function a created node calls
        self.saved_file_name = "./network_define.py"
        function.body = Flattener(used_names(function)).flatten_body(function.body)
        inputs = [self.new_node(NodeType.Input, f"input_{a.arg}", "input",
                                targets=[ScopedValue.create_naming_value(a.arg)], source=a)
                  for a in (function.args.posonlyargs + function.args.args)[1:]]
        self.root_nodes = self.adopt(inputs + parse_body(self, function.body), None)

    # ---- building

    def new_node(self, node_type: NodeType, name: str, form: str, **fields) -> NodeImpl:
        node = NodeImpl(node_type, self.unique_name(name), form, **fields)
        node.tree = self
        return node

    def unique_name(self, name: str) -> str:
        """`name`, or `name_1`, `name_2`... when a node or an attribute has it."""
        base, candidate, suffix = name, name, 0
        while candidate in self.names:
            suffix += 1
            candidate = f"{base}_{suffix}"
        self.names.add(candidate)
        return candidate

    def adopt(self, nodes: list, parent) -> list:
        for node in nodes:
            node.owner = nodes
            node.tree = self
            node.parent = parent
        return nodes

    def classify_callee(self, parts: list) -> tuple:
        """(NodeType, the object called) for a call of `a.b.c`."""
        if parts[0] == "self" and len(parts) == 2:
            obj = getattr(self.network, parts[1], None)
            if isinstance(obj, SequentialCell):
                return NodeType.CellContainer, obj
            if is_user_cell(obj):
                return NodeType.Tree, obj
            if isinstance(obj, Cell):
                return NodeType.CallCell, obj
            if isinstance(obj, (Primitive, PrimitiveClass)):
                return NodeType.CallPrimitive, obj
            return NodeType.CallMethod, obj
        obj = resolve_dotted(parts, self.namespace)
        if isinstance(obj, (Primitive, PrimitiveClass)):
            return NodeType.CallPrimitive, obj
        if isinstance(obj, Cell):
            return NodeType.CallCell, obj
        return NodeType.CallFunction, obj

    def container_nodes(self, container, call: NodeImpl) -> list:
        """One node per cell of a SequentialCell, named by its class: a Tree node for a
        user-defined Cell, a CallCell node otherwise. Each shows the call's targets and
        arguments, as MindSpore's do."""
        nodes = []
        for cell in container_cells(container):
            node_type = NodeType.Tree if is_user_cell(cell) else NodeType.CallCell
            node = self.new_node(node_type, type(cell).__name__, "cell", instance=cell,
                                 targets=list(call.targets), args=list(call.args))
            if node_type == NodeType.Tree:
                node.symbol_tree = SymbolTreeImpl(cell)
            nodes.append(node)
        return nodes

    def sub_tree_for(self, attribute: str, cell) -> SymbolTreeImpl:
        """The one sub-tree of the user-defined Cell held at `self.<attribute>`."""
        if attribute not in self.sub_trees:
            self.sub_trees[attribute] = SymbolTreeImpl(cell)
        return self.sub_trees[attribute]

    # ---- reading

    def walk(self, nodes=None):
        """Every node of this tree in program order, branch bodies inside their branch."""
        for node in self.root_nodes if nodes is None else nodes:
            yield node
            if node.body and node.function_scope is None:
                yield from self.walk(node.body)

    def all_nodes(self, subtree_nodes: bool = False) -> list:
        """The top-level nodes, then those of each branch, level by level; with
        `subtree_nodes`, the nodes of sub-trees after."""
        result, level, seen = [], list(self.root_nodes), set()
        while level:
            level = [node for node in level if id(node) not in seen]
            seen.update(id(node) for node in level)
            result.extend(level)
            level = [child for node in level for child in node.children()]
        if subtree_nodes:
            for sub_tree in self.sub_trees_all():
                result.extend(sub_tree.all_nodes(True))
        return result

    def nodes(self) -> list:
        """The top-level nodes (inputs, statements, the output), in order."""
        return list(self.root_nodes)

    @property
    def _nodes(self) -> dict:
        """Every node of the tree by name (MindSpore's SymbolTree keeps this table)."""
        return {node.name: node for node in self.walk()}

    def get_node(self, name: str) -> NodeImpl | None:
        return next((n for n in self.all_nodes() if n.name == name), None)

    def input_nodes(self) -> list:
        return [n for n in self.root_nodes if n.node_type == NodeType.Input]

    def _scope_order(self, node: NodeImpl) -> list:
        """The nodes of the function `node` runs in (construct or a parsed helper), in
        program order."""
        scope = enclosing_scope(node)
        return list(self.walk(None if scope is None else scope.nodes))

    def providers(self, node: NodeImpl) -> dict:
        """{argument index: (node, target index)}: the latest node before `node` that assigns
        the name an argument reads. A cell of a SequentialCell reads the cell before it."""
        if node.in_container():
            index = node.owner.index(node)
            return {0: (node.owner[index - 1], 0)} if index > 0 else {}
        order = self._scope_order(node)
        before = order[:order.index(node)]
        found = {}
        for name, index in node.read_names():
            for earlier in reversed(before):
                names = earlier.target_names()
                if name in names:
                    found.setdefault(index, (earlier, names.index(name)))
                    break
        return found

    def users(self, node: NodeImpl) -> dict:
        """{target index: [(node, argument index)]}: the nodes after `node` that read what it
        assigned, until the name is assigned again. A cell of a SequentialCell feeds the cell
        after it."""
        if node.in_container():
            index = node.owner.index(node)
            return {0: [(node.owner[index + 1], 0)] if index + 1 < len(node.owner) else []}
        order = self._scope_order(node)
        after = order[order.index(node) + 1:]
        result = {}
        for target_index, name in enumerate(node.target_names()):
            readers = []
            for later in after:
                readers.extend((later, i) for n, i in later.read_names() if n == name)
                if name in later.target_names():
                    break
            result[target_index] = readers
        return result

    # ---- editing

    def owned(self, node: NodeImpl, what: str = "Node") -> NodeImpl:
        if isinstance(node, str):
            found = self.get_node(node)
            if found is None:
                raise RuntimeError(f"{what} is not belong to current SymbolTree: {node}")
            return found
        if node.tree is not self or node.owner is None or node not in node.owner:
            raise RuntimeError(f"{what} is not belong to current SymbolTree: {node.name}")
        return node

    def position(self, node, before: bool) -> Position:
        return Position(self, self.owned(node), before)

    def insert_node(self, new_node: NodeImpl, base: NodeImpl, before: bool) -> NodeImpl:
        """Put `new_node` before or after `base`, in the body `base` sits in."""
        base = self.owned(base)
        if new_node.owner is not None:
            raise ValueError(f"Node in the SymbolTree cannot be inserted into SymbolTree "
                             f"again: {new_node.name}")
        if base.node_type == NodeType.Input and before:
            raise RuntimeError(f"Can not insert a node before or between parameters: "
                               f"{base.name}")
        if new_node.node_type == NodeType.Input:
            return self._insert_input(new_node)
        body = base.owner
        index = body.index(base) + (0 if before else 1)
        if base.node_type == NodeType.Input:
            index = max(index, max(i for i, n in enumerate(body)
                                   if n.node_type == NodeType.Input) + 1)
        new_node.parent = base.parent
        self._take_in(new_node)
        body.insert(index, new_node)
        new_node.owner = body
        new_node.parent = base.parent
        return new_node

    def _insert_input(self, node: NodeImpl) -> NodeImpl:
        """A new parameter of the forward method, after the others."""
        name = node.targets[0].value
        if any(name in n.target_names() for n in self.input_nodes()):
            raise RuntimeError(f"input duplicated: {name}")
        node.name = self.unique_name(node.name)
        node.tree, node.owner = self, self.root_nodes
        self.root_nodes.insert(len(self.input_nodes()), node)
        return node

    def _take_in(self, node: NodeImpl) -> None:
        """Name a node made by the API uniquely here, and hold what it calls and the objects
        its arguments carry as attributes of the network."""
        requested, node.name = node.name, self.unique_name(node.name)
        node.tree = self
        if node.in_container():  # the cell joins the SequentialCell, not the network
            node.form = "cell"
            if node.node_type == NodeType.Tree:
                node.symbol_tree = SymbolTreeImpl(node.instance)
        elif node.form == "call" and node.holds_callee:
            scope = enclosing_scope(node)
            if scope is not None and scope.kind == "global":
                raise TypeError(f"For rewrite, the Cell of node '{requested}' cannot be "
                                f"inserted into function {scope.function.__name__}: it has "
                                f"no `self` to hold it.")
            attribute = self._free_attribute(requested)
            node.func = ScopedValue.create_naming_value(attribute, "self")
            if node.node_type == NodeType.Tree:
                node.symbol_tree = self.sub_trees[attribute] = SymbolTreeImpl(node.instance)
            else:
                self.added_attributes[attribute] = node.instance
        elif node.form == "call" and node.function is not None:
            node.func = ScopedValue.create_naming_value(
                self.bind_global(node.func.value, node.function))
        node.args = [self._hold_objects(a) for a in node.args]
        node.kwargs = {k: self._hold_objects(v) for k, v in node.kwargs.items()}

    def _free_attribute(self, name: str) -> str:
        candidate, suffix = name, 0
        while hasattr(self.network, candidate) or candidate in self.added_attributes or \
                candidate in self.sub_trees:
            suffix += 1
            candidate = f"{name}_{suffix}"
        return candidate

    def _hold_objects(self, value: ScopedValue) -> ScopedValue:
        if value.type == ValueType.CustomObjValue:
            attribute = self._free_attribute(f"arg_{type(value.value).__name__}")
            self.added_attributes[attribute] = value.value
            return ScopedValue.create_naming_value(attribute, "self")
        if value.type in (ValueType.TupleValue, ValueType.ListValue):
            items = [self._hold_objects(v) for v in value.value]
            return ScopedValue(value.type, "", tuple(items) if value.type ==
                               ValueType.TupleValue else items)
        return value

    def bind_global(self, name: str, function) -> str:
        """A global name the rewritten code calls `function` by: its own name unless the module
        holds something else under it."""
        candidate, suffix = check_identifier(name), 0
        bindings = self.global_bindings
        while True:
            held = bindings.get(candidate, self.namespace.get(candidate, function))
            if held is function:
                bindings[candidate] = function
                return candidate
            suffix += 1
            candidate = f"{name}_{suffix}"

    def erase_node(self, node) -> NodeImpl:
        node = self.owned(node)
        node.owner.remove(node)
        node.owner = None
        self.names.discard(node.name)
        return node

    def replace(self, old, new_nodes: list) -> NodeImpl:
        old = self.owned(old, "Old node")
        base = old
        for node in new_nodes:
            base = self.insert_node(node, base, False)
        self.erase_node(old)
        return new_nodes[-1]

    def set_arg(self, node, index: int, arg) -> None:
        node = self.owned(node)
        set_node_arg(node, index, arg)

    def set_arg_by_node(self, node, index: int, source, out_index=None) -> None:
        node, source = self.owned(node), self.owned(source, "src_node")
        set_node_arg_by_node(node, index, source, out_index)

    def set_node_target(self, node, index: int, target) -> None:
        """Make target `index` of `node` assign `target` (a ScopedValue or a name)."""
        node = self.owned(node)
        if not 0 <= index < len(node.targets):
            raise ValueError(f"Index of node's target should be less than "
                             f"{len(node.targets)}, but got {index}")
        node.targets[index] = as_value(target)

    def set_output(self, return_value: str, index: int) -> NodeImpl:
        outputs = [n for n in self.walk() if n.node_type == NodeType.Output]
        if not outputs:
            raise RuntimeError("Current node_manager has no output")
        set_node_arg(outputs[0], index, return_value)
        return outputs[0]

    # ---- writing back

    def opt_class_name(self) -> str:
        return f"{self.cls.__name__}Opt"

    def trees_in_build_order(self) -> list:
        """The sub-trees (deepest first), then this tree."""
        order = []
        for sub_tree in self.sub_trees_all():
            order.extend(t for t in sub_tree.trees_in_build_order() if t not in order)
        return order + [self]

    def sub_trees_all(self) -> list:
        """The sub-trees of sub-network attributes and of the cells of SequentialCells."""
        in_containers = [n.symbol_tree for n in self.all_nodes()
                         if n.in_container() and n.symbol_tree is not None]
        return list(self.sub_trees.values()) + in_containers

    def container_nodes_in_use(self) -> dict:
        """{attribute: CellContainer node} for the SequentialCells the forward method calls
        and the sequences of Cells it reads (`for block in self.blocks`)."""
        found = {}
        for node in self.walk():
            if node.node_type == NodeType.CellContainer and node.func is not None and \
                    node.func.scope == "self":
                found.setdefault(node.func.value, node)
        return found


def set_node_arg(node: NodeImpl, index: int, arg) -> None:
    if not isinstance(index, int) or not 0 <= index < len(node.args):
        raise ValueError(f"For set_arg, index should be in range [0, {len(node.args)}) for "
                         f"node {node.name}, but got {index}.")
    node.args[index] = as_value(arg)


def set_node_arg_by_node(node: NodeImpl, index: int, source: NodeImpl, out_index=None) -> None:
    if out_index is None:
        if len(source.targets) != 1:
            raise RuntimeError("node should has one output when out_idx is not provided")
        out_index = 0
    if not 0 <= out_index < len(source.targets):
        raise RuntimeError(f"out_idx out of range: {out_index}")
    set_node_arg(node, index, source.targets[out_index])
