"""AstFlattener: the flattening rewrite applies to forward methods, on a whole AST."""
from __future__ import annotations

import ast

from ..flattener import Flattener, used_names


class AstFlattener:
    """Flattens the functions of an AST named in `transform_functions` (construct)."""

    def transform(self, ast_root: ast.AST, transform_functions=None) -> ast.AST:
        """Flatten every function under `ast_root` whose name is listed (default
        ["construct"]). (MindSpore's also takes the SymbolTree whose node names the new
        variables must avoid; here they avoid the names the function uses.)"""
        names = transform_functions or ["construct"]
        for node in ast.walk(ast_root):
            if isinstance(node, ast.FunctionDef) and node.name in names:
                node.body = Flattener(used_names(node)).flatten_body(node.body)
        return ast.fix_missing_locations(ast_root)
