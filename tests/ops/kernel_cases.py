"""The table of kernel test cases for the core primitives (elementwise, reductions, shape
and indexing ops, matmul, softmax), keyed by primitive name; `tests/ops/test_kernels.py` runs
them. Each reference is written here and computes in float64 with NumPy, independently of the
kernel table under test. Each primitive's inputs come from a generator seeded by its name
(`seeded`), so adding a case never changes another primitive's inputs.

A new primitive needs only its entry here: the kernel, gradient (orders 1 and 2, from its float
cases, tests/ops/test_grads.py) and batching (tests/compiler/test_batching.py) tests read it."""
from __future__ import annotations

import functools
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from cellgraph import ops
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as core_functional
from cellgraph.primitives.array_ops import Slice

TOL = {dt.float16: {"rtol": 2e-3, "atol": 2e-3}, dt.float32: {"rtol": 2e-6, "atol": 1e-6},
       dt.float64: {"rtol": 1e-13, "atol": 1e-13}, dt.complex64: {"rtol": 2e-6, "atol": 1e-6},
       dt.complex128: {"rtol": 1e-13, "atol": 1e-13}}
EXACT = {"rtol": 0, "atol": 0}

f16, f32, f64 = dt.float16, dt.float32, dt.float64
i32, i64, u8, b = dt.int32, dt.int64, dt.uint8, dt.bool_
_rng = [np.random.default_rng(0)]  # the generator of the primitive whose cases are being built


def seeded(builders: dict) -> dict:
    """{name: build() -> cases}, each built with inputs from a generator seeded by its name."""
    cases = {}
    for name, build in builders.items():
        _rng[0] = np.random.default_rng(zlib.crc32(name.encode()))
        cases[name] = build()
    return cases


def each(build_group, names) -> dict:
    """Builders for the primitives a group builder makes cases for together (conv2d and its
    gradients): each runs the group under its own seed and keeps its own cases."""
    return {name: functools.partial(lambda n: build_group()[n], name) for name in names}


@dataclass
class Case:
    """One call: `prim(*operands, **params)`, expected `ref(*operands, **params)` as
    `out_dtype` (a tuple of dtypes, and of results, for a primitive with several)."""

    operands: tuple
    ref: Callable
    out_dtype: dt.DType
    params: dict = field(default_factory=dict)
    call: Callable | None = None  # the public op on Tensors; default: the primitive itself
    tol: dict | None = None  # instead of the dtype's tolerance (long float32 sums)
    # results defined only up to a choice (the signs of singular vectors): maps a list of host
    # results to one representative, applied to the kernel's results and the reference alike
    canonical: Callable | None = None

    def __str__(self) -> str:
        def show(x):
            if isinstance(x, np.ndarray):
                return f"{dt.from_numpy(x.dtype).short}{list(x.shape)}"
            return repr(x)

        return f"({', '.join(show(o) for o in self.operands)}) {self.params}"


def arr(shape, dtype, low=-2.0, high=2.0):
    """A NumPy array (0-d for shape ()) of random `dtype` values in [low, high)."""
    npd = dtype.np
    if dtype.is_bool:
        return np.asarray(_rng[0].random(shape) < 0.5)
    if dtype.is_int:
        return np.asarray(_rng[0].integers(int(low), int(high), size=shape), dtype=npd)
    return np.asarray(_rng[0].uniform(low, high, size=shape), dtype=npd)


def f64_of(x):
    return np.asarray(x, dtype=np.float64) if not isinstance(x, np.ndarray) or x.dtype.kind in (
        "f", "i", "u") else x


SHAPES_1 = [(), (3,), (2, 3)]
SHAPE_PAIRS = [((2, 3), (2, 3)), ((2, 3), (3,)), ((), (2, 3)), ((2, 1), (1, 3)), ((), ())]


