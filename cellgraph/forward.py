"""Forward mode (`jvp`) and the `vjp` APIs, in both MindSpore generations.

Design: forward mode by transposing reverse mode. For f at x the reverse map
g(u) = vjp_f(x)(u) = Jᵀu is linear in u, so the VJP of g with respect to u, taken with the
cotangent v at any u (we use u = 0), is (Jᵀ)ᵀv = J·v. Both steps are ordinary `grad` nodes:

    %u0 = fill() {value=0}                        # the dummy u: g's output does not need it
    %o, %jv = grad(%x, %u0, %z, %v) {graph=@vjp_f, wrt=(1,), has_sens=True}
    @vjp_f(%x, %u):  %y, %ju = grad(%x, %u) {graph=@f, wrt=(0,), has_sens=True}
                     return %y, %ju

We chose this over per-primitive tangent rules (a second rule table, for forward mode) because
* every primitive with a bprop rule gets forward mode at once, and so does every primitive added
  later: there is one table of derivative rules to keep right, not two;
* the result is made of grad nodes, so it composes with reverse mode (forward-over-reverse
  Hessian-vector products are `jvp(grad(f), x, v)`) and with itself (`jvp` of `jvp`), and the
  expansion pass handles nesting innermost first as for any grad;
* after expansion the optimiser removes the dummy u: the adjoint of g with respect to u reads
  only f's forward values (bprop rules are linear in `dout`), so the nodes computing Jᵀ0 are dead
  and the program left is f's forward pass plus one tangent per node, as true forward mode gives.
The cost is compile time (two reverse passes are traced), not run time.

API forms. `jvp(fn, inputs, v, has_aux=False)` is the same call in 1.x and 2.x. `vjp` differs:
1.x `vjp(fn, inputs, v) -> (out, cotangents)`, 2.x `vjp(fn, *inputs, weights=None,
has_aux=False) -> (out, vjp_fn[, aux])`. A call `vjp(fn, a, b)` with no keywords is read as 1.x
when `a` is a tuple/list of Tensors and `fn` can take `len(a)` positional inputs (or we cannot
tell, `fn(*args)`), or when `a` is a Tensor and `fn` takes exactly one positional input (then `b`
can only be the cotangent). Everything else is 2.x.

Called inside a graph, each API emits grad nodes into the graph being built; called from Python,
it compiles a small graph doing the same, cached per input signature, and runs it.
"""
from __future__ import annotations

import inspect

from cellgraph.compiler.autodiff import emit_grad, inline
from cellgraph.compiler.builder import Builder, Tracer, current_builder, update_target
from cellgraph.compiler.ir import Graph
from cellgraph.compiler.pipeline import graph_name, parse
from cellgraph.compiler.pytree import count_leaves, flatten, unflatten
from cellgraph.compiler.scope import is_cell
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import TensorType, fmt_shape
from cellgraph.primitives.errors import (
    ArgumentError,
    CompileError,
    DTypeError,
    GradValueError,
    ShapeError,
)
from cellgraph.runtime.tensor import Tensor

from .transform import Transform, caller_loc, normalize_weights

# ----- tracing the differentiated function -----------------------------------------------------

