"""Primitives, abstract values and `bind`, the one entry point every operation goes through.

A primitive is a name plus rules: how its output type follows from its input types, how to
differentiate it (written with ops, so the rule is itself differentiable), how to batch it.
`bind(prim, *args, **params)` hands the call to whoever is listening: at the bottom of the
stack the eager runtime runs a kernel; while a graph is being built the builder emits a node.
This is the pattern of JAX's autodidax, and it keeps this package free of imports from above.
"""
from __future__ import annotations

import dataclasses
import functools
import inspect
import numbers
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import dtype as dt
from .errors import ArgumentError, ArgumentValueError, CellgraphError, DTypeError, ShapeError

Shape = tuple  # of int (or None for a size known only at run time)


@dataclass(frozen=True)
class TensorType:
    """The abstract value of a tensor: its shape and dtype.

    `weak` marks a Python scalar: it takes the other operand's dtype in arithmetic, as a Python
    float does with a NumPy float32 array.
    """

    shape: Shape
    dtype: dt.DType
    weak: bool = False

    def __post_init__(self):
        assert isinstance(self.shape, tuple), self.shape
        assert all(d is None or (isinstance(d, int) and d >= 0) for d in self.shape), self.shape
        assert isinstance(self.dtype, dt.DType), self.dtype

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int | None:
        n = 1
        for d in self.shape:
            if d is None:
                return None
            n *= d
        return n

    def strong(self) -> TensorType:
        return TensorType(self.shape, self.dtype) if self.weak else self

    def __str__(self) -> str:
        dims = ",".join("?" if d is None else str(d) for d in self.shape)
        return f"{self.dtype.short}[{dims}]"


def abstract_of(value) -> TensorType:
    """The abstract value of a Tensor, a tracer or a Python/NumPy scalar or array."""
    aval = getattr(value, "aval", None)
    if aval is not None:
        return aval
    if isinstance(value, bool):
        return TensorType((), dt.bool_, weak=True)
    if isinstance(value, int):
        return TensorType((), dt.int64, weak=True)
    if isinstance(value, float):
        return TensorType((), dt.float32, weak=True)
    if isinstance(value, complex):
        return TensorType((), dt.complex64, weak=True)
    import numpy as np

    if isinstance(value, (np.ndarray, np.generic)):
        return TensorType(tuple(value.shape), dt.from_numpy(value.dtype))
    raise DTypeError(f"expected a Tensor or a number, got {type(value).__name__} {value!r:.60}")


_MS_TYPE_NAMES = {str: "string", type(None): "None"}


def _ms_type_name(value) -> str:
    if hasattr(value, "aval"):
        return "Tensor"
    return _MS_TYPE_NAMES.get(type(value), type(value).__name__)


def operand_error(prim: Primitive, index: int, value, args=None) -> DTypeError:
    """The error for a non-Tensor operand, as MindSpore words it (`Failed calling Add with
    "Add()(input=Tensor, other=string)"` and the valid calling), then which operand it is."""
    detail = (f"{prim.label}: expected a Tensor or a number for input {index + 1}, got "
              f"{type(value).__name__} {value!r:.60}")
    names = prim.operands
    if args is None or names is None or len(names) != len(args):
        return DTypeError(detail)
    given = ", ".join(f"{n}={_ms_type_name(a)}" for n, a in zip(names, args))
    valid = ", ".join(f"{n}=<Number, Tensor>" for n in names)
    return DTypeError(f'Failed calling {prim.label} with "{prim.label}()({given})".\nThe valid '
                      f'calling should be: \n"{prim.label}()({valid})".\n{detail}')


def is_value(x) -> bool:
    """True for what an operation can take as an operand (tensor-like or number)."""
    import numpy as np

    return (hasattr(x, "aval") or isinstance(x, (bool, int, float, complex, np.ndarray,
                                                 np.generic)))


