"""Taylor-mode higher-order forward derivatives: `jet` and `derivative`.

`jet(fn, primals, series)` pushes a truncated input path through `fn`. `series[k-1]` holds the
k-th derivative of the input path at t = 0, so the path is

    x(t) = x0 + sum_k series[k-1] * t**k / k!

and the result is fn(x0) with the derivatives d^k/dt^k fn(x(t)) at t = 0, k = 1..K (the same
scaling as the inputs: derivatives, not Taylor coefficients divided by k!).

Design: the path is a function of one scalar `t`, and its derivatives in `t` are K nested
forward-mode products (`jvp`, itself reverse mode transposed, see forward.py). Level k returns
all derivatives up to k, so the nesting is one chain of K jvps and every level reuses the
values of the one below; the optimiser removes what the chain computes twice. We chose this
over a table of per-primitive Taylor rules (Faà di Bruno for every primitive) because each
primitive with a bprop rule gets Taylor mode at once, from the one table of derivative rules.
The cost is compile time, which grows with the order; orders are small in practice.

`derivative(fn, primals, order)` is `jet` along the unit direction (series [1, 0, ..., 0] for
every input), returning only the `order`-th derivative.
"""
from __future__ import annotations

import math

from cellgraph.compiler.frontend import trace_call
from cellgraph.compiler.pytree import flatten
from cellgraph.primitives import dtype as mstype
from cellgraph.primitives import functional as F
from cellgraph.primitives.errors import DTypeError, GradValueError, ShapeError

from .forward import JvpFunction, _fmt, _is_tensor
from .transform import Transform, user_loc

# The dtypes jet accepts; integer inputs are differentiated as float32 (as MindSpore does).
_ACCEPTED = (mstype.int32, mstype.int64, mstype.float32, mstype.float64)
_AS_FLOAT = {mstype.int32: mstype.float32, mstype.int64: mstype.float32}


class JetFunction(Transform):
    """`(primals, series) -> (fn(*primals), derivatives)`: the callable behind `jet`."""

    api = "jet"

    def emit(self, primals, series):
        xs, ss = _check_jet_inputs(self, primals, series)
        order = ss[0].shape[0]
        levels, out_tree = taylor_derivatives(self.fn, xs, ss, order)
        return _assemble(levels, out_tree)


def _check_jet_inputs(transform: Transform, primals, series) -> tuple[list, list]:
    """Primals and series as lists of float Tensors, each series shaped [K, *primal.shape]."""
    if _is_tensor(primals) and _is_tensor(series):
        pairs = [(primals, series)]
    elif isinstance(primals, tuple) and isinstance(series, tuple):
        if len(primals) != len(series):
            raise transform.error(GradValueError, f"`primals` and `series` must have the same "
                                  f"length, got {len(primals)} and {len(series)}")
        pairs = list(zip(primals, series))
    else:
        raise transform.error(DTypeError, f"`primals` and `series` must be both Tensors or "
                              f"both tuples of Tensors, got {_fmt(primals)} and "
                              f"{_fmt(series)}")
    xs, ss = [], []
    for i, (x, s) in enumerate(pairs):
        x, s = _check_pair(transform, i, x, s)
        xs.append(x)
        ss.append(s)
    orders = {s.shape[0] for s in ss}
    if len(orders) != 1:
        raise transform.error(ShapeError, f"every series must give the same number of "
                              f"derivatives (its first dimension), got {sorted(orders)}")
    return xs, ss


def _check_pair(transform: Transform, i: int, x, s):
    for what, value in (("primals", x), ("series", s)):
        if not _is_tensor(value):
            raise transform.error(DTypeError, f"`{what}[{i}]` must be a Tensor, got "
                                  f"{_fmt(value)}")
        if value.dtype not in _ACCEPTED:
            raise transform.error(DTypeError, f"`{what}[{i}]` must be int32, int64, float32 "
                                  f"or float64, got {value.dtype}")
    if tuple(s.shape) == tuple(x.shape):  # one derivative given without its leading axis
        s = F.expand_dims(s, 0)
    if tuple(s.shape[1:]) != tuple(x.shape):
        raise transform.error(ShapeError, f"each element of `series[{i}]` must have the shape "
                              f"of its primal {tuple(x.shape)}, got series of shape "
                              f"{tuple(s.shape)}")
    dtype = _AS_FLOAT.get(x.dtype, x.dtype)
    return F.cast(x, dtype), F.cast(s, dtype)