class _Traced:
    """`fn` traced on `inputs` (a tuple of Tensors): its graph, the values its parameters take
    in the current builder, and which outputs are differentiated (all, or the first if has_aux).
    """

    def __init__(self, transform: Transform, inputs: tuple, has_aux: bool,
                 updates: bool = False):
        fn = transform.fn
        graph, captured, leaves, _ = parse(fn, inputs, graph_name(fn))
        if graph.updates and not updates:
            # as vmap: the transformed maps have no place for Parameter updates (vjp's forward
            # pass, run once, does: `updates`)
            names = ", ".join(repr(p.name) for p in graph.updates)
            raise transform.error(CompileError, f"the function assigns Parameters ({names}); a "
                                  f"transformed function must be pure, so return the new "
                                  f"values instead")
        self.graph, self.leaves = graph, leaves
        self.n_results = len(graph.outputs) - len(graph.updates)
        self.operands = list(leaves) + list(captured) + list(graph.weights)
        self.n_inputs = len(leaves)
        self.first_weight = len(graph.params) - len(graph.weights)
        tree = graph.out_tree
        self.has_aux = has_aux
        if has_aux:
            if tree.kind not in ("tuple", "list") or len(tree.children) < 2:
                raise transform.error(GradValueError, f"has_aux=True needs `fn` to return a "
                                      f"tuple of at least two outputs, got {_describe(tree)}")
            self.primary_tree = tree.children[0]
            self.n_primary = count_leaves(tree.children[0])
        else:
            self.primary_tree, self.n_primary = tree, self.n_results

    @property
    def primary_avals(self) -> list[TensorType]:
        return [o.aval.strong() for o in self.graph.outputs[:self.n_primary]]

    def split(self, flat_outputs: list):
        """(differentiated output, aux or None) from the graph's flat outputs."""
        value = unflatten(self.graph.out_tree, flat_outputs[:self.n_results])
        if not self.has_aux:
            return value, None
        rest = tuple(value[1:])
        return value[0], rest[0] if len(rest) == 1 else rest

    def forward(self):
        """Run fn's graph in the current builder (its Parameter updates recorded there, so
        they happen once, as MindSpore's vjp merges the forward passes); returns (output,
        aux or None)."""
        flat = inline(self.graph, self.operands)
        builder = current_builder()
        for param, value in zip(self.graph.updates, flat[self.n_results:]):
            builder.record_update(update_target(param, self.leaves), value)
        return self.split(flat)

    def aux_zeros(self) -> list:
        return [_zeros(o.aval) for o in self.graph.outputs[self.n_primary:]]


def _describe(tree) -> str:
    if tree.kind == "leaf":
        return "one Tensor"
    if tree.kind == "static":
        return f"the constant {tree.static!r:.40}"
    return f"a {tree.kind} of {len(tree.children)}"


def _zeros(aval: TensorType):
    return F.fill(aval.dtype, aval.shape, 0)


def _is_tensor(x) -> bool:
    return isinstance(x, (Tensor, Tracer))


def _fmt(x) -> str:
    if _is_tensor(x):
        return f"a Tensor of shape {fmt_shape(x.shape)} and dtype {x.dtype}"
    return f"{type(x).__name__} {x!r:.60}"


def _as_inputs(transform: Transform, inputs, what: str = "inputs") -> tuple:
    """`inputs` as a non-empty tuple of Tensors (a single Tensor is a 1-tuple)."""
    items = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    if not items:
        raise transform.error(ArgumentError, f"`{what}` is empty; give at least one Tensor")
    for i, item in enumerate(items):
        if not _is_tensor(item):
            where = f"`{what}`" if len(items) == 1 else f"`{what}[{i}]`"
            raise transform.error(DTypeError, f"{where} must be a Tensor, got {_fmt(item)}")
    return items


def _check_like(transform: Transform, values: tuple, avals: list, what: str, of: str) -> list:
    """Check `values` (Tensors) against the shapes and dtypes they must have, one by one."""
    if len(values) != len(avals):
        raise transform.error(ArgumentError, f"expected {len(avals)} Tensors in `{what}`, one "
                              f"per {of}, got {len(values)}")
    for i, (value, aval) in enumerate(zip(values, avals)):
        name = f"`{what}`" if len(values) == 1 else f"`{what}[{i}]`"
        if not _is_tensor(value):
            raise transform.error(DTypeError, f"{name} must be a Tensor, got {_fmt(value)}")
        if tuple(value.shape) != tuple(aval.shape) or value.dtype != aval.dtype:
            raise transform.error(ShapeError, f"{name} must match the {of} it belongs to, a "
                                  f"Tensor of shape {fmt_shape(aval.shape)} and dtype "
                                  f"{aval.dtype}; got {_fmt(value)}")
    return list(values)