@dataclass(frozen=True)
class Promote:
    """How a primitive's operands meet in one dtype, decided when the call is made (so the graph
    holds explicit `cast` nodes and every kernel sees operands of the result dtype).

    The operands from index `first` on are cast to `result_dtype` of them (Python scalars stay
    scalars: they are weak and take the tensors' dtype); `to_float` sends integer and bool
    results to float32, for float-only math (sqrt, div, mean). With `zero_dim_weak` a 0-d
    tensor meets a tensor with dimensions as a Python scalar does unless its kind is higher
    (MindSpore 2.10's Mul and Div: float16 (2, 3) times a float32 0-d tensor is float16).
    """

    first: int = 0
    to_float: bool = False
    zero_dim_weak: bool = False


SAME = Promote()
FLOAT = Promote(to_float=True)


def signature_of(operands: tuple, params: dict, first: str | None = None) -> inspect.Signature:
    """`(operand, ..., *, param=default, ...)`; `first` replaces the first operand's name (a
    method's `self`)."""
    names = ((first,) + operands[1:]) if first else operands
    kind, keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY
    return inspect.Signature([inspect.Parameter(n, kind) for n in names] +
                             [inspect.Parameter(k, keyword, default=v) for k, v in params.items()])


def bind_operands(prim, args: tuple, params: dict, operands: tuple | None = None) -> tuple:
    """The operands of a call that names some of them (`nextafter(x, other=y)`), in order;
    they leave `params`. `operands` are the names the call's spelling gives them (the
    declaration's by default)."""
    operands = prim.operands if operands is None else operands
    try:
        bound = inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                   for n in operands]).bind(
            *args, **{k: params.pop(k) for k in list(params) if k in operands})
    except TypeError as e:
        raise ArgumentError(f"{prim.label}: {e}") from None
    return tuple(bound.arguments[n] for n in operands)


# MindSpore's modules that spell functional ops, longest first ("ops" is `ops` and
# `ops.functional`; "numpy" spells it over array-likes)
SPELLING_MODULES = ("mint.nn.functional", "mint", "numpy", "ops")


@dataclass(frozen=True)
class Spelling:
    """One functional spelling of a public primitive: `module.name`, whose MindSpore parameters
    name the operands `operands` (None: the primitive takes them by position only)."""

    module: str
    name: str
    operands: tuple | None

    @staticmethod
    def parse(text: str, name: str, operands: tuple | None) -> Spelling:
        """`"mint"`, `"mint.arcsin"`, `"ops.arcsin(x)"`, `"mint(input)"`: the module, then the
        name (the primitive's when left out), then the operand names (the declaration's when
        left out)."""
        head, paren, rest = text.partition("(")
        if paren:
            operands = tuple(n.strip() for n in rest.rstrip(")").split(",") if n.strip())
        module = next((m for m in SPELLING_MODULES if head == m or head.startswith(m + ".")),
                      None)
        assert module is not None, f"spelling {text!r}: the module must be one of " \
                                   f"{SPELLING_MODULES}"
        return Spelling(module, head[len(module) + 1:] or name, operands)


class SpelledPrimitive:
    """A primitive under a spelling whose MindSpore parameters name the operands otherwise
    (`ops.arcsin(x)` is the primitive `asin(input)`): it takes them under those names and
    calls the primitive."""

    def __init__(self, prim: Primitive, spelling: Spelling):
        self.primitive, self.operands = prim, spelling.operands
        self.__name__ = self.__qualname__ = spelling.name
        self.__doc__ = f"`{spelling.name}`: the primitive {prim.label}."
        self.__signature__ = signature_of(spelling.operands, prim.params)

    def __call__(self, *args, **params):
        for k in params:  # the primitive's own names for the operands are not this spelling's
            if k not in self.operands and k in (self.primitive.operands or ()):
                raise ArgumentError(f"{self.__name__}() got an unexpected keyword argument "
                                    f"{k!r}; its operands are {', '.join(self.operands)}")
        if any(k in self.operands for k in params):
            args = bind_operands(self.primitive, args, params, self.operands)
        return self.primitive(*args, **params)

    def __repr__(self) -> str:
        return self.__name__


