"""AST utilities of rewrite, at MindSpore's module path (`mindspore.rewrite.ast_helpers`)."""
from .ast_finder import AstFinder
from .ast_flattener import AstFlattener
from .ast_replacer import AstReplacer

__all__ = ["AstFinder", "AstFlattener", "AstReplacer"]
