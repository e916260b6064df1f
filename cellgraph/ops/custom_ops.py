"""`mindspore.ops.Custom` and the `kernel` decorator (MindSpore's ops/operations/custom_ops.py
and _ms_kernel.py).

    add = ops.Custom(lambda x, y: x + y, out_shape=lambda x, _: x, out_dtype=lambda x, _: x,
                     func_type="pyfunc", bprop=add_bprop)

A "pyfunc" Custom op runs `func` in Python on NumPy arrays, in PyNative and in graph mode: each
call is one `py_func` node (compiler/py_func_op.py) whose kernel calls `func` on the host and
checks its result against `out_shape` and `out_dtype`. With `bprop(*inputs, out, dout)`, the call
is a custom_vjp node whose backward is `bprop` (parsed like construct, so it may use any op and
differentiates again); without one, differentiating the call is MindSpore's error. A "hybrid"
op takes a function decorated by `kernel` (MindSpore's Hybrid DSL) and runs it as Python over
arrays the same way; its output shape and dtype default to those of the function run on zeros.
Registration info (`reg_info=`, `custom_info_register` or `kernel(reg_info=...)`, built with
`CustomRegOp`) whose target is the CPU (or none, for a pyfunc) limits the input dtypes as
MindSpore's CPU kernel selection does: a call no `dtype_format` row accepts raises TypeError; a
pyfunc row's float32/int32 column also takes float16/float64 and int16/int64 inputs, cast to
the column's dtype for the function, its results cast back to the declared dtype.
The other kinds ("aot", "akg", "tbe", "aicpu") compile kernels for MindSpore's back ends, which
cellgraph does not have: they raise UnsupportedError when made.
"""
from __future__ import annotations

import functools
import inspect
import itertools
import json
import os
import types
import warnings

import numpy as np

from cellgraph.compiler.builder import current_builder, is_tensor_like
from cellgraph.compiler.custom import emit_custom_vjp
from cellgraph.compiler.py_func_op import HostCall, py_func_p
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import TensorType
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, UnsupportedError
from cellgraph.transform import user_loc

from .op_info_register import check_custom_reg_info, cpu_dtype_rows, select_dtype_row
from .primitive import PrimitiveWithInfer, infer_argument

__all__ = ["Custom", "kernel", "ms_kernel"]

_FUNC_TYPES = ["hybrid", "akg", "tbe", "aicpu", "aot", "pyfunc"]
_HOST_TYPES = ("pyfunc", "hybrid")  # the kinds that run as Python over arrays