class Primitive:
    """One operation, declared once: everything else (the functional op `ops.name`, the
    MindSpore class `ops.Label`, the `Tensor.name` method, the kernels' dispatch) derives from it.

    name       snake_case, as in the IR and the kernel tables
    abstract   the type rule: (*operand types, **params) -> output type(s)
    label      MindSpore's name (errors; the class name when `public`)
    params     static parameters with their defaults (keywords; the class's `__init__` args)
    promote    SAME or FLOAT: the operands are cast to one dtype at the call (see Promote)
    array_api  the array-API function that is its kernel, when there is one (e.g. "atan2")
    public     the primitive is itself MindSpore's functional op and class: `ops.name`,
               `ops.Label` (and `ops.operations.<ops_module>.Label`), plus `aliases`, other
               class names
    method     `Tensor.name` calls it
    operands   MindSpore's names of the operands (`("input", "other")`): the functional op,
               the method and the class take them by name and show MindSpore's signatures
    spellings  its other functional spellings (see Spelling.parse): `"mint"` (mint.name),
               `"ops.arcsin(x)"` (ops.arcsin, ops.functional.arcsin, operands named x),
               `"numpy.absolute"`; each module adds what names it when it loads
    ops_module the `ops.operations` submodule MindSpore files its class(es) in ("math_ops",
               "array_ops", "nn_ops", ...); None: `ops.operations` itself
    primitive_class  False where MindSpore has no class for a public primitive (only its
               functional spellings and method)
    kernel_variant  set after: fn(input types, params) -> a variant's name or None: the node is
               a special form of the operation (two matrices of one float dtype, say) that a
               backend may run with a kernel of its own, `name@variant`, else with `name`'s
    traits     nondifferentiable, multiple_results, effectful (never folded, merged or
               dropped: random draws, printing), structural (params hold graphs; expanded or
               generated as code, no kernel), complex_bprop (the bprop follows the
               complex gradient convention itself; other rules are holomorphic formulas that
               autodiff applies conjugated, see ops/complex_ops.py)
    """

    def __init__(self, name: str, abstract: Callable, *, label: str | None = None,
                 params: dict | None = None, promote: Promote | None = None,
                 array_api: str | None = None, public: bool = False, method: bool = False,
                 aliases: tuple = (), nondifferentiable: bool = False,
                 multiple_results: bool = False, effectful: bool = False,
                 structural: bool = False, complex_bprop: bool = False,
                 spellings: tuple = (), ops_module: str | None = None,
                 operands: tuple | None = None, primitive_class: bool = True):
        self.name = name
        self.label = label or "".join(p.capitalize() for p in name.split("_"))
        self.abstract_rule = abstract
        self.params = dict(params or {})
        self.promote = promote
        self.array_api = array_api
        self.public, self.method, self.aliases = public, method, tuple(aliases)
        self.operands = None if operands is None else tuple(operands)
        self.spellings = (Spelling("ops", name, self.operands),) + tuple(
            Spelling.parse(text, name, self.operands) for text in spellings)
        self.ops_module, self.primitive_class = ops_module, primitive_class
        self._spelled: dict = {}
        self._types: dict = {}  # eager_type's results
        self.bprop_rule: Callable | None = None
        self.batch_rule: Callable | None = None
        self.narrow_rule: Callable | None = None
        self.view_rule: Callable | None = None
        self.recording_rule: Callable | None = None
        self.kernel_variant: Callable | None = None
        self.nondifferentiable = nondifferentiable
        self.multiple_results = multiple_results
        self.effectful = effectful
        self.structural = structural
        self.complex_bprop = complex_bprop
        assert name not in PRIMITIVES, f"primitive {name} declared twice"
        PRIMITIVES[name] = self

    def __repr__(self) -> str:
        return self.name

    @property
    def __signature__(self) -> inspect.Signature:
        """The functional op's signature, where the declaration names the operands."""
        if self.operands is None:
            raise AttributeError("__signature__")
        return signature_of(self.operands, self.params)

    def spelled(self, module: str) -> dict:
        """{name: callable} of this primitive's spellings in `module` ("ops", "mint", ...):
        the primitive itself where the spelling names the operands as the declaration does."""
        out = {}
        for spelling in self.spellings:
            if spelling.module == module:
                out[spelling.name] = self if spelling.operands == self.operands else \
                    self._spelled.setdefault(spelling, SpelledPrimitive(self, spelling))
        return out

    def __call__(self, *args, **params):
        """The functional op: static params filled in from their defaults, operands promoted."""
        if self.operands is not None and any(k in self.operands for k in params):
            args = bind_operands(self, args, params)
        if params and self.keywords is not None and not params.keys() <= self.keywords:
            unknown = ", ".join(repr(k) for k in params if k not in self.keywords)
            known = ", ".join(self.params or ()) or "none"
            raise ArgumentError(f"{self.label}() got an unexpected keyword argument {unknown} "
                                f"(its keyword arguments: {known})")
        if self.params:
            params = {**self.params, **params}
        if self.promote is not None:  # promotion sees the operands as the trace will read them
            args = promote_operands(self, _trace_stack[-1].read_operands(args), params)
        return bind(self, *args, **params)

    @functools.cached_property
    def keywords(self) -> frozenset | None:
        """The keyword parameters its type rule takes; None when it takes any."""
        try:
            parameters = inspect.signature(self.abstract_rule).parameters.values()
        except (TypeError, ValueError):
            return None
        if any(p.kind is p.VAR_KEYWORD for p in parameters):
            return None
        return frozenset(p.name for p in parameters
                         if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))

    def def_bprop(self, rule: Callable) -> Callable:
        """rule(*inputs, out=..., dout=..., **params) -> one gradient per input (None: zero)."""
        self.bprop_rule = rule
        return rule

    def def_batch(self, rule: Callable) -> Callable:
        """rule(args, dims, **params) -> (out, out_dim); dims[i] is None when unbatched."""
        self.batch_rule = rule
        return rule

    def def_recording(self, rule: Callable) -> Callable:
        """rule(*inputs, **params) -> (outputs, residuals): how the primitive runs in the
        forward half of a VJP when its bprop reads what the forward pass finds anyway (max
        pooling's argmax); the bprop then gets `residuals=` (None where it runs without)."""
        self.recording_rule = rule
        return rule

    def def_view(self, rule: Callable) -> Callable:
        """For an operation MindSpore's PyNative runs as a view of its first operand (transpose,
        basic indexing, split, ...): rule((strides, offset), in_shape, out_shapes, **params)
        -> the (strides, offset) of each result over the operand's memory, in elements, or
        None where MindSpore copies (primitives/strides.py)."""
        self.view_rule = rule
        return rule

    def def_narrow(self, rule: Callable) -> Callable:
        """For a fused primitive with several results: rule(live, *operand types, **params)
        -> (primitive, operand positions, params) computing the one result `live` (a bool per
        result) marks as read, or None; dead-code elimination swaps the node for it."""
        self.narrow_rule = rule
        return rule

    def abstract_eval(self, avals, params) -> TensorType | tuple:
        """Output type(s); a mistake in the operands raises an error that names this op."""
        try:
            return self.abstract_rule(*avals, **params)
        except CellgraphError as e:
            # MindSpore's own messages name the op first: "For primitive[Zeta], ...",
            # "For 'MatMul' ...", "For BatchMatMul, ..."
            if not e.message.startswith((self.label, "For ")):
                e.message = f"{self.label}: {e.message}"
                e.args = (e._text(),)
            raise
        except TypeError:
            arity = self._arity_error(len(avals))
            if arity is None:
                raise
            raise arity from None

    def eager_type(self, avals, params) -> TensorType | tuple:
        """abstract_eval, remembered per operand types and static parameters where these are
        plain data: calls outside graphs repeat a few signatures, and a type rule depends on
        them alone. Errors are not remembered; neither is any user object (no key holds one)."""
        key = _types_key(avals, params)
        if key is None:
            return self.abstract_eval(avals, params)
        out = self._types.get(key)
        if out is None:
            out = self.abstract_eval(avals, params)
            if len(self._types) >= _TYPES_KEPT:
                self._types.clear()
            self._types[key] = out
        return out

    def operand_counts(self) -> tuple[int, int] | None:
        """(fewest, most) operands the type rule takes; None when it takes any number."""
        try:
            parameters = inspect.signature(self.abstract_rule).parameters.values()
        except (TypeError, ValueError):
            return None
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters):
            return None
        positional = [p for p in parameters if p.kind in kinds]
        return sum(p.default is inspect.Parameter.empty for p in positional), len(positional)

    def _arity_error(self, given: int):
        """MindSpore's error for a call with too many or too few operands (None when the
        count fits the type rule, so the TypeError came from elsewhere)."""
        counts = self.operand_counts()
        if counts is None:
            return None
        least, most = counts
        if given > most:
            bound = f"less than or equal to {most}"
        elif given < least:
            bound = f"greater than or equal to {least}"
        else:
            return None
        return DTypeError(f"For Operator[{self.label}], the number of inputs should be {bound}, "
                          f"but got {given}")


