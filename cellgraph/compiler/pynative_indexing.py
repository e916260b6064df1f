"""PyNative's element writes through indexed Tensors, in the graphs a gradient traces.

MindSpore's PyNative runtime remembers where `z = y[index]` was read from, and an element
assignment into `z` writes `y[index] = z` afterwards (through a chain of such reads), whether
`z` is a view or a copy (an index list, a mask). A function differentiated in PyNative mode is
traced here into a graph, so the same writes are recorded as graph updates:

    y = x * 2                       %1 = mul(%x, 2)
    z = y[0]                        %2 = getitem(%1, 0)
    z[1] = 5                        %3 = setitem(%2, 1, 5)        # z
                                    %4 = setitem(%1, 0, %3)       # y: later reads see it

An in-place operation (`z.add_(w)`) on a view (`z = y[0]`, `mint.select(y, 0, 0)`) reaches `y`
the same way (write_back_in_place); on a copy (`y[[0]]`) it stays in the copy, as eagerly.

Graph mode (GRAPH_MODE, `jit`) keeps its own semantics: `z[1] = 5` rebinds `z` alone. The
semantics apply while `INDEX_WRITES_BACK` is set: a transform called from Python in PyNative
mode sets it around its compile.
"""
from __future__ import annotations

import contextvars

from cellgraph.primitives.composite_setitem import tensor_setitem

from .builder import Tracer

INDEX_WRITES_BACK: contextvars.ContextVar = contextvars.ContextVar("index_writes_back",
                                                                  default=False)


def note_index_read(container, index, result) -> None:
    """`result = container[index]`: remember where it was read from."""
    if INDEX_WRITES_BACK.get() and isinstance(container, Tracer) and \
            isinstance(result, Tracer) and result is not container:
        result.builder.index_sources[id(result.ir_var)] = (container, index)


def write_back(container, updated) -> None:
    """After `container[...] = value` gave `updated`: write `updated` where `container` was
    read from, and so on up the chain; `updated` keeps the link for later writes."""
    source = container.builder.index_sources.get(id(container.ir_var)) if isinstance(
        container, Tracer) else None
    while source is not None and isinstance(updated, Tracer):
        parent, index = source
        updated.builder.index_sources[id(updated.ir_var)] = source
        new_parent = tensor_setitem(parent, index, updated)
        parent.builder.record_update(parent, new_parent)
        source = parent.builder.index_sources.get(id(parent.ir_var))
        updated = new_parent


def _is_view_index(index) -> bool:
    """Whether `container[index]` is a view of the container in PyNative mode: basic indexing
    (ints, slices, None, Ellipsis), not a copy made by a Tensor, list or mask index."""
    items = index if isinstance(index, tuple) else (index,)
    return all(item is None or item is Ellipsis or isinstance(item, slice)
               or (isinstance(item, int) and not isinstance(item, bool)) for item in items)


def write_back_in_place(variable, updated) -> None:
    """After an in-place operation gave `variable` the value `updated`: where `variable` is a
    view of another Tensor (basic indexing, a view operation such as select), the update
    reaches that Tensor, and from there up the chain as an element assignment does. A copy (a
    Tensor or list index) keeps the update to itself, as in PyNative's eager runtime."""
    source = variable.builder.index_sources.get(id(variable.ir_var)) if isinstance(
        variable, Tracer) else None
    if source is not None and _is_view_index(source[1]):
        write_back(variable, updated)
