"""Property-based fuzzing of the error paths: random shapes (0 and 0-d among them), dtypes and
argument kinds through a broad set of public ops and layers, eagerly and in a graph. Whatever an
op makes of its inputs, it returns a result or raises one of cellgraph's typed errors (ops/
errors.py) naming the operation; a bare exception from inside the compiler or a kernel
(AssertionError, IndexError, ZeroDivisionError, ...) fails the test.

A fixed number of examples per op, drawn deterministically (`derandomize=True`), keeps the run
short and reproducible; `-m slow` runs many more.
"""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.primitives.errors import CellgraphError

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies

CI_EXAMPLES = 12
SLOW_EXAMPLES = 150

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.bool_]
FLOATS = [np.float32, np.float64]


@st.composite
def shapes(draw, min_rank=0, max_rank=4, min_side=0, max_side=4):
    rank = draw(st.integers(min_rank, max_rank))
    return tuple(draw(st.integers(min_side, max_side)) for _ in range(rank))


@st.composite
def tensors(draw, shape=None, dtypes=DTYPES, **shape_args):
    shape = draw(shapes(**shape_args)) if shape is None else shape
    dtype = draw(st.sampled_from(dtypes))
    seed = draw(st.integers(0, 2**16))
    values = np.random.default_rng(seed).standard_normal(shape) * 3
    return Tensor(np.asarray(values).astype(dtype))


def axes(rank_slack=1):
    """An axis argument: an int that may lie outside the tensor's rank, a tuple, or None."""
    return st.one_of(st.integers(-4 - rank_slack, 3 + rank_slack), st.none(),
                     st.tuples(st.integers(-3, 3), st.integers(-3, 3)))


def scalars():
    return st.one_of(st.integers(-3, 3), st.floats(-3, 3, allow_nan=False), st.booleans())


def operands():
    """A Tensor or a Python scalar, as an op's operand may be."""
    return st.one_of(tensors(), scalars())


# name -> strategy of (function, args); the function is called as fn(*args)
UNARY = ["abs", "exp", "log", "sqrt", "tanh", "sigmoid", "relu", "gelu", "silu", "square",
         "erf", "neg", "floor", "sign", "reciprocal", "isnan", "logical_not", "softplus"]
BINARY = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "atan2", "equal", "less",
          "logical_and", "floor_divide", "floor_mod", "remainder", "fmod"]
REDUCTIONS = ["sum", "mean", "amax", "prod", "argmax", "argmin", "logsumexp", "var", "std",
              "cumsum", "softmax", "log_softmax"]


def _unary(name):
    return st.tuples(st.just(getattr(ops, name)), st.tuples(tensors()))


def _binary(name):
    return st.tuples(st.just(getattr(ops, name)), st.tuples(operands(), operands()))


AXIS_REQUIRED = {"cumsum", "logsumexp"}


def _reduction(name):
    fn = getattr(ops, name)
    axis = axes().filter(lambda a: a is not None) if name in AXIS_REQUIRED else axes()
    return st.tuples(st.just(lambda x, axis: fn(x, axis) if axis is not None else fn(x)),
                     st.tuples(tensors(), axis))


class Built:
    """A layer to build from drawn arguments when the case runs (building may raise too)."""

    def __init__(self, make, *args):
        self.make, self.args = make, args

    def __repr__(self) -> str:
        return f"layer{self.args}"


def _layer(make, arg_strategies, input_shapes, dtypes=FLOATS):
    """A layer built by `make` from drawn arguments, applied to a drawn input."""
    return st.tuples(st.tuples(*arg_strategies).map(lambda a: Built(make, *a)),
                     st.tuples(tensors(dtypes=dtypes, **input_shapes)))