class Custom(PrimitiveWithInfer):
    """`ops.Custom(func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None,
    reg_info=None)`: an operation defined by a user's function (see the module docstring)."""

    def __init__(self, func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None,
                 reg_info=None):
        super().__init__("Custom")
        self.log_prefix = f"For '{self.name}', 'func_type': {func_type}, 'func': {func}"
        self.func, self.func_type = func, func_type
        self.out_shape, self.out_dtype = out_shape, out_dtype
        self.bprop, self.reg_info = bprop, reg_info
        self._check_func()
        self.func_name = getattr(func, "__name__", str(func))
        given_info = reg_info if reg_info is not None else getattr(func, "reg_info", None)
        check_custom_reg_info(given_info, func_type, self.log_prefix)
        self.cpu_dtype_rows = cpu_dtype_rows(given_info, func_type)
        self.fake_output = func_type == "pyfunc" and not out_dtype
        self.single_scalar_output = func_type == "pyfunc" and bool(out_dtype) and not out_shape
        for name in ("func_name", "func_type", "fake_output", "single_scalar_output"):
            self.add_prim_attr(name, getattr(self, name))

    def _check_func(self) -> None:
        if self.func_type not in _FUNC_TYPES:
            raise ArgumentValueError(f"{self.log_prefix}, 'func_type' must be one of "
                                     f"{_FUNC_TYPES}, but got {self.func_type}", user_loc())
        if self.func_type == "aot":
            self._check_aot_func()
        if self.func_type == "tbe" and not callable(self.func):
            raise DTypeError(f"{self.log_prefix}, 'func' must be of type function, but got "
                             f"{type(self.func)}", user_loc())
        if self.func_type not in _HOST_TYPES:
            raise UnsupportedError(f"{self.log_prefix}: a {self.func_type!r} Custom op compiles "
                                   f"a kernel for MindSpore's back ends, which cellgraph does "
                                   f"not have; write it as a Python function over NumPy arrays "
                                   f"(func_type='pyfunc')", user_loc())
        if not callable(self.func):
            raise DTypeError(f"For '{self.name}', 'func' must be of type function or str, but "
                             f"got {type(self.func)}", user_loc())
        if self.func_type == "hybrid" and not getattr(self.func, "ms_kernel_flag", False):
            raise DTypeError(f"{self.log_prefix}, 'func' must be a function decorated by kernel",
                             user_loc())

    def _check_aot_func(self) -> None:
        """MindSpore's checks of an "aot" func ('file_name:func_name', the file inside the
        folder MS_CUSTOM_AOT_WHITE_LIST names, where set), made before anything compiles."""
        if not isinstance(self.func, str):
            raise DTypeError(f"{self.log_prefix}, 'func' must be of type str, but got "
                             f"{type(self.func)}", user_loc())
        parts = self.func.split(":")
        if len(parts) != 2:
            if callable(self.out_shape):
                return
            raise DTypeError(f"{self.log_prefix}, 'func' should be like 'file_name:func_name', "
                             f"but got {self.func}", user_loc())
        file_path = os.path.realpath(parts[0])
        white_list = os.environ.get("MS_CUSTOM_AOT_WHITE_LIST")
        if white_list is not None:
            legal_path = os.path.realpath(white_list)
            if "akg_kernel_meta" not in file_path and \
                    os.path.commonpath([file_path, legal_path]) != legal_path:
                raise DTypeError(f"{self.log_prefix}, the legal path for the file is "
                                 f"{legal_path}, but the file is {file_path}", user_loc())

    def get_bprop(self):
        """The back propagation function given to the constructor (None: none)."""
        return self.bprop

    # -- inference, as MindSpore's Custom.__infer__ ----------------------------------------------
    def __infer__(self, *args):
        for what, given in (("out_shape", self.out_shape), ("out_dtype", self.out_dtype)):
            if isinstance(given, type):  # a class is callable, but no infer function
                kinds = "[tuple, list, function]" if what == "out_shape" else \
                    "[mindspore.dtype, tuple, list, function]"
                raise DTypeError(f"{self.log_prefix}, '{what}' must be one of {kinds}, but got "
                                 f"{given}", user_loc())
        infer_shape = self.out_shape(*(a["shape"] for a in args)) if callable(self.out_shape) \
            else self.out_shape
        infer_dtype = self.out_dtype(*(a["dtype"] for a in args)) if callable(self.out_dtype) \
            else self.out_dtype
        if self.func_type == "hybrid" and (infer_shape is None or infer_dtype is None):
            auto_shape, auto_dtype = self._auto_infer(args)
            infer_shape = auto_shape if infer_shape is None else infer_shape
            infer_dtype = auto_dtype if infer_dtype is None else infer_dtype
        if self.func_type == "pyfunc":
            if isinstance(infer_shape, tuple) and infer_shape == ():
                warnings.warn(f"{self.log_prefix}, 'out_shape' is an empty tuple. Add a "
                              f"placeholder instead. Not recommend to use it as it could be any "
                              f"uninitialized data.", stacklevel=3)
                infer_shape = (1,)
            if isinstance(infer_dtype, tuple) and infer_dtype == ():
                warnings.warn(f"{self.log_prefix}, 'out_dtype' is an empty tuple. Add a "
                              f"placeholder instead. Not recommend to use it as it could be any "
                              f"uninitialized data.", stacklevel=3)
                infer_dtype = dt.int32
        if not isinstance(infer_shape, (tuple, list)):
            raise DTypeError(f"{self.log_prefix}, 'out_shape' must be one of [tuple, list, "
                             f"function], but got {type(infer_shape)}", user_loc())
        if not isinstance(infer_dtype, (dt.DType, tuple, list)):
            raise DTypeError(f"{self.log_prefix}, 'out_dtype' must be one of [mindspore.dtype, "
                             f"tuple, list, function], but got {type(infer_dtype)}", user_loc())
        return {"shape": infer_shape, "dtype": infer_dtype, "value": None}

    def _auto_infer(self, args) -> tuple:
        """A hybrid function's output shape and dtype: those of the function run on zeros."""
        fake = [np.zeros(a["shape"], a["dtype"].np) if a["value"] is None else a["value"]
                for a in args]
        out = np.asarray(self.func(*fake))
        return tuple(out.shape), dt.from_numpy(out.dtype)

    def _out_types(self, inferred: dict) -> tuple[tuple, bool]:
        """(the declared TensorTypes, whether there is one output) from __infer__'s result."""
        shapes, dtypes = inferred["shape"], inferred["dtype"]
        if isinstance(dtypes, dt.DType):
            return (TensorType(_shape(self, shapes), dtypes),), True
        if len(shapes) != len(dtypes) or not all(isinstance(s, (tuple, list)) for s in shapes):
            raise DTypeError(f"{self.log_prefix}, 'out_shape' must hold one shape per dtype of "
                             f"'out_dtype' ({len(dtypes)}), got {shapes}", user_loc())
        for d in dtypes:
            if not isinstance(d, dt.DType):
                raise DTypeError(f"{self.log_prefix}, 'out_dtype' must be one of "
                                 f"[mindspore.dtype, tuple, list, function], but got {type(d)}",
                                 user_loc())
        return tuple(TensorType(_shape(self, s), d) for s, d in zip(shapes, dtypes)), False

    # -- calling --------------------------------------------------------------------------------
    def __call__(self, *args):
        infos = [infer_argument(a) for a in args]
        out_types, single = self._out_types(self.__infer__(*infos))
        positions = itertools.count()
        template = tuple(next(positions) if is_tensor_like(a) else (a,) for a in args)
        host_function = self._host_function()
        if self.cpu_dtype_rows is not None:
            given = [info["dtype"].np.name for a, info in zip(args, infos) if is_tensor_like(a)]
            given_out = [t.dtype.np.name for t in out_types]
            row = select_dtype_row(self.cpu_dtype_rows, given, given_out, self.func_type)
            if row is None:
                raise DTypeError(f"{self.log_prefix}: Select CPU operator fail! Unsupported data "
                                 f"type! The supported data types are "
                                 f"{_rows_text(self.cpu_dtype_rows)}, but get input{given} and "
                                 f"output{given_out}", user_loc())
            if any(want and want != got for want, got in zip(row[0], given)):
                host_function = _cast_through(host_function, template, row[0], out_types)
        call = HostCall(host_function, f"Custom({self.func_name})", template, out_types,
                        single, user_loc(), fake_output=self.fake_output)

        def forward(*inputs):
            outs = py_func_p(*[x for x in inputs if is_tensor_like(x)], call=call)
            return outs[0] if single else tuple(outs)

        if self.bprop is None or current_builder() is None:
            return forward(*args)
        _with_signature(forward, self.func)
        return emit_custom_vjp(f"Custom_{self.func_name}", forward, self.bprop, tuple(args),
                               bound=())

    def _host_function(self):
        return self.func


