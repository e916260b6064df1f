"""nn.Cell: the unit users subclass; `construct` is compiled in graph mode."""
from __future__ import annotations

from cellgraph import context
from cellgraph.compiler.builder import current_builder, parameters_cast_to
from cellgraph.compiler.frontend import Interpreter
from cellgraph.compiler.guards import record_all_attributes, record_guard
from cellgraph.compiler.scope import is_user_function
from cellgraph.ops import dtype as dt
from cellgraph.ops import functional as F
from cellgraph.ops.core import abstract_of
from cellgraph.ops.errors import ArgumentError, DTypeError
from cellgraph.runtime.executor import GraphCache, run_cached
from cellgraph.runtime.tensor import Parameter, ParameterTuple


def _construct_function(cell):
    fn = type(cell).construct
    return getattr(fn, "__wrapped__", fn)


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


class Cell:
    """Base class for networks. Parameters and sub-Cells are found in attribute order."""

    _cellgraph_cell = True

    def __init__(self, auto_prefix=True, flags=None):
        object.__setattr__(self, "training", False)
        # Mixed precision: None, or (compute dtype or None, dtype the outputs are cast to or
        # None); one attribute, so that graphs guard on one read per Cell
        object.__setattr__(self, "_amp_types", None)
        object.__setattr__(self, "_graph_cache", GraphCache())
        object.__setattr__(self, "_auto_prefix", auto_prefix)

    def __setattr__(self, name, value):
        if "_graph_cache" not in self.__dict__:
            Cell.__init__(self)  # a subclass that forgot super().__init__()
        if isinstance(value, Parameter) and value.name in (None, "Parameter"):
            value.name = name
        elif isinstance(value, Cell) and self._auto_prefix:
            value._prefix_parameter_names(name)
        object.__setattr__(self, name, value)

    def _prefix_parameter_names(self, prefix: str) -> None:
        """Names become hierarchical as Cells are attached, as in MindSpore: "fc1.weight"."""
        seen = set()
        for _, cell in self.cells_and_names():
            for param in cell.__dict__.values():
                if isinstance(param, Parameter) and param.name and id(param) not in seen:
                    seen.add(id(param))
                    param.name = f"{prefix}.{param.name}"

    def __call__(self, *args, **kwargs):
        if current_builder() is not None:
            return self._graph_call(args, kwargs)
        if not context.is_graph_mode():
            amp_types = self.__dict__.get("_amp_types")
            if amp_types is None:
                return self.construct(*args, **kwargs)
            return _in_precision(amp_types, args, lambda a: self.construct(*a, **kwargs))
        if kwargs:
            raise ArgumentError(f"{type(self).__name__}: keyword arguments to a Cell in graph "
                                f"mode are not supported; pass them by position")
        return run_cached(self._graph_cache, self, args, context.dump_dir())

    def construct(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define construct()")

    def _graph_call(self, args, kwargs):
        """Inline this Cell into the graph being built (custom bprop handled by autograd)."""
        from cellgraph.autograd import custom_bprop_call

        if "bprop" in type(self).__dict__ or any("bprop" in c.__dict__ for c in type(
                self).__mro__[1:] if c is not Cell and issubclass(c, Cell)):
            return custom_bprop_call(self, args, kwargs)
        amp_types = self.__dict__.get("_amp_types")
        record_guard(self, "_amp_types", amp_types)
        if amp_types is None:
            return self._construct_call(args, kwargs)
        return _in_precision(amp_types, args, lambda a: self._construct_call(a, kwargs))

    def _construct_call(self, args, kwargs):
        construct = _construct_function(self)
        if not is_user_function(construct):
            # Library Cells (nn.Dense, nn.TrainOneStepCell) run as Python over graph values, as
            # library functions do, so their errors point at the user's line that called them.
            # Their code may read any attribute: the graph is rebuilt when one is replaced.
            record_all_attributes(self, skip=("_graph_cache",))
            for i, a in enumerate(args):
                if a is None:
                    raise DTypeError(f"{type(self).__name__}: expected a Tensor for input "
                                     f"{i + 1}, got None")
            return construct(self, *args, **kwargs)
        return Interpreter.call_function(construct, (self,) + tuple(args), kwargs)

    # -- discovery --------------------------------------------------------------------------
    def name_cells(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if isinstance(v, Cell)}

    def cells(self):
        return list(self.name_cells().values())

    def cells_and_names(self, cells=None, name_prefix=""):
        """Yield (name, cell) for this Cell and every Cell below it, each once."""
        seen = set()

        def walk(cell, prefix):
            if id(cell) in seen:
                return
            seen.add(id(cell))
            yield prefix, cell
            for name, child in cell._children():
                if not cell.__dict__.get("_auto_prefix", True):
                    name = ""  # wrappers (WithLossCell, TrainOneStepCell) keep inner names
                yield from walk(child, ".".join(p for p in (prefix, name) if p))

        yield from walk(self, name_prefix)

    def _children(self):
        for name, value in self.__dict__.items():
            if isinstance(value, Cell):
                yield name, value
            elif isinstance(value, (list, tuple)) and value and all(
                    isinstance(v, Cell) for v in value):
                for i, v in enumerate(value):
                    yield f"{name}.{i}", v

    def parameters_and_names(self, name_prefix="", expand=True):
        """Yield (hierarchical name, Parameter), each Parameter once, in attribute order."""
        seen = set()
        for prefix, cell in self.cells_and_names(name_prefix=name_prefix):
            for name, value in cell.__dict__.items():
                if isinstance(value, Parameter) and id(value) not in seen:
                    seen.add(id(value))
                    yield (f"{prefix}.{name}" if prefix else name), value
                elif isinstance(value, ParameterTuple):  # optimizer state: named by itself
                    for i, param in enumerate(value):
                        if id(param) not in seen:
                            seen.add(id(param))
                            yield param.name or f"{prefix}.{name}.{i}".lstrip("."), param
            if not expand:
                break

    def get_parameters(self, expand=True):
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse=True) -> list:
        params = []
        for name, p in self.parameters_and_names(expand=recurse):
            if p.requires_grad:
                if p.name is None or name.endswith("." + p.name):  # complete a partial name
                    p.name = name
                params.append(p)
        return params

    def untrainable_params(self, recurse=True) -> list:
        return [p for _, p in self.parameters_and_names(expand=recurse) if not p.requires_grad]

    def insert_child_to_cell(self, child_name, child_cell):
        setattr(self, child_name, child_cell)

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        setattr(self, param_name, param)

    def set_train(self, mode=True):
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "training", mode)
        return self

    def set_grad(self, requires_grad=True):
        return self

    def to_float(self, dst_type):
        """Run this Cell and every Cell below it in `dst_type` (float16, bfloat16 or float32):
        float inputs are cast on entry, and the float Parameters its operations read are cast
        where they are read, so the Parameters stay the optimizer's full-precision copy."""
        dtype = dt.as_dtype(dst_type) if not isinstance(dst_type, dt.DType) else dst_type
        if dtype not in (dt.float16, dt.bfloat16, dt.float32):
            raise DTypeError(f"{type(self).__name__}.to_float: `dst_type` must be float16, "
                             f"bfloat16 or float32, got {dtype}")
        for _, cell in self.cells_and_names():
            output = (cell.__dict__.get("_amp_types") or (None, None))[1]
            object.__setattr__(cell, "_amp_types", (dtype, output))
        return self

    def _cast_outputs_to(self, dtype) -> None:
        """Mixed precision (amp): cast this Cell's float outputs to `dtype`."""
        compute = (self.__dict__.get("_amp_types") or (None, None))[0]
        object.__setattr__(self, "_amp_types", (compute, dtype))

    def extend_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        children = [f"  ({name}): " + repr(c).replace("\n", "\n  ")
                    for name, c in self._children()]
        head = f"{type(self).__name__}<{self.extend_repr()}>"
        return head + ("\n" + "\n".join(children) if children else "")