SPECIAL = {
    "reshape": st.tuples(st.just(ops.reshape),
                         st.tuples(tensors(), shapes(max_rank=3, min_side=-1))),
    "transpose": st.tuples(st.just(ops.transpose),
                           st.tuples(tensors(), st.lists(st.integers(-2, 4), max_size=4).map(
                               tuple))),
    "expand_dims": st.tuples(st.just(ops.expand_dims), st.tuples(tensors(), st.integers(-6, 6))),
    "squeeze": st.tuples(st.just(ops.squeeze), st.tuples(tensors(), st.integers(-5, 5))),
    "concat": st.tuples(st.just(lambda a, b, axis: ops.concat((a, b), axis)),
                        st.tuples(tensors(), tensors(), st.integers(-4, 4))),
    "stack": st.tuples(st.just(lambda a, b, axis: ops.stack([a, b], axis)),
                       st.tuples(tensors(), tensors(), st.integers(-4, 4))),
    "tile": st.tuples(st.just(ops.tile),
                      st.tuples(tensors(), shapes(max_rank=4, min_side=0, max_side=3))),
    "flip": st.tuples(st.just(ops.flip), st.tuples(tensors(), st.tuples(st.integers(-4, 4)))),
    "gather": st.tuples(st.just(ops.gather),
                        st.tuples(tensors(), tensors(dtypes=[np.int32]), st.integers(-3, 3))),
    "topk": st.tuples(st.just(ops.topk), st.tuples(tensors(dtypes=FLOATS), st.integers(-1, 5))),
    "sort": st.tuples(st.just(lambda x, axis: ops.sort(x, axis)),
                      st.tuples(tensors(), st.integers(-4, 4))),
    "matmul": st.tuples(st.just(ops.matmul), st.tuples(tensors(), tensors())),
    "where": st.tuples(st.just(ops.where),
                       st.tuples(tensors(dtypes=[np.bool_]), tensors(), tensors())),
    "one_hot": st.tuples(st.just(lambda x, depth: ops.one_hot(x, depth, Tensor(1.0),
                                                              Tensor(0.0))),
                         st.tuples(tensors(dtypes=[np.int32, np.int64]), st.integers(-1, 4))),
    "broadcast_to": st.tuples(st.just(ops.broadcast_to),
                              st.tuples(tensors(), shapes(max_rank=4, min_side=-1))),
    "zeros": st.tuples(st.just(ops.zeros), st.tuples(shapes(min_side=-2))),
    "ones": st.tuples(st.just(ops.ones), st.tuples(shapes(min_side=-2))),
    "einsum": st.tuples(st.just(ops.einsum),
                        st.tuples(st.sampled_from(["ij,jk->ik", "ii->i", "ii->", "ij->ji",
                                                   "ii,j->j", "i,i->", "bij,bjk->bik"]),
                                  tensors(dtypes=FLOATS), tensors(dtypes=FLOATS))
                        ).map(lambda p: (lambda eq, a, b: ops.einsum(eq, a, b)
                                         if eq.count(",") else ops.einsum(eq, a), p[1])),
    "cross_entropy": st.tuples(st.just(ops.cross_entropy),
                               st.tuples(tensors(dtypes=FLOATS),
                                         tensors(dtypes=[np.int32, np.float32]))),
    "Dense": _layer(nn.Dense, [st.integers(0, 3), st.integers(0, 3)], {"max_rank": 3}),
    "Conv2d": _layer(lambda c, o, k, pad: nn.Conv2d(c, o, k, pad_mode=pad),
                     [st.integers(1, 3), st.integers(1, 3), st.integers(1, 3),
                      st.sampled_from(["same", "valid"])],
                     {"min_rank": 3, "max_rank": 4, "max_side": 5}),
    "BatchNorm2d": _layer(lambda c, train: nn.BatchNorm2d(c).set_train(train),
                          [st.integers(1, 3), st.booleans()], {"min_rank": 3, "max_rank": 4}),
    "LayerNorm": _layer(lambda d: nn.LayerNorm((d,)), [st.integers(1, 3)], {"max_rank": 3}),
    "MaxPool2d": _layer(nn.MaxPool2d, [st.integers(1, 3)], {"min_rank": 3, "max_rank": 4}),
    "AvgPool2d": _layer(nn.AvgPool2d, [st.integers(1, 3)], {"min_rank": 3, "max_rank": 4}),
    "Flatten": _layer(nn.Flatten, [], {}),
    "Softmax": _layer(nn.Softmax, [], {}),
    "Embedding": _layer(lambda v: nn.Embedding(v, 2), [st.integers(1, 4)], {},
                        dtypes=[np.int32, np.int64]),
    "LSTM": _layer(lambda i: nn.LSTM(i, 2, batch_first=True), [st.integers(1, 3)],
                   {"min_rank": 2, "max_rank": 3}),
    "index_select": st.tuples(st.just(ops.index_select),
                              st.tuples(tensors(), st.integers(-3, 3),
                                        tensors(dtypes=[np.int32], max_rank=1))),
    "gather_elements": st.tuples(st.just(ops.gather_elements),
                                 st.tuples(tensors(), st.integers(-3, 3),
                                           tensors(dtypes=[np.int32, np.int64]))),
    "masked_fill": st.tuples(st.just(ops.masked_fill),
                             st.tuples(tensors(), tensors(dtypes=[np.bool_]), scalars())),
    "tril": st.tuples(st.just(ops.tril), st.tuples(tensors(), st.integers(-2, 2))),
    "roll": st.tuples(st.just(ops.roll), st.tuples(tensors(), st.integers(-3, 3),
                                                   st.integers(-3, 3))),
    "split": st.tuples(st.just(ops.split), st.tuples(tensors(min_rank=1), st.integers(-1, 3),
                                                     st.integers(-2, 2))),
    "chunk": st.tuples(st.just(ops.chunk), st.tuples(tensors(min_rank=1), st.integers(-1, 3),
                                                     st.integers(-2, 2))),
    "repeat_interleave": st.tuples(st.just(ops.repeat_interleave),
                                   st.tuples(tensors(), st.integers(-1, 3),
                                             st.one_of(st.none(), st.integers(-2, 2)))),
    "cumprod": st.tuples(st.just(ops.cumprod), st.tuples(tensors(), st.integers(-3, 3))),
    "pad": st.tuples(st.just(ops.pad), st.tuples(
        tensors(dtypes=FLOATS), st.lists(st.integers(-2, 2), max_size=6).map(tuple))),
    "clamp": st.tuples(st.just(ops.clamp), st.tuples(tensors(), scalars(), scalars())),
    "scatter": st.tuples(st.just(ops.scatter),
                         st.tuples(tensors(dtypes=FLOATS), st.integers(-2, 2),
                                   tensors(dtypes=[np.int32]), tensors(dtypes=FLOATS))),
    "isclose": st.tuples(st.just(ops.isclose), st.tuples(tensors(), tensors())),
    "norm": st.tuples(st.just(ops.norm), st.tuples(tensors(dtypes=FLOATS))),
    "unique": st.tuples(st.just(ops.unique), st.tuples(tensors())),
    "conv2d": st.tuples(st.just(ops.conv2d), st.tuples(
        tensors(dtypes=FLOATS, min_rank=3, max_rank=4), tensors(dtypes=FLOATS, min_rank=4))),
    "max_pool2d": st.tuples(st.just(ops.max_pool2d), st.tuples(
        tensors(dtypes=FLOATS, min_rank=3, max_rank=4), st.integers(0, 3))),
    "interpolate": st.tuples(st.just(lambda x, size: ops.interpolate(x, size=size)), st.tuples(
        tensors(dtypes=FLOATS, min_rank=3, max_rank=4), shapes(1, 2, min_side=0))),
    "GRU": _layer(lambda i: nn.GRU(i, 2), [st.integers(1, 3)], {"min_rank": 2, "max_rank": 3}),
    "Conv1d": _layer(lambda c, k: nn.Conv1d(c, 2, k), [st.integers(1, 3), st.integers(1, 3)],
                     {"min_rank": 2, "max_rank": 3}),
    "Dropout": _layer(lambda p, train: nn.Dropout(p=p).set_train(train),
                      [st.floats(0, 1), st.booleans()], {}),
    "BatchNorm1d": _layer(lambda c: nn.BatchNorm1d(c), [st.integers(1, 3)],
                          {"min_rank": 1, "max_rank": 3}),
    "Dense+ReLU": _layer(lambda i: nn.SequentialCell([nn.Dense(i, 2), nn.ReLU()]),
                         [st.integers(1, 3)], {"min_rank": 1, "max_rank": 3}),
    "CrossEntropyLoss": st.tuples(st.just(nn.CrossEntropyLoss()),
                                  st.tuples(tensors(dtypes=FLOATS),
                                            tensors(dtypes=[np.int32]))),
}

