"""The gradient APIs: GradOperation (1.x), grad / value_and_grad / get_grad (2.x).

Called inside a graph, each emits a `grad` node over the graph of the function it
differentiates (expanded later by the AD pass); called from Python, it compiles a small graph
that does the same and runs it, cached per input signature.
"""
from __future__ import annotations

import copy
import functools
import inspect
import numbers

from cellgraph.compiler.autodiff import emit_grad
from cellgraph.compiler.builder import (
    current_builder,
    describe_value,
    is_constant_argument,
    is_tensor_like,
    update_target,
)
from cellgraph.compiler.custom import custom_vjp_call
from cellgraph.compiler.dynamic_sequence import RuntimeSequence
from cellgraph.compiler.pipeline import graph_name, parse
from cellgraph.compiler.pytree import count_leaves, flatten, sparse_parts, unflatten
from cellgraph.compiler.scope import is_jit_class
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of, shapes_agree
from cellgraph.primitives.errors import (
    ArgumentError,
    DTypeError,
    GradPositionError,
    GradRequestError,
    GradValueError,
)
from cellgraph.runtime.tensor import Parameter

from .transform import (
    Transform,
    leaf_ranges,
    normalize_positions,
    normalize_weights,
    user_loc,
)


def _check_bool(name: str, value, api: str = "GradOperation") -> bool:
    if not isinstance(value, bool):  # MindSpore's sentence, which programs match on, first
        raise DTypeError(f"For '{api}', the '{name}' should be bool, but got "
                         f"{type(value).__name__} {value!r}", user_loc())
    return value


def _check_differentiable(fn, api: str) -> None:
    """A jit_class instance is callable but, as in MindSpore, not something to differentiate:
    its `__call__` may assign its attributes, which a gradient cannot see through."""
    if is_jit_class(type(fn)):
        raise DTypeError(f"For '{api}', the first argument must be a 'Function' or 'Cell' type "
                         f"object, but got object with jit_class type "
                         f"'{type(fn).__name__}'.", user_loc())


_NO_FUNCTION = object()  # GradOperation called without the function to differentiate


