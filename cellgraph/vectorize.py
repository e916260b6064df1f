"""vmap, jacrev, jacfwd and hessian.

`vmap(fn, in_axes, out_axes)` traces fn's graph and replays it on batched values through each
primitive's batching rule (compiler/batching.py). The Jacobians are vmaps too, computed in one
batched pass over a standard basis, never one row per call:

* `jacrev`: the VJP of fn, batched over the basis of each output: row i is e_i^T J.
* `jacfwd`: the JVP of fn, batched over the basis of each input: column j is J e_j. The JVP is
  the transpose of the VJP: u -> vjp(u) = J^T u is linear, so its own VJP with cotangent v is
  J v, and reverse mode applied twice gives forward mode.
* `hessian = jacfwd(jacrev(fn))`.

Inside a graph each API emits its nodes into the current builder; called from Python it compiles
a graph that does the same, cached per input signature, and runs it.
"""
from __future__ import annotations

import inspect
import numbers
import sys

import numpy as np

from cellgraph.compiler.autodiff import expand_grad, inline, vjp, zero_of
from cellgraph.compiler.batching import Basis, batch_graph, dense, move_batch
from cellgraph.compiler.builder import (
    ArgumentSlot,
    ParameterArgument,
    build_graph,
    current_builder,
    is_parameter,
    is_tensor_like,
    update_target,
)
from cellgraph.compiler.ir import Graph
from cellgraph.compiler.pipeline import graph_name, parse
from cellgraph.compiler.pytree import count_leaves, flatten, unflatten
from cellgraph.primitives import array_ops as A
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    CompileError,
    DTypeError,
    GradPositionError,
    GradValueError,
    ShapeError,
    ShapeRunError,
    SourceLoc,
    TransformArgumentError,
)
from cellgraph.runtime.tensor import Parameter, Tensor

from .transform import Transform, leaf_ranges, normalize_positions, user_loc


def _graph_loc(transform) -> SourceLoc | None:
    """The user's line for an error while emitting `transform` (None: the Python caller's,
    which the error gets on its way out of the call)."""
    return None if transform.top_level() else current_builder().loc


def _freeze(spec):
    return tuple(_freeze(s) for s in spec) if isinstance(spec, (tuple, list)) else spec


def _no_updates(graph: Graph, api: str, loc) -> None:
    if graph.updates:
        names = ", ".join(repr(p.name) for p in graph.updates)
        raise CompileError(f"{api}: the function assigns Parameters ({names}); a transformed "
                           f"function must be pure, so return the new values instead", loc)


# ----- vmap ------------------------------------------------------------------------------------

def _check_axes_spec(spec, what: str) -> None:
    if spec is None or isinstance(spec, numbers.Integral) and not isinstance(spec, bool):
        return
    if isinstance(spec, (tuple, list)):
        for s in spec:
            _check_axes_spec(s, what)
        return
    shown = f"{spec:g}" if isinstance(spec, float) else spec  # MindSpore shows 1.0 as 1
    raise TransformArgumentError(f"The axis in vmap's '{what}' should be a None or a scalar of "
                                 f"type Int64Imm, but got a {shown}.", user_loc())


def _check_argument_count(fn, args: tuple, loc) -> None:
    """MindSpore's TypeError for a call of `fn` (a function or a Cell, whose construct it
    reads) with a number of arguments its positional parameters do not take."""
    target = getattr(fn, "construct", fn)
    if not (inspect.isfunction(target) or inspect.ismethod(target)):
        return  # a primitive or another callable object: its own call checks its operands
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return
    kinds = inspect.Parameter
    if any(p.kind in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD) for p in params):
        return
    positional = [p for p in params if p.kind in (kinds.POSITIONAL_ONLY,
                                                  kinds.POSITIONAL_OR_KEYWORD)]
    required = sum(p.default is kinds.empty for p in positional)
    if not required <= len(args) <= len(positional):
        raise ArgumentError(f"The parameters number of the function is {len(positional)}, but "
                            f"the number of provided arguments is {len(args)}.", loc)


def _axes_leaves(spec):
    """The ints and Nones of a nested in_axes or out_axes."""
    if isinstance(spec, (tuple, list)):
        for item in spec:
            yield from _axes_leaves(item)
    else:
        yield spec


def _out_of_bounds(axis: int, rank: int, what: str, loc) -> ShapeRunError:
    return ShapeRunError(f"The axis: {axis} in '{what}' is out of bounds for array of dimension "
                         f"[{-rank},{rank}).", loc)


