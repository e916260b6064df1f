"""`mindspore.ops.composite.base`: the module MindSpore defines its higher-order operations
in; programs and MindSpore's tests import GradOperation, HyperMap, Map and
MultitypeFuncGraph from here, and the decorator `core`."""
from . import GradOperation, HyperMap, Map, MultitypeFuncGraph

__all__ = ["GradOperation", "HyperMap", "Map", "MultitypeFuncGraph", "core"]


def core(fn=None, **flags):
    """MindSpore's `@core` / `@core(flag=value)` / `core(fn, flag=value)`: records
    `fn._func_graph_flags = {'core': True, **flags}` and returns `fn`, as MindSpore's does.
    The flags are hints to MindSpore's C++ graph compiler (`loop_can_uroll`, ...); cellgraph's
    compiler reads none of them: it always unrolls loops over Python values and inlines calls."""

    def mark(function):
        function._func_graph_flags = {"core": True, **flags}
        return function

    return mark(fn) if fn is not None else mark
