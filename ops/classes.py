"""MindSpore's primitive classes (`ops.MatMul()`, `ops.ReduceSum(keep_dims=True)`, ...).

Each class is configured in `__init__` and applied in `__call__`, delegating to the functional
API; instances are constants in a graph, so `self.matmul = ops.MatMul()` works in construct.
"""
from __future__ import annotations

from . import functional as F


class PrimitiveClass:
    """Base of the classes below: remembers its init arguments for repr."""

    _fn = None
    _init_names: tuple = ()

    def __init__(self, *args, **kwargs):
        names = self._init_names
        values = dict(self._defaults)
        values.update(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument "
                                f"'{k}'")
            values[k] = v
        self.__dict__.update(values)
        self._attrs = values

    def __call__(self, *args, **kwargs):
        return type(self)._fn(*args, **kwargs, **self._attrs)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._attrs.items())
        return f"{type(self).__name__}({inner})"


def _define(name: str, fn, init: dict | None = None) -> type:
    init = init or {}
    cls = type(name, (PrimitiveClass,), {"_fn": staticmethod(fn), "_init_names": tuple(init),
                                          "_defaults": init, "__doc__": f"ops.{name}"})
    globals()[name] = cls
    return cls


for _name, _fn in {
    "Add": F.add, "Sub": F.sub, "Mul": F.mul, "Div": F.div, "RealDiv": F.div, "Pow": F.pow,
    "Neg": F.neg, "Square": F.square, "Sqrt": F.sqrt, "Rsqrt": F.rsqrt,
    "Reciprocal": F.reciprocal, "Exp": F.exp, "Log": F.log, "Sin": F.sin, "Cos": F.cos,
    "Tan": F.tan, "Sinh": F.sinh, "Cosh": F.cosh, "Tanh": F.tanh, "Asin": F.asin,
    "ACos": F.acos, "Atan": F.atan, "Asinh": F.asinh, "Acosh": F.acosh, "Atanh": F.atanh,
    "Abs": F.abs, "Sign": F.sign, "Maximum": F.maximum, "Minimum": F.minimum,
    "Equal": F.equal, "NotEqual": F.not_equal, "Less": F.less, "LessEqual": F.less_equal,
    "Greater": F.greater, "GreaterEqual": F.greater_equal, "LogicalAnd": F.logical_and,
    "LogicalOr": F.logical_or, "LogicalNot": F.logical_not, "ReLU": F.relu,
    "Sigmoid": F.sigmoid, "ZerosLike": F.zeros_like, "OnesLike": F.ones_like,
    "Select": F.select, "Reshape": F.reshape, "Transpose": F.transpose, "Cast": F.cast,
    "ExpandDims": F.expand_dims, "Fill": F.fill, "StopGradient": F.stop_gradient,
    "Gather": F.gather,
}.items():
    _define(_name, _fn)

Acos = globals()["ACos"]  # same class under both MindSpore spellings
_define("MatMul", F.mm, {"transpose_a": False, "transpose_b": False})
_define("BatchMatMul", F.batch_matmul, {"transpose_a": False, "transpose_b": False})
for _name, _fn in {"ReduceSum": F.reduce_sum, "ReduceMean": F.reduce_mean,
                   "ReduceMax": F.reduce_max, "ReduceMin": F.reduce_min}.items():
    _define(_name, lambda x, axis=(), keep_dims=False, _f=_fn: _f(x, axis, keep_dims),
            {"keep_dims": False})
_define("BroadcastTo", lambda x, shape: F.broadcast_to(x, shape), {"shape": None})
_define("Squeeze", lambda x, axis=(): F.squeeze(x, axis), {"axis": ()})
_define("Concat", lambda x, axis=0: F.concat(x, axis), {"axis": 0})
_define("Stack", lambda x, axis=0: F.stack(x, axis), {"axis": 0})
_define("Softmax", lambda x, axis=-1: F.softmax(x, axis[0] if isinstance(axis, tuple) else axis),
        {"axis": -1})
_define("LogSoftmax", lambda x, axis=-1: F.log_softmax(x, axis), {"axis": -1})

__all__ = [n for n, v in list(globals().items()) if isinstance(v, type) and issubclass(
    v, PrimitiveClass) and v is not PrimitiveClass]