def unary_float(np_fn, low=-2.0, high=2.0, ints=(-2, 3), dtypes=(f32, f64)):
    """exp, sin, ...: float in, same float out; an integer tensor computes in float32."""
    cases = [Case((arr(s, d, low, high),), lambda x: np_fn(f64_of(x)), d)
             for d in dtypes for s in SHAPES_1]
    if ints is not None:
        cases.append(Case((arr((2, 3), i32, *ints),), lambda x: np_fn(f64_of(x)), f32))
    cases.append(Case((arr((4,), f16, max(low, -1), min(high, 1.5)),),
                      lambda x: np_fn(f64_of(x)), f16))
    return cases


def unary_same(np_fn, dtypes=(f32, f64, i32, i64)):
    return [Case((arr(s, d, -3, 4),), np_fn, d) for d in dtypes for s in SHAPES_1]


def weak_dtype(strong: np.ndarray, scalar) -> dt.DType:
    """A Python scalar takes the tensor's dtype; a float scalar makes an int tensor float32."""
    d = dt.from_numpy(strong.dtype)
    if isinstance(scalar, bool):
        return d
    if isinstance(scalar, float) and not d.is_float:
        return f32
    if isinstance(scalar, int) and d.is_bool:
        return i64
    return d


def binary(np_fn, dtypes=(f32, f64, i32, i64), low=-3, high=4, y_low=None, y_high=None,
           scalars=(2.5, 3), mixed=True, result=None):
    """Tensor-tensor over broadcasting shape pairs, plus Python-scalar operands on either side."""
    y_low = low if y_low is None else y_low
    y_high = high if y_high is None else y_high
    result = result or (lambda d: d)
    ref = lambda x, y: np_fn(f64_of(x), f64_of(y))
    cases = [Case((arr(sx, d, low, high), arr(sy, d, y_low, y_high)), ref, result(d))
             for d in dtypes for sx, sy in SHAPE_PAIRS]
    if mixed:  # float32 with float64 promotes to float64
        cases.append(Case((arr((2, 3), f32, low, high), arr((3,), f64, y_low, y_high)), ref,
                          result(f64)))
    for d in (f32, i32):
        x = arr((2, 3), d, low, high)
        for s in scalars:
            cases.append(Case((x, s), ref, result(weak_dtype(x, s))))
            cases.append(Case((s, arr((3,), d, y_low, y_high)), ref, result(weak_dtype(x, s))))
    return cases


def compare(np_fn):
    cases = [Case((arr(sx, d, -2, 3), arr(sy, d, -2, 3)), np_fn, b)
             for d in (f32, i32, i64) for sx, sy in SHAPE_PAIRS]
    cases += [Case((arr((2, 3), f32, -2, 3), 0.5), np_fn, b),
              Case((1, arr((4,), i32, -2, 3)), np_fn, b),
              Case((arr((2, 3), f32, -2, 3), arr((3,), f64, -2, 3)), np_fn, b)]
    return cases


def logical(np_fn):
    return [Case((arr(sx, b), arr(sy, b)), np_fn, b) for sx, sy in SHAPE_PAIRS]


def reduction(np_fn, op, dtypes=(f32, f64, i32, i64), result=None):
    result = result or (lambda d: d)
    cases = []
    for d in dtypes:
        for shape, axis in [((2, 3, 4), ()), ((2, 3, 4), (0,)), ((2, 3, 4), (1, 2)),
                            ((3,), (0,)), ((), ())]:
            for keep in (False, True):
                params = {"axis": axis, "keep_dims": keep}
                cases.append(Case(
                    (arr(shape, d, -5, 6),),
                    lambda x, axis, keep_dims: np_fn(f64_of(x), axis=axis or None,
                                                     keepdims=keep_dims),
                    result(d), params,
                    call=functools.partial(op, axis=axis, keep_dims=keep)))
    return cases


