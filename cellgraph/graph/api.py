"""`mindspore.graph.api`: the compilation decorators, memory recycling, and the hooks on the
tensors a backward pass saves."""
from __future__ import annotations

from cellgraph.jit_decorators import jit, jit_class

__all__ = ["jit", "jit_class", "ms_memory_recycle"]


def ms_memory_recycle() -> None:
    """Free what compiled networks hold: every jit function's, Cell's and transform's compiled
    graphs are dropped (each compiles again at its next call), and the backend's allocator gives
    its cached device memory back (runtime.empty_cache). For a process that trains several
    models one after another."""
    from cellgraph.runtime import empty_cache
    from cellgraph.runtime.executor import clear_all_caches

    clear_all_caches()
    empty_cache()