class GradFunction(Transform):
    """The function `grad(fn, ...)` returns.

    `single`: grad_position named one input (an int, or a tuple of one, as MindSpore reads
    it), so that input's gradient comes back bare;
    `single_weight`: weights was one Parameter, so its gradient comes back bare.
    """

    records_gradient = True

    def __init__(self, fn, positions, weights, sens_param=False, has_aux=False,
                 return_ids=False, single=False, with_value=False, api="grad",
                 single_weight=False):
        super().__init__(fn, api)
        _check_differentiable(fn, api)
        self.positions, self.weights = positions, weights
        self.sens_param, self.has_aux, self.return_ids = sens_param, has_aux, return_ids
        self.single, self.with_value = single, with_value
        self.single_weight = single_weight
        self.__name__ = f"grad_{graph_name(fn)}"

    def cache_key(self):
        return (self.positions, tuple(id(w) for w in self.weights or ()), self.weights is None,
                self.sens_param, self.has_aux, self.return_ids, self.single, self.with_value,
                self.single_weight)

    def check_call(self, args):
        self._split_sens(args)  # argument errors before compiling

    def __call__(self, *args, **kwargs):
        """Keyword arguments go to `fn` as they are and are not differentiated (as in
        MindSpore's grad; GradOperation with get_all differentiates them, below): the gradient
        is that of `functools.partial(fn, **kwargs)`."""
        if not kwargs:
            return super().__call__(*args)
        bound = copy.copy(self)
        bound.fn = bound.__wrapped__ = functools.partial(self.fn, **kwargs)
        return Transform.__call__(bound, *args)

    # -- the graph ------------------------------------------------------------------------------
    def emit(self, *args):
        """Emit the grad node for `fn(*args)` into the current builder and shape the result."""
        args, sens, positions = self._split_sens(args)
        graph, captured, leaves, in_tree = parse(self.fn, args, graph_name(self.fn))
        n_explicit = len(leaves)
        ranges = leaf_ranges(in_tree)
        wrt, slots = [], []
        for pos in positions or ():
            start, stop = ranges[pos]
            slots.append((pos, len(wrt), stop - start))
            wrt.extend(range(start, stop))
        weight_slots = []
        for w in self.weights or ():
            index = _weight_input(graph, leaves, w)
            weight_slots.append(None if index is None else len(wrt))
            if index is not None:
                wrt.append(index)
        inputs = list(leaves) + list(captured) + list(graph.weights)
        outs, grads = emit_grad(graph, inputs, tuple(wrt), self._sens(graph, sens))
        assert n_explicit + len(captured) + len(graph.weights) == len(graph.params)
        if graph.updates:  # Parameters that fn assigned: the enclosing graph takes the updates
            n_results = len(outs) - len(graph.updates)
            for param, value in zip(graph.updates, outs[n_results:]):
                current_builder().record_update(update_target(param, leaves), value)
            outs = outs[:n_results]
        return self._result(graph, outs, grads, slots, weight_slots, args, positions)

    def _split_sens(self, args):
        """(inputs, sens or None, the positions to differentiate) for a call with `args`."""
        args, sens = tuple(args), None
        if self.sens_param:
            if not args:
                raise ArgumentError(f"{self.api}: sens_param=True needs the sens value as the "
                                    f"last argument, got a call without arguments",
                                    self.loc())
            args, sens = args[:-1], args[-1]
        positions = self._positions(args)
        for p in positions or ():
            if p >= len(args):
                raise GradPositionError(f"{self.api}: grad_position {p} is out of range for a "
                                        f"call with {len(args)} inputs", self.loc())
        return args, sens, positions

    def _positions(self, args):
        return self.positions

    def _sens(self, graph, sens):
        """The sens values, one per output, checked against the outputs' shapes."""
        if sens is not None:
            # a Python number is the sens of a scalar output (MindSpore's scalar graphs)
            flat, _ = flatten(sens, lambda v: is_tensor_like(v) or _is_number(v))
            n_results = len(graph.outputs) - len(graph.updates)
            tensors = [s for s in flat if not _is_number(s)]
            if len(flat) != n_results and len(tensors) == n_results:
                flat = tensors  # numbers for the outputs that are numbers: no gradient flows
            if len(flat) != n_results:
                raise ArgumentError(f"{self.api}: the sens value must match the output of "
                                    f"{graph_name(self.fn)}: {n_results} tensors "
                                    f"({', '.join(str(o.aval) for o in graph.outputs)}), got "
                                    f"{describe_value(sens)}", self.loc())
            for i, (s, o) in enumerate(zip(flat, graph.outputs)):
                if _is_number(s):
                    flat[i] = s = F.fill(o.aval.dtype, (), s)
                if abstract_of(s).shape == (1,) and o.aval.shape == ():
                    flat[i] = s = F.reshape(s, ())  # as MindSpore: a (1,) sens of a scalar
                if not shapes_agree(abstract_of(s).shape, o.aval.shape):
                    raise ArgumentError(f"{self.api}: sens {i} has shape "
                                        f"{abstract_of(s).shape}, but output {i} of "
                                        f"{graph_name(self.fn)} has shape {o.aval.shape}",
                                        self.loc())
            # the values written back carry no sensitivity
            return flat + [F.fill(o.aval.dtype, o.aval.shape, 0)
                           for o in graph.outputs[n_results:]]
        if self.has_aux:
            tree = graph.out_tree
            if tree.kind not in ("tuple", "list") or len(tree.children) < 2:
                raise GradValueError(f"{self.api}: has_aux=True needs `fn` to return a tuple of "
                                     f"at least two outputs, got {_describe_tree(graph)}",
                                     self.loc())
            n_first = count_leaves(tree.children[0])
            return [F.fill(o.aval.dtype, o.aval.shape, 1 if i < n_first else 0)
                    for i, o in enumerate(graph.outputs)]
        if graph.updates:
            # the values written back (to Parameters, attributes, inputs an in-place operation
            # updated) carry no sensitivity: a read of an assigned Parameter differentiates
            # into the Parameter, the write-back does not
            n_results = len(graph.outputs) - len(graph.updates)
            return [F.fill(o.aval.dtype, o.aval.shape, 1 if i < n_results else 0)
                    for i, o in enumerate(graph.outputs)]
        return None

    def _result(self, graph, outs, grads, slots, weight_slots, args, positions):
        input_grads, constants = [], False
        for pos, start, count in slots:
            if not (is_tensor_like(args[pos]) or getattr(args[pos], "__ms_mutable__", False)
                    or sparse_parts(args[pos]) is not None
                    or getattr(args[pos], "runtime_sequence", None) is not None):
                continue  # as MindSpore's: only Tensor inputs, sparse tensors and mutable
                # tuples, lists (dynamic-length ones too) and dicts get a gradient (not numbers, nor other tuples, lists
                # or dicts, even of Tensors); a mutable one's and a sparse one's has its
                # structure (a sparse tensor's indices get zeros)
            if is_constant_argument(args[pos]):
                constants = True  # a `const_arg` Tensor is a constant: it has no gradient
                continue
            sequence = getattr(args[pos], "runtime_sequence", None)
            if sequence is not None and sequence.data is not None:
                # a dynamic-length sequence's: MindSpore's is a list, whichever its kind
                value = RuntimeSequence(list, sequence.element, grads[start])
            else:
                _, sub_tree = flatten(args[pos], is_tensor_like)
                value = unflatten(sub_tree, grads[start:start + count])
            input_grads.append((pos, value) if self.return_ids else value)
        weight_grads = []
        for w, slot in zip(self.weights or (), weight_slots):
            g = grads[slot] if slot is not None else F.zeros_like(w)
            weight_grads.append((w.name, g) if self.return_ids else g)
        weights_result = (weight_grads[0] if self.single_weight and len(weight_grads) == 1
                          else tuple(weight_grads))
        if positions is None:
            result = weights_result
        elif len(input_grads) == 1 and (self.single or constants and not getattr(
                self, "all_inputs", False)):
            # (grad: the one gradient left once constant inputs are dropped comes back bare)
            result = input_grads[0]
        else:
            result = tuple(input_grads)
        if self.weights is not None and positions is not None:
            result = (result, weights_result)
        value = unflatten(graph.out_tree, outs)
        if self.with_value:
            return value, result
        if self.has_aux:
            return result, tuple(value[1:])
        return result