CASES = {**{n: _unary(n) for n in UNARY}, **{n: _binary(n) for n in BINARY},
         **{n: _reduction(n) for n in REDUCTIONS}, **SPECIAL}


def _run(fn, args, graph: bool):
    if not graph:
        return fn(*args)
    tensor_at = [i for i, a in enumerate(args) if isinstance(a, Tensor)]

    def body(*tensors):
        full = list(args)
        for i, t in zip(tensor_at, tensors):
            full[i] = t
        return fn(*full)

    return cellgraph.jit(body)(*(args[i] for i in tensor_at))


def _check(case, graph):
    fn, args = case
    try:
        if isinstance(fn, Built):
            fn = fn.make(*fn.args)
        _run(fn, args, graph)
    except CellgraphError as e:
        assert str(e).strip(), "a typed error with no message"
    except Exception as e:  # noqa: BLE001  (anything else is the failure this test looks for)
        pytest.fail(f"untyped {type(e).__module__}.{type(e).__qualname__} from "
                    f"{fn!r} on {_describe(args)}: {e}")


def _describe(args) -> str:
    return ", ".join(f"Tensor({a.dtype}, {tuple(a.shape)})" if isinstance(a, Tensor) else repr(a)
                     for a in args)


def _property(examples: int):
    settings = hypothesis.settings(max_examples=examples, derandomize=True, deadline=None,
                                   database=None, suppress_health_check=list(
                                       hypothesis.HealthCheck))

    @settings
    @hypothesis.given(data=st.data())
    def check(name, data):
        graph = data.draw(st.booleans(), label="graph")
        _check(data.draw(CASES[name], label=name), graph)

    return check


_ci_property = _property(CI_EXAMPLES)
_slow_property = _property(SLOW_EXAMPLES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_errors_are_typed(name):
    _ci_property(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_errors_are_typed_many_examples(name):
    _slow_property(name)
