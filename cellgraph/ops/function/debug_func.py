"""MindSpore's `ops.function.debug_func`: `print_`, the functional form of `ops.Print`."""
from __future__ import annotations

from cellgraph.compiler.builder import current_builder
from cellgraph.runtime.tensor import Tensor

__all__ = ["print_"]


def print_(*input_x):
    """Print the values: inside a graph, an effectful node that prints every time the graph
    runs, constants included (unlike the built-in `print` of constants in construct, which
    prints once while compiling, as MindSpore's does); outside, at once, as MindSpore's eager
    Print: each value on a line of its own, a Tensor as its repr."""
    from cellgraph.compiler.print_op import emit_print

    if current_builder() is not None:
        return emit_print(input_x, {})
    for value in input_x:
        print(repr(value) if isinstance(value, Tensor) else value)
    return None