_TYPES_KEPT = 256  # signatures remembered per primitive
_PLAIN = frozenset({bool, int, float, str, type(None), dt.DType})


def _plain_key(value):
    """`value` with its type (1, 1.0 and True stay apart) where it is plain data: numbers,
    strings, dtypes and tuples of them; None for anything else."""
    kind = type(value)
    if kind in _PLAIN:
        return kind, value
    if kind is tuple:
        parts = tuple(_plain_key(v) for v in value)
        return None if None in parts else (tuple, parts)
    return None


def _types_key(avals, params: dict):
    """The key of a type rule's call, or None when an operand type or parameter is no plain
    data."""
    if not all(type(a) is TensorType for a in avals):
        return None
    items = []
    for name, value in params.items():
        key = _plain_key(value)
        if key is None:
            return None
        items.append((name, key))
    return tuple(avals), tuple(items)


def promote_operands(prim: Primitive, args: tuple, params: dict) -> tuple:
    """`args` with `cast` applied where `prim.promote` says the operands meet in another dtype.

    The type rule sees the operands as the user gave them first, so that what it refuses (erf
    of a bool tensor) is reported rather than cast. NumPy scalars count as Python numbers
    (weak), as they do once they are graph constants.
    """
    import numpy as np

    first = prim.promote.first
    args = tuple(a.item() if isinstance(a, np.generic) else a for a in args)
    if not all(is_value(a) for a in args[first:]):
        return args  # bind reports the bad operand
    avals = [abstract_of(a) for a in args[first:]]
    args = args[:first] + _wrapped_ints(prim, args, first, avals, params)
    target = promoted_dtype(prim, avals)
    if target is None:
        return args
    prim.eager_type([abstract_of(a) for a in args], params)
    cast = PRIMITIVES["cast"]
    return args[:first] + tuple(
        a if aval.weak or aval.dtype == target else cast(a, dtype=target)
        for a, aval in zip(args[first:], avals))


