"""`mindspore.ops.primitive`: the base classes of MindSpore's primitives, for programs that
define their own (`ops.Custom` is in ops/custom_ops.py).

A subclass whose `__call__` is Python runs it: in PyNative as Python, and inside a graph parsed
like construct (MindSpore refuses it in graph mode; here it compiles). A `PrimitiveWithInfer`
subclass's `infer_shape`/`infer_dtype` (or `__infer__`) run in a graph on the arguments' shapes
and dtypes, as MindSpore runs them, and what `__call__` returns must agree with them;
`infer_value` folds a call on constants into its value. A subclass with no Python `__call__`
names a kernel of MindSpore's back ends: the few of those kernels that no public class reaches
are composed in ops/_backend_kernels.py (`Shift`), and calling any other raises
UnsupportedError saying what to write instead. `constexpr` works as in `ops.constexpr`.
"""
from __future__ import annotations

import collections
import functools
import inspect
import types

from cellgraph.compiler.builder import Tracer, current_builder, describe_value, is_tensor_like
from cellgraph.compiler.scope import Closure, is_user_function, written_by_user
from cellgraph.primitives.core import Primitive as CorePrimitive
from cellgraph.primitives.core import abstract_of, fmt_shape
from cellgraph.primitives.errors import DTypeError, ShapeError, UnsupportedError
from cellgraph.transform import user_loc

from .primitive_class import PrimitiveClass, UserData

__all__ = ["Primitive", "PrimitiveWithCheck", "PrimitiveWithInfer", "constexpr",
           "prim_arg_register", "prim_attr_register"]

class _ConstexprFunction:
    """A function run at compile time on constant arguments (never parsed into the graph)."""

    def __init__(self, fn, name=None, check=True):
        functools.update_wrapper(self, fn)
        self.fn, self.check = fn, check
        if name is not None:
            self.__name__ = self.__qualname__ = str(name)

    def __call__(self, *args, **kwargs):
        if self.check:
            for value in list(args) + list(kwargs.values()):
                if isinstance(value, Tracer):
                    raise DTypeError(f"constexpr function {self.__name__}: expected "
                                     f"compile-time constants, got a Tensor computed in the "
                                     f"graph")
        if current_builder() is not None:
            args = tuple(_graph_constant(v) for v in args)
            kwargs = {k: _graph_constant(v) for k, v in kwargs.items()}
        return self.fn(*args, **kwargs)


def _graph_constant(value):
    """What a constexpr function gets in a graph for `value`: MindSpore parses Python
    functions, methods and Python's builtins (len, ...) into graphs, which are not values, and
    passes None for them (a lambda of the graph, a function of cellgraph.ops too); anything
    else (classes, math.sqrt, ufuncs) as it is."""
    if isinstance(value, (types.FunctionType, types.MethodType, Closure, CorePrimitive)) or (
            isinstance(value, types.BuiltinFunctionType)
            and getattr(value, "__module__", None) == "builtins"):
        return None
    return value


def constexpr(fn=None, get_instance=True, name=None, reuse_result=True, check=True):
    """Decorator: `fn` runs at compile time on constants (shapes, dtypes, numbers), and its
    result is a constant of the graph, computed once per compile (MindSpore's
    `reuse_result=True`; a run-time re-execution, `reuse_result=False`, is refused). `name`
    names the operation; `check=False` lets graph values through to `fn`; with
    `get_instance=False` the decorator gives a class whose instances are the operation."""
    if not reuse_result:
        raise UnsupportedError("constexpr: reuse_result=False (running the function again at "
                               "every execution) is not supported; cellgraph folds the result "
                               "into the graph when it compiles")

    def make(function):
        if get_instance:
            return _ConstexprFunction(function, name, check)
        return type(str(name or function.__name__), (_ConstexprFunction,), {
            "__init__": lambda self: _ConstexprFunction.__init__(self, function, name, check)})

    return make if fn is None else make(fn)


