"""MindSpore's primitive classes made from the declarations: their base, `PrimitiveClass`, and
how they are made.

The core gives each public primitive its functional op and Tensor method
(cellgraph/primitives/exports.py). From the same declarations come MindSpore's primitive classes
(`ops.Exp()(x)`, configured by the declared static params: `ops.Softmax(axis=0)`), all of one
base, `PrimitiveClass`. Each module builds its own names from the declarations when it is
imported: an `ops.operations` submodule (`math_ops`, `array_ops`, `nn_ops`, ...) ends with
`generate_classes`, which defines there the classes MindSpore files there; `ops.operations`
takes `unfiled_classes`, those filed in no submodule. (`ops.functional` takes the API layer's
registered wrappers through ops/function/_namespace.py; ops/tensor_method.py installs those
registered as Tensor methods.)
"""
from __future__ import annotations

import inspect
import sys
from types import MappingProxyType

from cellgraph._c_expression import amp as _amp
from cellgraph.primitives import exports
from cellgraph.primitives.core import PRIMITIVES
from cellgraph.primitives.errors import ArgumentValueError, CompileError, DTypeError


class UserData:
    """`set_user_data(key, value)` / `get_user_data(key)`: values a program keeps on a primitive
    instance, by str key (MindSpore's Primitive methods, with its errors)."""

    def set_user_data(self, key, value):
        if not isinstance(key, str):
            raise DTypeError(f"set_user_data(): incompatible function arguments: the key must "
                             f"be a str, got {type(key).__name__}")
        self.__dict__.setdefault("_user_data", {})[key] = value

    def get_user_data(self, key):
        found = self.__dict__.get("_user_data", {})
        if key not in found:
            raise RuntimeError("The pointer[primitive_data] is null.")
        return found[key]


# MindSpore's names of the operands of a class's call, where they differ from those of the
# function the class calls (its `_fn`, written with the core's names): a call passing them by
# keyword binds them by MindSpore's names. `name=None` gives a default.
MINDSPORE_OPERANDS = {
    "AcoshGrad": "out, dout",
    "AdaptiveMaxPool2D": "input",
    "Addcdiv": "input, tensor1, tensor2, value",
    "Addcmul": "input, tensor1, tensor2, value",
    "ArgMaxWithValue": "input",
    "ArgMinWithValue": "input",
    "Argmax": "input_x",
    "AsinhGrad": "out, dout",
    "BCEWithLogitsLoss": "input, target, weight=None, posWeight=None",
    "BernoulliExt": "input, seed, offset",
    "BiasAdd": "input_x, bias",
    "BinaryCrossEntropy": "input, target, weight=None",
    "BroadcastTo": "input",
    "Cross": "input, other",
    "CumSum": "input, axis",
    "Dense": "input, weight, bias=None",
    "DropoutExt": "input, p, seed, offset",
    "ExtractImagePatches": "input_x",
    "Eye": "n, m, dtype",
    "FloorDiv": "input, other",
    "GatherD": "x, dim, index",
    "GeLU": "input",
    "GridSampler2D": "input_x, grid",
    "GridSampler3D": "input_x, grid",
    "Identity": "input_x",
    "InplaceDiv": "input, other",
    "InplaceDivs": "input, other",
    "InplaceNormal": "input, mean, std, seed, offset",
    "InplaceUniform": "input, from_, to, seed, offset",
    "LayerNorm": "input_x, gamma, beta",
    "LeftShift": "x1, x2",
    "LogSoftmax": "logits",
    "LogicalAnd": "x, y",
    "LogicalOr": "x, y",
    "Logit": "input",
    "LogitGrad": "grad, input",
    "MaskedScatter": "input, mask, source",
    "MatMul": "input, mat2",
    "MaximumGrad": "x, y, grads",
    "MaximumGradGrad": "x, y, dx, dy",
    "MultinomialExt": "input, num_samples, replacement, seed, offset",
    "NonZero": "input",
    "Ones": "shape, dtype=None",
    "OnesLike": "x",
    "Range": "start, end, step",
    "ReLU": "input",
    "RealDiv": "x, y",
    "ReduceAll": "input, axis=None",
    "ReduceStd": "x",
    "ResizeBicubic": "image, size",
    "ResizeBilinearGrad": "grads, image",
    "ResizeBilinearV2": "image, size",
    "ResizeNearestNeighbor": "input_x",
    "ResizeNearestNeighborV2": "image, size",
    "ReverseV2": "input",
    "RightShift": "input_x, input_y",
    "RsqrtGrad": "y_backprop, x",
    "SequenceConcat": "x",
    "Slice": "input, begin, size",
    "SmoothL1Loss": "prediction, target",
    "Softmax": "input",
    "Split": "input_x",
    "SqrtGrad": "dy, y",
    "Squeeze": "input",
    "StridedSlice": "input_x, begin, end, strides",
    "Svd": "input",
    "TensorScatterElements": "data, indices, updates",
    "TensorToScalar": "x",
    "TransposeExtView": "input, dim0, dim1",
    "TransposeView": "input, input_perm",
    "Triu": "input",
    "UniqueConsecutive": "input",
    "Zeros": "size, dtype=None",
    "ZerosLike": "x",
}