def _wrapped_ints(prim: Primitive, args: tuple, first: int, avals: list, params) -> tuple:
    """A Python int meets an integer tensor in the tensor's dtype, wrapped into its range as
    MindSpore casts it (uint8 200 + 300 is 244, max(uint8 200, 300) is 200): NumPy 2 would
    refuse the int (NEP 50) and NumPy 1 compute in a wider type. Comparisons see the value."""
    operands = args[first:]
    if all(a.weak for a in avals) or not any(type(a) is int for a in operands):
        return operands
    target = result_dtype(*avals)
    if not target.is_int or any(o.dtype.is_bool for o in _types(
            prim.eager_type([abstract_of(a) for a in args], params))):
        return operands
    return tuple(wrap_int(a, target) if type(a) is int else a for a in operands)


def _types(out) -> tuple:
    return out if isinstance(out, tuple) else (out,)


def wrap_int(value: int, dtype: dt.DType) -> int:
    """`value` as integer `dtype` holds it: modulo 2**bits, in the dtype's range."""
    bits = 8 * dtype.np.itemsize
    low = -(1 << (bits - 1)) if dtype.np.kind == "i" else 0
    return (value - low) % (1 << bits) + low


def promoted_dtype(prim: Primitive, avals: list) -> dt.DType | None:
    """The dtype the promoted operands (types `avals`) are cast to; None when none needs a
    cast. Python numbers alone stay numbers (their arithmetic is folded)."""
    if all(a.weak for a in avals):
        return None
    target = result_dtype(*(_zero_dims_as_scalars(avals) if prim.promote.zero_dim_weak
                            else avals))
    if prim.promote.to_float:
        target = dt.to_float(target)
    return None if all(a.weak or a.dtype == target for a in avals) else target


