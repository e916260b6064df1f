"""From the statements of a flattened forward method to NodeImpls: one table entry per kind
of statement, and one per kind of assigned value. What has no entry is kept as it is written
(NodeType.Python)."""
from __future__ import annotations

import ast
import builtins

from .api.node_type import NodeType
from .api.scoped_value import ScopedValue, ValueType
from .cells import is_cell_sequence
from .functions import callee_function, parse_function
from .values import dotted_parts, target_values, value_of


def parse_body(tree, body: list) -> list:
    """The nodes of a list of statements (named unique in `tree`)."""
    nodes = []
    for stmt in body:
        parse = _STATEMENT_PARSERS.get(type(stmt), _parse_python)
        nodes.extend(parse(tree, stmt))
    return nodes


def _parse_python(tree, stmt) -> list:
    return [tree.new_node(NodeType.Python, type(stmt).__name__, "python", source=stmt)]


def _parse_return(tree, stmt: ast.Return) -> list:
    args = [] if stmt.value is None else [value_of(stmt.value)]
    return [tree.new_node(NodeType.Output, "return", "return", args=args, source=stmt)]


def _parse_if(tree, stmt: ast.If) -> list:
    test = value_of(stmt.test)
    condition = getattr(stmt, "original_test", None)
    branch = tree.new_node(NodeType.ControlFlow, "if_node", "if", args=[test], source=stmt,
                           condition=condition)
    branch.body = tree.adopt(parse_body(tree, stmt.body), branch)
    nodes = [branch]
    if stmt.orelse:
        other = tree.new_node(NodeType.ControlFlow, "else_node", "else", args=[test], source=stmt,
                              condition=condition)
        other.body = tree.adopt(parse_body(tree, stmt.orelse), other)
        nodes.append(other)
    return nodes


def _parse_loop(kind: str):
    def parse(tree, stmt) -> list:
        head = value_of(stmt.iter if kind == "for" else stmt.test)
        loop = tree.new_node(NodeType.ControlFlow, f"{kind}_node", kind, args=[head], source=stmt)
        loop.loop_target = getattr(stmt, "target", None)
        loop.body = tree.adopt(parse_body(tree, stmt.body), loop)
        nodes = [loop]
        if stmt.orelse:
            other = tree.new_node(NodeType.ControlFlow, f"{kind}_else_node", f"{kind}_else",
                                  args=[head], source=stmt, loop_target=loop.loop_target)
            other.body = tree.adopt(parse_body(tree, stmt.orelse), other)
            nodes.append(other)
        return nodes
    return parse


def _parse_assign(tree, stmt: ast.Assign) -> list:
    targets = target_values(stmt.targets[0])
    parse = _VALUE_PARSERS.get(type(stmt.value))
    node = parse(tree, stmt.value, targets, stmt) if targets is not None and parse else None
    if node is None:
        return [tree.new_node(NodeType.Python, "Assign", "python", source=stmt)]
    return [node]


def _operator_name(op) -> str:
    return type(op).__name__.lower()


def _parse_binop(tree, value: ast.BinOp, targets, stmt):
    return tree.new_node(NodeType.MathOps, f"binop_{_operator_name(value.op)}", "binop",
                         targets=targets, args=[value_of(value.left), value_of(value.right)],
                         op=value.op, source=stmt)


def _parse_unaryop(tree, value: ast.UnaryOp, targets, stmt):
    return tree.new_node(NodeType.MathOps, f"unaryop_{_operator_name(value.op)}", "unaryop",
                         targets=targets, args=[value_of(value.operand)], op=value.op,
                         source=stmt)


def _parse_boolop(tree, value: ast.BoolOp, targets, stmt):
    return tree.new_node(NodeType.MathOps, f"boolop_{_operator_name(value.op)}", "boolop",
                         targets=targets, args=[value_of(v) for v in value.values],
                         op=value.op, source=stmt)


def _parse_compare(tree, value: ast.Compare, targets, stmt):
    if len(value.ops) != 1:
        return None
    return tree.new_node(NodeType.MathOps, f"compare_{_operator_name(value.ops[0])}", "compare",
                         targets=targets, args=[value_of(value.left),
                                                value_of(value.comparators[0])],
                         op=value.ops[0], source=stmt)


