"""`experimental.optim.adamw`: the module MindSpore defines AdamW in."""
from .optimizer import AdamW

__all__ = ["AdamW"]