_INSTEAD = ("define `__call__` in Python (a function of cellgraph.ops calls: it runs in "
            "PyNative and compiles in graphs), or use ops.Custom(func, out_shape, out_dtype, "
            "'pyfunc') to run a function over NumPy arrays")


class _PrimitiveType(type):
    """`Primitive` is also the base of every operation class of ops.operations (they derive
    from PrimitiveClass), as MindSpore's all derive from its Primitive: `isinstance(P.Add(),
    Primitive)` holds, eagerly and inside a graph."""

    def __instancecheck__(cls, instance):
        return super().__instancecheck__(instance) or (
            cls is Primitive and isinstance(instance, PrimitiveClass))

    def __subclasscheck__(cls, subclass):
        return super().__subclasscheck__(subclass) or (
            cls is Primitive and isinstance(subclass, type) and issubclass(subclass, PrimitiveClass))


class Primitive(UserData, metaclass=_PrimitiveType):
    """Base of MindSpore primitive classes: a name and attributes."""

    def __init__(self, name):
        self.name = name
        self.attrs: dict = {}
        self.init_attrs: dict = {"name": self.name}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        call = cls.__dict__.get("__call__")
        if call is not None and written_by_user(call):
            cls.__call__ = _python_call(call)

    def add_prim_attr(self, name, value):
        """Set attribute `name`: in `attrs`, and readable as `self.<name>` (as in MindSpore)."""
        self.__dict__[name] = value
        self.attrs[name] = value
        return self

    def _set_prim_arg(self, name, value):
        """Set an initialization argument (MindSpore's, apart from `add_prim_attr` in that its
        back end is not told of it; cellgraph's has nothing to tell)."""
        self.__dict__[name] = value
        self.attrs[name] = value
        return self

    def del_prim_attr(self, name):
        self.attrs.pop(name, None)
        self.__dict__.pop(name, None)
        return self

    def init_prim_io_names(self, inputs, outputs) -> None:
        self.add_prim_attr("input_names", list(inputs))
        self.add_prim_attr("output_names", list(outputs))

    def shard(self, in_strategy=None, out_strategy=None):
        """Record a sharding strategy (checked as MindSpore checks it) as the attributes
        in_strategy/out_strategy (in_layout/out_layout for Layouts). The operators that
        `__call__` runs are what cellgraph shards: shard those to split the work."""
        from .primitive_class import check_shard

        found = check_shard(self.name, in_strategy, out_strategy,
                            self.attrs.get("self_define_shard", False))
        for name, value in ({} if found is None else found[0]).items():
            self.add_prim_attr(name, value)
            self.init_attrs[name] = value
        return self

    def set_prim_instance_name(self, instance_name):
        self.instance_name = instance_name
        return self

    def __call__(self, *args):
        declared = _declared(self, args)
        if declared is not None and declared.get("value") is not None:
            return declared["value"]  # infer_value folded a call on constants
        kernel = _backend_kernel(self.name)
        if kernel is not None:
            out = kernel(self, *args)
            if declared is not None:
                _check_declared(self, declared, out)
            return out
        if declared is None:  # no infer either: MindSpore finds no operator of that name
            lead = (f"Operator '{self.name}' is invalid, or no matching evaluator could be "
                    f"found" if current_builder() is not None else
                    f"prim:{self.name} has no attr:__infer__")
            raise UnsupportedError(f"{lead}: a Primitive without a Python `__call__` names a "
                                   f"kernel of MindSpore's back ends, which cellgraph does not "
                                   f"have; {_INSTEAD}", user_loc())
        raise UnsupportedError(f"Unsupported op [{self.name}] on CPU: a Primitive subclass "
                               f"without a Python `__call__` runs a kernel of MindSpore's back "
                               f"ends, which cellgraph cannot run; {_INSTEAD}", user_loc())

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.init_attrs.items() if k != "name")
        return f"Prim[{self.name}]" + (f"<{shown}>" if shown else "")


