"""`mindspore.common.api`: the compilation decorators, and `_pynative_executor`, the object
MindSpore's own tests call `sync()` on to wait for queued device work."""
from cellgraph.jit_decorators import jit, jit_class, ms_class, ms_function

__all__ = ["jit", "jit_class", "ms_class", "ms_function"]


class _PynativeExecutor:
    """What programs reach of MindSpore's PyNative executor: `sync()` waits until the device
    has finished the work launched so far (errors surface there)."""

    def sync(self) -> None:
        from cellgraph.runtime import synchronize

        synchronize()


_pynative_executor = _PynativeExecutor()
