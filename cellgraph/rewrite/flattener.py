"""Flattening a forward method: a call, operator or container nested in another expression
becomes its own assignment to a fresh `<name>_var`, so one statement holds one operation and
becomes one node.

    x = self.relu(self.dense(x)) + 1        dense_var = self.dense(x)
                                     ->     relu_var = self.relu(dense_var)
                                            x = relu_var + 1

Only what Python would evaluate anyway is lifted: the operands after the first of `and`/`or`,
the comparisons after the first of a chain, starred arguments and the branches of `a if c
else b` stay where they are. `a = b = v` becomes `b = v; a = b`."""
from __future__ import annotations

import ast
import copy
import itertools
import keyword

# the fields of each statement or expression whose sub-expressions are lifted
_LIFTED_FIELDS = {
    ast.Return: ("value",),
    ast.Call: ("func", "args", "keywords"),
    ast.BinOp: ("left", "right"),
    ast.BoolOp: ("values",),
    ast.UnaryOp: ("operand",),
    ast.Compare: ("left", "comparators"),
    ast.If: ("test",),
    ast.For: ("iter",),
    ast.Tuple: ("elts",),
    ast.List: ("elts",),
}


def used_names(function: ast.FunctionDef) -> set:
    """Every name the function reads, writes or takes as a parameter."""
    names = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
    names.update(n.id for n in ast.walk(function) if isinstance(n, ast.Name))
    return names


def temporary_name(expr: ast.AST) -> str:
    """The name a lifted expression is given before it is made unique: `dense_var` for
    `self.dense(x)`, `add_var` for `a + b`, `x_shape` for `x.shape`."""
    if isinstance(expr, ast.Call):
        func = expr.func
        base = func.id if isinstance(func, ast.Name) else \
            func.attr if isinstance(func, ast.Attribute) else "function"
        name = f"{base}_var"
    elif isinstance(expr, (ast.BinOp, ast.BoolOp, ast.UnaryOp)):
        name = f"{type(expr.op).__name__.lower()}_var"
    elif isinstance(expr, ast.Name):
        name = expr.id
    elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        name = f"{expr.value.id}_{expr.attr}"
    else:
        name = f"{type(expr).__name__.lower()}_var"
    return f"{name}_var" if keyword.iskeyword(name) else name


class Flattener:
    """Lifts nested operations out of the statements of one function; `taken` holds the
    names the function already uses, and grows with the names this makes."""

    def __init__(self, taken: set):
        self.taken = taken

    def fresh_name(self, expr: ast.AST) -> str:
        base = temporary_name(expr)
        name, suffix = base, 0
        while name in self.taken:
            suffix += 1
            name = f"{base}_{suffix}"
        self.taken.add(name)
        return name

    def flatten_body(self, body: list) -> list:
        result = []
        for stmt in _split_chained_assigns(body):
            result.extend(self.flatten_statement(stmt))
        return result

    def flatten_statement(self, stmt: ast.stmt) -> list:
        """The statements that replace `stmt`: the lifted assignments, then `stmt`."""
        head = stmt.value if isinstance(stmt, (ast.Assign, ast.Expr)) else stmt
        if isinstance(stmt, ast.If):  # as written, to decide a static `if` later
            stmt.original_test = copy.deepcopy(stmt.test)
        lifted = self._lift_children(head)
        if isinstance(stmt, (ast.If, ast.For, ast.While)):
            stmt.body = self.flatten_body(stmt.body)
            stmt.orelse = self.flatten_body(stmt.orelse)
        return lifted + [stmt]

    def _lift_children(self, node: ast.AST) -> list:
        fields = _LIFTED_FIELDS.get(type(node))
        if fields is None:
            return []
        lifted = []
        for field in fields:
            value = getattr(node, field)
            if not isinstance(value, list):
                new, stmts = self._lift(value, node)
                setattr(node, field, new)
                lifted.extend(stmts)
                continue
            for i, item in enumerate(value):
                if isinstance(item, ast.Starred) or (i > 0 and _evaluated_lazily(node)):
                    continue
                if isinstance(item, ast.keyword):
                    item.value, stmts = self._lift(item.value, node)
                else:
                    value[i], stmts = self._lift(item, node)
                lifted.extend(stmts)
        return lifted

    def _lift(self, expr, parent) -> tuple:
        """(what stands in `expr`'s place, the statements that compute it)."""
        if expr is None or isinstance(expr, (ast.Name, ast.Constant)):
            return expr, []
        if isinstance(expr, ast.Attribute) and not isinstance(parent, ast.For):
            root = expr
            while isinstance(root.value, ast.Attribute):
                root = root.value
            if isinstance(root.value, ast.Name):
                return expr, []
            root.value, stmts = self._assign_to_fresh(root.value)
            return expr, stmts
        return self._assign_to_fresh(expr)

    def _assign_to_fresh(self, expr) -> tuple:
        name = self.fresh_name(expr)
        assign = ast.copy_location(
            ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=expr), expr)
        ast.fix_missing_locations(assign)
        return ast.copy_location(ast.Name(id=name, ctx=ast.Load()), expr), \
            self.flatten_statement(assign)


def _evaluated_lazily(node) -> bool:
    """Operands Python may not evaluate: after the first of `and`/`or`, and the later
    comparisons of a chain."""
    return isinstance(node, ast.BoolOp) or (isinstance(node, ast.Compare) and len(node.ops) > 1)


def _split_chained_assigns(body: list) -> list:
    result = []
    for stmt in body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) > 1):
            result.append(stmt)
            continue
        targets = stmt.targets
        stmt.targets = [targets[-1]]
        result.append(stmt)
        for target, source in reversed(list(itertools.pairwise(targets))):
            load = copy.deepcopy(source)
            for sub in ast.walk(load):
                if hasattr(sub, "ctx"):
                    sub.ctx = ast.Load()
            result.append(ast.copy_location(ast.Assign(targets=[target], value=load), stmt))
    return result
