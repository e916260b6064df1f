"""The parts of `mindspore.ops` that need the compiler: `ops.composite` (C), `ops.function`,
and the higher-order names (`HyperMap`, `partial`, `constexpr`, ...) in `ops` and
`ops.functional`. `mount()` adds them once the whole package is importable; a name the ops
layer defines itself is never replaced."""
from __future__ import annotations

import builtins
import functools
import operator
import sys
import types

from cellgraph import ops
from cellgraph.compiler.builder import Tracer, current_builder
from cellgraph.ops import composite, functional
from cellgraph.ops.derive import PrimitiveClass
from cellgraph.ops.function.array_func.attributes import dtype, identity, shape
from cellgraph.ops.operations.array_ops import DType, Identity, Shape, TensorShape
from cellgraph.primitives.errors import DTypeError


class _ConstexprFunction:
    """A function run at compile time on constant arguments (never parsed into the graph)."""

    def __init__(self, fn):
        functools.update_wrapper(self, fn)
        self.fn = fn

    def __call__(self, *args, **kwargs):
        for value in list(args) + list(kwargs.values()):
            if isinstance(value, Tracer):
                raise DTypeError(f"constexpr function {self.fn.__name__}: expected compile-time "
                                f"constants, got a Tensor computed in the graph")
        return self.fn(*args, **kwargs)


def constexpr(fn=None, *, get_instance=True, reuse_result=True, check=True):
    """Decorator: `fn` runs at compile time on constants (shapes, dtypes, numbers)."""
    if fn is None:
        return _ConstexprFunction
    return _ConstexprFunction(fn)


def make_range(start=0, stop=None, step=1) -> tuple:
    """A tuple of ints like Python's range (`F.make_range(5)` is (0, 1, 2, 3, 4)), made when
    the graph is built."""
    if stop is None:
        start, stop = 0, start
    for name, value in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise DTypeError(f"make_range: `{name}` must be an int, got "
                             f"{type(value).__name__} {value!r}")
    if step == 0:
        raise ValueError("make_range: `step` must not be 0")
    return tuple(range(start, stop, step))


def tuple_len(data) -> int:
    return len(data)


class Print(PrimitiveClass):
    """`ops.Print()(*values)`: inside a graph, an effectful node that prints every time the
    graph runs, constants included (unlike the built-in `print` of constants in construct,
    which prints once while compiling, as MindSpore's does); outside, it prints at once."""

    def __call__(self, *args):
        from cellgraph.compiler.print_op import emit_print

        if current_builder() is not None:
            return emit_print(args, {})
        print(*args)
        return None

    def __repr__(self) -> str:
        return "Print()"


SURFACE = {
    "HyperMap": composite.HyperMap, "Map": composite.Map,
    "MultitypeFuncGraph": composite.MultitypeFuncGraph, "Partial": composite.Partial,
    "partial": composite.partial, "clip_by_global_norm": composite.clip_by_global_norm,
    "constexpr": constexpr, "identity": identity, "shape": shape, "dtype": dtype,
    "tuple_len": tuple_len, "make_range": make_range,
    "Identity": Identity, "Shape": Shape, "DType": DType,
    "TensorShape": TensorShape, "Print": Print,
}
# F.scalar_add(2, 3) and friends: arithmetic on Python numbers, done when the graph is built.
SCALAR_OPS = {"scalar_add": operator.add, "scalar_sub": operator.sub,
              "scalar_mul": operator.mul, "scalar_div": operator.truediv,
              "scalar_floordiv": operator.floordiv, "scalar_mod": operator.mod,
              "scalar_pow": operator.pow, "scalar_usub": operator.neg,
              "scalar_lt": operator.lt, "scalar_gt": operator.gt, "scalar_le": operator.le,
              "scalar_ge": operator.ge, "scalar_eq": operator.eq, "scalar_ne": operator.ne,
              "bool_not": operator.not_, "bool_and": operator.and_, "bool_or": operator.or_}
SURFACE.update(SCALAR_OPS)
# F.dtype(x) and the scalar operations live in ops.functional only (`ops.dtype` stays the dtype
# module).
_FUNCTIONAL_ONLY = ("dtype", "make_range", *SCALAR_OPS)


def _module(name: str, doc: str, names: dict) -> types.ModuleType:
    module = types.ModuleType(name, doc)
    module.__dict__.update(names)
    module.__all__ = sorted(k for k in names if not k.startswith("_"))
    sys.modules[name] = module
    return module


def _public(namespace) -> dict:
    return {k: v for k, v in vars(namespace).items()
            if not k.startswith("_") and not isinstance(v, types.ModuleType)}


def mount() -> None:
    """Add the names above to `ops` and `ops.functional`, and create `ops.composite` and
    `ops.function.grad` as importable modules."""
    for name, value in SURFACE.items():
        if name not in _FUNCTIONAL_ONLY and not hasattr(ops, name):
            setattr(ops, name, value)
        if name[0].islower() and not hasattr(functional, name):
            setattr(functional, name, value)
    for name, value in _public(ops).items():  # F.<op> for every functional op
        # Module attributes are the module's globals: a builtin's name (slice, min) must not
        # be shadowed under the code of ops.functional.
        if name[0].islower() and callable(value) and not hasattr(functional, name) \
                and not hasattr(builtins, name):
            setattr(functional, name, value)
    operations = ops.operations  # P.Zeros(), P.HyperMap(): every class-like name of ops
    for name, value in _public(ops).items():
        if name[0].isupper() and isinstance(value, type) and not hasattr(operations, name):
            setattr(operations, name, value)
    ops.composite = composite
    from cellgraph.ops import custom_ops
    from cellgraph.ops import primitive as primitive_api  # it imports constexpr from here

    ops.primitive = primitive_api
    for name in custom_ops.__all__:  # ops.Custom, ops.kernel
        if not hasattr(ops, name):
            setattr(ops, name, getattr(custom_ops, name))
    _mount_function_package()
    from cellgraph.ops import _auto_generate as ops_auto_generate

    ops_auto_generate.mount()


def _mount_function_package() -> None:
    """MindSpore's `ops.function.grad` and `ops.function.grad.grad_func` (the gradient
    functions and `custom_vjp`) as importable modules under the `ops.function` package; the
    package's attribute `grad` stays the grad function (the submodule is reached by
    `import`/`from ... import`, through sys.modules)."""
    from cellgraph.ops.function._fallback import grad_functions

    grad_names = grad_functions()
    grad_func = _module("cellgraph.ops.function.grad.grad_func", "mindspore.ops.function.grad."
                        "grad_func: the differentiation functions", grad_names)
    grad = _module("cellgraph.ops.function.grad", "mindspore.ops.function.grad", grad_names)
    grad.__path__, grad.grad_func = [], grad_func
