"""Building graphs by tracing: a Builder is the trace that `bind` talks to while a graph is
being built, and a Tracer is the value user code holds in place of a Tensor meanwhile.

Values from an enclosing builder are captured as extra parameters (closure conversion at trace
time), and Parameters (weights) become trailing graph parameters, so every graph is closed.
A Parameter passed as an argument stays an explicit input (a later call may pass another
Parameter of the same type), traced as a `ParameterArgument`: it reads and assigns as a weight
does, and its updates leave the graph as `ArgumentSlot`s that the caller writes back into
whatever it passed at that position.
"""
from __future__ import annotations

import contextlib
import math
import numbers
import weakref
from collections.abc import Callable

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.array_ops import assigned_read
from cellgraph.primitives.array_ops import cast as cast_prim
from cellgraph.primitives.core import (
    VALUE_INPUT_LIMIT,
    TensorType,
    Trace,
    abstract_of,
    broadcast_shapes,
    current_trace,
    evaluate,
    fmt_shape,
    innermost,
    is_value,
    operand_error,
    pop_trace,
    push_trace,
)
from cellgraph.primitives.errors import (
    ArgumentValueError,
    CellgraphError,
    CompileError,
    DTypeError,
    ShapeError,
    SourceLoc,
    UnsupportedError,
)
from cellgraph.primitives.tensor_methods import GraphSequenceArithmetic, TensorMethods

from .compile_context import CompileContext, eager_param_cast
from .host_array_methods import NumpyArrayMethods
from .ir import Apply, Constant, Graph, Var
from .pytree import flatten, is_static


def _cast_dtypes() -> list:
    """The stack of cast dtypes in force here: the compile's while a graph is being built."""
    builder = current_builder()
    return eager_param_cast.dtypes if builder is None else compile_context(builder).param_casts


# Gradient hooks on a graph's inputs (`Tensor.register_hook` on a Tensor or Parameter before the
# call): `(value, tracer) -> tracer`, set by the API layer (cellgraph.tensor_hooks) when the
# first hook is registered; the tracer that stands for `value` in the graph being built, through
# the value's hooks, so that a gradient with respect to it passes them. None: no hooks exist.
read_through_hooks: Callable | None = None
# the hooks region a function decorated with register_saved_tensors_hooks runs its body in
# (a context manager), or None (graph/api.py sets it when loaded)
function_saved_hooks: Callable | None = None
# the Parameter forward hook of a Parameter or None (tensor_hooks.forward_hook_of, once a Cell
# has registered one): construct reads `self.weight` as hook(weight)
parameter_forward_hook: Callable | None = None
# a 0-d graph value as a variable scalar (set by dynamic_sequence, which sits above this
# module): what `Tracer.item()` returns
variable_scalar: Callable | None = None


@contextlib.contextmanager
def parameters_cast_to(dtype):
    """Mixed precision (`Cell.to_float`): float Parameters that operations traced inside the
    block read are cast to `dtype` first, so those operations compute in `dtype` while the
    Parameters themselves (the master weights the optimizer updates) keep their own dtype.
    `None` turns casting off inside the block."""
    dtypes = _cast_dtypes()
    dtypes.append(dtype)
    try:
        yield
    finally:
        dtypes.pop()


def parameter_cast_dtype():
    """The dtype float Parameters are read in here (None: their own)."""
    dtypes = _cast_dtypes()
    return dtypes[-1] if dtypes else None


def parameter_read_dtype(dtype):
    """The dtype a float Parameter of `dtype` is read in where the block above is active."""
    cast_to = parameter_cast_dtype()
    return cast_to if cast_to is not None and dtype.is_float else dtype


