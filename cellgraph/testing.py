"""Checking gradients against finite differences, in float64 (the idea of JAX's check_grads).

`check_grads(fn, args, order=k)` compares the k-th derivative that cellgraph computes with
central finite differences of the (k-1)-th, along random directions:

    s(x)   = <c, fn(x)>                      c: a random cotangent for every float output
    D_0    = s
    D_j(x) = <grad D_{j-1}(x), v_j>          v_j: random directions, j = 1 .. k-1
    check    <grad D_{k-1}(x), u>  ==  (D_{k-1}(x + eps u) - D_{k-1}(x - eps u)) / (2 eps)

Every D_j and the final gradient are built with `cellgraph.grad`, nested, so order k exercises
the bprop of the bprop ... of each primitive (the adjoint graphs are differentiated again). Only
D_{k-1} is differenced numerically, so the error stays that of one central difference.

Complex arguments and outputs follow the convention of ops/complex_ops.py: <a, b> is the real
inner product Re(sum(a * conj(b))) of C^n as R^2n, directions and cotangents have random real
and imaginary parts, and a complex argument is perturbed along both.

Float Tensor (or NumPy float array) arguments are converted to float64 (complex ones to
complex128) and differentiated;
everything else (integer index tensors, boolean masks, Python numbers) is passed through as is.
A Cell's own Parameters are not converted: give them float64 values, or the float32 rounding of
the forward pass swamps the differences.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cellgraph.compiler.builder import is_tensor_like
from cellgraph.compiler.frontend import trace_call
from cellgraph.compiler.pytree import flatten
from cellgraph.ops import functional as F
from cellgraph.primitives.core import PRIMITIVES, abstract_of
from cellgraph.primitives.errors import ArgumentError
from cellgraph.runtime.tensor import Tensor

from .autograd import grad, value_and_grad
from .jit_decorators import jit

__all__ = ["GradCheckError", "check_grads", "numerical_grad"]


class GradCheckError(AssertionError):
    """A derivative that disagrees with finite differences."""


@dataclass
class _Prepared:
    args: tuple  # float args in float64, others unchanged
    positions: tuple  # indices of the differentiated args


def _is_float_array(a) -> bool:
    if isinstance(a, Tensor):
        return a.dtype.is_inexact
    return isinstance(a, np.ndarray) and a.dtype.kind in "fc"


def _wide(a) -> Tensor:
    a = np.asarray(a.asnumpy() if isinstance(a, Tensor) else a)
    return Tensor(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))


def _normal(rng, like):
    """A random array shaped like `like` (complex when `like` is)."""
    shape = abstract_of(like).shape
    if abstract_of(like).dtype.is_complex:
        return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return rng.standard_normal(shape)


def _prepare(args, api: str) -> _Prepared:
    if not isinstance(args, (tuple, list)):
        raise ArgumentError(f"{api}: `args` must be a tuple of arguments, got "
                            f"{type(args).__name__}")
    out, positions = [], []
    for i, a in enumerate(args):
        if _is_float_array(a):
            out.append(_wide(a))
            positions.append(i)
        else:
            out.append(a)
    if not positions:
        raise ArgumentError(f"{api}: no float Tensor among the {len(args)} arguments; nothing "
                            f"to differentiate")
    return _Prepared(tuple(out), tuple(positions))


def _positional_cotangent(leaf):
    """A cotangent for an output whose size is known only at run time (masked_select), where
    no random array can be drawn in advance: sin of a weighted sum of each element's
    coordinates, computed in the graph from `ones_like` (which carries no gradient)."""
    cumsum = PRIMITIVES["cumsum"]
    ones = F.ones_like(leaf)
    phase = 0.3
    for axis, weight in zip(range(abstract_of(leaf).ndim), (1.7, 0.9, 2.3, 1.1, 0.5)):
        coordinate = cumsum(ones, axis=axis, exclusive=False, reverse=False)
        phase = F.add(F.mul(coordinate, weight), phase)
    return F.sin(phase)


def _inner(grads, directions):
    """<grads, directions> summed over arguments, as a graph (or eager) scalar; a direction
    None stands for the positional cotangent of its output."""
    total = None
    for g, d in zip(grads, directions):
        d = _positional_cotangent(g) if d is None else Tensor(np.conj(d))
        term = F.reduce_sum(F.real(F.mul(g, d)))
        total = term if total is None else F.add(total, term)
    return total


class _Projection:
    """s(*args) = <c, fn(*args)>, with one random cotangent c per float output, drawn the first
    time the outputs' shapes are seen and reused on every later trace."""

    def __init__(self, fn, rng):
        self.fn, self.rng, self.cotangents = fn, rng, None

    def __call__(self, *args):
        leaves, _ = flatten(trace_call(self.fn, args), is_tensor_like)
        floats = [leaf for leaf in leaves if abstract_of(leaf).dtype.is_inexact]
        if not floats:
            raise ArgumentError(f"check_grads: {_name(self.fn)} returned no float Tensor "
                                f"(got {len(leaves)} outputs); there is nothing to compare")
        if self.cotangents is None:
            self.cotangents = [None if None in abstract_of(leaf).shape else
                               _normal(self.rng, leaf) for leaf in floats]
        return _inner(floats, self.cotangents)