def _leaf_dims(args: tuple, in_axes, loc, ensemble_size=None) -> tuple[list, int]:
    """The batch axis of every Tensor leaf of `args` and the batch size, checked (with a
    CellList of `ensemble_size` cells, the cells are the batch and no argument need be
    mapped)."""
    if isinstance(in_axes, (tuple, list)):
        if len(in_axes) != len(args):
            raise TransformArgumentError(
                f"When vmap`s 'in_axes' is a tuple or list, and its size must be equal to the "
                f"number of arguments of 'fn': {len(args)}, but got size: {len(in_axes)}.", loc)
        specs = tuple(in_axes)
    else:
        if in_axes is None and ensemble_size is None:
            raise TransformArgumentError("The 'in_axes' of 'vmap' cannot be a single None while "
                                         "'fn' is not a 'CellList'.", loc)
        specs = (in_axes,) * len(args)
    dims, sizes = [], []

    def walk(value, spec, where):
        if is_tensor_like(value):
            if isinstance(spec, (tuple, list)):
                raise ArgumentError(f"vmap: in_axes gives a tuple {spec} for {where}, which is "
                                    f"a single Tensor; give an int or None", loc)
            if spec is None:
                dims.append(None)
                return
            shape = abstract_of(value).shape
            if not -len(shape) <= spec < len(shape):
                raise _out_of_bounds(spec, len(shape), "in_axes", loc)
            dims.append(spec % len(shape))
            sizes.append((where, shape[spec], spec % len(shape)))
        elif isinstance(value, (tuple, list)):
            if isinstance(spec, (tuple, list)) and len(spec) != len(value):
                raise ArgumentError(f"vmap: in_axes gives {len(spec)} entries for {where}, "
                                    f"which holds {len(value)} values", loc)
            for i, item in enumerate(value):
                walk(item, spec[i] if isinstance(spec, (tuple, list)) else spec,
                     f"{where}[{i}]")
        elif spec is not None:
            raise TransformArgumentError(
                f"The orig_abs should be AbstractTensor when corresponding axis is {spec}, but "
                f"got a {type(value).__name__} {value!r:.40} ({where}). Tip: Please check the "
                f"correspondence between vmap's 'in_axes' and inputs.", loc)

    for i, (arg, spec) in enumerate(zip(args, specs)):
        walk(arg, spec, f"argument {i}")
    if not sizes and ensemble_size is None:
        if args and isinstance(in_axes, (tuple, list)) and all(a is None for a in in_axes):
            raise TransformArgumentError(f"The 'in_axes' of 'vmap' cannot be all None while "
                                         f"'fn' is not a 'CellList', but got {tuple(in_axes)}.",
                                         loc)
        raise TransformArgumentError("Failed to get 'axis_size' within the scope of vmap.", loc)
    distinct = list(dict.fromkeys(n for _, n, _ in sizes))
    if len(distinct) > 1:
        raise ShapeRunError(f"The 'axis_size' of each argument in the scope of 'vmap' should be "
                            f"equal, but got {distinct[0]} and {distinct[1]}.", loc)
    if ensemble_size is not None:
        if sizes and sizes[0][1] != ensemble_size:
            raise ShapeError(
                f"If you want to execute the model ensembling parallel training, please make "
                f"sure the 'axis_size' in the scope of vmap consistent with the cell size of "
                f"the input 'CellList', otherwise, please do not enter 'CellList' as the first "
                f"argument, but we get axis_size: {sizes[0][1]} and the cell size: "
                f"{ensemble_size}.", loc)
        sizes.insert(0, ("the CellList", ensemble_size, 0))
    if sizes[0][1] == 0:
        raise ShapeError(f"vmap: cannot map over an axis of size 0 ({sizes[0][0]}, axis "
                         f"{sizes[0][2]})", loc)
    return dims, sizes[0][1]


