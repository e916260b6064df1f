"""Names some path leaves unbound, refused when read, as MindSpore's parser refuses them.

MindSpore decides from the source, not from the values, whether a name is defined after an
`if` or a loop: a name assigned in one branch of an `if` only (whatever its condition, a
constant one included), or first assigned inside a `for`/`while` body (the loop target
included), is undefined after it, even when the loop ran or the branch was taken. Reading it
raises UnboundLocalError:

    if x < 0:                     UnboundLocalError: The local variable 'y' is not defined in
        y = 1                     false branch, but defined in true branch.
    return y                      In file f.py:3  ... the function down to `y = 1` ...

    for _ in range(3):            The local variable 'y' defined in the 'for' loop body cannot
        y = x                     be used outside of the loop body. Please define variable 'y'
    return y                      before 'for'.

Such a name holds a `PartlyDefined` in the scope; assigning it again replaces it, reading it
raises (frontend.expr_Name). A branch that ends in `return` or `raise` never reaches the code
after the `if`, so what the other branch assigns stays defined.
"""
from __future__ import annotations

import linecache
from dataclasses import dataclass

import gast

_HERE = "~<-------------HERE"


@dataclass(frozen=True, eq=False)
class PartlyDefined:
    """The value of a name that is unbound on some path; `message` is what reading it says."""

    message: str


ABSENT = PartlyDefined("")  # what `before.get` gives for a name that had no value


def is_defined(value) -> bool:
    return not isinstance(value, PartlyDefined)


def assigned_names(stmts) -> dict:
    """name -> the first statement (or loop) of `stmts` that binds it, not looking into nested
    functions or classes; `x[i] = v` and `x.a = v` bind nothing new."""
    found: dict = {}
    stack = list(reversed(stmts))
    while stack:
        node = stack.pop()
        if isinstance(node, (gast.FunctionDef, gast.Lambda, gast.ClassDef)):
            if isinstance(node, gast.FunctionDef):
                found.setdefault(node.name, node)
            continue
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
            found.setdefault(node.id, node)
            continue
        if isinstance(node, gast.For):  # the target is bound by the loop statement itself
            for sub in gast.walk(node.target):
                if isinstance(sub, gast.Name):
                    found.setdefault(sub.id, node)
            stack.extend(reversed([node.iter] + node.body + node.orelse))
            continue
        stack.extend(reversed(list(gast.iter_child_nodes(node))))
    return found


def terminates(block) -> bool:
    """Whether running `block` never reaches the statement after it."""
    return bool(block) and isinstance(block[-1], (gast.Return, gast.Raise))


def _where(info, node) -> str:
    """MindSpore's pointer to the definition: the function's source down to that line."""
    loc = info.loc(node)
    if loc is None:
        return ""
    lines = [linecache.getline(info.filename, n).rstrip("\n")
             for n in range(info.first_line, loc.line + 1)]
    return "\n".join([f"In file {info.filename}:{loc.line}", *lines,
                      " " * (loc.col + 4) + _HERE])


def branch_message(name: str, defined_in: str, info, node) -> PartlyDefined:
    other = "false" if defined_in == "true" else "true"
    return PartlyDefined(f"The local variable '{name}' is not defined in {other} branch, but "
                         f"defined in {defined_in} branch.\n{_where(info, node)}")


def loop_message(name: str, kind: str, info, node) -> PartlyDefined:
    return PartlyDefined(f"The local variable '{name}' defined in the '{kind}' loop body cannot "
                         f"be used outside of the loop body. Please define variable '{name}' "
                         f"before '{kind}'.\n{_where(info, node)}")


def mark_constant_if(scope_vars: dict, before: dict, node, taken_body: bool, info) -> None:
    """After an `if` whose condition was known while compiling (only one side ran): the names
    one side assigns and the other does not are undefined, as they are after a Tensor `if`."""
    body, orelse = assigned_names(node.body), assigned_names(node.orelse)
    for names, others, side, other_block in ((body, orelse, "true", node.orelse),
                                             (orelse, body, "false", node.body)):
        if terminates(other_block):
            continue
        for name, where in names.items():
            if name in others or is_defined(before.get(name, ABSENT)):
                continue
            if name in before:  # unbound on some path before this `if`: that path's mark
                scope_vars[name] = before[name]
                continue
            scope_vars[name] = branch_message(name, side, info, where)


def mark_loop(scope_vars: dict, before: dict, node, kind: str, info) -> None:
    """After a loop: the names its body (or target) binds first are undefined."""
    stmts = [node] if kind == "for" else node.body
    for name, where in assigned_names(stmts).items():
        if not is_defined(before.get(name, ABSENT)):
            scope_vars[name] = loop_message(name, kind, info, where)
