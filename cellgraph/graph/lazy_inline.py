"""`mindspore.graph.lazy_inline`: the `lazy_inline` decorator (defined in jit_decorators.py)."""
from cellgraph.jit_decorators import lazy_inline

__all__ = ["lazy_inline"]