class VmapFunction(Transform):
    """The function `vmap(fn, in_axes, out_axes)` returns."""

    api = "vmap"

    def __init__(self, fn, in_axes=0, out_axes=0):
        super().__init__(fn)
        _check_axes_spec(in_axes, "in_axes")
        _check_axes_spec(out_axes, "out_axes")
        self.in_axes, self.out_axes = in_axes, out_axes

    def cache_key(self):
        return (_freeze(self.in_axes), _freeze(self.out_axes))

    def emit(self, *args):
        """Emit fn batched over `args` into the current builder."""
        loc = _graph_loc(self)
        cells = _ensemble_cells(self.fn, loc)
        _check_argument_count(cells[0] if cells else self.fn, args, loc)
        dims, size = _leaf_dims(args, self.in_axes, loc, cells and len(cells))
        if cells:
            _check_ensemble_parameters(cells, loc)
        leaves, in_tree = flatten(tuple(args), is_tensor_like)
        flat_examples = [x if d is None else _example_of(x, d) for x, d in zip(leaves, dims)]
        examples = unflatten(in_tree, flat_examples)
        fn = cells[0] if cells else self.fn
        mapped = {id(e): d for e, d in zip(flat_examples, dims) if d is not None}
        _TRACED_AXES.update(mapped)
        try:
            graph, captured, _, _ = parse(fn, examples, graph_name(fn))
        finally:
            for key in mapped:
                _TRACED_AXES.pop(key, None)
        inputs = [(leaf, d) for leaf, d in zip(leaves, dims)]
        inputs += [(value, None) for value in captured]
        inputs += _stacked_weights(cells, graph.weights) if cells else \
            [(weight, None) for weight in graph.weights]
        outs = batch_graph(graph, inputs)
        if graph.updates:  # the trailing outputs: the Parameters' new values
            n_results = len(outs) - len(graph.updates)
            _write_back(graph, outs[n_results:], leaves, dims, size, loc)
            outs = outs[:n_results]
        axes = self._out_axes(graph, outs, loc)
        return unflatten(graph.out_tree, [dense(e)[0] if a is None else move_batch(e, size, a)
                                          for e, a in zip(outs, axes)])

    def _out_axes(self, graph: Graph, outs: list, loc) -> list[int]:
        tree = graph.out_tree
        out_axes = self.out_axes
        if isinstance(out_axes, (tuple, list)) and tree.kind not in ("tuple", "list") \
                and len(out_axes) == 1:
            out_axes = out_axes[0]  # as MindSpore: (axis,) for a function of one output
        if isinstance(out_axes, (tuple, list)):
            cell_list = getattr(sys.modules.get("cellgraph.nn"), "CellList", ())
            if all(axis is None for axis in _axes_leaves(out_axes)) and \
                    not isinstance(self.fn, cell_list):
                raise TransformArgumentError(f"The 'out_axes' of 'vmap' cannot be all None while "
                                             f"'fn' is not a 'CellList', but got {out_axes}.",
                                             loc)
            if tree.kind not in ("tuple", "list") or len(tree.children) != len(out_axes):
                n = len(tree.children) if tree.kind in ("tuple", "list") else 1
                raise TransformArgumentError(
                    f"The size of vmap's 'out_axes' should be equal to the number of results of "
                    f"'fn': {n}, but got size: {len(out_axes)}.", loc)
            for child, axis in zip(tree.children, out_axes):
                # a number the function returns is a scalar: batched, of rank 1
                if count_leaves(child) == 0 and isinstance(axis, int) and not -1 <= axis < 1:
                    raise _out_of_bounds(axis, 1, "out_axes", loc)
            per_leaf = [a for child, a in zip(tree.children, out_axes)
                        for _ in range(count_leaves(child))]
        else:
            per_leaf = [out_axes] * len(outs)
        axes = []
        for i, (entry, axis) in enumerate(zip(outs, per_leaf)):
            if axis is None:
                if dense(entry)[1] is not None:
                    raise TransformArgumentError("It is invalid that source is not None and dst "
                                                 "is None.", loc)
                axes.append(None)  # an output that does not depend on the mapped axis
                continue
            if isinstance(axis, (tuple, list)):
                raise ArgumentError(f"vmap: out_axes must give an int or None for every "
                                    f"output, got {axis!r} for output {i}", loc)
            rank = len(_example_shape(entry)) + 1
            if not -rank <= axis < rank:
                raise _out_of_bounds(axis, rank, "out_axes", loc)
            axes.append(axis % rank)
        return axes


def _ensemble_cells(fn, loc) -> list | None:
    """The cells of a CellList given to vmap (model ensembling: the cells, alike in structure,
    run as one batch whose i-th member uses the i-th cell's parameters), else None."""
    # no CellList exists while cellgraph.nn, which sits above vmap, is not loaded
    cell_list = getattr(sys.modules.get("cellgraph.nn"), "CellList", None)
    if cell_list is None or not isinstance(fn, cell_list):
        return None
    cells = list(fn)
    if len(cells) <= 1:
        raise TransformArgumentError(
            f"In the model ensembling parallel training scenario ('VmapOperation' arg0 is a "
            f"'CellList'), the size of 'CellList' must be greater than 1, but got {len(cells)}.",
            loc)
    if len({_input_count(cell) for cell in cells}) > 1:
        raise TransformArgumentError("'VmapOperation' arg0 is a CellList, whose elements's "
                                     "inputs should be consistent.", loc)
    return cells


