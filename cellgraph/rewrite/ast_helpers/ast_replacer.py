"""AstReplacer: renaming a symbol throughout an AST, and undoing it."""
from __future__ import annotations

import ast

# the field that holds a symbol, by node type
_SYMBOL_FIELDS = {ast.Name: "id", ast.Attribute: "attr", ast.ClassDef: "name",
                  ast.FunctionDef: "name"}


class AstReplacer:
    """Renames symbols under `node`: names, attribute names and class and function names."""

    def __init__(self, node: ast.AST):
        self._root = node
        self._done = []  # (node, field, old symbol), to undo

    def replace_all(self, src: str, dst: str) -> None:
        """Every symbol `src` under the root becomes `dst`."""
        for node in ast.walk(self._root):
            field = _SYMBOL_FIELDS.get(type(node))
            if field is not None and getattr(node, field) == src:
                setattr(node, field, dst)
                self._done.append((node, field, src))

    def undo_all(self) -> None:
        """Put back every symbol replace_all changed."""
        for node, field, old in reversed(self._done):
            setattr(node, field, old)
        self._done.clear()
