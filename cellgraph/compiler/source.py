"""Getting a function's AST (with gast) and turning AST positions into SourceLocs."""
from __future__ import annotations

import inspect
import linecache
import textwrap
import weakref
from dataclasses import dataclass

import gast

from cellgraph.primitives.errors import CompileError, SourceLoc


@dataclass(frozen=True)
class SourceInfo:
    """Where a parsed function lives: file, the line its snippet starts on, the indent removed."""

    filename: str
    first_line: int
    indent: int

    def loc(self, node) -> SourceLoc | None:
        lineno = getattr(node, "lineno", None)
        if lineno is None:
            return None
        line = self.first_line + lineno - 1
        text = linecache.getline(self.filename, line).rstrip("\n")
        return SourceLoc(self.filename, line, getattr(node, "col_offset", 0) + self.indent, text)


# code object -> (AST, SourceInfo); freed with the function's code
_AST_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def register_function_ast(fn, node, info: SourceInfo) -> None:
    """Give a function made by compiling an AST (no source text of its own, as rewrite's
    networks are) the gast FunctionDef the front end parses it from, private names mangled as
    the compiled code has them."""
    _mangle_private_names(node, fn)
    _AST_CACHE[fn.__code__] = (node, info)


def function_ast(fn) -> tuple:
    """(gast FunctionDef or Lambda, SourceInfo) for a Python function, cached per code object."""
    code = fn.__code__
    hit = _AST_CACHE.get(code)
    if hit is not None:
        return hit
    try:
        # the code's own source: getsourcelines(fn) would follow `__wrapped__` to the source of
        # another function, which this function's globals and closure do not belong to
        lines, start = inspect.getsourcelines(code)
        filename = inspect.getsourcefile(code) or code.co_filename
    except (OSError, TypeError) as e:
        raise CompileError(f"cannot compile {fn.__qualname__} in graph mode: its source code is "
                           f"not available ({e}); define it in a file, not interactively") from None
    first = lines[0]
    indent = len(first) - len(first.lstrip())
    src = textwrap.dedent("".join(lines))
    in_file = _lambda_in_file(filename, code) if code.co_name == "<lambda>" else None
    if in_file is not None:
        node, start, indent = in_file, 1, 0
    elif code.co_name == "<lambda>":
        node = _find_lambda(src, code)
    else:
        node = gast.parse(src).body[0]
        if not isinstance(node, (gast.FunctionDef,)):
            raise CompileError(f"cannot find the definition of {fn.__qualname__}")
    _mangle_private_names(node, fn)
    info = SourceInfo(filename, start, indent)
    _AST_CACHE[code] = (node, info)
    return node, info


def _code_names(code) -> set:
    """The names a code object and the code objects nested in it use."""
    names = set(code.co_names) | set(code.co_varnames) | set(code.co_cellvars) | \
        set(code.co_freevars)
    for const in code.co_consts:
        if inspect.iscode(const):
            names |= _code_names(const)
    return names


def _mangle_private_names(node, fn) -> None:
    """Write `__name` as Python compiled it inside a class body, `_Class__name` (private name
    mangling), so `self.__x` in a method reads the attribute the class's __init__ set. The class
    is the one the function's qualified name sits in; a name is rewritten only where the
    compiled code uses the mangled form."""
    parts = fn.__qualname__.split(".")
    while len(parts) >= 3 and parts[-2] == "<locals>":
        parts = parts[:-2]  # a function nested in a method mangles with the method's class
    if len(parts) < 2 or parts[-2] == "<locals>":
        return
    owner = parts[-2].lstrip("_")
    if not owner:
        return
    used = _code_names(fn.__code__)

    def mangled(name):
        if name.startswith("__") and not name.endswith("__"):
            candidate = f"_{owner}{name}"
            if candidate in used:
                return candidate
        return None

    for sub in gast.walk(node):
        if isinstance(sub, gast.Attribute):
            new = mangled(sub.attr)
            if new:
                sub.attr = new
        elif isinstance(sub, gast.Name):
            new = mangled(sub.id)
            if new:
                sub.id = new


def _lambda_in_file(filename: str, code):
    """The Lambda node of `code`, found in its whole file: a lambda inside a multi-line
    expression has no parsable snippet of its own, and two lambdas on one line with the same
    parameters are told apart by where the code's instructions are. None if not found."""
    try:
        tree = gast.parse("".join(linecache.getlines(filename)))
    except (SyntaxError, ValueError):
        return None
    names = list(code.co_varnames[:code.co_argcount])
    found = [node for node in gast.walk(tree) if isinstance(node, gast.Lambda)
             and node.lineno == code.co_firstlineno and [a.id for a in node.args.args] == names]
    if len(found) <= 1:
        return found[0] if found else None
    spots = [(line, col) for line, _, col, _ in code.co_positions()
             if line is not None and col is not None]

    def fit(node):  # most instructions inside, then the innermost lambda
        span = ((node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset))
        inside = sum(span[0] <= spot < span[1] for spot in spots)
        return inside, node.lineno - node.end_lineno, node.col_offset - node.end_col_offset

    return max(found, key=fit)


def _find_lambda(src: str, code):
    for candidate in (src, "(" + src.strip().rstrip(",") + ")", src.split("=", 1)[-1].strip()):
        try:
            tree = gast.parse(textwrap.dedent(candidate))
        except SyntaxError:
            continue
        names = list(code.co_varnames[:code.co_argcount])
        for node in gast.walk(tree):
            if isinstance(node, gast.Lambda) and [a.id for a in node.args.args] == names:
                return node
    raise CompileError("cannot find the source of a lambda; write it as a named def instead")