class Tracer(GraphSequenceArithmetic, TensorMethods):
    """A symbolic tensor inside the graph its builder is making."""

    __slots__ = ("builder", "ir_var")

    def __init__(self, builder: Builder, var: Var):
        self.builder = builder
        self.ir_var = var  # not `var`: Tensor.var() is a method users call

    @property
    def aval(self) -> TensorType:
        return self.ir_var.aval

    def __bool__(self):
        # a one-element Tensor passed to the graph (a `mutable` flag an operation's Python
        # code tests): its value, the graph specialised on it (Builder.input_value); a
        # construct's own `if x:` becomes a switch in the front end and never comes here
        known = self.builder.input_value(self)
        if known is not None and known.size == 1:
            return bool(known.reshape(-1)[0])
        raise CompileError(
            "the truth value of a Tensor is known only at run time; use it as the condition of "
            "an `if`/`while` in construct, or ops.select(cond, x, y)", self.builder.loc)

    def __iter__(self):
        if not self.aval.shape:
            raise DTypeError("Cannot iterate over a scalar tensor.")
        return (self[i] for i in range(len(self)))

    def item(self):
        """The one element of a Tensor of shape () or (1,) as a variable scalar (a number
        known when the graph runs: int, float or bool by the dtype), as MindSpore's graphs
        give it; any other shape is its ValueError."""
        shape = tuple(self.aval.shape)
        if len(shape) > 1 or int(np.prod(shape)) != 1:
            raise ShapeError(f"The tensor should have only one element. But the shape of input "
                             f"tensor is {shape}.")
        return variable_scalar(F.reshape(self, ()))  # (dynamic_sequence sets it)

    def tolist(self):
        """The elements as nested Python lists of numbers known when the graph runs (variable
        scalars, as `item` gives), which the caller gets as a list of Python numbers, as
        MindSpore's graph mode gives them. A graph node per element: up to TOLIST_LIMIT."""
        shape = tuple(self.aval.shape)
        if int(np.prod(shape)) > TOLIST_LIMIT:
            raise UnsupportedError(f"Tensor.tolist() in a graph: a Tensor of shape {shape} has "
                                   f"more than {TOLIST_LIMIT} elements, each a value of the "
                                   f"graph; read it with asnumpy() after the graph has run")
        if not shape:
            return variable_scalar(self)
        return [F.getitem(self, i).tolist() if len(shape) > 1 else
                variable_scalar(F.getitem(self, i)) for i in range(shape[0])]

    def __int__(self):
        """`int(x)` of a one-element Tensor passed to the graph (a number the caller made
        `mutable`, a size): its value, on which the graph is then specialised (a value input,
        `Builder.input_value`). A value computed in the graph has none yet: TypeError, as for
        any object `int` cannot read."""
        known = self.builder.input_value(self)
        if known is None or known.size != 1:
            raise TypeError(f"int() argument must be a string, a bytes-like object or a real "
                            f"number, not '{type(self).__name__}'")
        return int(known.reshape(-1)[0])

    def __array__(self, *a, **k):
        raise DTypeError("a graph Tensor cannot be converted to a NumPy array while compiling; "
                         "NumPy functions cannot take it, use cellgraph.ops instead",
                         self.builder.loc)

    def asnumpy(self):
        """`x.asnumpy()` in construct. MindSpore's graph mode computes it on the host when the
        graph runs (its fallback), a NumPy array of the values that carries no gradient; here
        those values stay a graph value, read through stop_gradient, and what the program does
        with them (arithmetic, `Tensor(...)` over them) runs as graph operations."""
        from cellgraph.primitives import functional as F

        values = F.stop_gradient(self)
        values.__class__ = HostArray
        values.builder.record_derived(values, self, np.copy)
        return values

    def value(self):
        """`param.value()` on a graph value that stands for a Parameter (a loop's state)."""
        return self

    def __copy__(self):
        """`copy.copy(x)` / `copy.deepcopy(x)` in construct: a graph value holding x's current
        value (after any in-place update of x), which later in-place updates of either leave
        apart."""
        return Tracer(self.builder, self.builder.atom(self))

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __repr__(self) -> str:
        return f"Tracer({self.aval})"


class ParameterArgument(Tracer):
    """A Parameter the caller passed as an argument, inside the graph: an input that reads and
    assigns like a Parameter attribute (`ops.assign(param, v)`, `param.assign_value(v)`).
    `index` is its first position among the graph's flat inputs; ParameterArguments, not
    Parameters, key the builder's updates for it. It keeps the Parameter's name and
    `requires_grad`, not the object: a cached graph never keeps the caller's Parameter alive."""

    __slots__ = ("index", "name", "requires_grad")

    def __init__(self, builder: Builder, var: Var, param, index: int):
        super().__init__(builder, var)
        self.name, self.requires_grad = param.name, bool(param.requires_grad)
        self.index = index

    def assign_value(self, value):
        """`param.assign_value(value)` in a graph: `ops.assign(param, value)`."""
        return assign_in_graph(self, value)

    set_data = assign_value

    def __repr__(self) -> str:
        return f"Parameter(name={self.name}, {self.aval})"


def is_constant_argument(x) -> bool:
    """Whether `x` is a Tensor marked `const_arg`, or a graph's input that holds one."""
    if isinstance(x, ParameterArgument):
        return False
    if isinstance(x, Tracer):
        return x.builder.is_constant_argument(x)
    return bool(getattr(x, "const_arg", False))


def is_parameter(x) -> bool:
    return isinstance(x, ParameterArgument) or (
        getattr(x, "requires_grad", None) is not None and hasattr(x, "set_data"))


class ArgumentSlot:
    """An update target of a top-level graph: the Parameter the caller passes at flat input
    position `index` (the executor, or an enclosing grad, writes the value back into it)."""

    __slots__ = ("index", "name")

    def __init__(self, index: int, name: str | None):
        self.index, self.name = index, name

    def __repr__(self) -> str:
        return f"ArgumentSlot({self.index}, {self.name!r})"