def _operand_signature(spec: str) -> inspect.Signature:
    parameters = []
    for item in spec.split(", "):
        name, _, default = item.partition("=")
        parameters.append(inspect.Parameter(
            name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
            default=None if default else inspect.Parameter.empty))
    return inspect.Signature(parameters)


class PrimitiveClass(UserData):
    """A MindSpore primitive class: `__init__` takes the static params (remembered for repr),
    `__call__` the operands. Instances are constants in a graph (`self.mul = ops.Mul()`).
    `shard(in_strategy, out_strategy)` records a sharding strategy, which the node a call
    makes in a graph carries (see sharded_call)."""

    _fn = None
    _init_names: tuple = ()
    _defaults: MappingProxyType = MappingProxyType({})
    _strategy: tuple | None = None  # (in_strategy, out_strategy) as split counts, once shard
    # an arithmetic operation (one that promotes its operands): inside a graph, Python numbers
    # alone are Tensors to it (int64, float32), so its result is a Tensor, as MindSpore's
    _numbers_as_tensors = False
    _operands: inspect.Signature | None = None  # MindSpore's names of the call's operands
    _required = 0  # how many of them have no default

    def __init_subclass__(cls, **kwargs):
        """A class configured by `_init_names` shows them as its signature (`Flatten()` takes
        none); one that writes its own `__init__` shows that. A class's own `__call__` is
        wrapped so that its calls carry the instance's sharding strategy."""
        super().__init_subclass__(**kwargs)
        if cls.__name__ in MINDSPORE_OPERANDS:
            cls._operands = _operand_signature(MINDSPORE_OPERANDS[cls.__name__])
            cls._required = sum(p.default is inspect.Parameter.empty
                                for p in cls._operands.parameters.values())
        call = cls.__dict__.get("__call__")
        if call is not None:
            cls.__call__ = _carrying_strategy(call)
        if cls.__init__ is PrimitiveClass.__init__ and "__signature__" not in vars(cls):
            cls.__signature__ = inspect.Signature([
                inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=v)
                for k, v in cls._defaults.items()])
        elif "__init__" in vars(cls) and "__signature__" not in vars(cls):
            # not a base class's: the class's own parameters
            own = list(inspect.signature(cls.__init__).parameters.values())[1:]
            cls.__signature__ = inspect.Signature(own)

    def __init__(self, *args, **kwargs):
        names = self._init_names
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes {len(names)} arguments, got "
                            f"{len(args)}")
        values = dict(self._defaults)
        values.update(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument "
                                f"'{k}'")
            values[k] = v
        missing = [k for k, v in values.items() if v is inspect.Parameter.empty]
        if missing:
            raise TypeError(f"{type(self).__name__}() missing required argument "
                            f"{', '.join(repr(k) for k in missing)}")
        self.__dict__.update(values)
        self._attrs = values

    def __call__(self, *args, **kwargs):
        if self._operands is not None:
            args, kwargs = self._operand_args(args, kwargs)
        if self._numbers_as_tensors and args and all(type(a) in (int, float) for a in args):
            args = _numbers_in_a_graph(args)
        if _amp.get_curr_amp_strategy() is not None:
            args = _amp.cast_arguments(self.name, args, _cast)
        try:
            if self._strategy is None:
                return type(self)._fn(*args, **kwargs, **self._attrs)
            return sharded_call(self._strategy, type(self)._fn, args, {**kwargs, **self._attrs})
        except TypeError:
            self._check_operand_count(args, kwargs)
            raise

    def _operand_args(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        """(operands, other keywords) of a call of a class whose operands MindSpore names
        `_operands`: operands given by those names join the positional ones, with the defaults
        MindSpore declares; a call missing one, or passing too many, is Python's TypeError (in
        a graph, MindSpore's error for too few)."""
        signature = self._operands
        if not kwargs and self._required <= len(args) <= len(signature.parameters):
            return args, kwargs
        named = {k: kwargs.pop(k) for k in list(kwargs) if k in signature.parameters}
        try:
            bound = signature.bind(*args, **named)
        except TypeError as exc:
            self._check_operand_count(args, {**named, **kwargs})
            raise TypeError(f"{type(self).__name__}(): {exc}") from None
        bound.apply_defaults()
        return bound.args, kwargs

    def _check_operand_count(self, args, kwargs):
        """Inside a graph, raise MindSpore's error when the call passed fewer operands than the
        operation takes (a TypeError of the call itself, not one raised inside the operation;
        eagerly, the primitive's own TypeError is MindSpore's PyNative one)."""
        from cellgraph.compiler.builder import current_builder

        if current_builder() is None:
            return
        try:
            signature = inspect.signature(type(self)._fn)
        except (TypeError, ValueError):
            return
        attrs = self.__dict__.get("_attrs", {})
        operands = [p for p in signature.parameters.values() if p.name not in attrs and p.kind in (
            inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        try:
            signature.bind(*args, **kwargs, **attrs)
        except TypeError:
            if len(args) + len(kwargs) < len(operands):
                raise CompileError(  # MindSpore's RuntimeError while it builds the graph
                    f"For 'S_Prim_{self.name}', the size of input should be {len(operands)}, "
                    f"but got {len(args) + len(kwargs)}. Please check inputs of the "
                    f"operator.") from None

    def shard(self, in_strategy=None, out_strategy=None):
        """Split the operator's inputs (and, for some, its output) across devices in
        semi_auto_parallel mode: one tuple of split counts per input (`((1, 2), (2, 1))`), or
        one `Layout` per input; checked as MindSpore checks it."""
        found = check_shard(type(self).__name__, in_strategy, out_strategy,
                            self.attrs.get("self_define_shard", False))
        if found is None:
            return self
        attrs, self._strategy = found
        for name, value in attrs.items():  # MindSpore adds them as attributes
            self.add_prim_attr(name, value)
        return self

    @property
    def name(self) -> str:
        """The operation's name, as MindSpore's primitives carry it: the class's name unless
        the instance was given another."""
        return self.__dict__.get("name", type(self).__name__)

    @name.setter
    def name(self, value):
        self.__dict__["name"] = value

    @property
    def attrs(self) -> dict:
        """The primitive's attributes: its arguments, and those add_prim_attr added."""
        return {**self.__dict__.get("_attrs", {}), **self.__dict__.get("_added_attrs", {})}

    def add_prim_attr(self, name, value):
        """Set attribute `name`, as MindSpore's primitives take it: one of the operation's
        arguments (`transpose_b`) changes what it computes; any other is kept (readable as
        `self.<name>` and in `attrs`) for what reads it: in MindSpore its auto-parallel pass
        and device kernels, which cellgraph does not have."""
        arguments = self.__dict__.get("_attrs", {})  # none on a class with its own __init__
        if name in arguments:
            self._attrs = {**arguments, name: value}
        else:
            self.__dict__["_added_attrs"] = {**self.__dict__.get("_added_attrs", {}),
                                             name: value}
        self.__dict__[name] = value
        return self

    def set_device(self, device_target):
        """MindSpore's placement of the operation on a device ("Ascend", "GPU", "CPU"), kept
        as the attribute `primitive_target`, as MindSpore keeps it. cellgraph runs every
        operation of a graph on the graph's backend."""
        return self.add_prim_attr("primitive_target", device_target)

    def del_prim_attr(self, name):
        """Remove an attribute add_prim_attr added (an argument of the operation stays)."""
        added = dict(self.__dict__.get("_added_attrs", {}))
        if name in added:
            del added[name]
            self.__dict__["_added_attrs"] = added
            self.__dict__.pop(name, None)
        return self

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({inner})"


def _numbers_in_a_graph(args: tuple) -> tuple:
    """Python numbers as the Tensors MindSpore's graphs make of them for an operation (a
    number's own arithmetic, `x + y`, stays Python's); outside a graph, as they are."""
    from cellgraph.compiler.builder import current_builder
    from cellgraph.runtime.tensor import Tensor

    return args if current_builder() is None else tuple(Tensor(a) for a in args)


def _cast(value, dtype):
    """A Tensor (or graph value) cast to `dtype`: the mixed precision strategy's casts."""
    from cellgraph.primitives.functional import cast

    return cast(value, dtype)


def _carrying_strategy(call):
    def run(self, *args, **kwargs):
        if self._operands is not None:
            args, kwargs = self._operand_args(args, kwargs)
        if _amp.get_curr_amp_strategy() is not None:
            args = _amp.cast_arguments(self.name, args, _cast)
        if self._strategy is None:
            return call(self, *args, **kwargs)
        return sharded_call(self._strategy, call, (self, *args), kwargs)

    run.__name__, run.__qualname__, run.__doc__ = call.__name__, call.__qualname__, call.__doc__
    run.__wrapped__ = call
    return run


def sharded_call(strategy: tuple, fn, args: tuple, kwargs: dict):
    """`fn(*args, **kwargs)`; inside a graph, the node that makes its (first) result carries
    `strategy` (the shard_operators pass reads it). Eagerly, the strategy has no effect."""
    from cellgraph.compiler.builder import current_builder

    builder = current_builder()
    if builder is None:
        return fn(*args, **kwargs)
    start = len(builder.graph.nodes)
    out = fn(*args, **kwargs)
    first = out[0] if isinstance(out, (tuple, list)) and out else out
    var = getattr(first, "ir_var", None)
    for node in reversed(builder.graph.nodes[start:]):
        if any(o is var for o in node.outputs):
            node.strategy = strategy
            break
    return out


def _layout_class():
    """parallel.shard's Layout, or () (no class) while that module is not loaded: no Layout
    exists then, and ops does not depend on parallel, which sits above it."""
    shard = sys.modules.get("cellgraph.parallel.shard")
    return () if shard is None else shard.Layout


# MindSpore's operators whose strategies may hold, for an input that is a tuple of tensors, a
# tuple of per-tensor strategies or Layouts (parallel/_utils.py keeps the list in MindSpore)
SUPPORTED_TUPLE_IN_TUPLE_STRATEGY = ("GroupedMatmul", "FusedInferAttentionScore", "Custom",
                                     "Index")


def _check_strategy(op: str, strategy, what: str, nested: bool = False):
    """MindSpore's checks of one strategy: a tuple of tuples of ints, or of Layouts; returns
    whether it is made of Layouts (None for `()`), as the first item says. With `nested` (an
    operator of SUPPORTED_TUPLE_IN_TUPLE_STRATEGY, or one whose `self_define_shard` attribute
    is set) an item's values need not be ints, and an item of Layouts counts as Layouts."""
    Layout = _layout_class()
    if not isinstance(strategy, tuple):
        raise DTypeError(f"{what} must be tuple type, but got:{type(strategy)}")
    if strategy == ():
        return None
    kinds = []
    for item in strategy:
        if not isinstance(item, (tuple, Layout)):
            raise DTypeError(f"The element of strategy must be tuple/Layout type, but "
                             f"got:{type(item)}")
        if isinstance(item, tuple):
            for value in item:
                if not isinstance(value, int) and not nested:
                    raise DTypeError(f"The {what}: {strategy} of {op} is not valid, the value "
                                     f"of strategy must be int type, but got:{type(value)}")
                if nested and isinstance(value, Layout):
                    kinds.append(True)
        kinds.append(isinstance(item, Layout))
    return kinds[0]  # as MindSpore: the first item says which kind the strategy is


def _split_counts(strategy) -> tuple | None:
    """The split counts of a strategy: a Layout's, or a tuple's values (per-tensor tuples and
    Layouts inside an item too)."""
    if strategy is None:
        return None
    Layout = _layout_class()

    def counts(item):
        if isinstance(item, Layout):
            return item.split_counts()
        if isinstance(item, tuple):
            return tuple(counts(value) for value in item)
        return item
    return tuple(counts(item) for item in strategy)


def _layout_values(given, key: str, Layout) -> tuple:
    """MindSpore's in_layout/out_layout attribute: each Layout as its dict (without its
    rank_list), an item of Layouts as a tuple of them."""
    def as_dict(layout):
        return {k: v for k, v in layout.to_dict().items() if k != "rank_list"}

    values = []
    for item in given:
        if isinstance(item, Layout):
            values.append(as_dict(item))
        elif isinstance(item, tuple):
            if not all(isinstance(e, Layout) for e in item):
                raise DTypeError(f"The {key}_strategy item should be a object of class Layout.")
            values.append(tuple(as_dict(e) for e in item))
        else:
            raise DTypeError(f"The {key}_strategy item should be a object of class Layout or a "
                             f"tuple.")
    return tuple(values)


def check_shard(op: str, in_strategy, out_strategy, self_define: bool = False) -> tuple | None:
    """(the attributes `shard` sets, (in_strategy, out_strategy) as split counts), or None
    when both are None; raises as MindSpore's `Primitive.shard` does. `self_define`: the
    primitive's `self_define_shard` attribute."""
    Layout = _layout_class()
    if in_strategy is None and out_strategy is None:
        return None
    nested = op in SUPPORTED_TUPLE_IN_TUPLE_STRATEGY or bool(self_define)
    in_layout = None if in_strategy is None else _check_strategy(op, in_strategy, "in_strategy",
                                                                 nested)
    out_layout = None if out_strategy is None else _check_strategy(op, out_strategy,
                                                                   "out_strategy", nested)
    is_layout = in_layout if in_layout is not None else out_layout
    if out_layout is not None and is_layout != out_layout and not nested:
        raise ArgumentValueError("The in_strategy type must equal to the out_strategy type, one "
                                 "using tuple(tuple) and the other using tuple(Layout) is not "
                                 "allowed.")
    if in_strategy is None:
        raise ArgumentValueError(f"The out_strategy of {op} is {out_strategy}, need to set "
                                 f"in_strategy, but got none")
    attrs = {}
    for key, given in (("in", in_strategy), ("out", out_strategy)):
        if given is None:
            continue
        if is_layout:
            attrs[f"{key}_layout"] = _layout_values(given, key, Layout)
        else:
            attrs[f"{key}_strategy"] = given
    return attrs, (_split_counts(in_strategy), _split_counts(out_strategy))


def _init(**defaults) -> tuple:
    """A class's `__init__` argument names, in order, and their defaults (read-only)."""
    return tuple(defaults), MappingProxyType(defaults)


def define_class(name: str, fn, init: dict | None = None, module: str = __name__,
                 doc: str | None = None) -> type:
    """A PrimitiveClass named `name` that calls `fn(*operands, **init attrs)`."""
    init = dict(init or {})
    return type(name, (PrimitiveClass,), {
        "_fn": staticmethod(fn), "_init_names": tuple(init), "_defaults": init,
        "__doc__": doc or f"ops.{name}", "__module__": module})


def define_classes(namespace: dict, table: dict, module: str) -> list:
    """Define in `namespace` one class per entry of `table`, name -> fn (no attributes) or
    name -> (fn, init attributes); returns the names (for `__all__`)."""
    for name, entry in table.items():
        fn, init = entry if isinstance(entry, tuple) else (entry, None)
        namespace[name] = define_class(name, fn, init, module)
    return list(table)


def function_class(name: str, fn, doc: str | None = None) -> type:
    """The primitive class `name` without attributes: `Cls()(*args)` is `fn(*args)`."""
    return define_class(name, fn, None, "cellgraph.ops", doc or f"`ops.{name}()(...)`")


def primitive_class(prim, module: str) -> type:
    """MindSpore's class of a public primitive, defined in `module`."""
    cls = define_class(prim.label, prim, prim.params, module)
    cls._numbers_as_tensors = prim.promote is not None
    if prim.operands is not None:  # MindSpore's class takes the static params
        cls.__signature__ = inspect.Signature([
            inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=v)
            for k, v in prim.params.items()])
    return cls


def _named_classes(prim, module: str, names: list) -> dict:
    """{name: class} for a public primitive's label and aliases: an alias (`RealDiv` of `Div`)
    is a subclass of the label's class named as MindSpore names its own class, so its
    instances carry that name and its call takes MindSpore's operand names."""
    cls = primitive_class(prim, module)
    return {name: cls if name == cls.__name__ else
            type(name, (cls,), {"__module__": module, "__doc__": cls.__doc__}) for name in names}


def generate_classes(namespace: dict) -> None:
    """Define in the module whose globals are `namespace` (`ops.operations.math_ops`, ...) the
    classes derived from declarations that MindSpore files there, after the module's own: the
    core's `export_class` registrations, then the public primitives' classes (label and
    aliases). A name the module defines itself is kept; each new name joins `__all__`."""
    module = namespace["__name__"]
    short = module.rsplit(".", 1)[-1]
    for kind, name, value, _ in exports.EXPORTS:
        if kind == "class" and name not in namespace and value[2] == short:
            namespace[name] = define_class(name, value[0], value[1], module)
            namespace["__all__"].append(name)
    for prim in list(PRIMITIVES.values()):
        if not (prim.public and prim.primitive_class) or prim.ops_module != short:
            continue
        names = [n for n in (prim.label, *prim.aliases) if n not in namespace]
        if names:
            namespace.update(_named_classes(prim, module, names))
            namespace["__all__"].extend(names)


def from_core(kind_value) -> bool:
    """Whether a registration of exports.EXPORTS is the core's (else the API layer's)."""
    value = kind_value[2][0] if kind_value[0] == "class" else kind_value[2]
    return getattr(value, "__module__", "").startswith("cellgraph.primitives")


def unfiled_classes(namespace: dict) -> dict:
    """The primitive classes derived from declarations that the module whose globals are
    `namespace` (`ops.operations`) lacks: those MindSpore files in no submodule."""
    module, classes = namespace["__name__"], {}
    for kind, name, value, _ in sorted(exports.EXPORTS, key=from_core):
        if kind == "class" and name not in namespace and name not in classes:
            classes[name] = define_class(name, value[0], value[1], module)
    for prim in list(PRIMITIVES.values()):
        if prim.public and prim.primitive_class:
            names = [n for n in (prim.label, *prim.aliases)
                     if n not in namespace and n not in classes]
            if names:
                classes.update(_named_classes(prim, module, names))
    return classes
