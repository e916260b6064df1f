"""Loop exits as data: `break`, `continue` and `return` inside loops become flag variables.

The front end runs a loop either unrolled (a static iterable, a Python condition) or as a
`while_loop` node (a Tensor condition). An exit whose condition is a Tensor cannot leave an
unrolled loop early, and a `while_loop` body has no exits at all, so both forms are rewritten
over flags first. On Python conditions the flags stay Python bools and everything folds away; on
Tensor conditions they become Tensors, the guards become switches and the flags loop-carried
values.

`return v` inside a loop sets a return flag and the value, then breaks; after the loop,
`if flag: return value` takes the rest of the function with it (a Tensor `if` with a return):

    for x in xs:                      _ret = False; _retval = <unbound>
        if c(x):                      for x in xs:
            return f(x)       ->          if c(x):
        B                                     _ret = True; _retval = f(x); break
    return g()                            B
                                      if _ret: return _retval
                                      return g()

and then `break`/`continue` under an `if` become flags (`lower_loop_exits`). `<unbound>` is
UNBOUND: the value a branch or loop that never set `_retval` contributes is zeros of the type the
other side gives it (it is never read there).
"""
from __future__ import annotations

import weakref

import gast

# loop node -> (lowered loop or None for the loop itself, flag names); held by the (cached)
# AST, freed with it
_LOWERED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# loop node -> the statements that replace it (None: itself), for returns inside loops
_RETURNS_LOWERED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class _Unbound:
    """The value of a variable that has no value yet on some path (see the module docstring)."""

    def __repr__(self) -> str:
        return "<unbound>"


UNBOUND = _Unbound()