def _parse_plain_value(name: str):
    def parse(tree, value, targets, stmt):
        return tree.new_node(NodeType.CallMethod, name, "value", targets=targets,
                             args=[value_of(value)], source=stmt)
    return parse


def _parse_container(name: str):
    def parse(tree, value, targets, stmt):
        if any(isinstance(e, ast.Starred) for e in value.elts):
            return None
        return tree.new_node(NodeType.CallMethod, name, name, targets=targets,
                             args=[value_of(e) for e in value.elts], source=stmt)
    return parse


def _parse_dict(tree, value: ast.Dict, targets, stmt):
    keys = [k.value if isinstance(k, ast.Constant) else None for k in value.keys]
    if not all(isinstance(k, str) and k.isidentifier() for k in keys) or len(set(keys)) != len(keys):
        return None
    return tree.new_node(NodeType.CallMethod, "dict", "dict", targets=targets,
                         kwargs={k: value_of(v) for k, v in zip(keys, value.values)},
                         source=stmt)


def _parse_call(tree, call: ast.Call, targets, stmt):
    if any(kw.arg is None for kw in call.keywords):
        return None  # **kwargs: kept as written
    parts = dotted_parts(call.func)
    if parts is None:
        return None
    func = ScopedValue(ValueType.NamingValue, ".".join(parts[:-1]), parts[-1])
    node_type, instance = tree.classify_callee(parts)
    node = tree.new_node(node_type, parts[-1], "call", targets=targets, func=func,
                         args=[value_of(a) for a in call.args],
                         kwargs={kw.arg: value_of(kw.value) for kw in call.keywords},
                         instance=instance, source=stmt)
    reached = callee_function(tree, parts, instance) \
        if node_type in (NodeType.CallMethod, NodeType.CallFunction) else None
    scope = parse_function(tree, reached[0], reached[1], node) if reached else None
    if scope is not None:
        node.node_type, node.function_scope, node.body = NodeType.CallFunction, scope, scope.nodes
    if node_type == NodeType.Tree:
        node.symbol_tree = tree.sub_tree_for(parts[-1], instance)
    elif node_type == NodeType.CellContainer:
        node.container = tree.adopt(tree.container_nodes(instance, node), node)
    return node


def resolve_dotted(parts: list, namespace: dict):
    """The object `a.b.c` names in a module's namespace (or the builtins); None if any part is
    missing."""
    root = namespace.get(parts[0], getattr(builtins, parts[0], None))
    for part in parts[1:]:
        if root is None:
            return None
        root = getattr(root, part, None)
    return root


_STATEMENT_PARSERS = {
    ast.Assign: _parse_assign,
    ast.Return: _parse_return,
    ast.If: _parse_if,
    ast.For: _parse_loop("for"),
    ast.While: _parse_loop("while"),
}

def _parse_attribute(tree, value: ast.Attribute, targets, stmt):
    """`x = self.attr`; a CellContainer node when the attribute is a CellList or a list of
    Cells (its cells are nodes, as MindSpore's rewrite lists them)."""
    node = _parse_plain_value("attribute_assign")(tree, value, targets, stmt)
    parts = dotted_parts(value)
    if parts is None or len(parts) != 2 or parts[0] != "self":
        return node
    held = getattr(tree.network, parts[1], None)
    if not is_cell_sequence(held):
        return node
    tree.names.discard(node.name)
    node.name = tree.unique_name(f"self.{parts[1]}")
    node.node_type, node.instance = NodeType.CellContainer, held
    node.func = ScopedValue(ValueType.NamingValue, "self", parts[1])
    node.container = tree.adopt(tree.container_nodes(held, node), node)
    return node


_VALUE_PARSERS = {
    ast.Call: _parse_call,
    ast.BinOp: _parse_binop,
    ast.UnaryOp: _parse_unaryop,
    ast.BoolOp: _parse_boolop,
    ast.Compare: _parse_compare,
    ast.Name: _parse_plain_value("name_assign"),
    ast.Attribute: _parse_attribute,
    ast.Constant: _parse_plain_value("constant_assign"),
    ast.Subscript: _parse_plain_value("subscript_var"),
    ast.Tuple: _parse_container("tuple"),
    ast.List: _parse_container("list"),
    ast.Dict: _parse_dict,
}