def _is_number(value) -> bool:
    """A Python number (bools too: the sens of a bool output, as MindSpore's scalar graphs
    take it)."""
    return isinstance(value, numbers.Number)


def _weight_input(graph, leaves, weight):
    """The input of `graph` that the Parameter `weight` is bound to: one of its weights, or
    the argument it was passed as (then its gradient is that argument's); None when the
    function never reads it (its gradient is zero)."""
    first_weight = len(graph.params) - len(graph.weights)
    for i, w in enumerate(graph.weights):
        if w is weight:
            return first_weight + i
    argument = current_builder().as_argument(weight)
    return next((i for i, leaf in enumerate(leaves) if leaf is argument), None)


def _describe_tree(graph) -> str:
    tree = graph.out_tree
    if tree.kind in ("tuple", "list"):
        return f"a {tree.kind} of {len(tree.children)}"
    return "a single Tensor" if tree.kind == "leaf" else f"{tree.static!r:.40}"


class GradOperation:
    """`GradOperation(get_all=False, get_by_list=False, sens_param=False)(fn[, weights])`.

    The gradient function returns the first input's gradient; with get_all, a tuple over every
    input; with get_by_list, the gradients of `weights` (bare for one Parameter, else a tuple);
    with both, (inputs' gradients, weights' gradients).
    """

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        self.get_all = _check_bool("get_all", get_all)
        self.get_by_list = _check_bool("get_by_list", get_by_list)
        self.sens_param = _check_bool("sens_param", sens_param)

    def __call__(self, fn=_NO_FUNCTION, weights=None):
        if fn is _NO_FUNCTION:
            raise ArgumentError("'GradOperation' requires a forward network or function as an "
                                "input, while the input is empty. Call it as "
                                "GradOperation(...)(net) or (net, weights)", user_loc())
        single_weight = False
        if self.get_by_list:
            single_weight = isinstance(weights, Parameter)
            weights = normalize_weights(weights, "GradOperation") or ()
        else:
            weights = None
        positions = None if self.get_by_list and not self.get_all else (0,)
        return _OperationGrad(fn, positions, weights, self.sens_param, self.get_all,
                              single_weight)