def _input_count(cell) -> int:
    return len(inspect.signature(cell.construct).parameters)


def _check_ensemble_parameters(cells: list, loc) -> None:
    """The cells of an ensemble hold Parameters of one count, and (as the first cell's graph
    runs for every member) of one class and one layout."""
    counts = [len(list(cell.get_parameters())) for cell in cells]
    for count in counts[1:]:
        if count != counts[0]:
            raise ShapeError(f"Parameter size of each cell should be consistent, but get "
                             f"{counts[0]} and {count}.", loc)
    first = [(tuple(p.shape), p.dtype) for p in cells[0].get_parameters()]
    for i, cell in enumerate(cells[1:], 1):
        layout = [(tuple(p.shape), p.dtype) for p in cell.get_parameters()]
        if type(cell) is not type(cells[0]) or layout != first:
            raise ArgumentError(f"vmap: the cells of a CellList must have one structure (the "
                                f"same class and parameter shapes), but cell {i} "
                                f"({type(cell).__name__}) differs from cell 0 "
                                f"({type(cells[0]).__name__})", loc)


def _stacked_weights(cells: list, weights) -> list:
    """(value, batch axis) for each weight the first cell's graph reads: a Parameter of that
    cell becomes the stack of the matching Parameter of every cell, batched along axis 0; any
    other Parameter is shared."""
    per_cell = [list(cell.get_parameters()) for cell in cells]
    position = {id(p): i for i, p in enumerate(per_cell[0])}
    inputs = []
    for weight in weights:
        i = position.get(id(weight))
        if i is None:
            inputs.append((weight, None))
        else:
            inputs.append((A.stack(*[params[i] for params in per_cell], axis=0), 0))
    return inputs


# id of each example input a vmapped function is being traced with -> its source axis, while
# the trace runs (the examples stay alive until then)
_TRACED_AXES: dict[int, int] = {}


def traced_source_axis(value) -> int | None:
    """The source axis of the vmap input `value` stands for while a vmapped function is being
    traced (None for anything else): MindSpore's Apply* and Scatter* updates check it."""
    if not _TRACED_AXES:
        return None
    if isinstance(value, ParameterArgument):  # inside the trace, the example it stands for
        value = next((key for key, arg in value.builder.param_args.items() if arg is value),
                     None)
        return _TRACED_AXES.get(value)
    return _TRACED_AXES.get(id(value))


def _example_of(x, dim: int):
    """A stand-in for one example of `x` to trace with: the right shape and dtype, no data (of
    a Parameter, a Parameter of that name, which the traced function may update in place)."""
    aval = abstract_of(x)
    shape = aval.shape[:dim] + aval.shape[dim + 1:]
    example = np.lib.stride_tricks.as_strided(np.zeros(1, aval.dtype.np), shape,
                                              (0,) * len(shape))
    if is_parameter(x):
        return Parameter(Tensor(example, aval.dtype), x.name, x.requires_grad)
    return example


def _write_back(graph: Graph, new_values: list, leaves: list, dims: list, size: int,
                loc) -> None:
    """Record the update of each Parameter, input Tensor or attribute the function assigned,
    with its batch where MindSpore's in-place rules put it: a mapped argument takes the whole
    batch along its own source axis (the axis its examples lie on); an unmapped one (a Cell's
    own Parameter, an argument with no axis) takes a value that no mapped input reaches, else
    the order of the batch's writes would decide it (MindSpore's ValueError)."""
    builder = current_builder()
    for slot, entry in zip(graph.updates, new_values):
        param = update_target(slot, leaves)
        dim = dims[slot.index] if isinstance(slot, ArgumentSlot) else None
        value, value_dim = dense(entry)
        if dim is None and value_dim is not None:
            if isinstance(slot, ArgumentSlot):
                raise ArgumentValueError(
                    f"vmap: the source axis of Parameter '{slot.name}' is None, but the "
                    f"function assigns it a value that depends on mapped inputs; the execution "
                    f"order of its updates cannot be guaranteed, so map it along axis 0", loc)
            raise ArgumentValueError(
                "The source axis of `variable` is None, but the source axis of `value` is not "
                "None. The execution order of operator `Assign` cannot be guaranteed.", loc)
        builder.record_update(param, value if dim is None else move_batch(entry, size, dim))