class InputSlot(ArgumentSlot):
    """An update target of a top-level graph: the plain Tensor (no Parameter) the caller passes
    at flat input position `index`, which an in-place operation in the graph changed
    (`ops.AssignAdd()(x, y)`, `x.add_(y)` on an input): MindSpore writes it back, so does the
    executor."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"InputSlot({self.index})"


def update_target(target, leaves):
    """The object an update of a graph traced on `leaves` writes: for an ArgumentSlot, the leaf
    passed at its position; anything else is its own target."""
    return leaves[target.index] if isinstance(target, ArgumentSlot) else target


TOLIST_LIMIT = 4096


class HostArray(NumpyArrayMethods, Tracer):
    """What `x.asnumpy()` gives in construct: a graph value that `isinstance` takes for the
    NumPy array MindSpore's graph mode makes of it (and not for a Tensor); what is computed
    from it is a graph value like any other."""

    __slots__ = ()


def is_tensor_like(x) -> bool:
    """A leaf that becomes a graph value: a Tracer, a Tensor or a NumPy array."""
    return isinstance(x, (Tracer, np.ndarray)) or (
        hasattr(x, "_data") and hasattr(x, "aval") and not isinstance(x, type))


def note_outside(value, depth: int = 8) -> None:
    """`value` was read from outside the graph (a global, an attribute, a closure): the lists in
    it, through tuples and lists, are the caller's own objects (`outside_lists`)."""
    if depth == 0 or type(value) not in (list, tuple) or current_builder() is None:
        return
    if type(value) is list:
        known = compile_context().outside_lists
        if known.get(id(value)) is value:
            return
        known[id(value)] = value
    for item in value:
        note_outside(item, depth - 1)


def _returned_value(x) -> bool:
    """A leaf of a top-level graph's result that the graph computes (not a NumPy array)."""
    return is_tensor_like(x) and not isinstance(x, np.ndarray)


def describe_value(value) -> str:
    """What a user passed, for error messages: `Tensor f32[2,3]`, `(Tensor f32[1], int 2)`."""
    if isinstance(value, (tuple, list)):
        inner = ", ".join(describe_value(v) for v in value)
        return f"({inner}{',' if len(value) == 1 else ''})"
    if is_tensor_like(value):
        return f"Tensor {abstract_of(value)}"
    return f"{type(value).__name__} {value!r:.40}"


class AttributeSlot:
    """An attribute of a Python object that construct assigns a Tensor to (`self.total = x`,
    no Parameter): an update target like a Parameter (the executor writes the value back after
    the run, `write`), held weakly so that a compiled graph never keeps its Cell alive."""

    __slots__ = ("attr", "owner_ref")

    def __init__(self, owner, attr: str):
        self.owner_ref, self.attr = weakref.ref(owner), attr

    @property
    def key(self) -> tuple[int, str]:
        return id(self.owner_ref()), self.attr

    @property
    def name(self) -> str:
        return f"{type(self.owner_ref()).__name__}.{self.attr}"

    def write(self, value) -> None:
        owner = self.owner_ref()
        if owner is not None:
            setattr(owner, self.attr, value)