def _contains(nodes, kinds, into_loops: bool) -> bool:
    """Whether any statement in `nodes` is of `kinds`, not looking into nested defs/lambdas,
    nor into nested loops' bodies unless `into_loops`."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, kinds):
            return True
        if isinstance(node, (gast.FunctionDef, gast.Lambda)):
            continue
        if isinstance(node, (gast.For, gast.While)) and not into_loops:
            stack.extend(node.orelse)
            continue
        stack.extend(gast.iter_child_nodes(node))
    return False


def has_exit(nodes) -> bool:
    """Whether a `break` or `continue` of the enclosing loop sits in `nodes`."""
    return _contains(nodes, (gast.Break, gast.Continue), into_loops=False)


def has_return(nodes) -> bool:
    return _contains(nodes, (gast.Return,), into_loops=True)


def _name(ident: str, store: bool, where):
    ctx = gast.Store() if store else gast.Load()
    return gast.copy_location(gast.Name(ident, ctx, None, None), where)


def _set(ident: str, value, where):
    node = gast.Assign([_name(ident, True, where)], gast.Constant(value, None), None)
    return gast.copy_location(node, where)


def _assign(ident: str, value_node, where):
    return gast.copy_location(gast.Assign([_name(ident, True, where)], value_node, None), where)


def _not_any(idents, where):
    names = [_name(i, False, where) for i in idents]
    test = names[0] if len(names) == 1 else gast.BoolOp(gast.Or(), names)
    return gast.copy_location(gast.UnaryOp(gast.Not(), test), where)


def _guarded(stmts, idents, where):
    return gast.copy_location(gast.If(_not_any(idents, where), stmts, []), where)


# ----- return inside loops ---------------------------------------------------------------------

def lower_block(stmts: list) -> list:
    """`stmts` with every loop that contains a `return` rewritten over a return flag."""
    out = []
    for stmt in stmts:
        if not isinstance(stmt, (gast.For, gast.While)):
            out.append(stmt)
            continue
        if stmt not in _RETURNS_LOWERED:
            _RETURNS_LOWERED[stmt] = _lower_loop_returns(stmt) if has_return(stmt.body) else None
        replacement = _RETURNS_LOWERED[stmt]
        out += [stmt] if replacement is None else replacement
    return out


def _lower_loop_returns(loop) -> list:
    line = getattr(loop, "lineno", 0)
    ret, value = f"_return_{line}", f"_retval_{line}"
    body = _replace_returns(lower_block(loop.body), ret, value)
    new = gast.For(loop.target, loop.iter, body, loop.orelse, None) if isinstance(
        loop, gast.For) else gast.While(loop.test, body, loop.orelse)
    # the return after the loop stands for the loop's own: a join failure shows that one
    after = gast.If(_name(ret, False, loop), [gast.copy_location(
        gast.Return(_name(value, False, loop)), _first_return(loop.body) or loop)], [])
    return [_set(ret, False, loop), _set(value, UNBOUND, loop), gast.copy_location(new, loop),
            gast.copy_location(after, loop)]


def _first_return(stmts):
    """The first `return` statement in `stmts` (not in a function defined there), else None."""
    for stmt in stmts:
        if isinstance(stmt, gast.Return):
            return stmt
        if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            found = _first_return(getattr(stmt, field, None) or [])
            if found is not None:
                return found
    return None


def _replace_returns(stmts, ret: str, value: str) -> list:
    out = []
    for stmt in stmts:
        if isinstance(stmt, gast.Return):
            result = stmt.value if stmt.value is not None else gast.Constant(None, None)
            out += [_set(ret, True, stmt), _assign(value, result, stmt),
                    gast.copy_location(gast.Break(), stmt)]
            return out  # what follows a return is dead
        if isinstance(stmt, gast.If) and has_return([stmt]):
            new = gast.If(stmt.test, _replace_returns(stmt.body, ret, value),
                          _replace_returns(stmt.orelse, ret, value))
            stmt = gast.copy_location(new, stmt)
        out.append(stmt)
    return out


# ----- break / continue ------------------------------------------------------------------------

def _lower_exits(stmts, brk: str, cont: str) -> list:
    """Replace break/continue by flag assignments; what follows an exit runs under a guard."""
    out = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, gast.Break):
            return out + [_set(brk, True, stmt)]
        if isinstance(stmt, gast.Continue):
            return out + [_set(cont, True, stmt)]
        if isinstance(stmt, gast.If) and has_exit([stmt]):
            lowered = gast.If(stmt.test, _lower_exits(stmt.body, brk, cont),
                              _lower_exits(stmt.orelse, brk, cont))
            out.append(gast.copy_location(lowered, stmt))
            rest = stmts[i + 1:]
            if rest:
                out.append(_guarded(_lower_exits(rest, brk, cont), (brk, cont), rest[0]))
            return out
        out.append(stmt)
    return out


def lower_loop_exits(node):
    """A loop whose body can `break` or `continue` becomes a loop over flags:

        for i in xs:                 brk = False
            A                        for i in xs:
            if c:                        cont = False
                break          ->        if not brk:
            B                                A
                                             if c: brk = True
                                             if not (brk or cont): B

    Returns (loop, flag names to set to False before it): the loop itself when there is
    nothing to lower.
    """
    hit = _LOWERED.get(node)
    if hit is not None:
        return (hit[0] or node), hit[1]
    if not has_exit(node.body):
        _LOWERED[node] = (None, ())  # None: the loop itself (a value must not hold its key)
        return node, ()
    line = getattr(node, "lineno", 0)
    brk, cont = f"_break_{line}", f"_continue_{line}"
    body = [_set(cont, False, node)] + _lower_exits(node.body, brk, cont)
    orelse = [_guarded(node.orelse, (brk,), node)] if node.orelse else []
    if isinstance(node, gast.For):
        loop = gast.For(node.target, node.iter, [_guarded(body, (brk,), node)], orelse, None)
    else:
        test = gast.BoolOp(gast.And(), [node.test, _not_any((brk,), node)])
        loop = gast.While(gast.copy_location(test, node.test), body, orelse)
    loop = gast.copy_location(loop, node)
    _LOWERED[node] = (loop, (brk,))
    return loop, (brk,)