class _Directional:
    """D_j(*args) = <grad D_{j-1}(*args), v_j>."""

    def __init__(self, lower, positions, directions):
        self.lower, self.positions, self.directions = lower, positions, directions

    def __call__(self, *args):
        grads = grad(self.lower, grad_position=self.positions)(*args)
        return _inner(grads if len(self.positions) > 1 else (grads,), self.directions)


def _name(fn) -> str:
    return getattr(fn, "__qualname__", None) or type(fn).__name__


def _random_like(rng, args, positions):
    return [_normal(rng, args[i]) for i in positions]


def _shifted(args, position, delta):
    out = list(args)
    out[position] = Tensor(args[position].asnumpy() + delta)
    return tuple(out)


def check_grads(fn, args, order: int = 1, *, eps: float = 1e-5, rtol: float = 1e-5,
                atol: float = 1e-6, seed: int = 0) -> None:
    """Check derivatives of `fn` at `args` up to `order` (1, 2, 3, ...) against central finite
    differences in float64; raises GradCheckError naming the order, argument and values."""
    if isinstance(order, bool) or not isinstance(order, int) or order < 1:
        raise ArgumentError(f"check_grads: `order` must be an int >= 1, got {order!r}")
    prepared = _prepare(args, "check_grads")
    rng = np.random.default_rng(seed)
    for k in range(1, order + 1):
        _check_order(fn, prepared, k, eps, rtol, atol, rng)


def _check_order(fn, prepared, k, eps, rtol, atol, rng):
    args, positions = prepared.args, prepared.positions
    level = _Projection(fn, rng)
    for _ in range(k - 1):
        level = _Directional(level, positions, _random_like(rng, args, positions))
    top = value_and_grad(level, grad_position=positions)
    _, grads = top(*args)
    grads = grads if len(positions) > 1 else (grads,)  # one position: a bare gradient
    for pos, g in zip(positions, grads):
        if g.shape != args[pos].shape or g.dtype != args[pos].dtype:
            raise GradCheckError(
                f"check_grads: order-{k} gradient of {_name(fn)} w.r.t. argument {pos} has "
                f"shape {g.shape} and dtype {g.dtype}, expected {args[pos].shape} and "
                f"{args[pos].dtype}")
    for pos, g, u in zip(positions, grads, _random_like(rng, args, positions)):
        analytic = float(np.sum(np.real(g.asnumpy() * np.conj(u))))
        plus = float(top(*_shifted(args, pos, eps * u))[0].asnumpy())
        minus = float(top(*_shifted(args, pos, -eps * u))[0].asnumpy())
        numeric = (plus - minus) / (2 * eps)
        if not abs(analytic - numeric) <= atol + rtol * max(abs(analytic), abs(numeric)):
            raise GradCheckError(
                f"check_grads: order-{k} derivative of {_name(fn)} w.r.t. argument {pos} "
                f"(shape {args[pos].shape}) along a random direction is {analytic!r} by "
                f"differentiation but {numeric!r} by central differences (eps={eps}); "
                f"difference {abs(analytic - numeric):.3e} exceeds atol={atol} + rtol={rtol}")


def numerical_grad(fn, args, eps: float = 1e-5, cotangent=None) -> tuple:
    """Central-difference gradient of `sum(cotangent * fn(*args))` (cotangent defaults to ones)
    w.r.t. every float argument, element by element, in float64; a tuple of NumPy arrays."""
    prepared = _prepare(args, "numerical_grad")
    forward = jit(_Sum(fn, cotangent))

    def value(at):
        return float(forward(*at).asnumpy())

    out = []
    for pos in prepared.positions:
        x = prepared.args[pos].asnumpy()
        g = np.zeros_like(x)
        # dL/dx + i dL/dy for a complex argument (ops/complex_ops.py's convention)
        units = (1, 1j) if np.iscomplexobj(x) else (1,)
        for idx in np.ndindex(x.shape):
            for unit in units:
                step = np.zeros_like(x)
                step[idx] = eps * unit
                g[idx] += unit * (value(_shifted(prepared.args, pos, step))
                                  - value(_shifted(prepared.args, pos, -step))) / (2 * eps)
        out.append(g)
    return tuple(out)


class _Sum:
    """sum(cotangent * fn(*args)) over the float outputs (cotangent: one array, or one per
    output; None means ones)."""

    def __init__(self, fn, cotangent):
        self.fn, self.cotangent = fn, cotangent

    def __call__(self, *args):
        leaves, _ = flatten(trace_call(self.fn, args), is_tensor_like)
        floats = [leaf for leaf in leaves if abstract_of(leaf).dtype.is_inexact]
        cots = self.cotangent
        if cots is None:
            cots = [np.ones(abstract_of(leaf).shape) for leaf in floats]
        elif not isinstance(cots, (tuple, list)):
            cots = [cots]
        return _inner(floats, [np.asarray(c, np.complex128 if np.iscomplexobj(c) else np.float64)
                               for c in cots])