def _example_shape(entry) -> tuple:
    if isinstance(entry, Basis):
        return entry.shape
    value, dim = entry
    shape = abstract_of(value).shape
    return shape if dim is None else shape[:dim] + shape[dim + 1:]


def vmap(fn, in_axes=0, out_axes=0):
    """Vectorise `fn` over the axes `in_axes` of its inputs; results stacked along `out_axes`."""
    return VmapFunction(fn, in_axes, out_axes)


# ----- Jacobians -------------------------------------------------------------------------------

def _reshape(x, shape):
    return x if abstract_of(x).shape == tuple(shape) else A.reshape(x, shape=tuple(shape))


def _only_outputs(graph: Graph, indices) -> Graph:
    """A view of `graph` that returns only the outputs at `indices`."""
    return Graph(graph.name, graph.params, graph.nodes, [graph.outputs[i] for i in indices],
                 graph.loc)


def jacobian_rows(graph: Graph, inputs: list, wrt: list[int], out: int) -> list:
    """d out / d inputs[w] for each w in `wrt`, by reverse mode: the VJP of `graph` batched over
    the standard basis of output `out`. Each result has shape out.shape + input.shape."""
    target = _only_outputs(graph, [out])
    out_aval = target.outputs[0].aval
    n = len(inputs)

    def vjp_rows(*values):
        return vjp(target, list(values[:n]), tuple(wrt), [values[n]])[1]

    avals = [abstract_of(x).strong() for x in inputs] + [out_aval]
    vjp_graph, captured = build_graph(f"{graph.name}_vjp", vjp_rows, avals)
    assert not captured
    basis = Basis(out_aval.shape, 1, out_aval.dtype)
    entries = batch_graph(vjp_graph, [(x, None) for x in inputs] + [basis])
    return [_reshape(move_batch(e, basis.size, 0), out_aval.shape + abstract_of(inputs[w]).shape)
            for w, e in zip(wrt, entries)]


def jacobian_columns(graph: Graph, inputs: list, w: int, outs: list[int]) -> list:
    """d outputs[o] / d inputs[w] for each o in `outs`, by forward mode: the JVP (the VJP of the
    VJP) batched over the standard basis of input `w`. Shapes: out.shape + input.shape."""
    target = _only_outputs(graph, outs)
    out_avals = target.out_avals()
    in_aval = abstract_of(inputs[w]).strong()
    avals = [abstract_of(x).strong() for x in inputs]
    n = len(inputs)

    def cotangent_map(*values):  # (primals..., cotangents...) -> J^T cotangents, linear in them
        return vjp(target, list(values[:n]), (w,), list(values[n:]))[1]

    linear, captured = build_graph(f"{graph.name}_vjp", cotangent_map, avals + out_avals)
    assert not captured

    def tangents(*values):  # (primals..., v) -> J v for every output
        if any(None in a.shape for a in out_avals):
            # an output joined from branches of different lengths: its (unread) cotangent
            # point is zeros of its run-time shape, from the forward pass the optimiser merges
            forward = inline(target, list(values[:n]))
            zeros = [A.zeros_like(v) if None in a.shape else zero_of(a)
                     for v, a in zip(forward, out_avals)]
        else:
            zeros = [zero_of(a) for a in out_avals]
        at = list(values[:n]) + zeros
        return vjp(linear, at, tuple(range(n, n + len(out_avals))), [values[n]])[1]

    jvp_graph, captured = build_graph(f"{graph.name}_jvp", tangents, avals + [in_aval])
    assert not captured
    basis = Basis(in_aval.shape, 1, in_aval.dtype)
    entries = batch_graph(jvp_graph, [(x, None) for x in inputs] + [basis])
    return [_reshape(move_batch(e, basis.size, len(a.shape)), a.shape + in_aval.shape)
            for a, e in zip(out_avals, entries)]


