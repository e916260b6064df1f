"""nn.Cell: the unit users subclass; `construct` is compiled in graph mode."""
from __future__ import annotations

import copy
import functools
import inspect
import threading
import weakref
from collections import OrderedDict
from collections.abc import MutableMapping

from cellgraph import context
from cellgraph._c_expression.amp import pop_amp_strategy, push_amp_strategy
from cellgraph._check_jit_forbidden_api import jit_forbidden_register
from cellgraph.common.parameter import _Buffer
from cellgraph.compiler.builder import current_builder, parameters_cast_to
from cellgraph.compiler.frontend import (
    Interpreter,
    KeywordOnlyCall,
    keyword_only_names,
    top_level_arguments,
)
from cellgraph.compiler.guards import record_all_attributes, record_code_globals, record_guard
from cellgraph.compiler.pipeline import compile_callable
from cellgraph.compiler.scope import (
    is_unparsed_user_function,
    is_user_function,
    written_by_user,
)
from cellgraph.ops import functional as F
from cellgraph.primitives import core as _core
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    AttributeLookupError,
    DTypeError,
    ShapeError,
)
from cellgraph.runtime.executor import STALE, GraphCache, run_cached, tensor_leaves
from cellgraph.runtime.tensor import (
    Parameter,
    ParameterTuple,
    SignatureTensor,
    Tensor,
    check_non_negative_int,
    is_generated_name,
)

from . import hooks
from .cell_primitives import CellPrimitives
from .cell_state import CellState

_settings = context._state  # (one dict, updated in place by set_context)
_GRAPH_MODE = context.GRAPH_MODE


def _construct_function(cell):
    """The function construct runs, called with the Cell: the class's, or one of the Cell's
    own methods set on the instance (`setattr(net, "construct", net.construct2_c0)`), which
    MindSpore then calls, as Python would."""
    fn = type(cell).construct
    own = cell.__dict__.get("construct")
    if own is not None and getattr(own, "__self__", None) is cell:
        fn = own.__func__
    return getattr(fn, "__wrapped__", fn)


def _check_declared(op: str, declared, args) -> None:
    """Arguments must fit the signature given to set_inputs (None: any size on that axis; the
    shape (-2,): any rank), with MindSpore's errors: the dtype first (TypeError), then the rank
    and the sizes (ValueError). As in MindSpore, a 0-d Tensor fits a signature whose sizes are
    all unknown."""
    for i, (want, got) in enumerate(zip(declared, args), 1):
        want_shape, got_shape = getattr(want, "shape", None), getattr(got, "shape", None)
        if want_shape is None or got_shape is None:
            continue
        if want.dtype != got.dtype:
            raise DTypeError(f"For set_inputs or tuple(list) in set_inputs, the {i}th type "
                             f"should be Tensor[{want.dtype}], but got Tensor[{got.dtype}]!")
        want_shape, got_shape = tuple(want_shape), tuple(got_shape)
        if want_shape == (-2,) or not got_shape and all(w in (None, -1) for w in want_shape):
            continue
        if len(want_shape) != len(got_shape):
            raise ShapeError(f"For set_inputs and tuple(list) in set_inputs, the dims of {i}th "
                             f"input must be the same as expected, but got expected: "
                             f"{len(want_shape)}, and input: {len(got_shape)}!")
        for w, g in zip(want_shape, got_shape):
            if w not in (None, -1, g):
                raise ShapeError(f"For set_inputs and tuple(list) in set_inputs, the shape of "
                                 f"{i}th input must be the same as expected, but got expected: "
                                 f"{w}, and input: {g}!")


def cast_float(value, dtype):
    """Mixed precision: the float Tensors in `value` (a Tensor or a tuple) cast to `dtype`,
    everything else as it is."""
    if hasattr(value, "aval") and abstract_of(value).dtype.is_float:
        return F.cast(value, dtype)
    if isinstance(value, tuple):
        return tuple(cast_float(v, dtype) for v in value)
    return value


def _in_precision(amp_types, args, call):
    """`call(args)` in mixed precision: float arguments cast to the compute dtype, float
    Parameters read in it, float results cast to the output dtype."""
    compute_dtype, output_dtype = amp_types
    if compute_dtype is None:
        result = call(args)
    else:
        with parameters_cast_to(compute_dtype):
            result = call(tuple(cast_float(a, compute_dtype) for a in args))
    return result if output_dtype is None else cast_float(result, output_dtype)


def _under_strategy(strategy, run, args, kwargs):
    """`run(args, kwargs)` with the amp strategy `(level, dtype, white list, black list)` on
    top of the stack (`auto_mixed_precision(net, "auto")`)."""
    push_amp_strategy(*strategy)
    try:
        return run(args, kwargs)
    finally:
        pop_amp_strategy()