class AssignedConstant:
    """What a read of an attribute construct assigned a compile-time value to gives back."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def is_tensor_target(target) -> bool:
    """A graph value (not a Parameter) that an in-place operation updates: a Tracer."""
    return isinstance(target, Tracer) and not isinstance(target, ParameterArgument)


def update_key(target) -> object:
    """The key of an update target in `Builder.updates`: a Parameter's id, an attribute's
    (owner id, name)."""
    return target.key if isinstance(target, AttributeSlot) else id(target)


class Builder(Trace):
    """Records primitive applications into a new Graph."""

    def __init__(self, name: str, loc: SourceLoc | None = None):
        self.graph = Graph(name, [], loc=loc)
        self.loc = loc
        self.outer: Builder | None = None
        self.returns_arrays = False  # a user's top-level graph: see finish
        self.captured: dict[int, tuple[Tracer, Var]] = {}
        self.weight_vars: dict[int, tuple[object, Var]] = {}
        # id(Parameter) -> the var its reads use when it has gradient hooks (read_through_hooks)
        self.hooked_weights: dict[int, Var] = {}
        # id(Tracer) -> (the Tracer, its hooks): inputs whose hooks a nested parse applies again
        self.tensor_hooks: dict[int, tuple] = {}
        self.explicit: list[Var] = []
        # Parameters passed as arguments: id(what the caller passed) -> its ParameterArgument;
        # and those the graph also read as attributes (a weight that is an argument too):
        # ParameterArgument.index -> the Parameter
        self.param_args: dict[int, ParameterArgument] = {}
        self.attribute_aliases: dict[int, object] = {}
        # a top-level graph's Parameters by name: name -> (id, whether passed as an argument)
        self.param_names: dict[str, tuple[int, bool]] = {}
        # Parameter updates (ops.assign): id -> (Parameter, its new value), and attributes
        # assigned a Tensor (update_key). Only builders whose graph's caller writes the values
        # back (pipeline.parse) accept them.
        self.updates: dict[object, tuple[object, object]] = {}
        # `obj.attr = value` with a value known now (a number, a list, an array): later reads
        # see it, and the executor sets the attribute after each run (g.host_writes)
        self.attribute_constants: dict[tuple[int, str], tuple[AttributeSlot, object]] = {}
        self.accepts_updates = False
        # whether the caller writes this graph's in-place updates of its inputs back into the
        # Tensors it passed (a top-level graph; not a branch's or loop body's own parameters)
        self.writes_back_inputs = False
        # A branch of a Tensor `if` or a Tensor loop's body: whether its code is reached is
        # known only at run time (so a `raise` there becomes a node).
        self.runs_conditionally = False
        # the compile this graph belongs to (compile_context.CompileContext), on the builder of
        # its top-level graph; builders inside it find it through `outer`
        self.context = None
        # id(var) -> the join failure MindSpore raises where that value is returned
        # (control_flow.mark_mixed: a number joined with a Tensor)
        self.mixed_joins: dict = {}
        # where the values of this graph's explicit inputs come from (`input_value`): id(var)
        # -> ("leaf", flat position, the Tensor a top-level graph's caller passed), ("outer",
        # the enclosing graph's value passed in) or ("constant", a Tensor known now); and the
        # values a top-level graph was specialised on: flat position -> NumPy array
        self.input_sources: dict[int, tuple] = {}
        self.value_reads: dict[int, np.ndarray] = {}
        # values made here that are a function of another graph value's values (`x.asnumpy()`,
        # `bool(x)`): id(var) -> (x, the function over x's NumPy values), which `input_value`
        # follows to a value a top-level graph's caller passed
        self.derived_values: dict[int, tuple] = {}
        # the hooks on saved tensors of the regions open here, innermost last
        # (compiler/saved_tensors.py): the operations recorded go through the innermost's
        self.saved_hooks: tuple = ()
        # id(var) -> (the graph value, index) it was read from by indexing, in the graphs
        # PyNative's gradients trace (pynative_indexing.py)
        self.index_sources: dict[int, tuple] = {}

    # -- entering and leaving ---------------------------------------------------------------
    @contextlib.contextmanager
    def active(self):
        self.outer = innermost(Builder)
        if self.outer is not None:  # a graph built inside a hooks region is in it too
            self.saved_hooks = self.outer.saved_hooks
        push_trace(self)
        try:
            yield self
        finally:
            pop_trace(self)

    @contextlib.contextmanager
    def saved_tensor_hooks(self, hooks):
        """Record the operations of the block under `hooks` (compiler/saved_tensors.py)."""
        saved, self.saved_hooks = self.saved_hooks, self.saved_hooks + (hooks,)
        try:
            yield
        finally:
            self.saved_hooks = saved

    @contextlib.contextmanager
    def at(self, loc: SourceLoc | None):
        """Stamp nodes made inside the block with `loc`."""
        saved, self.loc = self.loc, loc or self.loc
        try:
            yield
        finally:
            self.loc = saved

    # -- values -----------------------------------------------------------------------------
    def add_param(self, aval: TensorType, hint: str | None = None) -> Tracer:
        var = Var(aval.strong(), hint)
        self.explicit.append(var)
        return Tracer(self, var)

    def add_parameter_argument(self, param, hint: str | None = None) -> ParameterArgument:
        """An explicit input for the Parameter `param` (a Parameter, or an enclosing graph's
        ParameterArgument): the same object passed twice is one ParameterArgument, whose second
        input is never read."""
        if getattr(param, "_split", None) is not None:
            raise UnsupportedError(f"Parameter {param.name!r} is held as slices (semi-auto "
                                   f"parallel) and cannot be passed as an argument of a "
                                   f"compiled function; let the function read it from its Cell "
                                   f"(self.{param.name.rsplit('.', 1)[-1]})", self.loc)
        var = Var(param.aval.strong(), hint)
        self.explicit.append(var)
        tracer = self.param_args.get(id(param))
        if tracer is None:
            self._claim_name(param, argument=True)
            tracer = ParameterArgument(self, var, param, len(self.explicit) - 1)
            self.param_args[id(param)] = tracer
        return tracer

    def as_argument(self, param):
        """`param` as this graph sees it: the ParameterArgument of the innermost graph it was
        passed to as an argument (in this builder's chain), else `param` itself."""
        chain, builder = [], self
        while builder is not None:
            chain.append(builder)
            builder = builder.outer
        for builder in reversed(chain):
            argument = builder.param_args.get(id(param))
            if argument is not None:
                if not isinstance(param, Tracer):  # read as an attribute: the caller must
                    builder.attribute_aliases[argument.index] = param  # pass it there again
                param = argument
        return param

    def note_input_source(self, tracer: Tracer, leaf, index: int) -> None:
        """Where the values of the explicit input `tracer` (flat position `index`, made for
        `leaf`) come from, for `input_value`: a Tensor the caller of a top-level graph passes
        (not a Parameter, whose values the graph may assign), an enclosing graph's value, or
        a Tensor known now passed to an inner graph."""
        if isinstance(tracer, ParameterArgument) or is_parameter(leaf):
            return
        if isinstance(leaf, Tracer):
            self.input_sources[id(tracer.ir_var)] = ("outer", leaf)
        elif hasattr(leaf, "_data") and hasattr(leaf, "asnumpy"):
            kind = "leaf" if self.outer is None else "constant"
            self.input_sources[id(tracer.ir_var)] = (kind, index, leaf)

    def is_input_leaf(self, value) -> bool:
        """Whether `value` (a Tracer of this graph) is a Tensor that the caller of the top-level
        graph passed, followed through the inner graphs it is passed to."""
        source = self.input_sources.get(id(value.ir_var))
        if source is None:
            return False
        if source[0] == "outer":
            outer = source[1]
            return isinstance(outer, Tracer) and outer.builder.is_input_leaf(outer)
        return source[0] == "leaf"

    def is_constant_argument(self, value) -> bool:
        """Whether the explicit input `value` (a Tracer of this graph) holds a Tensor marked
        `const_arg` (MindSpore compiles it as a constant: no gradient is taken of it), followed
        through the inner graphs it is passed to."""
        source = self.input_sources.get(id(value.ir_var))
        if source is None:
            return False
        if source[0] == "outer":
            return is_constant_argument(source[1])
        return bool(getattr(source[2], "const_arg", False))

    def input_value(self, value):
        """The values of `value` (a Tracer) as a NumPy array, when they are known while the graph
        is built: an input of a top-level graph that its caller passed as a Tensor (of at most
        VALUE_INPUT_LIMIT elements, not updated in place before the read), followed through
        the inner graphs it is passed to. The top-level graph is then specialised on them:
        `value_reads` holds them, which the executor compares with each later call's. Else
        None (a value computed in the graph, known only when it runs)."""
        if not isinstance(value, Tracer) or isinstance(value, ParameterArgument):
            return None
        builder = value.builder
        if builder is not self:
            return builder.input_value(value)
        if id(value) in self.updates:
            return None
        derived = self.derived_values.get(id(value.ir_var))
        if derived is not None:
            origin, function = derived
            known = origin.builder.input_value(origin)
            return None if known is None else np.asarray(function(known))
        source = self.input_sources.get(id(value.ir_var))
        if source is None:
            return None
        if source[0] == "outer":
            outer = source[1]
            return outer.builder.input_value(outer) if isinstance(outer, Tracer) else None
        leaf = source[2]
        if math.prod(leaf.shape) > VALUE_INPUT_LIMIT:
            return None
        known = np.array(leaf.asnumpy(), copy=True)
        if source[0] == "leaf":
            self.value_reads.setdefault(source[1], known)
        return known

    def record_derived(self, value, origin, function) -> None:
        """Note that the values of `value` (a Tracer made here) are `function` of those of
        `origin`, so that where origin's are known (`input_value`), value's are too."""
        self.derived_values[id(value.ir_var)] = (origin, function)

    def atom(self, x):
        """The graph value for an operand: a var, a capture, a weight or a constant."""
        if isinstance(x, Tracer):
            if isinstance(x, ParameterArgument):
                return self.parameter_atom(x)
            updated = self.updates.get(id(x))
            if updated is not None:  # an in-place operation here gave it a new value
                return updated[1]
            if x.builder is self:
                return x.ir_var
            return self._capture(x)
        if is_parameter(x):
            return self.parameter_atom(x)
        if isinstance(x, bool | numbers.Number | np.ndarray | np.generic):
            value = x.item() if isinstance(x, np.generic) else x
            return Constant(value, abstract_of(value))
        if getattr(x, "has_init", False):  # made with `init=`: its initial values
            return Constant(x.initial_values(), x.aval)
        if hasattr(x, "_data") and hasattr(x, "aval"):
            return Constant(x.asnumpy(), x.aval)
        raise DTypeError(f"expected a Tensor, got {type(x).__name__} {x!r:.60}")

    def parameter_atom(self, param, assigned: bool = True):
        """The graph value of a Parameter (or ParameterArgument): after this graph's assignments
        to it (a read after `assign` sees the new value), or as it came in (`assigned` False)."""
        param = self.as_argument(param)
        if assigned and id(param) in self.updates:
            return self.updates[id(param)][1]
        if isinstance(param, Tracer):
            return param.ir_var if param.builder is self else self._capture(param)
        hooked = self.hooked_weights.get(id(param))
        if hooked is not None:
            return hooked
        entry = self.weight_vars.get(id(param))
        if entry is None:
            self._claim_name(param, argument=False)
            entry = (param, Var(param.aval, param.name.replace(".", "_") if param.name else "w"))
            self.weight_vars[id(param)] = entry
            if read_through_hooks is not None and self.accepts_updates:
                # a top-level graph's reads of a hooked weight go through its hooks once
                read = read_through_hooks(param, Tracer(self, entry[1]))
                if read.ir_var is not entry[1]:
                    self.hooked_weights[id(param)] = read.ir_var
                    return read.ir_var
        return entry[1]

    def _claim_name(self, param, argument: bool) -> None:
        """A Parameter passed to a top-level graph has a name no other Parameter of the graph
        has, as MindSpore requires (ValueError). Parameters the graph reads from the program
        are not compared with each other here: MindSpore allows it in a Cell's construct and
        refuses it in a function, and which graph reads them from which is not tracked."""
        name = getattr(param, "name", None)
        if self.outer is not None or not isinstance(name, str) or not name:
            return
        holder = self.param_names.setdefault(name, (id(param), argument))
        if holder[0] == id(param) or not (argument or holder[1]):
            return
        raise ArgumentValueError(f"The parameter {param!r} , its name '{name}' already exists. "
                                 f"Please set a unique name for the parameter.")

    def _capture(self, tracer: Tracer) -> Var:
        entry = self.captured.get(id(tracer.ir_var))
        if entry is None:
            entry = (tracer, Var(tracer.aval, tracer.ir_var.hint))
            self.captured[id(tracer.ir_var)] = entry
        return entry[1]

    def read_operands(self, args: tuple) -> tuple:
        """Under `parameters_cast_to`, float Parameters are read as a cast to its dtype."""
        cast_to = parameter_cast_dtype()
        if cast_to is None:
            return args
        return tuple(self.process(cast_prim, [a], {"dtype": cast_to}) if is_parameter(a) and (
            a.aval.dtype.is_float and a.aval.dtype != cast_to) else a for a in args)

    def process(self, prim, args, params):
        if self.saved_hooks:
            hooked = self.saved_hooks[-1].emit(prim, args, params)
            if hooked is not None:
                return hooked
        atoms = []
        if prim is not cast_prim:
            args = self.read_operands(args)
        for i, a in enumerate(args):
            try:
                atoms.append(self.atom(a))
            except DTypeError:
                raise operand_error(prim, i, a, args).with_loc(self.loc) from None
        try:
            out_type = prim.abstract_eval([a.aval for a in atoms], params)
        except CellgraphError as e:
            raise e.with_loc(self.loc)
        if not prim.multiple_results and out_type.shape == () and all(
                isinstance(a, Constant) and a.aval.weak for a in atoms) and atoms:
            # (a Python number broadcast to a shape, as index_fill's value, is a node)
            return _fold_scalars(prim, atoms, params, out_type)
        types = list(out_type) if prim.multiple_results else [out_type]
        outputs = [Var(t) for t in types]
        self.graph.nodes.append(Apply(prim, atoms, params, outputs, self.loc))
        tracers = tuple(Tracer(self, v) for v in outputs)
        return tracers if prim.multiple_results else tracers[0]

    def record_update(self, param, value) -> None:
        """`param = value` from here on: later reads of `param` in this graph see `value`, and
        finish() appends it to the outputs so that the executor writes it back after the run."""
        if is_tensor_target(param):
            self._record_tensor_update(param, value)
            return
        if not self.accepts_updates:
            raise CompileError(f"Assign: Parameter '{param.name}' cannot be updated here (a "
                               f"graph whose caller cannot write it back); compute the new value "
                               f"and assign it in construct", self.loc)
        if not isinstance(param, AttributeSlot):
            param = self.as_argument(param)
        else:  # a Tensor replaces a value known earlier in this graph
            self.attribute_constants.pop(update_key(param), None)
        self.updates[update_key(param)] = (param, self.atom(value))

    def record_attribute_constant(self, owner, attr: str, value) -> bool:
        """`owner.attr = value` for a value known when compiling (no graph value in it): later
        reads in this graph see `value` and the attribute is set after every run, as
        MindSpore's graphs run such an assignment as Python. False where this graph cannot
        (a Tensor-dependent branch or loop, a graph nothing writes back from)."""
        if not self.accepts_updates or self.runs_conditionally:
            return False
        slot = AttributeSlot(owner, attr)
        self.updates.pop(update_key(slot), None)
        self.attribute_constants[update_key(slot)] = (slot, value)
        return True

    def _record_tensor_update(self, tracer: Tracer, value) -> None:
        """An in-place operation on a graph value: every later read of `tracer` (through any
        name or container that holds it, as MindSpore's aliases do) sees `value`. A value of
        this graph is rebound here; one of an enclosing graph leaves this one as an update,
        which the Tensor `if` or loop around it carries out."""
        if tracer.builder is not self and not self.accepts_updates:
            raise CompileError("an in-place operation cannot update a Tensor of the enclosing "
                               "graph here (a graph whose caller cannot carry the new value "
                               "out); compute the new value and return it", self.loc)
        self.updates[id(tracer)] = (tracer, self.atom(value))

    def outgoing_updates(self) -> list:
        """The (target, new value) updates that leave this graph: Parameters, attributes, the
        enclosing graphs' values, and this graph's own inputs (their `InputSlot`s); a value
        made inside this graph is only rebound."""
        out = []
        for target, value in self.updates.values():
            if is_tensor_target(target) and target.builder is self:
                index = next((i for i, var in enumerate(self.explicit)
                              if var is target.ir_var), None)
                if index is None or not self.writes_back_inputs:
                    continue
                target = InputSlot(index, None)
            out.append((target, value))
        return out

    def assigned_attribute(self, owner, attr: str):
        """The value construct assigned to `owner.attr` in this graph or one enclosing it (a
        Tracer, or an AssignedConstant holding a value known when compiling), or None."""
        builder = self
        while builder is not None:
            entry = builder.updates.get((id(owner), attr))
            if entry is not None:
                return Tracer(builder, entry[1])
            constant = builder.attribute_constants.get((id(owner), attr))
            if constant is not None:
                return AssignedConstant(constant[1])
            builder = builder.outer
        return None

    # -- finishing --------------------------------------------------------------------------
    def _outside_list(self, value) -> bool:
        """A list read from outside the graph that holds no graph value: returned as itself."""
        if type(value) is not list or \
                compile_context(self).outside_lists.get(id(value)) is not value:
            return False
        return is_static(flatten(value, lambda x: isinstance(x, Tracer))[1])

    def finish(self, result) -> tuple[Graph, list]:
        """Close the graph over `result`; returns it and the outer values its captures need.

        Parameters are ordered: explicit inputs, captured outer values, weights. Outputs are the
        leaves of `result`, then the new values of the Parameters in `g.updates` (where a
        Parameter argument of this graph is updated: its ArgumentSlot).
        """
        # A NumPy array a user's top-level construct or function returns (made from constants)
        # is given back as that array, as MindSpore's graphs give it; elsewhere (an inner
        # graph, a transform's result) it is a graph constant.
        leaves, tree = flatten(result, _returned_value if self.returns_arrays else
                               is_tensor_like, self._outside_list if self.returns_arrays else None)
        outputs = [self.atom(leaf) for leaf in leaves]
        g = self.graph
        updates = self.outgoing_updates()
        g.outputs = outputs + [value for _, value in updates]
        g.updates = [ArgumentSlot(param.index, param.name) if isinstance(param, ParameterArgument)
                     and param.builder is self else param for param, _ in updates]
        g.out_tree = tree
        g.host_writes = list(self.attribute_constants.values())
        caps = list(self.captured.values())
        g.params = self.explicit + [v for _, v in caps] + [v for _, v in self.weight_vars.values()]
        g.weights = [p for p, _ in self.weight_vars.values()]
        splits = [held_split(p) for p in g.weights]
        g.weight_splits = splits if any(splits) else []
        return g, [t for t, _ in caps]


def held_split(param) -> tuple | None:
    """(layout, device matrix, groups) of a Parameter each rank holds a slice of (operator
    sharding)."""
    split = getattr(param, "_split", None)
    return None if split is None else split[:3]


def _fold_scalars(prim, atoms, params, out_type):
    """Arithmetic on Python numbers alone (as in a bprop rule's `y - 1`) stays a Python number,
    computed as Python computes it: floats in double precision, whatever the program's dtype;
    so is an int result that is a float (1 / n, which Tensor rules would take in float32)."""
    to_double = out_type.dtype.is_float
    values = [np.array(a.value, np.float64) if type(a.value) is float or (
        to_double and type(a.value) is int) else a.value for a in atoms]
    return evaluate(prim, *values, **params).asnumpy().item()


def build_graph(name: str, fn, avals, hints=None, loc=None) -> tuple[Graph, list]:
    """Trace `fn(*tracers)` into a new graph; returns the graph and its captured outer values."""
    builder = Builder(name, loc)
    with builder.active():
        args = [builder.add_param(a, h) for a, h in zip(avals, hints or [None] * len(avals))]
        result = fn(*args)
        return builder.finish(result)


def current_builder() -> Builder | None:
    top = current_trace()
    return top if isinstance(top, Builder) else None


def compile_context(builder=None) -> CompileContext:
    """The context of the compile whose graph is being recorded now (by `builder`, else the
    current builder): that of the innermost builder that has one, which the builders inside it
    then keep too. A graph built outside the pipeline (vmap, PyNative's grad) gets one from the
    settings now on its outermost builder, which the rest of its tracing finds; with no graph
    being built, a new one from the settings."""
    start = current_builder() if builder is None else builder
    if start is not None and start.context is not None:
        return start.context
    outermost, builder = start, start
    while builder is not None and builder.context is None:
        outermost, builder = builder, builder.outer
    found = CompileContext.from_settings() if builder is None else builder.context
    if outermost is not None:
        outermost.context = found
    if start is not None:
        start.context = found  # the next question here needs no walk
    return found


def checked_assign_value(op: str, variable, value, converting: bool = False):
    """`value` with the shape and dtype of `variable` (a Parameter, or a Tensor that an
    in-place operation updates), or an error naming both. Assign converts a Tensor value only
    to a dtype that promoting the two gives (MindSpore's rule); an operation `converting` its
    result into its input (`x.add_(y)`, `x.copy_(y)`, `set_data`) casts any but a float into
    an integer or bool variable."""
    if not is_parameter(variable) and not _is_tensor(variable):
        raise DTypeError(f"{op}: expected a Parameter or a Tensor as `variable`, got "
                         f"{type(variable).__name__} {variable!r:.60}")
    if not is_value(value):
        raise DTypeError(f"{op}: expected a Tensor or a number as `value`, got "
                         f"{type(value).__name__} {value!r:.60}")
    target, given = variable.aval, abstract_of(value)
    name = (variable.name or "Parameter") if is_parameter(variable) else "Tensor"
    if converting:
        if given.dtype.is_float and not target.dtype.is_float:
            raise DTypeError(f"{op}: cannot assign a {given.dtype} value to "
                             f"{_described(variable, name)} of dtype {target.dtype}")
    elif not isinstance(value, numbers.Number) and not given.weak and dt.promote(
            target.dtype, given.dtype) != target.dtype:
        # MindSpore converts the value to the variable's dtype only where the promotion of the
        # two is the variable's own
        raise DTypeError(f"Data type conversion is not supported for a 'Parameter', nor for "
                         f"the input tensor of an in-place operator, so data type "
                         f"{str(target.dtype).capitalize()}, which cannot be converted to data "
                         f"type {str(dt.promote(target.dtype, given.dtype)).capitalize()} "
                         f"automatically.")
    if given.shape == (1,) and target.shape == ():  # MindSpore's Assign takes [1] for a scalar
        value = F.reshape(value, ())
        given = abstract_of(value)
    try:
        fits = broadcast_shapes(given.shape, target.shape) == target.shape
    except CellgraphError:
        fits = False
    if not fits:
        raise ShapeError(f"{op}: cannot assign a value of shape {fmt_shape(given.shape)} to "
                         f"{_described(variable, name)} of shape {fmt_shape(target.shape)}")
    if isinstance(value, numbers.Number):
        return F.fill(target.dtype, target.shape, value)
    value = F.cast(value, target.dtype)
    if given.shape != target.shape:
        value = F.broadcast_to(value, target.shape)
    return value


def _is_tensor(x) -> bool:
    return isinstance(x, Tracer) or hasattr(x, "_data") and hasattr(x, "aval")


def _described(variable, name: str) -> str:
    return f"Parameter '{name}'" if is_parameter(variable) else "a Tensor"


def assign_in_graph(variable, value, converting: bool = False):
    """Record `variable = value` in the graph being built; returns the new value. A Parameter's
    new value is an `assigned_read`: no gradient flows into `value`, and the gradient of a read
    of it goes to the Parameter (MindSpore's Load after Assign); a Tensor that an in-place
    operation updates (`ops.AssignAdd()(x, y)`, `x.add_(y)`) is rebound: every later read of it
    in the graph sees the new value, and the result is the Tensor itself, as MindSpore's in-place
    operations return their input."""
    if not is_parameter(variable) and not isinstance(variable, Tracer):
        raise DTypeError("Assign: a Tensor that is a constant of the graph (built outside it) "
                         "cannot be updated in place inside it; make it a Parameter, or pass "
                         "it as an argument")
    new = checked_assign_value("Assign", variable, value, converting)
    if isinstance(variable, Tracer) and not is_parameter(variable):
        current_builder().record_update(variable, new)
        return variable
    new = assigned_read(variable, F.stop_gradient(new))
    current_builder().record_update(variable, new)
    return new
