"""The NumPy backend, the reference: the shared kernel table (runtime/kernels.py) on NumPy's
main namespace, which follows the array API from NumPy 2, plus the override tables of kernels
that write into arrays (runtime/strided_kernels.py; runtime/blocked_kernels.py, the fused
elementwise and row-wise ones) and the host-only ones (`print`, and `uniform_real` in
runtime/rng.py). Where numba is installed, graphs are lowered first: runs of elementwise nodes
become compiled kernels (runtime/fused_kernels.py), and so do Tensor while loops and scans with
elementwise bodies, whole (runtime/fused_while.py, runtime/fused_loops.py)."""
from __future__ import annotations

import threading

import numpy as np

from . import (
    blocked_kernels,
    collective_kernels,  # noqa: F401  (the collectives join the kernel table)
    fused_while,
    redistribution_kernels,  # noqa: F401  (and so do the moves between sharded layouts)
)
from .backend import Backend, register_backend
from .blocked_kernels import NAMESPACE
from .host_memory import retain_freed_memory
from .kernels import bind_kernels
from .strided_kernels import bind_overrides

numpy_backend = Backend("numpy", np, {**bind_kernels(NAMESPACE), **bind_overrides(np),
                                      **blocked_kernels.TABLE}, device="CPU",
                        lower=fused_while.lower)
K = numpy_backend.kernels
# Array-sized temporaries reuse the heap's pages instead of faulting in fresh ones every run.
retain_freed_memory()


_summary_lock = threading.Lock()
_summaries: dict = {}  # (kind, tag) -> numpy array: the summary operations' last values


@numpy_backend.register("summary")
def _keep_summary(value, kind, tag):
    with _summary_lock:
        _summaries[(kind, tag)] = np.array(value, copy=True)
    return ()


def take_summaries() -> dict:
    """The summary values kept since the last call, {(kind, tag): array}; clears them."""
    with _summary_lock:
        values = dict(_summaries)
        _summaries.clear()
    return values


@numpy_backend.register("print")
def _print(*values, template, lines, style="mode", sep=None, end="\n", flush=False):
    """print's node (compiler/print_op.py): MindSpore's Print operator's form (`lines`, with
    `sep` between them, a newline by default) in a graph of `style` "graph", or in any graph
    while the mode set is GRAPH_MODE; else Python's (`template`)."""
    from . import tensor_format as tf

    def text(piece) -> str:
        if isinstance(piece, str):
            return piece
        if isinstance(piece, int):
            return tf.format_print(np.asarray(values[piece]))
        form, index, label = piece
        arr = np.asarray(values[index])
        return tf.format_graph_print(arr, label) if form == "t" else tf.format_repr(arr, label)

    if style == "graph" or tf.PRINT_STYLE["graph"]:
        print(*("".join(text(p) for p in line) for line in lines),
              sep="\n" if sep is None else sep, end=end, flush=flush)
    else:  # the separators are in the template
        print("".join(text(p) for p in template), end=end, flush=flush)
    return ()


@numpy_backend.register("py_hook")
def _py_hook(x, *, fn):
    return fn(x)


@numpy_backend.register("py_func")
def _py_func(*arrays, call):
    """ops.Custom's function on the host (compiler/py_func_op.py: `call` checks its results)."""
    return call(*arrays)


register_backend(numpy_backend)
