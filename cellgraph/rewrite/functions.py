"""The user's functions and methods the forward method calls, parsed into nodes too
(MindSpore's CallFunction nodes with a body): `x = self.helper(x)` or `x = helper(x)` keeps its
call, and the helper is written back beside the rewritten construct, as a method of the new
class or as a global of its namespace. Library functions, closures and functions reached
through a module (`mod.f(x)`) are called as they are."""
from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass, field

from cellgraph.compiler.scope import is_user_function

from .api.node_type import NodeType
from .api.scoped_value import ScopedValue
from .flattener import Flattener, used_names


@dataclass(eq=False)
class FunctionScope:
    """A parsed user function: its nodes and what is needed to compile it again."""

    function: object  # the original Python function
    kind: str  # "method" (of the network) or "global" (of a module)
    definition: ast.FunctionDef  # flattened
    filename: str
    indent: int
    owner_cls: type | None  # a method's defining class
    nodes: list = field(default_factory=list)


def _source(fn) -> tuple:
    """(FunctionDef with the line numbers of its file, the file, the indent removed)."""
    lines, start = inspect.getsourcelines(fn.__code__)
    text = "".join(lines)
    indent = len(text) - len(text.lstrip(" \t"))
    module = ast.parse(textwrap.dedent(text))
    ast.increment_lineno(module, start - 1)
    definition = module.body[0]
    if not isinstance(definition, ast.FunctionDef) or definition.name != fn.__name__:
        raise OSError(f"the source of {fn.__qualname__} is not a plain def")
    return definition, inspect.getsourcefile(fn) or fn.__code__.co_filename, indent


def callee_function(tree, parts: list, instance):
    """("method" | "global", the function) when a call reaches a user function that can be
    parsed and written back; None otherwise."""
    if len(parts) == 2 and parts[0] == "self" and inspect.ismethod(instance) and \
            instance.__self__ is tree.network:
        kind, fn = "method", instance.__func__
    elif len(parts) == 1 and inspect.isfunction(instance) and \
            tree.namespace.get(parts[0]) is instance:
        kind, fn = "global", instance
    else:
        return None
    if fn.__closure__ or not is_user_function(fn) or fn.__name__ == "<lambda>":
        return None
    return kind, fn


def parse_function(tree, kind: str, fn, call) -> FunctionScope | None:
    """The parsed scope of `fn`, shared by every call of it in `tree`; None if its source
    cannot be read or it is being parsed already (recursion)."""
    scopes = tree.function_scopes
    if fn in scopes:
        return scopes[fn]
    try:
        definition, filename, indent = _source(fn)
    except (OSError, TypeError, SyntaxError):
        return None
    owner = None
    if kind == "method":
        owner = next((k for k in type(tree.network).__mro__
                      if vars(k).get(fn.__name__) is fn), None)
        if owner is None:
            return None
    scope = FunctionScope(fn, kind, definition, filename, indent, owner)
    scopes[fn] = None  # being parsed: a recursive call stays a plain call
    definition.body = Flattener(used_names(definition)).flatten_body(definition.body)
    params = definition.args.posonlyargs + definition.args.args
    inputs = [tree.new_node(NodeType.Input, f"input_{a.arg}", "input",
                            targets=[ScopedValue.create_naming_value(a.arg)], source=a)
              for a in (params[1:] if kind == "method" else params)]
    from .parser import parse_body

    scope.nodes = tree.adopt(inputs + parse_body(tree, definition.body), call)
    scopes[fn] = scope
    return scope


def enclosing_scope(node):
    """The FunctionScope whose body `node` sits in (through branches); None for construct."""
    parent = node.parent
    while parent is not None and parent.function_scope is None:
        parent = parent.parent
    return None if parent is None else parent.function_scope
