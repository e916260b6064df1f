"""AstFinder: the nodes of given types under an AST node."""
from __future__ import annotations

import ast


class AstFinder:
    """Finds the nodes of some types under `node`."""

    def __init__(self, node: ast.AST):
        self._root = node

    def find_all(self, ast_types) -> list:
        """Every node under the root (the root too) that is an instance of `ast_types` (a type
        or a tuple of types), in breadth-first order."""
        return [n for n in ast.walk(self._root) if isinstance(n, ast_types)]