# ----- the two products, emitted into the current builder --------------------------------------

def _reverse_map_graph(traced: _Traced) -> Graph:
    """@vjp_f(params of f..., u...) -> (f's outputs..., Jᵀu for each explicit input...)."""
    graph = traced.graph
    builder = Builder(f"vjp_{graph.name}", graph.loc)
    with builder.active():
        xs = [builder.add_param(p.aval, p.hint) for p in graph.params]
        us = [builder.add_param(aval, "u") for aval in traced.primary_avals]
        sens = us + traced.aux_zeros()
        outs, cotangents = emit_grad(graph, xs, tuple(range(traced.n_inputs)), sens)
        reverse_graph, captured = builder.finish(tuple(outs) + tuple(cotangents))
    assert not captured, "the traced graph is closed"
    return reverse_graph


def emit_jvp(traced: _Traced, tangents: list) -> tuple[list, list]:
    """(f's flat outputs, J·v for the differentiated outputs) by transposing the reverse map."""
    reverse_graph = _reverse_map_graph(traced)
    n_params, n_out = len(traced.graph.params), len(traced.graph.outputs)
    avals = [o.aval for o in traced.graph.outputs]
    if any(None in aval.shape for aval in avals):
        # an output joined from branches of different lengths: zeros of its run-time shape,
        # from f's outputs (the optimiser merges this forward pass with the one in the grad)
        forward = inline(traced.graph, traced.operands)
        zeros = [F.zeros_like(v) if None in a.shape else _zeros(a) for v, a in zip(forward, avals)]
    else:
        zeros = [_zeros(aval) for aval in avals]
    dummy_u = zeros[:traced.n_primary]
    sens = zeros + list(tangents)
    wrt = tuple(range(n_params, n_params + traced.n_primary))
    outs, products = emit_grad(reverse_graph, traced.operands + dummy_u, wrt, sens)
    return outs[:n_out], products


def emit_vjp(traced: _Traced, cotangents: list, weights: tuple = ()) -> tuple[list, list, list]:
    """(f's flat outputs, vᵀJ per explicit input, vᵀJ per weight), one reverse pass."""
    graph = traced.graph
    wrt, weight_slots = list(range(traced.n_inputs)), []
    for w in weights:
        index = next((i for i, gw in enumerate(graph.weights) if gw is w), None)
        weight_slots.append(None if index is None else len(wrt))
        if index is not None:
            wrt.append(traced.first_weight + index)
    outs, grads = emit_grad(graph, traced.operands, tuple(wrt),
                            list(cotangents) + traced.aux_zeros())
    weight_grads = [grads[s] if s is not None else F.zeros_like(w)
                    for w, s in zip(weights, weight_slots)]
    return outs, grads[:traced.n_inputs], weight_grads


def _flat_like(transform: Transform, value, tree, what: str, of: str) -> tuple:
    """The leaves of `value`, which must have the structure `tree` of fn's output."""
    leaves, value_tree = flatten(value, _is_tensor)
    if tree.kind == "leaf" and isinstance(value, (tuple, list)) and len(value) == 1:
        leaves, value_tree = flatten(value[0], _is_tensor)
    if value_tree != _tensor_tree(tree):
        raise transform.error(ArgumentError, f"`{what}` must have the structure of the "
                              f"{of} ({_describe(tree)}), got {_describe(value_tree)}")
    return tuple(leaves)


def _tensor_tree(tree):
    """The tree of `tree`'s Tensor leaves, static entries dropped (they take no cotangent)."""
    from cellgraph.compiler.pytree import Tree

    if tree.kind in ("tuple", "list"):
        return Tree(tree.kind, tuple(_tensor_tree(c) for c in tree.children
                                     if c.kind != "static"))
    return tree


# ----- jvp -------------------------------------------------------------------------------------

