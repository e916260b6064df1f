"""MindSpore's `ops.operations.debug_ops`: `Print`, which prints every time a graph runs, and
`Morph`, a user function used as a primitive."""
from __future__ import annotations

import inspect

from cellgraph.compiler.builder import current_builder
from cellgraph.compiler.custom import custom_vjp_function_call
from cellgraph.compiler.scope import is_user_function
from cellgraph.ops.function.debug_func import print_
from cellgraph.ops.primitive import (
    PrimitiveWithInfer,
    _check_declared,
    _declared,
    prim_attr_register,
)
from cellgraph.ops.primitive_class import PrimitiveClass

__all__ = ["Morph", "Print"]


class Morph(PrimitiveWithInfer):
    """`ops.Morph(fn, infer_shape, infer_dtype, bprop_fn=None)`: applying it applies `fn`,
    parsed into the graph as construct is, so that it is differentiated as the code it is (or
    by `bprop_fn(*inputs, out, dout)` when given). Graph mode only, as in MindSpore; what `fn`
    returns must agree with `infer_shape`/`infer_dtype` on the positional inputs."""

    @prim_attr_register
    def __init__(self, fn, infer_shape, infer_dtype, bprop_fn=None):
        self._infer_shape = infer_shape
        self._infer_dtype = infer_dtype
        self.__morph_fn__ = fn
        self.__morph_bprop_fn__ = None
        if bprop_fn:
            _check_fn_supported(fn)
            self.__morph_bprop_fn__ = bprop_fn

    def infer_shape(self, *args):
        return self._infer_shape(*args)

    def infer_dtype(self, *args):
        return self._infer_dtype(*args)

    def __call__(self, *args, **kwargs):
        if current_builder() is None:
            raise RuntimeError("Morph is only supported in GRAPH_MODE.")
        fn, bprop_fn = self.__morph_fn__, self.__morph_bprop_fn__
        if bprop_fn is not None:
            return custom_vjp_function_call("Morph", fn, bprop_fn, args, kwargs)
        declared = _declared(self, args)
        if is_user_function(fn):
            from cellgraph.compiler.frontend import Interpreter

            out = Interpreter.call_function(fn, args, kwargs)
        else:
            out = fn(*args, **kwargs)
        _check_declared(self, declared, out)
        return out


def _check_fn_supported(fn) -> None:
    """With a bprop, `fn` takes only positional-or-keyword parameters without defaults."""
    for param in inspect.signature(fn).parameters.values():
        if not (param.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
                and param.default is inspect.Parameter.empty):
            raise ValueError(f"When use `bprop` in Morph, Morph `fn` only support positional or "
                             f"keyword parameters with default value is empty, but got param "
                             f"'{param.name}' of kind '{param.kind.name}' with default value "
                             f"'{param.default}'.")


class Print(PrimitiveClass):
    """`ops.Print()(*values)`: inside a graph, an effectful node that prints every time the
    graph runs, constants included (unlike the built-in `print` of constants in construct,
    which prints once while compiling, as MindSpore's does); outside, it prints at once."""

    def __call__(self, *args):
        return print_(*args)

    def __repr__(self) -> str:
        return "Print()"