def _softmax_ref(x, axis):
    e = np.exp(f64_of(x) - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _getitem_grad_ref(g, index, shape):
    out = np.zeros(shape)
    out[tuple(i.to_slice() if isinstance(i, Slice) else i for i in index)] = g
    return out


def _gather_grad_ref(g, indices, axis, shape):
    out = np.zeros(shape)
    for pos in np.ndindex(*np.shape(indices)):
        dst = (slice(None),) * axis + (int(np.asarray(indices)[pos]),)
        src = (slice(None),) * axis + pos
        out[dst] += g[src]
    return out


def _concat_first_axis(*xs):
    return ops.concat(xs, 0)


def _concat_last_axis(*xs):
    return ops.concat(xs, -1)


def _stack_first_axis(*xs):
    return ops.stack(xs, 0)


def _stack_last_axis(*xs):
    return ops.stack(xs, -1)


def _array_cases() -> dict[str, list[Case]]:
    x234, x23 = arr((2, 3, 4), f32), arr((2, 3), f64)
    ix = arr((2, 3), i32, -9, 9)
    S = Slice
    getitem_cases = [
        ((3, 4), (1,)), ((3, 4), (-1,)), ((3, 4), (S(0, 2, None),)),
        ((3, 4), (S(None, None, -1), 2)), ((3, 4), (None, Ellipsis, 1)),
        ((2, 3, 4), (Ellipsis, S(1, None, 2))), ((2, 3, 4), (0, None, S(None, 2, None), -1)),
        ((), ()), ((), (None,)),
    ]
    cases = {
        "reshape": [Case((x234,), lambda x, shape: np.reshape(x, shape), f32, {"shape": (6, 4)},
                         call=functools.partial(ops.reshape, shape=(6, -1))),
                    Case((ix,), lambda x, shape: np.reshape(x, shape), i32, {"shape": (6,)}),
                    Case((np.array(2.5, np.float64),), lambda x, shape: np.reshape(x, shape),
                         f64, {"shape": (1, 1)}),
                    Case((np.array([7], np.int64),), lambda x, shape: np.reshape(x, shape), i64,
                         {"shape": ()})],
        "transpose": [Case((x234,), lambda x, perm: np.transpose(x, perm), f32,
                           {"perm": (2, 0, 1)},
                           call=functools.partial(ops.transpose, dims=(-1, 0, 1))),
                      Case((ix,), lambda x, perm: np.transpose(x, perm), i32, {"perm": (1, 0)}),
                      Case((np.array(1.5, np.float32),), lambda x, perm: x, f32, {"perm": ()})],
        "broadcast_to": [
            Case((arr((3,), f32),), np.broadcast_to, f32, {"shape": (2, 3)},
                 call=functools.partial(ops.broadcast_to, shape=(2, -1))),
            Case((arr((1, 3), i64, -3, 3),), np.broadcast_to, i64, {"shape": (4, 2, 3)}),
            Case((np.array(3.0, np.float64),), np.broadcast_to, f64, {"shape": (2, 2)})],
        "expand_dims": [Case((x23,), np.expand_dims, f64, {"axis": a},
                             call=functools.partial(ops.expand_dims, axis=a - 3))
                        for a in (0, 1, 2)]
        + [Case((np.array(4, np.int32),), np.expand_dims, i32, {"axis": 0})],
        "squeeze": [
            Case((arr((1, 3, 1), f32),), lambda x, axis: np.squeeze(x, axis or None), f32,
                 {"axis": ()}, call=ops.squeeze),
            Case((arr((1, 3, 1), i32, -3, 3),), lambda x, axis: np.squeeze(x, axis), i32,
                 {"axis": (2,)}, call=functools.partial(ops.squeeze, axis=-1)),
            Case((np.array(2.0, np.float32),), lambda x, axis: x, f32, {"axis": ()})],
        "getitem": [Case((arr(shape, f32),),
                         lambda x, index: x[tuple(i.to_slice() if isinstance(i, Slice) else i
                                                  for i in index)], f32, {"index": index})
                    for shape, index in getitem_cases]
        + [Case((ix,), lambda x, index: x[:, ::2], i32, {"index": (S(None, None, None),
                                                                     S(None, None, 2))})],
        "getitem_grad": [
            Case((arr((4,), f32),), _getitem_grad_ref, f32, {"index": (1,), "shape": (3, 4)}),
            Case((arr((2, 2), f64),), _getitem_grad_ref, f64,
                 {"index": (S(None, None, 2), S(1, 3, None)), "shape": (3, 4)}),
            Case((arr((1, 3, 4), f32),), _getitem_grad_ref, f32,
                 {"index": (None, Ellipsis), "shape": (3, 4)}),
            Case((np.array(5.0, np.float32),), _getitem_grad_ref, f32,
                 {"index": (2,), "shape": (3,)})],
        "gather": [
            Case((arr((4, 3), f32), np.array([3, 0, 3], np.int64)),
                 lambda x, i, axis: np.take(x, i, axis=axis), f32, {"axis": 0},
                 call=functools.partial(ops.gather, axis=0)),
            Case((arr((4, 3), i32, -5, 5), np.array([[2, 0], [1, 1]], np.int32)),
                 lambda x, i, axis: np.take(x, i, axis=axis), i32, {"axis": 1},
                 call=functools.partial(ops.gather, axis=-1)),
            Case((arr((4, 3), f64), np.array(2, np.int64)),
                 lambda x, i, axis: np.take(x, i, axis=axis), f64, {"axis": 0})],
        "gather_grad": [
            Case((arr((3, 3), f32), np.array([3, 0, 3], np.int64)), _gather_grad_ref, f32,
                 {"axis": 0, "shape": (4, 3)}),
            Case((arr((4, 2, 2), f64), np.array([[2, 0], [2, 2]], np.int32)), _gather_grad_ref,
                 f64, {"axis": 1, "shape": (4, 3)}),
            Case((arr((3,), f32), np.array(1, np.int64)), _gather_grad_ref, f32,
                 {"axis": 0, "shape": (4, 3)})],
        "concat": [
            Case((arr((2, 3), f32), arr((1, 3), f32)), lambda *xs, axis: np.concatenate(
                xs, axis), f32, {"axis": 0}, call=_concat_first_axis),
            Case((arr((2, 1), i32, -3, 3), arr((2, 2), i32, -3, 3), arr((2, 3), i32, -3, 3)),
                 lambda *xs, axis: np.concatenate(xs, axis), i32, {"axis": 1},
                 call=_concat_last_axis),
            Case((arr((2,), f32), arr((3,), f64)), lambda *xs, axis: np.concatenate(
                [f64_of(x) for x in xs], axis), f64, {"axis": 0})],
        "stack": [
            Case((arr((2, 3), f32), arr((2, 3), f32)), lambda *xs, axis: np.stack(xs, axis),
                 f32, {"axis": 0}, call=_stack_first_axis),
            Case((arr((2, 3), i64, -3, 3),) * 3, lambda *xs, axis: np.stack(xs, axis), i64,
                 {"axis": 2}, call=_stack_last_axis),
            Case((np.array(1.0, np.float64), np.array(2.0, np.float64)),
                 lambda *xs, axis: np.stack(xs, axis), f64, {"axis": 0})],
        "cast": [Case((arr((2, 3), src, -3, 3),), lambda x, dtype: x.astype(dtype.np), dst,
                      {"dtype": dst}, call=functools.partial(ops.cast, dtype=dst))
                 for src, dst in [(f32, i32), (f32, f64), (i32, f32), (b, f32), (f32, b),
                                  (i64, b), (f64, f16), (i64, u8), (f32, f32)]]
        + [Case((np.array(2.75, np.float32),), lambda x, dtype: x.astype(dtype.np), i64,
                {"dtype": i64})],
        "assigned_read": [Case((arr((2, 3), f32), arr(s, f32)),
                               lambda w, v: np.broadcast_to(v, (2, 3)), f32)
                          for s in [(2, 3), (3,), ()]],
        "view_dtype": [Case((arr(s, src, -3, 3),), lambda x, dtype: _bitcast_ref(x, dtype),
                            dst, {"dtype": dst})
                       for s, src, dst in [((2, 3), f32, i32), ((2, 3), f32, f16),
                                           ((3, 4), f16, f32), ((2,), i64, u8), ((), f32, i32),
                                           ((2, 2), u8, b), ((0, 4), f16, f64)]],
        "zeros_like": [Case((arr(s, d),), np.zeros_like, d) for s, d in
                       [((2, 3), f32), ((3,), i32), ((), f64), ((2,), b)]],
        "ones_like": [Case((arr(s, d),), np.ones_like, d) for s, d in
                      [((2, 3), f32), ((3,), i32), ((), f64), ((2,), b)]],
        "fill": [Case((), lambda dtype, shape, value: np.full(shape, value), d,
                      {"dtype": d, "shape": s, "value": v}, call=functools.partial(
                          ops.fill, d, s, v))
                 for d, s, v in [(f32, (2, 3), 1.5), (i32, (4,), 7), (b, (2,), True),
                                 (f64, (), -2.0)]],
        "stop_gradient": [Case((arr(s, d),), lambda x: x, d) for s, d in
                          [((2, 3), f32), ((), f64), ((3,), i32)]],
        "select": [
            Case((arr((2, 3), b), arr((2, 3), f32), arr((2, 3), f32)), np.where, f32),
            Case((arr((2, 3), b), arr((2, 3), f64), arr((3,), f64)), np.where, f64,
                 call=ops.where),
            Case((arr((3,), b), arr((2, 3), i32, -3, 3), arr((2, 1), i32, -3, 3)), np.where,
                 i32),
            Case((np.array(True), arr((2,), f32), arr((2,), f32)), np.where, f32),
            Case((arr((2, 3), b), arr((2, 3), f32), 0.0), np.where, f32),
            Case((arr((2, 3), b), arr((2, 3), i32, -3, 3), 1), np.where, i32),
            Case((arr((2, 3), b), 0.5, arr((3,), i32, -3, 3)), np.where, f32)],
        "matmul": [
            Case((arr((2, 3), d, -3, 3), arr((3, 4), d, -3, 3)),
                 lambda x, y: f64_of(x) @ f64_of(y), d, call=ops.matmul)
            for d in (f32, f64, i32)]
        + [Case((arr(sx, f32), arr(sy, f32)), _matmul_ref, f32,
                {"transpose_a": ta, "transpose_b": tb},
                call=functools.partial(core_functional.batch_matmul, transpose_a=ta,
                                       transpose_b=tb))
           for sx, sy, ta, tb in [((3, 2), (3, 4), True, False), ((2, 3), (4, 3), False, True),
                                  ((3, 2), (4, 3), True, True),
                                  ((2, 2, 3), (3, 4), False, False),
                                  ((2, 1, 2, 3), (3, 3, 4), False, False),
                                  ((3, 2, 3), (3, 4, 3), False, True)]],
        "softmax": [Case((arr(s, d),), lambda x, axis: _softmax_ref(x, axis), d, {"axis": a},
                         call=functools.partial(ops.softmax, axis=a - len(s)))
                    for s, a, d in [((2, 3), 1, f32), ((2, 3), 0, f64), ((4,), 0, f32)]],
        "log_softmax": [Case((arr(s, d),), lambda x, axis: np.log(_softmax_ref(x, axis)), d,
                             {"axis": a},
                             call=functools.partial(ops.log_softmax, axis=a - len(s)))
                        for s, a, d in [((2, 3), 1, f32), ((2, 3), 0, f64), ((4,), 0, f32)]],
        "softmax_grad": [Case((arr(s, d, 0.0, 1.0), arr(s, d)), _softmax_grad_ref, d, {"axis": a})
                         for s, a, d in _SOFTMAX_GRAD_SHAPES],
        "log_softmax_grad": [Case((arr(s, d, -3.0, 0.0), arr(s, d)), _log_softmax_grad_ref, d,
                                  {"axis": a})
                             for s, a, d in _SOFTMAX_GRAD_SHAPES],
        "softmax_cross_entropy": [
            Case((arr(s, d, -3.0, 3.0), labels(s, d)), _softmax_cross_entropy_ref, (d, d))
            for s, d in [((2, 5), f32), ((3, 4), f64), ((4,), f32), ((2, 3, 4), f32)]],
    }
    return cases


def labels(shape, dtype):
    """Rows of class probabilities (summing to one), as soft labels."""
    weights = arr(shape, dtype, 0.1, 1.0)
    return (weights / weights.sum(axis=-1, keepdims=True)).astype(dtype.np)


def _softmax_cross_entropy_ref(logits, labels):
    p = _softmax_ref(logits, -1)
    return -(f64_of(labels) * np.log(p)).sum(axis=-1), p - f64_of(labels)


_SOFTMAX_GRAD_SHAPES = [((2, 3), 1, f32), ((2, 3), 0, f64), ((4,), -1, f32), ((2, 3, 4), 1, f32)]


def _bitcast_ref(x, dtype):
    """The bytes of x as `dtype` (any nonzero byte a True bool)."""
    x = np.array(x, order="C")
    if dtype.is_bool:
        return x.view(np.uint8) != 0
    return x.view(dtype.np) if x.ndim else x.reshape(1).view(dtype.np).reshape(())


def _softmax_grad_ref(y, dy, axis):
    y, dy = f64_of(y), f64_of(dy)
    return y * (dy - (dy * y).sum(axis=axis, keepdims=True))


def _log_softmax_grad_ref(y, dy, axis):
    y, dy = f64_of(y), f64_of(dy)
    return dy - np.exp(y) * dy.sum(axis=axis, keepdims=True)


_ARRAY_PRIMITIVES = ("reshape", "transpose", "broadcast_to", "expand_dims", "squeeze", "getitem",
                     "getitem_grad", "gather", "gather_grad", "concat", "stack", "cast", "view_dtype",
                     "assigned_read",
                     "zeros_like", "ones_like", "fill", "stop_gradient", "select", "matmul",
                     "softmax", "log_softmax", "softmax_grad", "log_softmax_grad",
                     "softmax_cross_entropy")


def _matmul_ref(x, y, transpose_a=False, transpose_b=False):
    x, y = f64_of(x), f64_of(y)
    return np.matmul(np.swapaxes(x, -1, -2) if transpose_a else x,
                     np.swapaxes(y, -1, -2) if transpose_b else y)


def _relu(x):
    return np.maximum(x, 0)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _rsqrt(x):
    return 1 / np.sqrt(x)


def _relu_grad(x, dy):
    return np.where(x > 0, dy, 0).astype(dy.dtype)


def _reciprocal(x):
    return 1 / x


CASES: dict[str, list[Case]] = seeded({
    "check_range": lambda: [Case((arr(s, d, 0, 4),), lambda x, **checks: x, d,
                                 {"low": 0, "high": 4, "what": "label", "op": "Check"})
                            for s, d in [((2, 3), i32), ((), i64), ((4,), u8)]],
    "checked_value": lambda: [Case((arr(s, d, 0, 4),), lambda x, **checks: x, d,
                                   {"low": 0, "high": 4, "what": "position", "op": "index",
                                    "error": "value"})
                              for s, d in [((), i64), ((3,), i32)]],
    "neg": lambda: unary_same(np.negative),
    "square": lambda: unary_same(np.square),
    "abs": lambda: unary_same(np.abs),
    "sign": lambda: unary_same(np.sign),
    "positive": lambda: unary_same(np.positive),
    "relu": lambda: unary_same(_relu, dtypes=(f32, f64, i32)),
    "relu_grad": lambda: [Case((arr(s, d, -3, 4), arr(s, d, -3, 4)), _relu_grad, d)
                          for d in (f32, f64, i32) for s in SHAPES_1],
    "sqrt": lambda: unary_float(np.sqrt, 0.1, 4.0, ints=(0, 9)),
    "rsqrt": lambda: unary_float(_rsqrt, 0.1, 4.0, ints=(1, 9)),
    "reciprocal": lambda: unary_float(_reciprocal, 0.5, 3.0, ints=(1, 9)),
    "exp": lambda: unary_float(np.exp),
    "log": lambda: unary_float(np.log, 0.1, 4.0, ints=(1, 9)),
    "sin": lambda: unary_float(np.sin),
    "cos": lambda: unary_float(np.cos),
    "tan": lambda: unary_float(np.tan, -1.2, 1.2, ints=(-1, 2)),
    "sinh": lambda: unary_float(np.sinh),
    "cosh": lambda: unary_float(np.cosh),
    "tanh": lambda: unary_float(np.tanh),
    "asin": lambda: unary_float(np.arcsin, -0.95, 0.95, ints=(-1, 2)),
    "acos": lambda: unary_float(np.arccos, -0.95, 0.95, ints=(-1, 2)),
    "atan": lambda: unary_float(np.arctan),
    "asinh": lambda: unary_float(np.arcsinh),
    "acosh": lambda: unary_float(np.arccosh, 1.05, 4.0, ints=(1, 9)),
    "atanh": lambda: unary_float(np.arctanh, -0.95, 0.95, ints=(0, 1)),
    "sigmoid": lambda: unary_float(_sigmoid),
    "add": lambda: binary(np.add),
    "sub": lambda: binary(np.subtract),
    "mul": lambda: binary(np.multiply),
    "maximum": lambda: binary(np.maximum),
    "minimum": lambda: binary(np.minimum),
    "div": lambda: binary(np.true_divide, y_low=1, y_high=5, scalars=(2.5, 4),
                  result=lambda d: dt.to_float(d)),
    "atan2": lambda: binary(np.arctan2, dtypes=(f32, f64), low=-2, high=2, y_low=0.5, y_high=3,
                            result=dt.to_float),
    "nextafter": lambda: [  # one ulp: compared exactly, in the operands' own dtype
        Case((arr(sx, d, -3, 4), arr(sy, d, -3, 4)), np.nextafter, d, tol={"rtol": 0, "atol": 0})
        for d in (f32, f64) for sx, sy in SHAPE_PAIRS] + [
        Case((np.zeros(3, np.float32), np.float32([1, -1, 0])), np.nextafter, f32,
             tol={"rtol": 0, "atol": 0})],
    "pow": lambda: binary(np.power, low=1, high=4, y_low=0, y_high=3, scalars=(0.5, 2)),
    "equal": lambda: compare(np.equal),
    "not_equal": lambda: compare(np.not_equal),
    "less": lambda: compare(np.less),
    "less_equal": lambda: compare(np.less_equal),
    "greater": lambda: compare(np.greater),
    "greater_equal": lambda: compare(np.greater_equal),
    "logical_and": lambda: logical(np.logical_and),
    "logical_or": lambda: logical(np.logical_or),
    "logical_not": lambda: [Case((arr(s, b),), np.logical_not, b) for s in SHAPES_1],
    "reduce_sum": lambda: reduction(np.sum, core_functional.reduce_sum),
    # integers keep their dtype, the mean rounded towards zero (the cast of NumPy's mean)
    "reduce_mean": lambda: reduction(np.mean, core_functional.reduce_mean),
    "reduce_max": lambda: reduction(np.amax, core_functional.reduce_max),
    "reduce_min": lambda: reduction(np.amin, core_functional.reduce_min),
    **each(_array_cases, _ARRAY_PRIMITIVES),
})