class _OperationGrad(GradFunction):
    """GradOperation's gradient function: `get_all` means every input, known only at call
    time; without it, the first input, and () for a call without inputs."""

    def __init__(self, fn, positions, weights, sens_param, all_inputs, single_weight):
        self.all_inputs = all_inputs
        super().__init__(fn, positions, weights, sens_param, single=not all_inputs,
                         api="GradOperation", single_weight=single_weight)

    def __call__(self, *args, **kwargs):
        """Keyword inputs are inputs too, after the positional ones, in the order given
        (MindSpore's GradOperation): get_all differentiates them all, and without it the first
        input is the first keyword one when the call has no positional input. With
        sens_param, a keyword `sens` is the sensitivity (else the last positional input)."""
        if self.sens_param and "sens" in kwargs:  # MindSpore takes the sensitivity by name
            kwargs = dict(kwargs)
            args = (*args, kwargs.pop("sens"))
        if not (kwargs and self.positions is not None):
            return super().__call__(*args, **kwargs)
        sens = args[-1:] if self.sens_param and args else ()
        inputs = args[:len(args) - len(sens)]
        fn, names, n_positional = self.fn, tuple(kwargs), len(inputs)

        def with_keywords(*values):
            return fn(*values[:n_positional], **dict(zip(names, values[n_positional:])))

        bound = copy.copy(self)
        with_keywords.__name__ = with_keywords.__qualname__ = graph_name(fn)
        bound.fn = bound.__wrapped__ = with_keywords
        return Transform.__call__(bound, *inputs, *kwargs.values(), *sens)

    def _positions(self, args):
        if self.positions is None:
            return None
        if self.all_inputs:
            return tuple(range(len(args)))
        return (0,) if args else ()

    def cache_key(self):
        return super().cache_key() + (self.all_inputs,)


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """Gradient of `fn` w.r.t. the inputs at `grad_position` and/or `weights`."""
    positions = normalize_positions(grad_position, "grad")
    single_weight = isinstance(weights, Parameter)
    weights = normalize_weights(weights, "grad")
    if positions is None and weights is None:
        raise GradValueError("grad: `grad_position` and `weights` cannot both be None; say "
                             "which inputs or Parameters to differentiate", user_loc())
    for name, flag in (("has_aux", has_aux), ("return_ids", return_ids),
                       ("sens_param", sens_param)):
        _check_bool(name, flag, "grad")
    # as MindSpore's: when one input's gradient comes back (one position, or the others
    # numbers, tuples or lists), it comes back bare
    return GradFunction(fn, positions, weights, sens_param, has_aux, return_ids, single=True,
                        single_weight=single_weight)


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False,
                   sens_param=False):
    """Like grad, returning (fn's output, gradients); with has_aux the output is whole (the
    auxiliary outputs are in it) and only its first element is differentiated; with
    sens_param the last argument of a call is the sensitivity of the output (not given to
    fn)."""
    g = grad(fn, grad_position, weights, has_aux, return_ids, sens_param)
    g.with_value = True
    return g


def get_grad(gradients, identifier):
    """Find one gradient in the output of grad(..., return_ids=True) by position or Parameter."""
    if isinstance(identifier, Parameter):
        key = identifier.name
    elif isinstance(identifier, int) and not isinstance(identifier, bool):
        key = identifier
    else:
        raise DTypeError(f"get_grad: `identifier` must be an input position (int) or a "
                         f"Parameter, got {type(identifier).__name__} {identifier!r:.60}",
                         user_loc())

    def search(item):
        if not isinstance(item, tuple):
            return None
        if len(item) == 2 and type(item[0]) is type(key) and item[0] == key:
            return item[1]
        for sub in item:
            found = search(sub)
            if found is not None:
                return found
        return None

    found = search(gradients)
    if found is None:
        raise GradRequestError(f"get_grad: can not find the gradient for position or Parameter "
                               f"{identifier!r} in the given gradients; pass the output of "
                               f"grad(..., return_ids=True)", user_loc())
    return found


def custom_bprop_call(cell, args, kwargs):
    """A Cell that defines `bprop`, called inside a graph: a custom_vjp node."""
    _check_bprop_arity(cell, len(args) + len(kwargs or {}))
    return custom_vjp_call(cell, args, kwargs)


def _check_bprop_arity(cell, n_inputs: int) -> None:
    """bprop takes construct's inputs, then `out` and `dout`; MindSpore's wording first."""
    try:
        params = list(inspect.signature(type(cell).bprop).parameters.values())[1:]
    except (TypeError, ValueError):
        return
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return
    names = ", ".join(p.name for p in params)
    where = f"{type(cell).__name__}.bprop({names})"
    if len(params) < 2:
        raise ArgumentError(f"The function 'bprop' of Primitive or Cell requires at least 2 "
                            f"params 'out' and 'dout', but got only {len(params)}: {where}",
                            user_loc())
    if len(params) != n_inputs + 2:
        raise ArgumentError(f"The params of function 'bprop' of Primitive or Cell requires the "
                            f"forward inputs as well as the 'out' and 'dout'. Expected "
                            f"{n_inputs + 2} params (construct's {n_inputs} inputs, out, "
                            f"dout), got {len(params)}: {where}", user_loc())