def _backend_kernel(name):
    """The kernel of MindSpore's back ends named `name` that cellgraph composes (for a
    subclass that names one, as MindSpore looks kernels up by name), else None."""
    from ._backend_kernels import KERNELS

    return KERNELS.get(name)


def infer_argument(arg) -> dict:
    """What MindSpore's infer functions get for an argument: its shape (a list), dtype and
    value (a constant's: a number, or a Tensor known before the graph runs; else None)."""
    if is_tensor_like(arg):
        aval = abstract_of(arg)
        constant = current_builder() is not None and not isinstance(arg, Tracer)
        return {"shape": list(aval.shape), "dtype": aval.dtype,
                "value": arg if constant else None}
    if isinstance(arg, (bool, int, float, complex)):
        return {"shape": [], "dtype": abstract_of(arg).dtype, "value": arg}
    return {"shape": None, "dtype": None, "value": arg}


def _declared(prim, args) -> dict | None:
    """`prim.__infer__` on `args` for a PrimitiveWithInfer (its checks raise), else None."""
    infer = getattr(prim, "__infer__", None)
    if infer is None:
        return None
    return infer(*[infer_argument(a) for a in args])


def _python_call(call):
    """A subclass's Python `__call__`: run as it is eagerly; inside a graph, parsed like
    construct, after its `__infer__` has seen the arguments, and checked against it."""
    @functools.wraps(call)
    def run(self, *args, **kwargs):
        if current_builder() is None:
            return call(self, *args, **kwargs)
        declared = _declared(self, args)
        if is_user_function(call):
            from cellgraph.compiler.frontend import Interpreter

            out = Interpreter.call_function(call, (self, *args), kwargs)
        else:
            out = call(self, *args, **kwargs)
        if declared is not None:
            _check_declared(self, declared, out)
        return out

    return run


class PrimitiveRegistry(collections.UserDict):
    """A table of functions for primitives, as MindSpore's registries keep them:
    `@registry.register(PrimClass)` files `fn` under the class (and its name),
    `@registry.register("Name")` under a primitive's name; `get(prim)` finds a Primitive's by
    its class, then by its name, and a name's by the name."""

    label = "registry"

    def register(self, prim):
        def deco(fn):
            if isinstance(prim, str):
                self[prim] = fn
            elif isinstance(prim, type) and issubclass(prim, Primitive):
                self[id(prim)] = fn
                self[prim.__name__] = fn
            else:
                raise DTypeError(f"{self.label}.register: expected a Primitive subclass or a "
                                 f"primitive's name, got {type(prim).__name__}")
            return fn

        return deco

    def get(self, prim_obj, default=None):
        if isinstance(prim_obj, str):
            return self.data.get(prim_obj, default)
        if isinstance(prim_obj, Primitive):
            found = self.data.get(id(type(prim_obj)))
            return found if found is not None else self.data.get(prim_obj.name, default)
        return default


class BpropRegistry(PrimitiveRegistry):
    """MindSpore's registry of Python bprops for primitives (`bprop_getters` of
    `ops._grad_experimental.grad_base`): `@bprop_getters.register(PrimClass)` (or a primitive's
    name) over `get(prim) -> bprop(*inputs, out, dout)`, read back by `get(prim)` and
    `get_bprop_fn(prim)`. MindSpore consults it for the operators of its C++ back ends; a
    Primitive subclass with a Python `__call__` is differentiated through that `__call__`, in
    MindSpore 2.10 (PyNative; its graph mode cannot run one on CPU) as here, whatever is
    registered for it. cellgraph's own operators keep their declared derivatives."""

    label = "bprop_getters"


bprop_getters = BpropRegistry()


def get_bprop_fn(prim, get_closure=False):
    """The bprop registered for `prim` (a Primitive or a name); the getter itself with
    `get_closure`; None when none is."""
    getter = bprop_getters.get(prim, None)
    if getter is None or get_closure:
        return getter
    return getter(prim)