def _parameter_sequence(value) -> bool:
    """A tuple or list attribute of Parameters (not an optimizer's ParameterTuple): its
    Parameters belong to the Cell, named by themselves and prefixed like the Cell's own."""
    return (isinstance(value, (list, tuple)) and not isinstance(value, ParameterTuple)
            and bool(value) and all(isinstance(v, Parameter) for v in value))


def _parameter_table(cell):
    """(key, Parameter) for the Parameters a Cell holds itself, in attribute order: MindSpore's
    `cell._params`. A Parameter attribute is keyed by the attribute's name; each Parameter of a
    ParameterTuple attribute by the name it had when the tuple was assigned. Plain lists and
    tuples of Parameters are not in it, as in MindSpore (no optimizer or checkpoint sees them)."""
    tuple_keys = cell.__dict__.get("_tuple_parameter_keys") or {}
    for name, value in cell.__dict__.items():
        if isinstance(value, Parameter):
            yield name, value
        elif isinstance(value, ParameterTuple):
            keys = tuple_keys.get(name, ())
            for i, param in enumerate(value):
                yield (keys[i] if i < len(keys) else param.name), param


class _ParamsTable(MutableMapping):
    """A Cell's own Parameters by key, read from and written to the Cell."""

    def __init__(self, cell):
        self._cell = cell

    def __getitem__(self, key):
        return dict(_parameter_table(self._cell))[key]

    def __setitem__(self, key, value):
        if not isinstance(value, Parameter):
            raise DTypeError(f"The type of parameter '{key}' should be 'Parameter', but got "
                             f"{type(value).__name__}.")
        if key.isidentifier():
            setattr(self._cell, key, value)
        else:  # a key no attribute can spell is still the Cell's own entry
            self._cell.__dict__[key] = value

    def __delitem__(self, key):
        if key not in dict(_parameter_table(self._cell)):
            raise KeyError(key)
        del self._cell.__dict__[key]

    def __iter__(self):
        return iter([key for key, _ in _parameter_table(self._cell)])

    def __len__(self):
        return sum(1 for _ in _parameter_table(self._cell))

    def __repr__(self):
        return repr(dict(_parameter_table(self._cell)))


def _optional_input(construct, index: int) -> bool:
    """Whether input `index` of a library construct may be None (its default is None, as for
    LSTM's `hx` or an attention mask)."""
    params = list(inspect.signature(construct).parameters.values())[1:]  # after self
    return index < len(params) and params[index].kind <= inspect.Parameter.POSITIONAL_OR_KEYWORD \
        and params[index].default is None


class StepLock:
    """Held around each call of a training Cell (a TrainOneStepCell, an optimizer): a step
    reads the Parameters, computes and writes them back, so steps of one Cell called from
    several threads at once must run one after the other or updates are lost. A copy of the
    Cell gets a lock of its own."""

    def __init__(self):
        self._lock = threading.RLock()

    def __enter__(self):
        self._lock.acquire()

    def __exit__(self, *exc):
        self._lock.release()

    def __deepcopy__(self, memo):
        return StepLock()


