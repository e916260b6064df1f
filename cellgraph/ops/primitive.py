"""`mindspore.ops.primitive`: the base classes of MindSpore's primitives, for programs that
import them, and `ops.Custom`. A primitive defined by subclassing needs a kernel compiled for
MindSpore's back ends; cellgraph cannot run one, so calling it raises UnsupportedError saying
what to write instead. `constexpr` (compile-time functions) works as in `ops.constexpr`."""
from __future__ import annotations

import functools
import inspect

from cellgraph.primitives.errors import UnsupportedError

from .surface import constexpr

__all__ = ["Primitive", "PrimitiveWithCheck", "PrimitiveWithInfer", "constexpr",
           "prim_attr_register"]

_INSTEAD = ("write the operation as a Python function of cellgraph.ops calls (it compiles and "
            "differentiates like construct), or as an nn.Cell with a `bprop` method")


class Primitive:
    """Base of MindSpore primitive classes: a name and attributes."""

    def __init__(self, name=None):
        self.name = name or type(self).__name__
        self.attrs: dict = {}

    def add_prim_attr(self, name, value):
        self.attrs[name] = value
        return self

    def del_prim_attr(self, name):
        self.attrs.pop(name, None)
        return self

    def init_prim_io_names(self, inputs, outputs) -> None:
        self.attrs["input_names"], self.attrs["output_names"] = list(inputs), list(outputs)

    def set_prim_instance_name(self, instance_name):
        self.instance_name = instance_name
        return self

    def __call__(self, *args):
        raise UnsupportedError(f"primitive {self.name}: a Primitive subclass needs a kernel for "
                               f"MindSpore's back ends, which cellgraph cannot run; {_INSTEAD}")

    def __repr__(self) -> str:
        return f"Prim[{self.name}]"


class PrimitiveWithInfer(Primitive):
    """A primitive with Python shape/dtype inference (infer_shape, infer_dtype)."""


class PrimitiveWithCheck(Primitive):
    """A primitive with Python argument checks (check_shape, check_dtype)."""


def prim_attr_register(fn):
    """Decorator on a primitive's `__init__`: its arguments become the primitive's attributes."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def init(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        Primitive.__init__(self, type(self).__name__)
        for name, value in list(bound.arguments.items())[1:]:
            self.add_prim_attr(name, value)
        return fn(self, *args, **kwargs)

    return init


class Custom(Primitive):
    """`ops.Custom(func, out_shape, out_dtype, func_type, bprop)`: an operator implemented by a
    kernel for one of MindSpore's back ends (AOT, AKG, TBE, pyfunc run by MindSpore's
    runtime)."""

    def __init__(self, func, out_shape=None, out_dtype=None, func_type="hybrid", bprop=None,
                 reg_info=None):
        super().__init__("Custom")
        self.func, self.func_type = func, func_type

    def __call__(self, *args):
        raise UnsupportedError(f"ops.Custom(func_type={self.func_type!r}): custom kernels need "
                               f"MindSpore's back ends, which cellgraph does not have; "
                               f"{_INSTEAD}")