def _check_declared(prim, declared: dict, out) -> None:
    """What `__call__` returned against what infer_shape/infer_dtype said (None: unsaid)."""
    shape, dtype = declared.get("shape"), declared.get("dtype")
    if shape is None and dtype is None or not is_tensor_like(out):
        return
    got = abstract_of(out)
    if shape is not None and tuple(shape) != got.shape:
        raise ShapeError(f"{prim.name}: infer_shape gives {fmt_shape(tuple(shape))}, but "
                         f"__call__ returned {describe_value(out)}", user_loc())
    if dtype is not None and getattr(dtype, "np", None) is not None and dtype != got.dtype:
        raise DTypeError(f"{prim.name}: infer_dtype gives {dtype}, but __call__ returned "
                         f"{describe_value(out)}", user_loc())


class PrimitiveWithInfer(Primitive):
    """A primitive with Python inference: `infer_shape`, `infer_dtype` and `infer_value` (each
    None when it says nothing), or `__infer__` over {"shape", "dtype", "value"} dicts."""

    def __init__(self, name):
        super().__init__(name)

    def infer_shape(self, *args):
        return None

    def infer_dtype(self, *args):
        return None

    def infer_value(self, *args):
        return None

    def __infer__(self, *args):
        return {track: getattr(self, f"infer_{track}")(*(a[track] for a in args))
                for track in ("dtype", "shape", "value")}


class PrimitiveWithCheck(Primitive):
    """A primitive with Python argument checks (check_shape, check_dtype)."""

    def __init__(self, name):
        super().__init__(name)


def _registering_init(fn, set_argument, substitute_plain: bool):
    """`fn` (a primitive's `__init__`) run after the primitive is named and each argument of
    the call, defaults filled in, is set with `set_argument(self, name, value)` and recorded in
    `init_attrs`. The name is the class's `substitute_name` where it has one (for a plain
    Primitive only with `substitute_plain`, as MindSpore's two decorators differ), else the
    class's name."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def init(self, *args, **kwargs):
        cls = type(self)
        name = cls.__name__
        if hasattr(cls, "substitute_name") and (
                substitute_plain or isinstance(self, (PrimitiveWithInfer, PrimitiveWithCheck))):
            name = cls.substitute_name
        Primitive.__init__(self, name)
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        del self.init_attrs["name"]
        for arg_name, value in list(bound.arguments.items())[1:]:
            set_argument(self, arg_name, value)
            self.init_attrs[arg_name] = value
        return fn(self, *args, **kwargs)

    return init


def prim_attr_register(fn):
    """Decorator on a primitive's `__init__`: its arguments become the primitive's attributes."""
    init = _registering_init(fn, lambda prim, name, value: prim.add_prim_attr(name, value),
                             substitute_plain=True)
    init.decorated_func = fn
    return init


def prim_arg_register(fn):
    """Decorator on a built-in primitive's `__init__`: its arguments become the primitive's
    initialization arguments (in `attrs` and as attributes, as `prim_attr_register` sets them),
    and the primitive is named after its class."""
    return _registering_init(fn, lambda prim, name, value: prim._set_prim_arg(name, value),
                             substitute_plain=False)


def _primexpr(fn=None, get_instance=True, name=None, reuse_result=True):
    """MindSpore's internal decorator for a function that folds to a constant on constant
    inputs and otherwise compiles into the graph. A graph here evaluates every Python function
    it calls on the constants it is given while it is built, and compiles the rest, so the
    function is returned as it is; with `get_instance=False`, a class whose instances call it.
    `name` (the operator's name in MindSpore's IR) and `reuse_result` (whether MindSpore
    caches the folded value; the function is evaluated at each compile here) choose nothing."""
    def deco(fn):
        if get_instance:
            return fn
        return type(name or fn.__name__, (), {"__call__": lambda self, *a, **k: fn(*a, **k)})
    return deco(fn) if fn is not None else deco