class JvpFunction(Transform):
    """`(inputs, v) -> (fn(*inputs), J·v[, aux])`; the callable behind `jvp` and `nn.Jvp`."""

    api = "jvp"

    def __init__(self, fn, has_aux: bool = False):
        super().__init__(fn)
        self.has_aux = _check_flag(self, "has_aux", has_aux)

    def cache_key(self):
        return (self.has_aux,)

    def emit(self, inputs, v):
        xs = _as_inputs(self, inputs)
        single = not isinstance(inputs, (tuple, list))
        if single and isinstance(v, (tuple, list)) and len(v) == 1:
            v = v[0]
        if single != (not isinstance(v, (tuple, list))):
            raise self.error(ArgumentError, f"`v` must have the structure of `inputs` "
                             f"({'one Tensor' if single else f'a tuple of {len(xs)}'}), "
                             f"got {_fmt_struct(v)}")
        tangents = _check_like(self, (v,) if single else tuple(v),
                               [x.aval.strong() for x in xs], "v", "input")
        traced = _Traced(self, xs, self.has_aux)
        outs, products = emit_jvp(traced, tangents)
        out, aux = traced.split(outs)
        result = unflatten(traced.primary_tree, products)
        return (out, result) if not self.has_aux else (out, result, aux)


def _fmt_struct(v) -> str:
    return _fmt(v) if not isinstance(v, (tuple, list)) else f"a {type(v).__name__} of {len(v)}"


def _check_flag(transform, name, value) -> bool:
    if not isinstance(value, bool):
        raise DTypeError(f"{transform.api}: `{name}` must be a bool, got "
                         f"{type(value).__name__} {value!r}", caller_loc())
    return value


def jvp(fn, inputs, v, has_aux=False):
    """Jacobian-vector product: `(fn(*inputs), J·v)`, or `(out, J·v, aux)` with has_aux."""
    return JvpFunction(fn, has_aux)(inputs, v)


class LinearizedFn:
    """The `jvp_fn` of `linearize`: `jvp_fn(v)` is J·v at the inputs `linearize` was given, with
    `v` structured like those inputs (a Tensor, or a tuple of one per input).

    Each call is a forward-mode product at the stored inputs. Inside a graph the forward values
    it needs are the ones `linearize` computed, shared by the optimiser (common subexpressions);
    from Python each call runs the compiled product, which recomputes them."""

    def __init__(self, fn, inputs):
        self._jvp, self._inputs = JvpFunction(fn), inputs

    def __call__(self, v):
        return self._jvp(self._inputs, v)[1]


def linearize(fn, inputs):
    """`(fn(*inputs), jvp_fn)`: the output, and the linear map v -> J·v at `inputs`."""
    forward = _Forward(fn, False)
    items = _as_inputs(forward, inputs)
    return forward(*items), LinearizedFn(fn, inputs)


# ----- vjp -------------------------------------------------------------------------------------

class VjpFunction(Transform):
    """`(inputs, v) -> (fn(*inputs), vᵀJ)`: the 1.x `vjp(fn, inputs, v)` and `nn.Vjp`.

    The cotangent is one Tensor when there is one input, else a tuple with one per input.
    """

    api = "vjp"

    def emit(self, inputs, v):
        xs = _as_inputs(self, inputs)
        traced = _Traced(self, xs, has_aux=False)
        cotangents = _check_like(self, _flat_like(self, v, traced.primary_tree, "v", "output"),
                                 traced.primary_avals, "v", "output")
        outs, grads, _ = emit_vjp(traced, cotangents)
        out, _ = traced.split(outs)
        return out, grads[0] if len(xs) == 1 else tuple(grads)


class _Forward(Transform):
    """fn(*inputs), split into (output, aux) when has_aux: the value the 2.x vjp returns."""

    api = "vjp"

    def __init__(self, fn, has_aux):
        super().__init__(fn)
        self.has_aux = has_aux

    def cache_key(self):
        return (self.has_aux,)

    def emit(self, *inputs):
        out, aux = _Traced(self, inputs, self.has_aux, updates=True).forward()
        return (out, aux) if self.has_aux else out


