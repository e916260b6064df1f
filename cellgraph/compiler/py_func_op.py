"""`py_func`: a user's Python function over host arrays, run where the graph runs it.

`ops.Custom(func, out_shape, out_dtype, "pyfunc")` (ops/custom_ops.py) makes one node per call:

    y = custom(x, 2.0)   ->   %2 = py_func(%x) {call=Custom(f)[x, 2.0] -> f32[3]}

Its operands are the call's Tensors; the other arguments (numbers, strings) stay in the call's
template. The kernel (runtime/numpy_backend.py; other backends run it on the host through
backend.HOST_FALLBACKS) gives `func` NumPy arrays and checks that it returned what `out_shape`
and `out_dtype` declared. The node is effectful, so it is never merged with another, dropped
or moved out of program order: the function may print, count or draw random numbers.

Differentiated, a py_func node has no rule of its own: ops.Custom wraps it in a custom_vjp node
(compiler/custom.py) when the user gives a `bprop`; without one, its bprop rule refuses with
MindSpore's error. Batched (vmap), one node calls the function once per example on the host and
stacks the results (`HostCall.batched`).
"""
from __future__ import annotations

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import Primitive, TensorType, abstract_of, fmt_shape
from cellgraph.primitives.errors import (
    CompileError,
    RunError,
    SourceLoc,
    mark_raised_by_user_function,
)

from .builder import current_builder


class HostCall:
    """The host side of a py_func node: `fn(*arguments)` with the node's arrays put in their
    places, its result checked against the declared output types.

    template    one entry per argument of `fn`: an int (the index of the node operand that
                goes there) or a 1-tuple holding a fixed Python value
    out_types   the declared results (TensorType each)
    single      `fn` returns one array (else a tuple of len(out_types))
    fake_output the results are placeholders (MindSpore's pyfunc without out_dtype): what `fn`
                returns is ignored and zeros come out
    """

    def __init__(self, fn, name: str, template: tuple, out_types: tuple, single: bool,
                 loc: SourceLoc | None, fake_output: bool = False):
        self.fn, self.name, self.template = fn, name, template
        self.out_types, self.single, self.fake_output = tuple(out_types), single, fake_output
        self.loc = loc

    def __repr__(self) -> str:  # params print (and key caches) by repr: one per call
        args = ", ".join(f"%{t}" if isinstance(t, int) else repr(t[0]) for t in self.template)
        outs = ", ".join(str(t) for t in self.out_types)
        return f"{self.name}@{id(self.fn):x}({args}) -> ({outs})"

    def __call__(self, *arrays) -> tuple:
        args = [np.asarray(arrays[t]) if isinstance(t, int) else t[0] for t in self.template]
        try:
            result = self.fn(*args)
        except Exception as e:  # noqa: BLE001  (the user's error, passed on marked)
            raise mark_raised_by_user_function(e, self.loc)
        if self.fake_output:
            return tuple(np.zeros(t.shape, t.dtype.np) for t in self.out_types)
        return self._checked(result)

    def _checked(self, result) -> tuple:
        n_out = len(self.out_types)
        if self.single and isinstance(result, tuple) and len(result) == 1:
            result = result[0]  # MindSpore takes a 1-tuple for its one output too
        results = (result,) if self.single else result
        if not isinstance(results, tuple) or len(results) != n_out:
            got = f"a tuple of {len(results)}" if isinstance(results, tuple) else \
                type(result).__name__
            raise RunError(f"{self.name}: expected the function to return "
                           f"{'one array' if self.single else f'a tuple of {n_out} arrays'} "
                           f"as out_shape and out_dtype declare, got {got}", self.loc)
        return tuple(self._array(i, r, t) for i, (r, t) in enumerate(zip(results,
                                                                          self.out_types)))

    def _array(self, i: int, value, want: TensorType):
        array = np.asarray(value)
        if self.single and want.shape == (1,) and array.shape == ():  # a scalar result
            array = array.reshape(1)
        what = "its result" if self.single else f"its result {i}"
        if array.shape != want.shape or array.dtype != want.dtype.np:
            raise RunError(f"{self.name}: out_shape and out_dtype declare {what} as "
                           f"{fmt_shape(want.shape)} {want.dtype}, but the function returned "
                           f"shape {fmt_shape(array.shape)} {_dtype_name(array.dtype)}",
                           self.loc)
        return array

    def batched(self, dims: tuple, size: int) -> BatchedHostCall:
        return BatchedHostCall(self, dims, size)


class BatchedHostCall:
    """A HostCall over a batch: the function runs once per example (the operands sliced along
    their batch axes, `dims`), and each result stacks along a new leading axis."""

    def __init__(self, inner, dims: tuple, size: int):
        self.inner, self.dims, self.size = inner, tuple(dims), size
        self.out_types = tuple(TensorType((size, *t.shape), t.dtype)
                               for t in inner.out_types)

    def __repr__(self) -> str:
        return f"vmap[{self.size}, {self.dims}]({self.inner!r})"

    def __call__(self, *arrays) -> tuple:
        per_example = [self.inner(*[a if d is None else np.take(np.asarray(a), b, axis=d)
                                    for a, d in zip(arrays, self.dims)])
                       for b in range(self.size)]
        return tuple(np.stack([ex[k] for ex in per_example]) if per_example else
                     np.zeros(t.shape, t.dtype.np) for k, t in enumerate(self.out_types))

    def batched(self, dims: tuple, size: int) -> BatchedHostCall:
        return BatchedHostCall(self, dims, size)


def _dtype_name(np_dtype) -> str:
    try:
        return str(dt.from_numpy(np_dtype))
    except (TypeError, KeyError, ValueError):
        return str(np_dtype)


py_func_p = Primitive("py_func", lambda *avals, call: call.out_types, label="Custom",
                      multiple_results=True, effectful=True)


@py_func_p.def_bprop
def _refuse(*ins, out, dout, call):
    """MindSpore's error for a pyfunc Custom op differentiated without a bprop."""
    inner = call
    while isinstance(inner, BatchedHostCall):
        inner = inner.inner
    builder = current_builder()
    raise CompileError(f"Illegal primitive: Primitive Custom's bprop not defined: {inner.name} "
                       f"was made without `bprop`, so it cannot be differentiated; give "
                       f"ops.Custom a bprop(*inputs, out, dout) returning one gradient per "
                       f"input", builder.loc if builder is not None else inner.loc)


@py_func_p.def_batch
def _batch(args, dims, *, call):
    size = next(abstract_of(a).shape[d] for a, d in zip(args, dims) if d is not None)
    outs = py_func_p(*args, call=call.batched(tuple(dims), size))
    return tuple(outs), (0,) * len(outs)