def taylor_derivatives(fn, xs: list, ss: list, order: int) -> tuple[list, object]:
    """[fn's flat outputs, then their 1st .. `order`-th derivatives along the path] and fn's
    output structure."""
    structure = {}

    def along_path(t):
        inputs = [_path_point(x, s, t) for x, s in zip(xs, ss)]
        leaves, structure["tree"] = flatten(trace_call(fn, inputs), _is_tensor)
        structure["n_out"] = len(leaves)
        return tuple(leaves)

    level = along_path
    for _ in range(order):
        level = _next_level(level, structure)
    t0 = F.zeros((), xs[0].dtype)
    values = level(t0)
    n_out = len(values) // (order + 1)
    return [list(values[k * n_out:(k + 1) * n_out]) for k in range(order + 1)], \
        structure["tree"]


def _path_point(x, s, t):
    """x + sum_k s[k-1] t^k / k!: the input path at `t`."""
    point, power = x, None
    for k in range(1, s.shape[0] + 1):
        # t^k as a product of t's: its derivatives at t = 0 stay finite, where pow's rule
        # (k t^(k-1)) reads t^-1 = inf at the higher orders and gives 0 * inf = NaN
        power = t if power is None else power * t
        point = point + F.getitem(s, k - 1) * (power / math.factorial(k))
    return point


def _next_level(level, structure: dict):
    """From t -> (d^0 .. d^k), the function t -> (d^0 .. d^k+1): one more forward product.
    The tangents of (d^0 .. d^k) are (d^1 .. d^k+1), so only their last block is new."""
    def next_level(t):
        values, tangents = JvpFunction(level)(t, F.ones_like(t))
        n_out = structure["n_out"]  # known once the innermost level has been traced
        return tuple(values) + tuple(tangents)[len(tangents) - n_out:]
    return next_level


def _assemble(levels: list, out_tree):
    """MindSpore's result layout: one output gives (primal, [K, ...] derivatives); several
    give lists of each."""
    primals = levels[0]
    per_output = [F.stack([levels[k][j] for k in range(1, len(levels))], 0)
                  for j in range(len(primals))]
    if out_tree.kind == "leaf":
        return primals[0], per_output[0]
    return list(primals), per_output


def jet(fn, primals, series):
    """Higher-order forward derivatives of `fn` along the input path given by `series`:
    `(fn(*primals), derivatives)`; see the module docstring for the layout."""
    return JetFunction(fn)(primals, series)


def derivative(fn, primals, order):
    """The `order`-th derivative of `fn` along the unit direction at `primals`:
    `(fn(*primals), d^order)`."""
    if isinstance(order, bool) or not isinstance(order, int):
        raise DTypeError(f"derivative: `order` must be an int, got {type(order).__name__} "
                         f"{order!r:.40}", user_loc())
    if order < 1:
        raise GradValueError(f"derivative: `order` must be >= 1, got {order}", user_loc())
    items = primals if isinstance(primals, tuple) else (primals,)
    series = tuple(_unit_series(x, order) if _is_tensor(x) else x for x in items)
    out_primals, out_series = jet(fn, primals, series if isinstance(primals, tuple)
                                  else series[0])
    if isinstance(out_series, list):
        return out_primals, [s[-1] for s in out_series]
    return out_primals, out_series[-1]


def _unit_series(x, order: int):
    """[1, 0, ..., 0] (order entries, each shaped like x): move along x's own direction."""
    dtype = _AS_FLOAT.get(x.dtype, x.dtype)
    first = F.ones((1,) + tuple(x.shape), dtype)
    if order == 1:
        return first
    return F.concat((first, F.zeros((order - 1,) + tuple(x.shape), dtype)), 0)
