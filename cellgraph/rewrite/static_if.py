"""Flattening branches: `flatten_nodes` puts a ControlFlow node's body where the node was.
Deciding an `if` while rewriting: a test that reads no local variable (only `self`, the
module's globals and the builtins) is evaluated once, on the original network, as MindSpore's
rewrite does; `flatten_static_if_control_flow` then keeps the branch it picks in place of the
`if`."""
from __future__ import annotations

import ast
import builtins

from .api.node_type import NodeType

_UNDECIDED = object()


def local_names(function: ast.FunctionDef) -> set:
    """The parameters of the function and every name it assigns."""
    names = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
    names.update(n.id for n in ast.walk(function)
                 if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
    return names - {"self"}


def decide(tree, condition: ast.AST):
    """The test's truth value, or _UNDECIDED when it reads a local variable, fails, or gives
    something that is not a plain Python value (a Tensor's truth is known only at run)."""
    if condition is None:
        return _UNDECIDED
    locals_ = local_names(tree.function_ast)
    if any(isinstance(n, ast.Name) and n.id in locals_ for n in ast.walk(condition)):
        return _UNDECIDED
    namespace = dict(vars(builtins))
    namespace.update(tree.namespace)
    namespace["self"] = tree.network
    code = compile(ast.fix_missing_locations(ast.Expression(body=condition)),
                   tree.filename, "eval")
    try:
        value = eval(code, namespace)
    except Exception:  # noqa: BLE001 - a test that cannot run now is decided at run time
        return _UNDECIDED
    if not isinstance(value, (bool, int, float, str, type(None), tuple, list, dict)):
        return _UNDECIDED
    return bool(value)


def flatten_static_ifs(tree) -> None:
    """Replace each decided `if` by the body of the branch it takes."""
    for node in tree.all_nodes():
        if node.owner is None or node.node_type != NodeType.ControlFlow or \
                node.form not in ("if", "else"):
            continue
        taken = decide(tree, node.condition)
        if taken is _UNDECIDED:
            continue
        if taken == (node.form == "if"):
            _splice(tree, node)
        else:
            tree.erase_node(node)


def flatten_branch(tree, node, erase_nodes_after_return: bool = False) -> None:
    """Put a ControlFlow node's nodes where it was; with `erase_nodes_after_return`, the nodes
    after a `return` among them go (they could no longer run)."""
    if node.node_type != NodeType.ControlFlow:
        raise ValueError(f"For flatten_nodes, the type of node can only be ControlFlow, but "
                         f"got {node.node_type}.")
    node = tree.owned(node)
    body, index = node.owner, node.owner.index(node)
    moved = list(node.body)
    _splice(tree, node)
    returns = [i for i, child in enumerate(moved) if child.node_type == NodeType.Output]
    if erase_nodes_after_return and returns:
        for later in list(body[index + returns[0] + 1:]):
            tree.erase_node(later)


def _splice(tree, node) -> None:
    """Put a branch's nodes where the branch was."""
    body, index = node.owner, node.owner.index(node)
    body[index:index + 1] = node.body
    for child in node.body:
        child.owner, child.parent = body, node.parent
    node.owner = None
    tree.names.discard(node.name)