def _zero_dims_as_scalars(avals: list) -> list:
    """`avals` with each 0-d tensor made weak where a tensor with dimensions is of its kind or a
    higher one (see Promote.zero_dim_weak)."""
    dimmed = [dt.kind_rank(a.dtype) for a in avals if not a.weak and a.ndim]
    if not dimmed:
        return avals
    top = max(dimmed)
    return [dataclasses.replace(a, weak=True)
            if not a.weak and a.ndim == 0 and dt.kind_rank(a.dtype) <= top else a
            for a in avals]


class _Registry:
    """`prims.mul(x, y)`: a primitive looked up by name when the rule runs, so that modules
    whose rules use each other's primitives need not import each other."""

    def __getattr__(self, name: str) -> Primitive:
        try:
            return PRIMITIVES[name]
        except KeyError:
            raise AttributeError(f"no primitive named {name!r}") from None


prims = _Registry()


PRIMITIVES: dict[str, Primitive] = {}


class Trace:
    """Whoever listens to `bind`: the eager runtime or a graph builder."""

    def process(self, prim: Primitive, args: tuple, params: dict) -> Any:
        raise NotImplementedError

    def fold(self, prim: Primitive, args: tuple, params: dict) -> Any:
        """Run `prim` at compile time (constant folding); the eager runtime does it on the
        host, whatever the backend."""
        return self.process(prim, args, params)

    def read_operands(self, args: tuple) -> tuple:
        """The operands as this trace reads them (a graph builder reads Parameters in the
        compute dtype of mixed precision)."""
        return args

    def input_value(self, value) -> Any:
        """The values of `value`, a graph value of this trace, as a NumPy array when they are
        known while the graph is built (a graph builder: a Tensor the caller passed, whose
        values the compiled graph is then specialised on), else None."""
        return None


# The most elements a value input (`value_input`) read from a graph's input Tensor may have:
# the compiled graph is specialised on those values, checked before each reuse.
VALUE_INPUT_LIMIT = 1024


def static_values(value):
    """The values of a Tensor as a NumPy array where they are known while a graph is built (an
    eager Tensor, a constant, or a Tensor passed to the graph: `value_input`), else None (a
    value computed in the graph, or not a Tensor)."""
    if hasattr(value, "_data") and hasattr(value, "asnumpy"):
        return value.asnumpy()
    trace = getattr(value, "builder", None)
    return trace.input_value(value) if isinstance(trace, Trace) else None


def value_input(value, op: str, what: str):
    """The values of an operation's value input (an input whose values decide the shape of the
    result: a shape, an axis, paddings, bounds, a diagonal offset), as a NumPy array: of a
    Python number or sequence, of a Tensor whose values are known now (eager, or a constant),
    or of a Tensor passed to the graph being built (the graph is then specialised on its
    values, as MindSpore's graph mode reads a value input when it compiles). A Tensor computed
    inside the graph has no values yet: an error naming the operation and the input."""
    import numpy as np

    known = static_values(value)
    if known is not None:
        return known
    trace = getattr(value, "builder", None)
    if isinstance(trace, Trace):
        error = ArgumentValueError(f"{op}: `{what}` sets the shape of the result, so its values must "
                              f"be known when the graph is built (a constant, or a Tensor "
                              f"passed to the graph, of at most {VALUE_INPUT_LIMIT} elements); "
                              f"got a Tensor computed in the graph ({value.aval})")
        raise error.with_loc(getattr(trace, "loc", None))
    if isinstance(value, (tuple, list)) and any(getattr(v, "builder", None) is not None
                                                 for v in value):
        return np.asarray([value_input(v, op, what) for v in value])
    return np.asarray(value)