class Cell(CellState, CellPrimitives):
    """Base class for networks. Parameters and sub-Cells are found in attribute order."""

    _cellgraph_cell = True
    # What a call does around construct: the hook tables ({key: hook}), the mixed-precision
    # types and the saved tensors' hooks. Each is replaced, never mutated, through
    # `set_call_state`, which replaces `_call_version` too: a graph guards that one read per
    # Cell instead of seven.
    _forward_pre_hooks = None
    _forward_hooks = None
    _backward_pre_hooks = None
    _backward_hooks = None
    _call_version = None
    _step_lock = None  # a StepLock in training Cells: their calls run one at a time
    # register_saved_tensors_hooks: the hooks on the tensors construct's operations save
    _saved_tensors_pack_hook = None
    _saved_tensors_unpack_hook = None

    def __init__(self, auto_prefix=True, flags=None):
        object.__setattr__(self, "training", False)
        # Mixed precision: None, or (compute dtype or None, dtype the outputs are cast to or
        # None). It and the hook tables are the instance's own attributes.
        for name in hooks.CALL_STATE:
            hooks.set_call_state(self, name, None)
        cache = GraphCache()
        cache.owner = weakref.ref(self)
        object.__setattr__(self, "_graph_cache", cache)
        object.__setattr__(self, "_auto_prefix", auto_prefix)
        if flags:
            self.add_flags(**flags)

    def __setattr__(self, name, value):
        if "_graph_cache" not in self.__dict__:
            self._setattr_before_init(name, value)
            return
        kind = "param" if isinstance(value, Parameter) else "cell" if isinstance(value, Cell) \
            else None
        slots = self.__dict__.get("_attribute_kinds")
        held = slots.get(name) if slots else None
        if held is not None and value is not None and kind != held:
            self._check_slot(name, value, kind, held)
        if kind is not None:
            if slots is None:
                slots = self.__dict__["_attribute_kinds"] = {}
            slots[name] = kind
        if isinstance(value, Parameter) and is_generated_name(value.name):
            value.name = name
        elif _parameter_sequence(value):  # each keeps its own name, as in MindSpore
            self._check_sequence_parameter_names(value)
        elif isinstance(value, ParameterTuple):
            self._name_tuple_parameters(value)
            keys = self.__dict__.setdefault("_tuple_parameter_keys", {})
            keys[name] = [param.name for param in value]
        elif isinstance(value, Cell) and self._auto_prefix:
            value.update_parameters_name(name + ".")  # "fc1.weight", as MindSpore names it
        elif name in hooks.CALL_STATE:
            hooks.set_call_state(self, name, value)
            return
        elif (isinstance(value, Tensor) or hasattr(value, "aval")) and \
                not isinstance(value, Parameter) and isinstance(self.__dict__.get(name), Parameter):
            # `self.w = 2 * self.w`: new data (PyNative), or an assignment in the graph being
            # built (a graph value, as in a gradient hook's `self.g = dout + self.g`)
            self.__dict__[name].set_data(value)
            return
        if isinstance(value, _Buffer) or name in self._buffers:
            self._buffer_setattr(name, value)
        object.__setattr__(self, name, value)

    def _check_slot(self, name, value, kind, held) -> None:
        """A name that has held a Parameter keeps Parameters (None, or a Tensor as its new
        data), and one that has held a Cell keeps Cells (or None), as MindSpore's tables of a
        Cell's parameters and children do."""
        if held == "param":
            if kind == "cell":
                raise KeyError(f"For 'insert_child_to_cell', the {name} child cell already "
                               f"exists in the network.Cannot insert another child cell with "
                               f"the same name.")
            if isinstance(value, Tensor) or hasattr(value, "aval"):  # a graph value too
                if self.__dict__.get(name) is None:
                    raise AttributeError(f"For '{type(self).__name__}', the Parameter "
                                         f"attribute '{name}' is None, so a Tensor cannot "
                                         f"become its data")
                return
            raise TypeError(f"Parameter '{name}' already exists in network, can not assign this "
                            f"type: '{type(value)}' as a parameter.")
        if kind == "param":
            raise KeyError(f"For 'insert_param_to_cell', the {name} parameter already exists in "
                           f"the network.Cannot insert another parameter with the same name.")
        raise TypeError(f"Sub cell '{name}' already exists in network, can not assign this type: "
                        f"'{type(value)}' as a cell.")

    def __delattr__(self, name):
        object.__delattr__(self, name)
        slots = self.__dict__.get("_attribute_kinds")
        if slots:
            slots.pop(name, None)

    def _setattr_before_init(self, name, value) -> None:
        """An attribute set before Cell.__init__ ran: plain values are kept, as MindSpore
        keeps them; a Parameter, Tensor or Cell needs the Cell's tables, so it is refused with
        MindSpore's AttributeError."""
        cls = type(self).__name__
        # AttributeError, not TypeError: the Cell lacks its tables, as MindSpore reports it
        if isinstance(value, Parameter):
            raise AttributeError(  # noqa: TRY004
                f"For 'insert_param_to_cell', please call Cell.__init__() firstly: "
                f"{cls}.__init__ assigns the Parameter '{name}' before calling "
                f"super().__init__()")
        if isinstance(value, (Cell, Tensor)):
            raise AttributeError(  # noqa: TRY004
                f"The '{cls}' object has no attribute '_cells': {cls}.__init__ assigns "
                f"'{name}' (a {type(value).__name__}) before calling super().__init__()")
        object.__setattr__(self, name, value)

    def _name_tuple_parameters(self, value) -> None:
        """A ParameterTuple's Parameters made without a name are named `Parameter$N`, N
        counting from 1 in each Cell, as MindSpore's Cell names them."""
        for param in dict.fromkeys(value):  # each Parameter object once
            if is_generated_name(param.name):
                count = self.__dict__.get("_tuple_parameter_count", 1)
                param.name = f"Parameter${count}"
                self.__dict__["_tuple_parameter_count"] = count + 1

    def _check_sequence_parameter_names(self, value) -> None:
        """The Parameters of the Cell's tuple and list attributes have distinct names (each
        Parameter object counted once), as MindSpore's Cell checks when they are set."""
        seen = self.__dict__.setdefault("_sequence_parameter_names", {})  # name -> id
        for param in value:
            if seen.get(param.name, id(param)) != id(param):
                raise ArgumentValueError(f"The value {value} , its name '{param.name}' already "
                                         f"exists. Please set a unique name for the parameter.")
            seen[param.name] = id(param)

    def __deepcopy__(self, memo):
        """A copy with its own Parameters and sub-Cells and an empty compile cache (compiled
        graphs and their locks belong to the original)."""
        clone = type(self).__new__(type(self))
        memo[id(self)] = clone
        for name, value in self.__dict__.items():
            if isinstance(value, GraphCache):
                fresh = GraphCache()
                fresh.owner = weakref.ref(clone)
            else:
                fresh = copy.deepcopy(value, memo)
            object.__setattr__(clone, name, fresh)
        if "_sequence_parameter_names" in self.__dict__:  # the copies' own Parameters
            clone.__dict__["_sequence_parameter_names"] = {
                n: id(memo[i]) if i in memo else i
                for n, i in self._sequence_parameter_names.items()}
        return clone

    def __call__(self, *args, **kwargs):
        # The common call, on the short path: graph mode, no graph being built in any thread,
        # no keywords, and a Cell whose positional calls go to construct unchanged
        # (`plain_calls`, recorded by _top_level_call): what `_top_level_call` would do first,
        # run the last all-Tensor call's entry, which checks the signature and every guard
        # itself and answers STALE when any fails.
        if not kwargs and not _core._pushed and _settings["mode"] == _GRAPH_MODE:
            cache = self.__dict__.get("_graph_cache")
            if cache is not None and cache.plain_calls:
                last = cache.last
                if last is not None:
                    out = last.run(args)
                    if out is not STALE:
                        return out
        if "_graph_cache" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute "
                                 f"'_init_flag': its __init__ must call super().__init__() "
                                 f"before the Cell is used")
        if current_builder() is not None:
            return self._graph_call(args, kwargs)
        step_lock = self._step_lock
        if step_lock is not None:
            with step_lock:
                return self._top_level_call(args, kwargs)
        return self._top_level_call(args, kwargs)

    def _top_level_call(self, args, kwargs):
        if not context.is_graph_mode():
            amp_types = self.__dict__.get("_amp_types")
            if amp_types is None:
                run = lambda a, k: self.construct(*a, **k)
            else:
                run = lambda a, k: _in_precision(amp_types, a,
                                                 lambda b: self.construct(*b, **k))
            strategy = self.__dict__.get("_amp_strategy")
            if strategy is not None:
                run = functools.partial(_under_strategy, strategy, run)
            if self._forward_pre_hooks or self._forward_hooks or self._backward_pre_hooks \
                    or self._backward_hooks:
                return hooks.call_with_hooks(self, run, args, kwargs)
            return run(args, kwargs)
        fn, args = self._graph_arguments(args, kwargs)
        if "_declared_inputs" in self.__dict__:
            _check_declared(type(self).__name__, self.__dict__["_declared_inputs"], args)
        cache = self._graph_cache
        if fn is self and not kwargs and self._step_lock is None and \
                "_declared_inputs" not in self.__dict__:  # the next such call may take the
            cache.plain_calls = True  # short path of __call__
        return run_cached(cache, fn, args, context.dump_dir())

    def _graph_arguments(self, args, kwargs):
        """(what to compile, its positional arguments) for a top-level graph-mode call:
        keyword arguments move to their positions, and keyword-only ones of construct follow
        the positional ones, put back by name when the graph is traced."""
        names = keyword_only_names(type(self).construct)
        if kwargs or names:
            args = top_level_arguments(self.construct, f"{type(self).__name__}.construct",
                                       args, kwargs, complete=bool(names))
        return (KeywordOnlyCall(self, names) if names else self), args

    def _graph_setattr(self, name: str, value) -> bool:
        """`self.name = value` in construct: a Parameter attribute takes the value (as
        ops.assign does, MindSpore's meaning); anything else is refused (returns False)."""
        current = self.__dict__.get(name)
        if not isinstance(current, Parameter):
            return False
        from cellgraph.common.assign import assign

        assign(current, value)
        return True

    def construct(self, *args, **kwargs):
        # MindSpore's error and message for a Cell without construct (an AttributeError)
        raise AttributeLookupError("For 'Cell', the method 'construct' is not defined.")

    def _graph_call(self, args, kwargs):
        """Inline this Cell into the graph being built, between its forward hooks, with its
        backward hooks on the gradients through it."""
        return hooks.call_with_hooks(self, self._inline, args, kwargs, backward=True)

    def _inline(self, args, kwargs):
        """construct's graph (a custom bprop is handled by autograd)."""
        from cellgraph.autograd import custom_bprop_call

        if "bprop" in type(self).__dict__ or any("bprop" in c.__dict__ for c in type(
                self).__mro__[1:] if c is not Cell and issubclass(c, Cell)):
            return custom_bprop_call(self, args, kwargs)
        amp_types = self.__dict__.get("_amp_types")
        record_guard(self, "_call_version", self._call_version)
        if amp_types is None:
            run = self._construct_call
        else:
            run = lambda a, k: _in_precision(amp_types, a, lambda b: self._construct_call(b, k))
        strategy = self.__dict__.get("_amp_strategy")
        if strategy is not None:
            return _under_strategy(strategy, run, args, kwargs)
        return run(args, kwargs)

    def _construct_call(self, args, kwargs):
        # (the saved tensors' hooks are call state: _inline guarded them with _call_version)
        if self._saved_tensors_pack_hook is None:
            return self._run_construct(args, kwargs)
        from cellgraph.graph.api import cell_region

        with cell_region(self._saved_tensors_pack_hook, self._saved_tensors_unpack_hook):
            return self._run_construct(args, kwargs)

    def _run_construct(self, args, kwargs):
        construct = _construct_function(self)
        if not is_user_function(construct):
            # Library Cells (nn.Dense, nn.TrainOneStepCell) run as Python over graph values, as
            # library functions do, so their errors point at the user's line that called them.
            # Their code may read any attribute: the graph is rebuilt when one is replaced.
            record_all_attributes(self, skip=("_graph_cache",))
            if is_unparsed_user_function(construct):  # made by exec: no source to parse
                record_code_globals(construct, written_by_user)
            for i, a in enumerate(args):
                if a is None and not _optional_input(construct, i):
                    raise DTypeError(f"{type(self).__name__}: expected a Tensor for input "
                                     f"{i + 1}, got None")
            return construct(self, *args, **kwargs)
        return Interpreter.call_function(construct, (self,) + tuple(args), kwargs)

    @property
    def compile_cache(self) -> set:
        """The phases of the graphs compiled for this Cell and kept (MindSpore's
        `Cell.compile_cache`): one `"<train|predict>.<id of the Cell>.<n>"` per specialisation."""
        mode = "train" if self.training else "predict"
        return {f"{mode}.{id(self)}.{i}" for i in range(len(self._graph_cache.entries))}

    # -- discovery --------------------------------------------------------------------------
    def name_cells(self) -> OrderedDict:
        """{attribute name: child Cell}, an OrderedDict as MindSpore's."""
        return OrderedDict((k, v) for k, v in self.__dict__.items() if isinstance(v, Cell))

    def cells(self):
        """The child Cells: the values view of name_cells, as MindSpore's."""
        return self.name_cells().values()

    def cells_and_names(self, cells=None, name_prefix=""):
        """Yield (name, cell) for this Cell and every Cell below it, each once; Cells in
        `cells` (Cells already visited) are skipped with what is below them."""
        seen = {id(cell) for cell in cells} if cells is not None else set()

        def walk(cell, prefix):
            if id(cell) in seen:
                return
            seen.add(id(cell))
            yield prefix, cell
            for name, child in cell._children():
                yield from walk(child, f"{prefix}.{name}" if prefix else name)

        yield from walk(self, name_prefix)

    def _children(self):
        """(attribute, Cell) for the Cells this Cell holds as attributes: MindSpore's
        `cell._cells`. Cells in a plain list or tuple attribute are not children, as in
        MindSpore (a CellList or SequentialCell holds Cells as children)."""
        for name, value in self.__dict__.items():
            if isinstance(value, Cell):
                yield name, value

    def parameters_and_names(self, name_prefix="", expand=True):
        """Yield (path, Parameter), each Parameter once: the path of the Cell holding it and
        its key in that Cell's table (see `_parameter_table`), as MindSpore's."""
        seen = set()
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        for prefix, cell in cells:
            for key, param in _parameter_table(cell):
                if id(param) not in seen:
                    seen.add(id(param))
                    yield (f"{prefix}.{key}" if prefix else key), param

    @jit_forbidden_register
    def get_parameters(self, expand=True):
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    @jit_forbidden_register
    def set_comm_fusion(self, fusion_type, recurse=True):
        """Put the gradients of this Cell's trainable Parameters (and, with `recurse`, its
        sub-Cells') in all-reduce fusion group `fusion_type` (Parameter.comm_fusion);
        returns self."""
        check_non_negative_int(fusion_type)
        for param in self.trainable_params(recurse):
            param.comm_fusion = fusion_type
        return self

    @jit_forbidden_register
    def trainable_params(self, recurse=True) -> list:
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    @jit_forbidden_register
    def untrainable_params(self, recurse=True) -> list:
        return [p for _, p in self.parameters_and_names(expand=recurse) if not p.requires_grad]

    def insert_child_to_cell(self, child_name, child_cell):
        """Add `child_cell` (a Cell, or None) as attribute `child_name` (a str without '.')."""
        if not isinstance(child_name, str):
            raise TypeError(f"For 'insert_child_to_cell', the type of parameter 'child_name' "
                            f"must be str, but got {type(child_name)}.")
        if not child_name or "." in child_name:
            raise KeyError(f"For 'insert_child_to_cell', the parameter 'child_name' can not be "
                           f"None and can not contain '.', got {child_name!r}")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(f"For 'insert_child_to_cell', the argument 'child_cell' must be "
                            f"'Cell' if not None, but got type {type(child_cell)}.")
        setattr(self, child_name, child_cell)

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        """Add `param` (a Parameter, or None) as attribute `param_name`."""
        if not param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not "
                           "be None.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not "
                           "contain '.'")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"For 'insert_param_to_cell', the argument 'param' must be "
                            f"'Parameter' if not None, but got {type(param)}.")
        setattr(self, param_name, param)

    def set_train(self, mode=True):
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "training", mode)
        return self

    def set_grad(self, requires_grad=True):
        return self

    def register_forward_pre_hook(self, hook_fn, *, prepend=False, with_kwargs=False):
        """hook_fn(cell, inputs) runs before construct; a non-None result replaces inputs.
        With `with_kwargs`, hook_fn(cell, inputs, kwargs) returns None or (inputs, kwargs);
        `prepend` runs it before the hooks registered so far."""
        return hooks.register(self, "_forward_pre_hooks", hook_fn, prepend, with_kwargs)

    def register_forward_hook(self, hook_fn, *, prepend=False, with_kwargs=False,
                              always_call=False):
        """hook_fn(cell, inputs, output) runs after construct; a non-None result replaces
        the output. With `with_kwargs`, hook_fn(cell, inputs, kwargs, output); `prepend` runs
        it before the hooks registered so far; `always_call` runs it (with output None) when
        construct raises, before the exception goes on."""
        return hooks.register(self, "_forward_hooks", hook_fn, prepend, with_kwargs,
                              always_call)

    def register_backward_pre_hook(self, hook_fn):
        """hook_fn(cell, grad_output) runs when the gradients of construct's outputs reach the
        Cell in a backward pass; a non-None result (a tuple) replaces them."""
        return hooks.register(self, "_backward_pre_hooks", hook_fn)

    def register_backward_hook(self, hook_fn):
        """hook_fn(cell, grad_input, grad_output) runs when the gradients of construct's Tensor
        inputs have been computed in a backward pass; a non-None result (a tuple) replaces
        them."""
        return hooks.register(self, "_backward_hooks", hook_fn)

    @jit_forbidden_register
    def register_saved_tensors_hooks(self, pack_hook, unpack_hook):
        """The tensors construct's operations save for the backward pass go through
        `pack_hook` and come back through `unpack_hook` (mindspore.saved_tensors_hooks), in
        PyNative and in graph mode."""
        hooks.set_call_state(self, "_saved_tensors_pack_hook", pack_hook)
        hooks.set_call_state(self, "_saved_tensors_unpack_hook", unpack_hook)

    def register_parameter_forward_hook(self, hook):
        """Graphs read Parameters through forward hooks: `hook` a callable (every Parameter of
        this Cell, read as hook(param)) or a list of {"params": [Parameter, ...], "hook":
        callable}; gradients flow through the hook to the Parameter. MindSpore's checks and
        errors; graphs compiled before are compiled again."""
        from cellgraph.tensor_hooks import register_parameter_forward_hook

        if isinstance(hook, list):
            pairs = []
            for item in hook:
                if not isinstance(item, dict):
                    raise TypeError(f"Each item in the hook list must be a dictionary, but got "
                                    f"{type(item)}.")
                if not ("params" in item and "hook" in item):
                    raise ValueError("Each dictionary in the hook list must contain both params "
                                     "and hook keys.")
                if not callable(item["hook"]):
                    raise TypeError(f"The hook value must be callable, but got "
                                    f"{type(item['hook'])}.")
                for param in item["params"]:
                    if not isinstance(param, Parameter):
                        raise TypeError(f"All items in params must be of type 'Parameter', but "
                                        f"got {type(param)}.")
                    pairs.append((param, item["hook"]))
        elif callable(hook):
            pairs = [(param, hook) for param in self.get_parameters()]
        else:
            raise TypeError(f"Hook must be a callable function or a list of dictionaries, but "
                            f"got {type(hook)}.")
        for param, fn in pairs:
            register_parameter_forward_hook(param, fn)
        for _, cell in self.cells_and_names():
            cell.__dict__["_graph_cache"].clear()

    # -- what MindSpore programs call on Cells ------------------------------------------------
    @property
    def cls_name(self) -> str:
        return type(self).__name__

    @property
    def _cells(self) -> dict:
        """The direct sub-Cells by attribute name (MindSpore's `cell._cells`)."""
        return dict(self._children())

    @property
    def _params(self) -> _ParamsTable:
        """The Parameters this Cell holds itself by key (MindSpore's `cell._params`), a live
        table: a Parameter stored in it is held by the Cell, as in MindSpore (state_dict hooks
        add entries so)."""
        return _ParamsTable(self)

    def parameters_dict(self, recurse=True) -> OrderedDict:
        """{Parameter name: Parameter}, in attribute order: keyed by each Parameter's own
        name as MindSpore's is (the hierarchical name where it has none), so a renamed
        Parameter (`update_parameters_name`) is found under its new name."""
        return OrderedDict((p.name or name, p)
                           for name, p in self.parameters_and_names(expand=recurse))

    def update_parameters_name(self, prefix="", recurse=True) -> None:
        """Name every Parameter (of sub-Cells too, if `recurse`) `prefix` and its path in
        this Cell, as MindSpore's does."""
        if not isinstance(prefix, str):
            raise ArgumentError(f"update_parameters_name: `prefix` must be a str, got "
                                f"{type(prefix).__name__}")
        for key, param in list(self.parameters_and_names(expand=recurse)):
            param.name = prefix + key

    def init_parameters_data(self, auto_parallel_mode=False) -> dict:
        """Parameters are filled when created here, so this returns {Parameter: Parameter}
        for every Parameter, as MindSpore's does once initialisation has run."""
        return {p: p.init_data() for _, p in self.parameters_and_names()}

    def set_inputs(self, *inputs, **kwargs) -> None:
        """Record the input signature MindSpore compiles a dynamic-shape graph for (dims may be
        None). Graphs here are specialised to each call's shapes, so the record serves to check
        that later calls fit it (`get_inputs` returns it)."""
        object.__setattr__(self, "_declared_inputs", inputs)
        cache = self.__dict__.get("_graph_cache")
        if cache is not None:  # each call is checked against them from now on
            cache.plain_calls = False

    def get_inputs(self):
        return self.__dict__.get("_declared_inputs")

    def compile(self, *args, **kwargs) -> None:
        """Compile construct for these arguments without running it (the next call with
        arguments of the same shapes and dtypes reuses the result)."""
        fn, args = self._graph_arguments(args, kwargs)
        if any(isinstance(leaf, SignatureTensor) for leaf in tensor_leaves(args)):
            # Tensors of unknown sizes (`Tensor(shape=[None, 3], dtype=...)`): the graph is
            # built and checked with those sizes dynamic; calls compile for their own shapes
            compile_callable(fn, tuple(args), context.dump_dir())
            return
        self._graph_cache.lookup(fn, tuple(args), context.dump_dir())

    def apply(self, fn):
        """Call fn(cell) on every Cell below this one and on this one; returns self."""
        for _, cell in list(self.cells_and_names())[::-1]:
            fn(cell)
        return self

    def add_flags(self, **flags):
        """Record `flags` (get_flags) and set each as an attribute, as MindSpore's does
        (`net.add_flags(sink_mode=True)`, then `net.sink_mode`); returns self."""
        self.__dict__.setdefault("_flags", {}).update(flags)
        self.__dict__.update(flags)
        # fp16/fp32/bf16 are MindSpore's mixed-precision flags (to_float sets them): a Cell
        # given one runs in that dtype, the last of them set winning as in MindSpore
        for flag, dtype in (("fp16", dt.float16), ("fp32", dt.float32), ("bf16", dt.bfloat16)):
            if flags.get(flag, False):
                self._run_in(dtype)
        return self

    def _run_in(self, dtype) -> None:
        """This Cell's float inputs and Parameters cast to `dtype` where it runs (to_float)."""
        output = (self.__dict__.get("_amp_types") or (None, None))[1]
        hooks.set_call_state(self, "_amp_types", (dtype, output))

    def add_flags_recursive(self, **flags):
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
        return self

    def get_flags(self) -> dict:
        return dict(self.__dict__.get("_flags", {}))

    def set_jit_config(self, jit_config) -> None:
        """Keep a JitConfig (`jit_config_dict`); its jit_syntax_level, when given, is the one
        this Cell's graphs compile at (over set_context's; MindSpore's environment variable
        MS_DEV_JIT_SYNTAX_LEVEL still comes first). Its other options tune MindSpore's own
        compiler and change nothing here."""
        object.__setattr__(self, "_jit_config", jit_config)
        level = getattr(jit_config, "jit_config_dict", {}).get("jit_syntax_level", "")
        cache = self.__dict__.get("_graph_cache")
        if cache is not None:
            cache.syntax_level = context.SYNTAX_LEVELS[level] if level else None
            cache.clear()  # graphs compiled at the level before

    @property
    def jit_config_dict(self) -> dict:
        config = self.__dict__.get("_jit_config")
        return dict(getattr(config, "jit_config_dict", {}))

    def recompute(self, *, use_reentrant=True, output_recompute=False, early_stop=True,
                  context_fn=None, **kwargs):
        """MindSpore's activation recomputation trades memory for time in the backward pass;
        results are identical whatever its options. Reverse mode here keeps the forward values
        it needs, so the request is recorded (`get_flags()["recompute"]`, and the scope
        'recompute_' of this Cell and those below it, as MindSpore names it) and memory use is
        unchanged."""
        for _, cell in self.cells_and_names():
            scope = cell.get_scope()
            if scope is None or not scope.startswith("recompute_"):
                object.__setattr__(cell, "_scope", "recompute_" + (scope or ""))
        return self.add_flags_recursive(recompute=True)

    def get_scope(self):
        """The Cell's scope in its network: None, or 'recompute_...' once it is recomputed."""
        return self.__dict__.get("_scope")

    def to_float(self, dst_type):
        """Run this Cell and every Cell below it in `dst_type` (float16, bfloat16 or float32):
        float inputs are cast on entry, and the float Parameters its operations read are cast
        where they are read, so the Parameters stay the optimizer's full-precision copy."""
        dtype = dt.as_dtype(dst_type) if not isinstance(dst_type, dt.DType) else dst_type
        if dtype not in (dt.float16, dt.bfloat16, dt.float32):
            raise DTypeError(f"{type(self).__name__}.to_float: `dst_type` must be float16, "
                             f"bfloat16 or float32, got {dtype}")
        for _, cell in self.cells_and_names():
            cell._run_in(dtype)
        return self

    def to(self, *args, **kwargs):
        """The float and complex Parameters of this Cell and those below it cast to a dtype, in
        place; returns self. Takes `to(dtype)`, `to(device, dtype)`, `to(tensor)` (its dtype)
        or the keywords device, dtype and non_blocking, as MindSpore's; cellgraph's device is
        the backend's, so `device` ("CPU", ...) is checked and changes nothing."""
        from cellgraph.runtime.tensor import Tensor

        unknown = set(kwargs) - {"device", "dtype", "non_blocking"}
        if unknown:
            raise TypeError(f"to() got unexpected keyword arguments {sorted(unknown)}")
        device, dtype = kwargs.get("device"), kwargs.get("dtype")
        for arg in args:
            if isinstance(arg, Tensor):
                dtype = arg.dtype
            elif isinstance(arg, str):
                device = arg
            elif isinstance(arg, bool):
                continue  # non_blocking, by position
            else:
                dtype = arg
        if device is not None and str(device).split(":")[0] not in ("CPU", "cpu", "Ascend",
                                                                     "npu", "GPU", "cuda"):
            raise ValueError(f"The value of 'to' must be one of ['Ascend', 'CPU'], but got "
                             f"{device}")
        if dtype is None:
            return self
        dtype = dt.as_dtype(dtype)
        if not (dtype.is_float or dtype.is_complex):
            raise TypeError(f"Cell.to only accepts floating point or complex dtypes, but got "
                            f"desired dtype={dtype}")
        for param in self.get_parameters():
            if param.dtype.is_float or param.dtype.is_complex:
                param.set_dtype(dtype)
        return self

    def check_names(self):
        """ValueError when two Parameters of this Cell share a name."""
        names = set()
        for value, param in self.parameters_and_names():
            if param.name in names:
                raise ValueError(f"The value of {value} is {param}, its name '{param.name}' "
                                 f"already exists. Please set a unique name for the parameter.")
            names.add(param.name)

    def parameters_broadcast_dict(self, recurse=True):
        """name -> Parameter for the Parameters that are not layerwise parallel (None when there
        is none): the ones a data-parallel start broadcasts from rank 0."""
        params = {p.name: p for p in self.get_parameters(expand=recurse)
                  if not p.layerwise_parallel}
        return params or None

    def update_cell_prefix(self):
        """Record each Cell's name in this network as its parameter prefix."""
        for name, cell in self.cells_and_names():
            object.__setattr__(cell, "_param_prefix", name)

    def update_cell_type(self, cell_type):
        object.__setattr__(self, "cell_type", cell_type)

    def set_broadcast_flag(self, mode=True):
        return self.add_flags_recursive(broadcast_flag=mode)

    def cast_inputs(self, inputs, dst_type):
        """`inputs` with each float Tensor among them cast to `dst_type`."""
        from cellgraph.runtime.tensor import Tensor

        dtype = dt.as_dtype(dst_type)
        return tuple(x.astype(dtype) if isinstance(x, Tensor) and x.dtype.is_float else x
                     for x in inputs)

    def run_construct(self, cast_inputs, kwargs):
        """construct called with the positional `cast_inputs` and the dict `kwargs`."""
        return self.construct(*cast_inputs, **kwargs)

    def get_extra_state(self):
        """A subclass's extra state for its state_dict; MindSpore's base raises."""
        raise RuntimeError("Reached a code path in Cell.get_extra_state() that should never be "
                           "called.")

    def set_extra_state(self, state):
        """A subclass restores its extra state from load_state_dict; MindSpore's base raises."""
        raise RuntimeError("Reached a code path in Cell.set_extra_state() that should never be "
                           "called.")

    def _cast_outputs_to(self, dtype) -> None:
        """Mixed precision (amp): cast this Cell's float outputs to `dtype`."""
        compute = (self.__dict__.get("_amp_types") or (None, None))[0]
        hooks.set_call_state(self, "_amp_types", (compute, dtype))

    def extend_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        """MindSpore 2.10's form: `Name(extra)` on one line for a leaf, else the extra lines and
        one `(name): child` line per child Cell, indented, inside `Name(` ... `)`."""
        extra = self.extend_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + repr(c).replace("\n", "\n  ")
                       for name, c in self._children()]
        lines = extra_lines + child_lines
        if len(extra_lines) == 1 and not child_lines:
            return f"{type(self).__name__}({extra_lines[0]})"
        body = "\n  " + "\n  ".join(lines) + "\n" if lines else ""
        return f"{type(self).__name__}({body})"
