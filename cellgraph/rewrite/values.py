"""Between expressions of the forward method and ScopedValues. A ScopedValue becomes an AST
node here, never text: names are checked to be identifiers, constants become ast.Constant."""
from __future__ import annotations

import ast
import keyword

from .api.scoped_value import ScopedValue, ValueType

_LITERALS = (type(None), bool, int, float, complex, str, bytes, type(Ellipsis))


def check_identifier(name, what: str = "name") -> str:
    """`name` if it is a Python identifier that is not a keyword, else ValueError."""
    if not isinstance(name, str):
        raise TypeError(f"For rewrite, {what} should be str, but got {type(name).__name__}.")
    if not name.isidentifier() or keyword.iskeyword(name):
        raise ValueError(f"For rewrite, {what} should be a Python identifier, but got {name!r}.")
    return name


def dotted_parts(expr: ast.AST) -> list | None:
    """['self', 'conv'] for `self.conv`; None when `expr` is not a chain of names."""
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    parts.append(expr.id)
    return parts[::-1]


def value_of(expr: ast.AST) -> ScopedValue:
    """The ScopedValue an argument expression stands for; UnsupportedValue (holding the
    expression) for what is neither a name, a constant nor a container of them."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, _LITERALS):
        return ScopedValue(ValueType.ConstantValue, "", expr.value)
    parts = dotted_parts(expr)
    if parts is not None:
        return ScopedValue(ValueType.NamingValue, ".".join(parts[:-1]), parts[-1])
    if isinstance(expr, (ast.Tuple, ast.List)) and not any(
            isinstance(e, ast.Starred) for e in expr.elts):
        items = [value_of(e) for e in expr.elts]
        if isinstance(expr, ast.Tuple):
            return ScopedValue(ValueType.TupleValue, "", tuple(items))
        return ScopedValue(ValueType.ListValue, "", items)
    return ScopedValue(ValueType.UnsupportedValue, "", expr)


def name_expr(name: str, scope: str = "", ctx=None) -> ast.AST:
    """`scope.name` as Name/Attribute nodes, each part checked to be an identifier."""
    ctx = ctx or ast.Load()
    parts = (scope.split(".") if scope else []) + [name]
    for part in parts:
        check_identifier(part)
    expr = ast.Name(id=parts[0], ctx=ast.Load() if len(parts) > 1 else ctx)
    for i, part in enumerate(parts[1:], 2):
        expr = ast.Attribute(value=expr, attr=part, ctx=ctx if i == len(parts) else ast.Load())
    return expr


def expr_of(value: ScopedValue, ctx=None) -> ast.AST:
    """The expression node for a ScopedValue (CustomObjValues are bound to names before
    this is asked)."""
    kind = value.type
    if kind == ValueType.ConstantValue:
        if not isinstance(value.value, _LITERALS):
            raise TypeError(f"For rewrite, a constant value should be one of None, bool, int, "
                            f"float, str, but got {type(value.value).__name__}.")
        return ast.Constant(value=value.value)
    if kind == ValueType.NamingValue:
        return name_expr(value.value, value.scope, ctx)
    if kind == ValueType.TupleValue:
        return ast.Tuple(elts=[expr_of(v, ctx) for v in value.value], ctx=ctx or ast.Load())
    if kind == ValueType.ListValue:
        return ast.List(elts=[expr_of(v, ctx) for v in value.value], ctx=ctx or ast.Load())
    if kind == ValueType.DictValue:
        return ast.Dict(keys=[expr_of(k) for k in value.value],
                        values=[expr_of(v) for v in value.value.values()])
    if kind == ValueType.UnsupportedValue and isinstance(value.value, ast.AST):
        return value.value
    raise TypeError(f"For rewrite, cannot write {value!r} ({kind}) into the network's code.")


def target_values(target: ast.AST) -> list | None:
    """The ScopedValues an assignment target writes (`a, b = ...` -> [a, b]); None when a
    target is not a name or attribute chain (a subscript, a starred name)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        values = [target_values(e) for e in target.elts]
        if any(v is None or len(v) != 1 for v in values):
            return None
        return [v[0] for v in values]
    parts = dotted_parts(target)
    if parts is None:
        return None
    return [ScopedValue(ValueType.NamingValue, ".".join(parts[:-1]), parts[-1])]


def as_value(arg) -> ScopedValue:
    """A ScopedValue from a ScopedValue or a name string (the API takes both)."""
    if isinstance(arg, ScopedValue):
        return arg
    if isinstance(arg, str):
        return ScopedValue.create_naming_value(arg)
    raise TypeError(f"For rewrite, an argument should be ScopedValue or str, but got "
                    f"{type(arg).__name__}.")