class JacobianFunction(Transform):
    """The function `jacrev(fn, ...)` or `jacfwd(fn, ...)` returns."""

    def __init__(self, fn, grad_position, has_aux, api: str):
        super().__init__(fn, api)
        if not isinstance(has_aux, bool):
            raise DTypeError(f"{api}: `has_aux` must be a bool, got {has_aux!r}", user_loc())
        self.positions = normalize_positions(grad_position, api)
        if self.positions is None:
            raise GradValueError(f"{api}: `grad_position` must be an int or a tuple of ints, "
                                 f"got None", user_loc())
        self.has_aux = has_aux
        self.single = isinstance(grad_position, numbers.Integral)

    def cache_key(self):
        return (self.api, self.positions, self.has_aux, self.single)

    def _check_positions(self, args, loc) -> None:
        for p in self.positions:
            if p >= len(args):
                raise GradPositionError(f"{self.api}: grad_position {p} is out of range for a "
                                        f"call with {len(args)} inputs", loc)
            leaves, _ = flatten(args[p], is_tensor_like)
            if not leaves:
                raise DTypeError(f"{self.api}: the input at grad_position {p} must be a Tensor, "
                                 f"got {type(args[p]).__name__} {args[p]!r:.40}", loc)
            for leaf in leaves:
                dtype = abstract_of(leaf).dtype
                if not dtype.is_float:
                    raise DTypeError(f"{self.api}: expected a floating-point Tensor at "
                                     f"grad_position {p}, got {dtype}", loc)

    def emit(self, *args):
        """Emit the Jacobian of fn at `args` into the current builder."""
        loc = _graph_loc(self)
        self._check_positions(args, loc)
        graph, captured, leaves, in_tree = parse(self.fn, args, graph_name(self.fn))
        _no_updates(graph, self.api, loc)
        graph = expand_grad(graph)
        inputs = list(leaves) + list(captured) + list(graph.weights)
        out_tree, outs = self._differentiated_outputs(graph, loc)
        ranges = leaf_ranges(in_tree)
        wrt = [w for p in self.positions for w in range(*ranges[p])]
        jac = {}
        # the Jacobian is one matrix either way: where an output's size is known only when the
        # graph runs (branches of different lengths), rows cannot be enumerated; columns can
        dynamic = any(None in graph.outputs[o].aval.shape for o in outs)
        if self.api == "jacrev" and not dynamic:
            for o in outs:
                for w, block in zip(wrt, jacobian_rows(graph, inputs, wrt, o)):
                    jac[o, w] = block
        else:
            for w in wrt:
                for o, block in zip(outs, jacobian_columns(graph, inputs, w, outs)):
                    jac[o, w] = block
        per_output = []
        for o in outs:
            per_position = [unflatten(flatten(args[p], is_tensor_like)[1],
                                      [jac[o, w] for w in range(*ranges[p])])
                            for p in self.positions]
            per_output.append(per_position[0] if self.single else tuple(per_position))
        result = unflatten(out_tree, per_output)
        if not self.has_aux:
            return result
        aux = unflatten(graph.out_tree, inline(graph, inputs))[1:]
        return result, aux[0] if len(aux) == 1 else tuple(aux)

    def _differentiated_outputs(self, graph: Graph, loc):
        """The structure and indices of the outputs to differentiate (the first with has_aux)."""
        tree = graph.out_tree
        outs = list(range(len(graph.outputs)))
        if self.has_aux:
            if tree.kind not in ("tuple", "list") or len(tree.children) < 2:
                raise GradValueError(f"{self.api}: has_aux=True needs `fn` to return a tuple of "
                                     f"at least two outputs (the value, then the aux data)", loc)
            tree, outs = tree.children[0], outs[:count_leaves(tree.children[0])]
        for o in outs:
            dtype = graph.outputs[o].aval.dtype
            if not dtype.is_float:
                raise DTypeError(f"{self.api}: expected `fn` to return floating-point Tensors, "
                                 f"got {dtype} for output {o}", loc)
        return tree, outs


def jacrev(fn, grad_position=0, has_aux=False):
    """The Jacobian of `fn` w.r.t. the inputs at `grad_position`, by batched reverse mode."""
    return JacobianFunction(fn, grad_position, has_aux, "jacrev")


def jacfwd(fn, grad_position=0, has_aux=False):
    """The Jacobian of `fn` w.r.t. the inputs at `grad_position`, by batched forward mode."""
    return JacobianFunction(fn, grad_position, has_aux, "jacfwd")


def hessian(fn, grad_position=0, has_aux=False):
    """Second derivatives of a scalar `fn`: jacfwd(jacrev(fn)), shape in.shape + in.shape."""
    return jacfwd(jacrev(fn, grad_position, has_aux), grad_position, has_aux)