def _rows_text(rows) -> str:
    return "; ".join(f"input{list(ins)}, output{list(outs)}" for ins, outs in rows)


def _cast_through(host_function, template, row, out_types):
    """`host_function` given its tensor inputs cast to `row`'s dtypes, its results cast back
    to the declared output dtypes: what MindSpore's CPU kernel selection does when a row takes
    an input only by its widening/narrowing rule (float16/float64 into float32, ...)."""
    tensor_rows = iter(row)
    casts = [next(tensor_rows) if isinstance(t, int) else None for t in template]

    def cast_call(*args):
        cast_args = [np.asarray(a).astype(c) if c else a for a, c in zip(args, casts)]
        result = host_function(*cast_args)
        if isinstance(result, tuple):
            return tuple(np.asarray(r).astype(t.dtype.np) for r, t in zip(result, out_types))
        return np.asarray(result).astype(out_types[0].dtype.np)

    return cast_call


def _with_signature(forward, func) -> None:
    """Name the traced graph's parameters after `func`'s (IR dumps and errors read them)."""
    try:
        forward.__signature__ = inspect.signature(func)
    except (TypeError, ValueError):
        pass


def _shape(custom: Custom, shape) -> tuple:
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= 0
            for d in shape):
        raise DTypeError(f"{custom.log_prefix}, 'out_shape' must be a tuple or list of "
                         f"non-negative ints per output, got {shape!r}", user_loc())
    return tuple(int(d) for d in shape)


