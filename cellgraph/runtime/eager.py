"""The eager trace: at the bottom of the trace stack, `bind` runs the backend kernel at once,
or hands the operation to the innermost dispatch mode this thread has entered
(`utils.MsDispatchMode`)."""
from __future__ import annotations

import numbers
import threading

import numpy as np

from cellgraph.compiler.builder import parameter_cast_dtype
from cellgraph.primitives.core import (
    PRIMITIVES,
    Trace,
    abstract_of,
    is_value,
    operand_error,
    set_eager_trace,
)
from cellgraph.primitives.errors import DTypeError
from cellgraph.primitives.strides import contiguous_strides

from .backend import get_backend
from .run_errors import kernel_error
from .tensor import Tensor


def _raw(x, backend):
    if isinstance(x, Tensor):
        return backend.native(x._data)
    if isinstance(x, (np.ndarray, np.generic)):
        return backend.native(x)
    if isinstance(x, numbers.Number):
        return x
    raise DTypeError(f"expected a Tensor, got {type(x).__name__}: a graph value used outside "
                     f"the graph that made it" if hasattr(x, "aval") else
                     f"expected a Tensor, got {type(x).__name__} {x!r:.60}")


def _operands(args, avals, backend) -> list:
    """Backend arrays for `args`; Python numbers stay numbers unless all of them are, when the
    first becomes a 0-d array (array-API functions want at least one array)."""
    raw = [_raw(a, backend) for a in args]
    if raw and all(a.weak for a in avals):
        raw[0] = backend.asarray(raw[0], avals[0].dtype.np)
    return raw


class EagerTrace(Trace):
    """Type-check, run the kernel, wrap the result; PyNative mode and `__init__` code use it."""

    def read_operands(self, args: tuple) -> tuple:
        """In a Cell run in mixed precision (PyNative), every operation's float Tensor
        operands, Parameters and values made inside the Cell alike, are cast to the Cell's
        dtype first, as MindSpore's PyNative executor casts each operator's inputs."""
        cast_to = parameter_cast_dtype()
        if cast_to is None:
            return args
        return tuple(PRIMITIVES["cast"](a, dtype=cast_to) if isinstance(a, Tensor) and (
            a.dtype.is_float and a.dtype != cast_to) else a for a in args)

    def process(self, prim, args, params):
        if DISPATCH.modes and not DISPATCH.handling:  # a dispatch mode takes the operation
            return _dispatch(self, prim, args, params, len(DISPATCH.modes))
        return self.run(prim, args, params)

    def run(self, prim, args, params):
        """Type-check, run the kernel, wrap the result."""
        if prim.name != "cast":
            args = self.read_operands(args)
        try:
            avals = [abstract_of(a) for a in args]
        except DTypeError:
            bad = next(i for i, a in enumerate(args) if not is_value(a))
            raise operand_error(prim, bad, args[bad], args) from None
        return _run(prim, args, avals, params, get_backend())

    def fold(self, prim, args, params):
        """Constant folding runs on the NumPy backend: a compiling backend (jax) would build and
        compile a program for every folded value, and the result goes to the host anyway."""
        avals = [abstract_of(a) for a in args]
        return _run(prim, args, avals, params, get_backend("numpy"))


def _run(prim, args, avals, params, backend):
    out_type = prim.eager_type(avals, params)
    try:
        result = backend.kernel(prim.name)(*_operands(args, avals, backend), **params)
    except Exception as exc:  # a kernel's own error: typed and named, as in a graph
        error = kernel_error(exc, prim, args, params)
        if error is exc:
            raise
        raise error from exc
    if prim.multiple_results:
        outs = tuple(_wrap(r, t, backend) for r, t in zip(result, out_type))
    else:
        outs = _wrap(result, out_type, backend)
    if prim.view_rule is not None and isinstance(args[0], Tensor):
        _record_views(prim, args[0], outs if prim.multiple_results else (outs,), params)
    return outs


def _record_views(prim, source: Tensor, outs: tuple, params: dict) -> None:
    """The layout MindSpore's view of `source` would give each result (primitives/strides.py),
    kept on the result; none where MindSpore copies or the result is laid out as a fresh
    Tensor is. An empty view starts at offset 0, as MindSpore's."""
    layouts = prim.view_rule(source._view_layout(), source.shape, [o.shape for o in outs],
                             **params)
    for out, (strides, offset) in zip(outs, layouts or ()):
        if 0 in out.shape:
            offset = 0
        if (strides, offset) != (contiguous_strides(out.shape), 0):
            out._layout = (strides, offset)


def _wrap(result, out_type, backend):
    if getattr(result, "dtype", None) != out_type.dtype.np or not hasattr(result, "shape"):
        result = backend.asarray(result, out_type.dtype.np)
    return Tensor._wrap(result, out_type.dtype)


# ----- dispatch modes (MindSpore's MsDispatchMode) ---------------------------------------------

class _DispatchState(threading.local):
    """This thread's dispatch modes, innermost last, and whether one is handling an operation
    now (the operations its handler runs are not dispatched, as in MindSpore)."""

    def __init__(self):
        self.modes: list = []
        self.handling = False


DISPATCH = _DispatchState()


def _dispatch(trace, prim, args, params: dict, level: int):
    """Hand `prim(*args, **params)` to the dispatch mode at `level` (1-based; 0: run it):
    `mode.__ms_dispatch__(func, args)`, the operands followed by the static parameters."""
    if level == 0:
        return trace.run(prim, args, params)
    func = OpFunc(trace, prim, len(args), params, level - 1)
    handling, DISPATCH.handling = DISPATCH.handling, True
    try:
        return DISPATCH.modes[level - 1].__ms_dispatch__(func, tuple(args) + tuple(
            params.values()))
    finally:
        DISPATCH.handling = handling


class OpFunc:
    """An operation as a dispatch mode's handler gets it: `name`, MindSpore's name of the
    operation, and `func(*args)`, the operation on `args` (the operands, then its static
    parameters in order; those left out keep their values), handed to the mode below the
    handling one, if any."""

    def __init__(self, trace, prim, n_operands: int, params: dict, level: int):
        self._trace, self._prim, self._n = trace, prim, n_operands
        self._params, self._level = params, level

    @property
    def name(self) -> str:
        return self._prim.label

    def __call__(self, *args):
        operands = args[:self._n]
        params = dict(self._params)
        params.update(zip(self._params, args[self._n:]))
        return _dispatch(self._trace, self._prim, operands, params, self._level)

    def __repr__(self) -> str:
        return f"OpFunc({self.name})"


EAGER = EagerTrace()
set_eager_trace(EAGER)