class ThreadLocalStack(threading.local):
    """A list-like stack whose contents belong to the calling thread: compiler state that must
    never leak between threads compiling at once. `initial` seeds every thread's stack."""

    def __init__(self, *initial):
        self.items = list(initial)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index):
        return self.items[index]

    def __iter__(self):
        return iter(self.items)

    def __reversed__(self):
        return reversed(self.items)

    def append(self, item) -> None:
        self.items.append(item)

    def pop(self):
        return self.items.pop()


class _ThreadTraceStack(ThreadLocalStack):
    """The listening traces, per thread: a graph being built in one thread never receives
    another thread's operations. Every thread's stack starts with the eager trace."""

    bottom: Trace | None = None  # the eager trace, shared by all threads (it holds no state)

    def __init__(self):
        super().__init__(*([] if self.bottom is None else [self.bottom]))


_trace_stack = _ThreadTraceStack()
# How many traces are pushed above the eager one, in all threads together. While it is 0 (no
# graph is being built anywhere) `bind` and `current_trace` need not look up this thread's
# stack, which keeps the eager path and every Cell call as fast as with a plain list.
_pushed = 0
_pushed_lock = threading.Lock()


def bind(prim: Primitive, *args, **params):
    """Apply `prim` to `args` through the innermost listening trace."""
    if not _pushed and _ThreadTraceStack.bottom is not None:
        return _ThreadTraceStack.bottom.process(prim, args, params)
    stack = _trace_stack.items
    if not stack:
        raise RuntimeError("no eager runtime registered; import cellgraph first")
    return stack[-1].process(prim, args, params)


def push_trace(trace: Trace) -> None:
    global _pushed
    with _pushed_lock:
        _pushed += 1
    _trace_stack.items.append(trace)


def pop_trace(trace: Trace) -> None:
    global _pushed
    stack = _trace_stack.items
    if not stack or stack[-1] is not trace:
        raise RuntimeError("trace stack out of order: a graph was left while another was open")
    stack.pop()
    with _pushed_lock:
        _pushed -= 1


def current_trace() -> Trace | None:
    """The trace `bind` talks to now in this thread (None before the runtime is imported)."""
    if not _pushed:
        return _ThreadTraceStack.bottom
    stack = _trace_stack.items
    return stack[-1] if stack else None


def running_eagerly() -> bool:
    """True when operations run at once on the eager runtime (no graph is being built in this
    thread), so every Tensor's value is known now."""
    return current_trace() is _ThreadTraceStack.bottom


def innermost(kind: type) -> Trace | None:
    """This thread's innermost listening trace that is a `kind` (a graph Builder), or None."""
    return next((t for t in reversed(_trace_stack.items) if isinstance(t, kind)), None)


def evaluate(prim: Primitive, *args, **params):
    """Run `prim` now on the eager runtime (constant folding), whoever is listening to `bind`."""
    return _trace_stack.items[0].fold(prim, args, params)


# The compiler's VJP of a decomposition (compiler/autodiff.py installs it): see
# `bprop_by_decomposition`.
_decomposition_vjp: list[Callable] = []


def set_decomposition_vjp(fn: Callable) -> None:
    """Install fn(decompose, inputs, out, dout, params) -> input gradients (the compiler)."""
    _decomposition_vjp[:] = [fn]


def bprop_by_decomposition(decompose: Callable) -> Callable:
    """The bprop rule of a fused primitive: the VJP of `decompose(*inputs, **params)`, its
    meaning written with other primitives. The fused kernel runs forward; differentiating it
    differentiates the decomposition, so the optimiser sees through it at any order."""
    def rule(*inputs, out, dout, **params):
        return _decomposition_vjp[0](decompose, inputs, out, dout, params)
    rule.decomposition = decompose
    return rule


def set_eager_trace(trace: Trace) -> None:
    """Install the bottom of every thread's stack (called once by the runtime)."""
    _ThreadTraceStack.bottom = trace
    stack = _trace_stack.items
    if stack:
        stack[0] = trace
    else:
        stack.append(trace)


