"""vmap: every primitive's batching rule against a per-example loop, composition with grad (both
ways), in_axes/out_axes, the visible loop fallback, and the errors a user can make."""
from __future__ import annotations

import functools

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.primitives import functional as core_functional
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.core import PRIMITIVES
from cellgraph.testing import check_grads

from ..ops.test_kernels import CASES, EXACT, TOL, is_structural

RNG = np.random.default_rng(7)
BATCH = 3
# Primitives with no Tensor operand: a vmap never reaches them with a batched value.
NULLARY = {"fill", "uniform_real"}


# ----- every primitive against a per-example loop ----------------------------------------------

def _variants(x: np.ndarray) -> list[np.ndarray]:
    """BATCH examples with the values of `x` (so indices stay in range), in different orders."""
    flat = x.reshape(-1)
    return [x, np.roll(flat, 1).reshape(x.shape), flat[::-1].reshape(x.shape)]


def _configs(case):
    """(in_axes, how) pairs: every array batched at axis 0; the first at its last axis; the
    last one alone at axis 0."""
    arrays = [i for i, o in enumerate(case.operands) if isinstance(o, np.ndarray)]
    if not arrays:
        return []
    all_front = tuple(0 if i in arrays else None for i in range(len(case.operands)))
    first_last = tuple(-1 if i == arrays[0] else None for i in range(len(case.operands)))
    configs = [all_front, first_last]
    if len(arrays) > 1:
        configs.append(tuple(0 if i == arrays[-1] else None for i in range(len(case.operands))))
    return configs


def _batched_operands(case, in_axes):
    operands, examples = [], [list(case.operands) for _ in range(BATCH)]
    for i, (o, axis) in enumerate(zip(case.operands, in_axes)):
        if axis is None:
            operands.append(Tensor(o) if isinstance(o, np.ndarray) else o)
            continue
        variants = _variants(o)
        for b in range(BATCH):
            examples[b][i] = variants[b]
        operands.append(Tensor(np.stack(variants, axis=axis if axis >= 0 else o.ndim)))
    return operands, examples


def _batch_cases():
    for name in sorted(CASES):
        prim = PRIMITIVES.get(name)
        if prim is None or is_structural(prim) or getattr(prim, "effectful", False):
            continue
        for k, case in enumerate(CASES[name][:4]):
            for in_axes in _configs(case):
                yield pytest.param(name, case, in_axes, id=f"{name}-{k}-{in_axes}")


@pytest.mark.parametrize("name,case,in_axes", list(_batch_cases()))
def test_rule_matches_per_example_loop(name, case, in_axes):
    prim = PRIMITIVES[name]
    fn = functools.partial(prim, **case.params)
    operands, examples = _batched_operands(case, in_axes)
    got = ops.vmap(fn, in_axes=in_axes)(*operands)
    wanted = [fn(*[Tensor(o) if isinstance(o, np.ndarray) else o for o in ex]) for ex in examples]
    if prim.multiple_results:
        for k, out in enumerate(got):
            np.testing.assert_allclose(out.asnumpy(), np.stack([w[k].asnumpy() for w in wanted]),
                                       **TOL.get(out.dtype, EXACT))
        return
    assert got.dtype == wanted[0].dtype
    np.testing.assert_allclose(got.asnumpy(), np.stack([w.asnumpy() for w in wanted]),
                               **TOL.get(got.dtype, EXACT))


def test_every_primitive_has_a_batching_rule():
    """Structural primitives (graph params) are expanded (`grad`) or unrolled visibly; every
    other primitive declares a rule, or `loop_rule(prim)` explicitly."""
    missing = [name for name, prim in PRIMITIVES.items()
               if prim.batch_rule is None and not is_structural(prim) and name not in NULLARY
               and not getattr(prim, "effectful", False)]
    assert not missing, f"primitives without a batching rule (prim.def_batch): {missing}"


# ----- rules that the kernel cases do not reach -------------------------------------------------

def _per_example(fn, *args, in_axes):
    n = next(a.shape[ax] for a, ax in zip(args, in_axes) if ax is not None)
    outs = []
    for b in range(n):
        ex = [a if ax is None else Tensor(np.take(a.asnumpy(), b, axis=ax))
              for a, ax in zip(args, in_axes)]
        outs.append(fn(*ex).asnumpy())
    return np.stack(outs)



def _f32(*shape, low=-1.0, high=1.0):
    return Tensor(RNG.uniform(low, high, shape).astype(np.float32))


_W = _f32(3, 2, 3, 3)  # conv filter: 3 out channels, 2 in channels