class _VjpApply(Transform):
    """`(inputs, v) -> input cotangents[, weight cotangents]`: what a 2.x vjp_fn runs."""

    api = "vjp"

    def __init__(self, fn, has_aux, weights):
        super().__init__(fn)
        self.has_aux, self.weights = _check_flag(self, "has_aux", has_aux), weights

    def cache_key(self):
        return (self.has_aux, tuple(id(w) for w in self.weights or ()))

    def emit(self, inputs, v):
        return _apply_vjp(self, _Traced(self, tuple(inputs), self.has_aux, updates=True), v,
                          self.weights)


def _apply_vjp(transform: Transform, traced: _Traced, v, weights):
    cotangents = _check_like(transform, _flat_like(transform, v, traced.primary_tree, "v",
                                                   "output of fn"),
                             traced.primary_avals, "v", "output of fn")
    _, grads, weight_grads = emit_vjp(traced, cotangents, tuple(weights or ()))
    return tuple(grads) if weights is None else (tuple(grads), tuple(weight_grads))


class VjpFn:
    """The `vjp_fn` of the 2.x `vjp`: `vjp_fn(v)` returns the tuple of input cotangents (and the
    weight cotangents, `(inputs', weights')`, when `weights` were given)."""

    def __init__(self, apply: _VjpApply, inputs: tuple, traced: _Traced | None):
        self._apply, self._inputs, self._traced = apply, inputs, traced

    def __call__(self, *v):
        v = v[0] if len(v) == 1 else v
        if current_builder() is None:
            return self._apply(self._inputs, v)
        if self._traced is None:  # made from Python, called in a graph: trace fn there
            self._traced = _Traced(self._apply, self._inputs, self._apply.has_aux,
                                   updates=True)
        return _apply_vjp(self._apply, self._traced, v, self._apply.weights)


def vjp(fn, *inputs, weights=None, has_aux=False):
    """Vector-Jacobian product. 1.x: `vjp(fn, inputs, v) -> (out, vᵀJ)`; 2.x:
    `vjp(fn, *inputs, weights=None, has_aux=False) -> (out, vjp_fn[, aux])`."""
    args = inputs
    if weights is None and has_aux is False and _is_legacy_vjp(fn, args):
        return VjpFunction(fn)(*args)
    apply = _VjpApply(fn, has_aux, normalize_weights(weights, "vjp"))
    inputs = _as_inputs(apply, args)
    if current_builder() is not None:
        traced = _Traced(apply, inputs, has_aux, updates=True)
        out, aux = traced.forward()
        vjp_fn = VjpFn(apply, inputs, traced)
    else:
        forward = _Forward(fn, has_aux)(*inputs)
        out, aux = forward if has_aux else (forward, None)
        vjp_fn = VjpFn(apply, inputs, None)
    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def _is_legacy_vjp(fn, args: tuple) -> bool:
    """`vjp(fn, inputs, v)` (1.x) rather than `vjp(fn, x, y)` (2.x); the rule is in the module
    docstring."""
    if len(args) != 2:
        return False
    first = args[0]
    if isinstance(first, (tuple, list)):
        return bool(first) and all(_is_tensor(x) for x in first) and \
            _accepts(fn, len(first)) is not False
    return _is_tensor(first) and _accepts(fn, 1) is True and _accepts(fn, 2) is False


def _accepts(fn, count: int) -> bool | None:
    """Whether `fn` can be called with `count` positional inputs; None when we cannot tell."""
    if is_cell(fn):
        target = type(fn).construct
        target = getattr(target, "__wrapped__", target)
        skip = 1
    elif inspect.isfunction(fn) or inspect.ismethod(fn):
        target, skip = fn, 0
    else:
        return None
    try:
        params = list(inspect.signature(target).parameters.values())[skip:]
    except (TypeError, ValueError):
        return None
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return None
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    return len(required) <= count <= len(positional)