# ----- shape-rule helpers shared by the primitive declarations --------------------------------

def shapes_agree(a: Shape, b: Shape) -> bool:
    """Same rank, and the same size on every axis where both sizes are known (None: a size
    known only at run time, checked there)."""
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))


def broadcast_shapes(*shapes: Shape) -> Shape:
    """NumPy broadcasting; a None dim stays None unless the other side fixes it."""
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(ndim):
        dims = [s[len(s) - ndim + i] for s in shapes if len(s) - ndim + i >= 0]
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            raise ShapeError("shapes " + ", ".join(_fmt_shape(s) for s in shapes)
                             + " cannot be broadcast together")
        if known:
            out.append(known.pop())
        elif any(d is None for d in dims):
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


def result_dtype(*avals: TensorType) -> dt.DType:
    """The dtype of an arithmetic result: strong operands win over Python scalars (NEP 50)."""
    strong = [a.dtype for a in avals if not a.weak]
    if strong:
        out = strong[0]
        for d in strong[1:]:
            out = dt.promote(out, d)
        weak_kinds = {a.dtype.np.kind for a in avals if a.weak}
        if out.is_bool and weak_kinds - {"b"}:
            out = dt.int64 if weak_kinds <= {"b", "i"} else dt.float32
        if out.is_int and weak_kinds & {"f", "c"}:
            out = dt.float32
        if "c" in weak_kinds:  # a Python complex with a real tensor: complex of its width
            out = dt.complex_of(out)
        return out
    kinds = [a.dtype for a in avals]
    return max(kinds, key=dt.kind_rank)


def _fmt_shape(shape: Shape) -> str:
    return "(" + ", ".join("?" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


fmt_shape = _fmt_shape


def normalize_axis(axis: int, ndim: int, op: str = "") -> int:
    if hasattr(axis, "aval") and axis.aval.shape == () and axis.aval.dtype.is_int:
        known = static_values(axis)  # a `mutable` axis passed to the graph: a value input
        axis = axis if known is None else int(known)
    if not isinstance(axis, numbers.Integral):
        raise DTypeError(f"the type of 'axis' must be 'int', got {type(axis).__name__} {axis!r}")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ShapeError(f"axis {axis} is out of range for a tensor of rank {ndim}")
    return axis % max(ndim, 1)


def tensor_axis(axis: int, ndim: int, op: str) -> int:
    """`normalize_axis` for an operation that works along an axis of the tensor itself (cumprod,
    roll, gather_elements): a 0-d tensor has none (MindSpore raises ValueError too)."""
    if ndim == 0:
        raise ShapeError(f"{op}: expected a tensor of rank >= 1 to work along axis {axis}, got "
                         f"a 0-d tensor")
    return normalize_axis(axis, ndim)


def normalize_axes(axis, ndim: int) -> tuple[int, ...]:
    """None -> all axes; int or tuple -> sorted non-negative tuple. A 0-d tensor has no axes:
    axis 0 or -1 of it (accepted, as in MindSpore) is no axis. A Tensor of axes is a value
    input (`value_input`)."""
    if hasattr(axis, "aval"):
        axis = tuple(int(a) for a in value_input(axis, "Reduce", "axis").reshape(-1))
    if axis is None or axis == () or ndim == 0:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(sorted({normalize_axis(a, ndim) for a in axis}))


# ----- static indices ------------------------------------------------------------------------

@dataclass(frozen=True)
class Slice:
    """A hashable slice, for static indices stored as node parameters."""

    start: int | None
    stop: int | None
    step: int | None

    def to_slice(self) -> slice:
        return slice(self.start, self.stop, self.step)

    def __repr__(self) -> str:
        text = ("" if self.start is None else str(self.start)) + ":" + (
            "" if self.stop is None else str(self.stop))
        return text + ("" if self.step is None else f":{self.step}")


def to_numpy_index(index: tuple) -> tuple:
    return tuple(i.to_slice() if isinstance(i, Slice) else i for i in index)
