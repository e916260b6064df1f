"""The gradient APIs: GradOperation (1.x), grad / value_and_grad / get_grad (2.x).

Called inside a graph, each emits a `grad` node over the graph of the function it
differentiates (expanded later by the AD pass); called from Python, it compiles a small graph
that does the same and runs it, cached per input signature.
"""
from __future__ import annotations

import numbers

from cellgraph.compiler.autodiff import emit_grad
from cellgraph.compiler.builder import current_builder, is_tensor_like
from cellgraph.compiler.pipeline import graph_name, parse
from cellgraph.compiler.pytree import Tree, count_leaves, flatten, unflatten
from cellgraph.ops import functional as F
from cellgraph.ops.core import abstract_of
from cellgraph.ops.errors import ArgumentError, DTypeError, GradValueError
from cellgraph.runtime.executor import GraphCache, run_cached
from cellgraph.runtime.tensor import Parameter, ParameterTuple

_CACHES: dict = {}


def _check_bool(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise DTypeError(f"GradOperation: `{name}` must be a bool, got "
                         f"{type(value).__name__} {value!r}")
    return value


def _normalize_weights(weights, api: str) -> tuple | None:
    if weights is None:
        return None
    if isinstance(weights, Parameter):
        return (weights,)
    if isinstance(weights, (list, tuple, ParameterTuple)):
        for w in weights:
            if not isinstance(w, Parameter):
                raise DTypeError(f"{api}: `weights` must hold Parameters, got "
                                 f"{type(w).__name__}")
        return tuple(weights)
    raise DTypeError(f"{api}: `weights` must be a Parameter, a list or tuple of Parameters or "
                     f"a ParameterTuple, got {type(weights).__name__}")


def _normalize_positions(grad_position, api: str):
    if grad_position is None:
        return None
    if isinstance(grad_position, bool) or not isinstance(grad_position, (int, tuple, list)):
        raise DTypeError(f"{api}: `grad_position` must be an int, a tuple of ints or None, got "
                         f"{type(grad_position).__name__} {grad_position!r}")
    positions = (grad_position,) if isinstance(grad_position, int) else tuple(grad_position)
    if not positions:
        raise GradValueError(f"{api}: `grad_position` is an empty tuple; give at least one "
                             f"position")
    for p in positions:
        if isinstance(p, bool) or not isinstance(p, int):
            raise DTypeError(f"{api}: `grad_position` entries must be ints, got {p!r}")
        if p < 0:
            raise GradValueError(f"{api}: `grad_position` entries must be >= 0, got {p}")
    if len(set(positions)) != len(positions):
        raise GradValueError(f"{api}: `grad_position` {positions} repeats a position")
    return positions


class GradFunction:
    """The function `grad(fn, ...)` returns. `single` marks a bare-int grad_position."""

    def __init__(self, fn, positions, weights, sens_param=False, has_aux=False,
                 return_ids=False, single=False, with_value=False, api="grad"):
        if not callable(fn):
            raise DTypeError(f"{api}: `fn` must be a Cell or a function, got "
                             f"{type(fn).__name__}")
        self.fn, self.positions, self.weights = fn, positions, weights
        self.sens_param, self.has_aux, self.return_ids = sens_param, has_aux, return_ids
        self.single, self.with_value, self.api = single, with_value, api
        self.__name__ = f"grad_{graph_name(fn)}"
        self.__wrapped__ = fn  # for parameter names and locations in the IR

    def _key(self):
        return (id(self.fn), self.positions, tuple(id(w) for w in self.weights or ()),
                self.sens_param, self.has_aux, self.return_ids, self.single, self.with_value)

    def __call__(self, *args):
        if current_builder() is not None:
            return self.emit(*args)
        from cellgraph import context

        key = self._key()
        entry = _CACHES.get(key)
        if entry is None or entry[0] is not self.fn:
            entry = _CACHES[key] = (self.fn, GraphCache())
        return run_cached(entry[1], self, args, context.dump_dir(), self.__name__)

    # -- the graph ------------------------------------------------------------------------------
    def emit(self, *args):
        """Emit the grad node for `fn(*args)` into the current builder and shape the result."""
        args = tuple(args)
        sens = None
        if self.sens_param:
            if not args:
                raise ArgumentError(f"{self.api}: sens_param=True needs the sens value as the "
                                    f"last argument")
            args, sens = args[:-1], args[-1]
        self._check_positions(args)
        graph, captured, leaves, in_tree = parse(self.fn, args, graph_name(self.fn))
        n_explicit = len(leaves)
        leaf_ranges = _leaf_ranges(in_tree)
        wrt, slots = [], []
        for pos in self.positions or ():
            start, stop = leaf_ranges[pos]
            slots.append(("input", pos, len(wrt), stop - start))
            wrt.extend(range(start, stop))
        first_weight = len(graph.params) - len(graph.weights)
        weight_slots = []
        for w in self.weights or ():
            if any(w is gw for gw in graph.weights):
                index = first_weight + next(i for i, gw in enumerate(graph.weights) if gw is w)
                weight_slots.append(len(wrt))
                wrt.append(index)
            else:
                weight_slots.append(None)  # the function never reads it: its gradient is zero
        inputs = list(leaves) + list(captured) + list(graph.weights)
        outs, grads = emit_grad(graph, inputs, tuple(wrt), self._sens(graph, sens))
        assert n_explicit + len(captured) + len(graph.weights) == len(graph.params)
        if graph.updates:  # Parameters that fn assigned: the enclosing graph takes the updates
            n_results = len(outs) - len(graph.updates)
            for param, value in zip(graph.updates, outs[n_results:]):
                current_builder().record_update(param, value)
            outs = outs[:n_results]
        return self._result(graph, outs, grads, slots, weight_slots, args)

    def _check_positions(self, args):
        for p in self.positions or ():
            if p >= len(args):
                raise GradValueError(f"{self.api}: grad_position {p} is out of range for a "
                                     f"call with {len(args)} inputs")

    def _sens(self, graph, sens):
        if sens is not None:
            flat, _ = flatten(sens, is_tensor_like)
            n_results = len(graph.outputs) - len(graph.updates)
            if len(flat) != n_results:
                raise ArgumentError(f"{self.api}: the sens value must match the output: "
                                    f"{n_results} tensors, got {len(flat)}")
            # Parameter updates are stop_gradient values: their sens is never read
            return flat + [F.fill(o.aval.dtype, o.aval.shape, 0)
                           for o in graph.outputs[n_results:]]
        if self.has_aux:
            tree = graph.out_tree
            if tree.kind not in ("tuple", "list") or len(tree.children) < 2:
                raise GradValueError(f"{self.api}: has_aux=True needs `fn` to return a tuple of "
                                     f"at least two outputs")
            n_first = count_leaves(tree.children[0])
            return [F.fill(o.aval.dtype, o.aval.shape, 1 if i < n_first else 0)
                    for i, o in enumerate(graph.outputs)]
        return None

    def _result(self, graph, outs, grads, slots, weight_slots, args):
        input_grads = []
        for kind, pos, start, count in slots:
            if not is_tensor_like(args[pos]) and not isinstance(args[pos], (tuple, list)):
                continue  # Python numbers get no gradient
            _, sub_tree = flatten(args[pos], is_tensor_like)
            value = unflatten(sub_tree, grads[start:start + count])
            input_grads.append((pos, value) if self.return_ids else value)
        weight_grads = []
        for w, slot in zip(self.weights or (), weight_slots):
            g = grads[slot] if slot is not None else F.zeros_like(w)
            weight_grads.append((w.name, g) if self.return_ids else g)
        if self.positions is None:
            result = tuple(weight_grads)
        elif self.single and len(input_grads) == 1:
            result = input_grads[0]
        else:
            result = tuple(input_grads)
        if self.weights is not None and self.positions is not None:
            result = (result, tuple(weight_grads))
        value = unflatten(graph.out_tree, outs)
        if self.has_aux:
            aux = tuple(value[1:])
            if self.with_value:
                return (value[0], aux), result
            return result, aux
        if self.with_value:
            return value, result
        return result


def _leaf_ranges(in_tree: Tree) -> list[tuple[int, int]]:
    ranges, start = [], 0
    for child in in_tree.children:
        n = count_leaves(child) if child.kind != "static" else 0
        ranges.append((start, start + n))
        start += n
    return ranges


class GradOperation:
    """`GradOperation(get_all=False, get_by_list=False, sens_param=False)(fn[, weights])`."""

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        self.get_all = _check_bool("get_all", get_all)
        self.get_by_list = _check_bool("get_by_list", get_by_list)
        self.sens_param = _check_bool("sens_param", sens_param)

    def __call__(self, fn, weights=None):
        if self.get_by_list and weights is None:
            raise GradValueError("GradOperation(get_by_list=True) needs weights: "
                                 "grad_op(net, weights)")
        weights = _normalize_weights(weights, "GradOperation") if self.get_by_list else None
        positions = "all" if self.get_all else (0,)
        if self.get_by_list and not self.get_all:
            positions = None
        return _AllInputsGrad(fn, positions, weights, self.sens_param)


class _AllInputsGrad(GradFunction):
    """GradOperation's result: `get_all` means every input, known only at call time."""

    def __init__(self, fn, positions, weights, sens_param):
        self.all_inputs = positions == "all"
        super().__init__(fn, None if self.all_inputs else positions, weights, sens_param,
                         single=not self.all_inputs and positions is not None,
                         api="GradOperation")

    def emit(self, *args):
        if self.all_inputs:
            n = len(args) - (1 if self.sens_param else 0)
            self.positions = tuple(range(n))
        return super().emit(*args)

    def _key(self):
        return super()._key() + (self.all_inputs,)


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """Gradient of `fn` w.r.t. the inputs at `grad_position` and/or `weights`."""
    positions = _normalize_positions(grad_position, "grad")
    weights = _normalize_weights(weights, "grad")
    if positions is None and weights is None:
        raise GradValueError("grad: `grad_position` and `weights` cannot both be None; say "
                             "which inputs or Parameters to differentiate")
    for name, flag in (("has_aux", has_aux), ("return_ids", return_ids),
                       ("sens_param", sens_param)):
        if not isinstance(flag, bool):
            raise DTypeError(f"grad: `{name}` must be a bool, got {flag!r}")
    return GradFunction(fn, positions, weights, sens_param, has_aux, return_ids,
                        single=isinstance(grad_position, numbers.Integral))


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """Like grad, returning (fn's output, gradients)."""
    g = grad(fn, grad_position, weights, has_aux, return_ids)
    g.with_value = True
    return g


def get_grad(gradients, identifier):
    """Find one gradient in the output of grad(..., return_ids=True) by position or Parameter."""
    key = identifier.name if isinstance(identifier, Parameter) else identifier

    def search(item):
        if isinstance(item, tuple) and len(item) == 2 and not isinstance(item[0], tuple) and (
                item[0] == key if isinstance(key, (int, str)) else False):
            return item[1]
        if isinstance(item, tuple):
            for sub in item:
                found = search(sub)
                if found is not None:
                    return found
        return None

    found = search(gradients)
    if found is None:
        raise GradValueError(f"get_grad: no gradient for {identifier!r} in the given gradients")
    return found


def custom_bprop_call(cell, args, kwargs):
    from cellgraph.compiler.custom import custom_vjp_call

    return custom_vjp_call(cell, args)


def stop_gradient(x):
    return F.stop_gradient(x) if abstract_of(x) else x