def _conv_loss(x, w):
    y = ops.conv2d(x, w, pad_mode="pad", padding=1)
    return (ops.max_pool2d(y, 2, 2) ** 2).sum() + ops.avg_pool2d(y, 2, 2).sum()


def _special(x, lo):
    return (ops.erf(x) + ops.gelu(x) + ops.log1p(x + 1.5) + ops.expm1(x) + ops.softplus(x)
            + ops.clip_by_value(x, lo, 0.5))


def _cumsum_prod(x):
    return ops.cumsum(x, 1) + ops.prod(x, 0, keep_dims=True)


def _dropout(x, mask):
    return NF.dropout_masked(x, p=0.5, mask=mask)


def _one_hot_argmax(i, x):
    hot = ops.one_hot(i, 4, Tensor(1.0), Tensor(0.0), axis=0)
    return hot * ops.argmax(x, 1, keepdim=True).astype(ms.float32)


def _tile_split_pad(x):
    return ops.split(ops.tile(x, (2, 1)), 2, 0)[1] + ops.pad(x, (0, 0, 1, 1))[1:-1]


def _layer_norm(x):
    return ops.layer_norm(x, (4,))


def _batch_norm(x, m, v, w, b):
    return ops.batch_norm(x, m, v, w, b, training=True)


_W2 = Tensor(np.stack([_W.asnumpy(), 2 * _W.asnumpy()]))  # one filter per example

# (function, arguments, in_axes): the nn primitives, their gradients and loop fallbacks
NN_CASES = {
    "special": (_special, (_f32(3, 4), _f32(4, 1)), (1, 0)),
    "cumsum_prod": (_cumsum_prod, (_f32(3, 2, 4),), (2,)),
    "dropout": (_dropout, (_f32(3, 4), Tensor((RNG.random((4, 3)) < 0.5).astype(np.float32))),
                (0, 1)),
    "bias_add": (ops.bias_add, (_f32(3, 2, 5), _f32(3, 5)), (0, 0)),
    "one_hot_argmax": (_one_hot_argmax, (Tensor(np.array([[0, 3], [1, 2], [3, 3]], np.int32)),
                                         _f32(4, 3, 2)), (0, 1)),
    "tile_split_pad": (_tile_split_pad, (_f32(2, 3, 4),), (2,)),
    "layer_norm": (_layer_norm, (_f32(3, 2, 4),), (0,)),
    "batch_norm": (_batch_norm, (_f32(3, 4, 2), _f32(2), _f32(2, low=0.5), _f32(2), _f32(2)),
                   (0, None, None, None, None)),
    "conv_pool": (_conv_loss, (_f32(2, 1, 2, 6, 6), _W), (0, None)),
    "conv_pool_grad": (ops.grad(_conv_loss), (_f32(2, 1, 2, 6, 6), _W), (0, None)),
    "conv_filter_grad": (ops.grad(_conv_loss, 1), (_f32(2, 1, 2, 6, 6), _W), (0, None)),
    "conv_batched_filter": (ops.grad(_conv_loss, (0, 1)), (_f32(1, 2, 6, 6), _W2), (None, 0)),
}