# ----- the Hybrid DSL, run as Python (MindSpore's _ms_kernel.py) -------------------------------

def _allocate(shape, dtype="float32", scope="global"):
    del scope
    return np.zeros(shape).astype(dtype)


def _erf_scalar(x):
    """Abramowitz & Stegun 7.1.26, as the Hybrid DSL's `erf` computes it."""
    sign = 1 if x >= 0 else -1
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-x * x)
    return sign * y


class _Scope:
    """`with attr(...)`, `with block_realize(...)`: scheduling hints, nothing when run."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, *args, **kwargs):
        return self


_INTRINSICS = {
    "allocate": _allocate, "output_tensor": _allocate,
    "range": range, "serial": range, "vectorize": range, "parallel": range, "reduce": range,
    "grid": lambda extents: itertools.product(*(range(e) for e in extents)),
    "attr": _Scope(), "block_realize": _Scope(),
    "sqrt": np.sqrt, "sign": np.sign, "log": np.log, "tanh": np.tanh, "exp": np.exp,
    "abs": np.abs, "int32": np.int32, "float16": np.float16, "float32": np.float32,
    "power": np.power, "rsqrt": lambda x: np.ones_like(x) / np.sqrt(x), "erf": _erf_scalar,
    "isnan": np.isnan, "int8": np.int8, "int16": np.int16, "int64": np.int64,
    "float64": np.float64, "sin": np.sin, "cos": np.cos, "isinf": np.isinf,
    "isfinite": np.isfinite, "atan": np.arctan, "atan2": np.arctan2, "expm1": np.expm1,
    "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc, "round": np.round,
    "ceil_div": lambda a, b: (a + b - 1) // b,
}


def kernel(fn=None, reg_info=None, compile_attrs=None):
    """MindSpore's `@kernel`: marks a Hybrid DSL function for `ops.Custom(func_type="hybrid")`
    and lets it run as a Python function over NumPy arrays, with the DSL's intrinsics
    (`output_tensor`, `allocate`, `grid`, ...) defined for it. Unlike MindSpore, the intrinsics
    are not written into the function's module: each call sees them in its own globals."""
    if compile_attrs is None:
        compile_attrs = {}
    if not isinstance(compile_attrs, dict):
        raise DTypeError(f"The input 'compile_attrs' of @kernel must be a dict, but get a "
                         f"{type(compile_attrs)}", user_loc())
    for key in compile_attrs:
        if not isinstance(key, str):
            raise DTypeError(f"The key of 'compile_attrs' of @kernel must be a str, but get a "
                             f"{type(key)}", user_loc())
    if reg_info is not None and not isinstance(reg_info, (str, dict, tuple)):
        raise DTypeError(f"The input 'reg_info' of @kernel should be one of str, dict and "
                         f"tuple, but get a {type(reg_info)}", user_loc())

    def wrap(func):
        @functools.wraps(func)
        def run_as_python(*args):
            dsl = types.FunctionType(func.__code__, {**func.__globals__, **_INTRINSICS},
                                     func.__name__, func.__defaults__, func.__closure__)
            return dsl(*args)

        run_as_python.ms_kernel_flag = True
        run_as_python.compile_attrs = json.dumps(compile_attrs)
        if reg_info is not None:
            run_as_python.reg_info = reg_info
        return run_as_python

    return wrap(fn) if fn is not None else wrap


def ms_kernel(fn=None, reg_info=None, compile_attrs=None):
    """The older name of `kernel` (deprecated in MindSpore since 1.8)."""
    warnings.warn("'ms_kernel' is deprecated from version 1.8 and will be removed in a future "
                  "version, use 'kernel' instead.", DeprecationWarning, stacklevel=2)
    return kernel(fn, reg_info, compile_attrs)