@pytest.mark.parametrize("name", sorted(NN_CASES))
def test_nn_rules_match_per_example_loop(name):
    fn, args, in_axes = NN_CASES[name]
    got = ops.vmap(fn, in_axes=in_axes)(*args)
    size = next(a.shape[ax] for a, ax in zip(args, in_axes) if ax is not None)
    for b in range(size):
        example = [a if ax is None else Tensor(np.take(a.asnumpy(), b, axis=ax))
                   for a, ax in zip(args, in_axes)]
        wanted = fn(*example)
        for g, w in zip(*(v if isinstance(v, tuple) else (v,) for v in (got, wanted))):
            np.testing.assert_allclose(g.asnumpy()[b], w.asnumpy(), rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("in_axes", [(0, None), (None, 1), (2, 0), (1, 2)])
def test_matmul_transpose_flags(ta, tb, in_axes):
    x = Tensor(RNG.standard_normal((4, 4, 4)).astype(np.float32))
    y = Tensor(RNG.standard_normal((4, 4, 4)).astype(np.float32))
    x_in = x if in_axes[0] is not None else Tensor(x.asnumpy()[0])
    y_in = y if in_axes[1] is not None else Tensor(y.asnumpy()[0])
    fn = functools.partial(core_functional.batch_matmul, transpose_a=ta, transpose_b=tb)
    got = ops.vmap(fn, in_axes=in_axes)(x_in, y_in)
    np.testing.assert_allclose(got.asnumpy(), _per_example(fn, x_in, y_in, in_axes=in_axes),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("axis", [0, 1])
def test_gather_with_batched_table_and_indices(axis):
    table = Tensor(RNG.standard_normal((3, 5, 4)).astype(np.float32))
    idx = Tensor(np.array([[0, 3], [2, 2], [3, 1]], np.int32))

    def pick(t, i):
        return ops.gather(t, i, axis)

    got = ops.vmap(pick)(table, idx)
    np.testing.assert_allclose(got.asnumpy(), _per_example(pick, table, idx, in_axes=(0, 0)))

    def scatter(t, i):  # the gradient of gather: gather_grad with batched indices
        return ops.grad(lambda u: (ops.gather(u, i, axis) * ops.gather(u, i, axis)).sum())(t)

    got = ops.vmap(scatter)(table, idx)
    np.testing.assert_allclose(got.asnumpy(), _per_example(scatter, table, idx, in_axes=(0, 0)),
                               rtol=1e-6)


def test_reductions_squeeze_and_reshape_along_inner_batch_axis():
    xs = Tensor(RNG.standard_normal((2, 3, 4)).astype(np.float32))

    def f(x):  # x: (2, 4) per example when mapped over axis 1
        return ops.reshape(ops.softmax(x, axis=0), (8,)) + ops.ReduceMax(keep_dims=True)(x).squeeze()

    got = ops.vmap(f, in_axes=1)(xs)
    np.testing.assert_allclose(got.asnumpy(), _per_example(f, xs, in_axes=(1,)), rtol=1e-6)


# ----- composition with grad, nesting, graphs ---------------------------------------------------

def _mlp_loss(w, x, y):
    return ((ops.tanh(ops.matmul(x, w)) - y) ** 2).sum()


def _mlp_loss_grad(w, x, y):
    t = np.tanh(x @ w)
    return np.outer(x, 2 * (t - y) * (1 - t ** 2))


def test_vmap_of_grad_gives_per_example_gradients():
    w = RNG.standard_normal((3, 2)).astype(np.float32)
    xs = RNG.standard_normal((5, 3)).astype(np.float32)
    ys = RNG.standard_normal((5, 2)).astype(np.float32)
    got = ops.vmap(ops.grad(_mlp_loss), in_axes=(None, 0, 0))(Tensor(w), Tensor(xs), Tensor(ys))
    wanted = np.stack([_mlp_loss_grad(w, x, y) for x, y in zip(xs, ys)])
    assert got.shape == (5, 3, 2)
    np.testing.assert_allclose(got.asnumpy(), wanted, rtol=1e-5, atol=1e-6)


def test_grad_of_vmap_is_the_sum_of_per_example_gradients():
    w = RNG.standard_normal((3, 2)).astype(np.float32)
    xs = RNG.standard_normal((5, 3)).astype(np.float32)
    ys = RNG.standard_normal((5, 2)).astype(np.float32)

    def total(w, xs, ys):
        return ops.vmap(_mlp_loss, in_axes=(None, 0, 0))(w, xs, ys).sum()

    got = ops.grad(total)(Tensor(w), Tensor(xs), Tensor(ys))
    wanted = sum(_mlp_loss_grad(w, x, y) for x, y in zip(xs, ys))
    np.testing.assert_allclose(got.asnumpy(), wanted, rtol=1e-5, atol=1e-6)


def test_batched_graph_differentiates_at_orders_1_and_2():
    a = RNG.standard_normal((3, 3))
    xs = RNG.standard_normal((4, 3))

    def f(a, xs):
        return ops.vmap(lambda x: ops.sin(ops.matmul(a, x)) * x, in_axes=0)(xs)

    check_grads(f, (a, xs), order=1)
    check_grads(f, (a, xs), order=2)


def test_nested_vmap_and_in_axes_structures():
    xs = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    bias = RNG.standard_normal(4).astype(np.float32)

    def f(pair, b):
        x, scale = pair
        return ops.exp(x) * scale + b

    inner = ops.vmap(f, in_axes=((0, None), None))
    outer = ops.vmap(inner, in_axes=((1, None), None), out_axes=2)
    got = outer((Tensor(xs), 2.0), Tensor(bias))
    wanted = np.transpose(np.exp(xs) * 2.0 + bias, (0, 2, 1))  # outer over axis 1 -> axis 2
    assert got.shape == (2, 4, 3)
    np.testing.assert_allclose(got.asnumpy(), wanted, rtol=1e-6)


def test_unbatched_outputs_are_broadcast_and_out_axes_per_output():
    xs = RNG.standard_normal((3, 2)).astype(np.float32)
    c = Tensor(np.array([1.0, 2.0], np.float32))

    def f(x):
        return x * 2, c

    doubled, consts = ops.vmap(f, out_axes=(1, 0))(Tensor(xs))
    np.testing.assert_allclose(doubled.asnumpy(), (xs * 2).T)
    np.testing.assert_allclose(consts.asnumpy(), np.tile(c.asnumpy(), (3, 1)))


class _BatchedNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)), name="w")

    def row(self, x):
        return ops.matmul(x, self.w).sum()

    def construct(self, xs):
        return ops.vmap(self.row)(xs) * 10


def test_vmap_inside_construct_reads_parameters():
    xs = RNG.standard_normal((4, 3)).astype(np.float32)
    net = _BatchedNet()
    np.testing.assert_allclose(net(Tensor(xs)).asnumpy(), (xs @ net.w.asnumpy()).sum(1) * 10,
                               rtol=1e-5)
    text = ms.dump_ir(net, Tensor(xs), stage="parse")
    assert "matmul(" in text and "f32[4,2]" in text  # one product for the whole batch


# ----- the loop fallback -----------------------------------------------------------------------

def test_primitive_without_rule_is_unrolled_and_says_so(monkeypatch):
    monkeypatch.setattr(PRIMITIVES["sin"], "batch_rule", None)
    xs = RNG.standard_normal((3, 2)).astype(np.float32)

    def f(x):
        return ops.sin(x) + 1

    got = ops.vmap(f)(Tensor(xs))
    np.testing.assert_allclose(got.asnumpy(), np.sin(xs) + 1, rtol=1e-6)
    text = ms.dump_ir(ops.vmap(f), Tensor(xs), stage="parse")
    assert text.count("[vmap: loop fallback, sin unrolled over 3 examples]") == 7
    assert text.count("= sin(") == 3 and text.count("= stack(") == 1


def test_tensor_if_under_vmap():
    xs = np.array([[1.0, 2.0], [-3.0, 1.0], [0.5, -4.0]], np.float32)

    def f(x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = -x
        return y

    got = ops.vmap(f)(Tensor(xs))
    wanted = np.stack([x * 2 if x.sum() > 0 else -x for x in xs])
    np.testing.assert_allclose(got.asnumpy(), wanted)


# ----- errors ----------------------------------------------------------------------------------

def _double(x, y):
    return x * y


# MindSpore 2.10's messages (RuntimeErrors there; here also TypeError or ValueError)
@pytest.mark.parametrize("in_axes,args,message", [
    ((0,), (np.ones((2, 3)), np.ones((2, 3))),
     ("When vmap`s 'in_axes' is a tuple or list, and its size must be equal to the number of "
     "arguments of 'fn': 2, but got size: 1.")),
    ((0, 2), (np.ones((2, 3)), np.ones((2, 3))),
     "The axis: 2 in 'in_axes' is out of bounds for array of dimension [-2,2)."),
    ((0, 1), (np.ones((2, 3)), np.ones((2, 3))),
     ("The 'axis_size' of each argument in the scope of 'vmap' should be equal, but got 2 and "
     "3.")),
    ((None, None), (np.ones((2, 3)), np.ones((2, 3))),
     ("The 'in_axes' of 'vmap' cannot be all None while 'fn' is not a 'CellList', but got "
     "(None, None).")),
    (0, (np.ones((2, 3)), 2.0),
     "The orig_abs should be AbstractTensor when corresponding axis is 0, but got a float 2.0"),
])
def test_argument_errors_name_vmap_the_values_and_the_line(in_axes, args, message):
    fn = ops.vmap(_double, in_axes=in_axes)
    with pytest.raises(RuntimeError) as info:
        fn(*[Tensor(a.astype(np.float32)) if isinstance(a, np.ndarray) else a for a in args])
    assert isinstance(info.value, (TypeError, ValueError))
    text = str(info.value)
    assert message in text
    assert "test_batching.py" in text and "fn(*[Tensor(" in text


def test_errors_inside_construct_point_at_the_call():
    class Net(nn.Cell):
        def construct(self, x):
            return ops.vmap(ops.exp, in_axes=3)(x)

    with pytest.raises(ValueError) as info:
        Net()(Tensor(np.ones((2, 3), np.float32)))
    assert "The axis: 3 in 'in_axes' is out of bounds for array of dimension [-2,2)." \
        in str(info.value)
    assert "return ops.vmap(ops.exp, in_axes=3)(x)" in str(info.value)


def test_bad_in_axes_type():
    with pytest.raises(TypeError, match=r"The axis in vmap's 'in_axes' should be a None or a "
                                        r"scalar of type Int64Imm, but got a 0\."):
        ops.vmap(_double, in_axes="0")
    with pytest.raises(RuntimeError, match=r"'out_axes' .* but got a 1\.5\."):
        ops.vmap(_double, out_axes=(0, 1.5))
