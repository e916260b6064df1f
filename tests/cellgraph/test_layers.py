"""nn layers against NumPy references (forward) and finite differences (gradients, float64):
Dense, activations, Flatten, Dropout, Embedding, SequentialCell, CellList; hierarchical
Parameter names; the random primitive behind dropout masks."""
from __future__ import annotations

import math

import numpy as np
import pytest

import cellgraph
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError

from .nn_checks import check_cell_grads, check_weight_grads, t64, to_float64

f32, f64 = cellgraph.float32, cellgraph.float64


def np_gelu(x):
    return np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.ravel()]).reshape(
        x.shape)


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# ----- Dense -----------------------------------------------------------------------------------

def test_dense_forward_matches_numpy(rng):
    w, b = rng.standard_normal((3, 4)), rng.standard_normal(3)
    dense = nn.Dense(4, 3, weight_init=Tensor(w, f32), bias_init=Tensor(b, f32))
    x = rng.standard_normal((5, 4)).astype(np.float32)
    np.testing.assert_allclose(dense(Tensor(x)).asnumpy(), x @ w.T + b, rtol=1e-5, atol=1e-5)
    x3 = rng.standard_normal((2, 5, 4)).astype(np.float32)  # leading axes are kept
    np.testing.assert_allclose(dense(Tensor(x3)).asnumpy(), x3 @ w.T + b, rtol=1e-5,
                               atol=1e-5)


@pytest.mark.parametrize("activation", ["relu", nn.Tanh()], ids=["name", "cell"])
def test_dense_activation_and_no_bias(rng, activation):
    w = rng.standard_normal((2, 3))
    dense = nn.Dense(3, 2, weight_init=Tensor(w, f32), has_bias=False, activation=activation)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    ref = np.maximum(x @ w.T, 0) if activation == "relu" else np.tanh(x @ w.T)
    np.testing.assert_allclose(dense(Tensor(x)).asnumpy(), ref, rtol=1e-5, atol=1e-6)
    assert dense.bias is None and len(dense.trainable_params()) == 1


def test_dense_default_init_is_mindspore_kaiming_uniform():
    cellgraph.set_seed(1)
    dense = nn.Dense(50, 40)
    bound = 1 / math.sqrt(50)  # HeUniform(sqrt(5)) and Uniform(1/sqrt(fan_in)) share it
    for p in (dense.weight, dense.bias):
        values = p.asnumpy()
        assert p.dtype == f32 and np.abs(values).max() <= bound
        assert np.abs(values).max() > 0.9 * bound


def test_dense_gradients_match_finite_differences(rng):
    dense = to_float64(nn.Dense(3, 2, activation="tanh"))
    check_cell_grads(dense, (t64(rng.standard_normal((4, 3))),))


def test_dense_wrong_input_names_layer_shapes_and_user_line(rng):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 2)

        def construct(self, x):
            return self.fc(x)  # the line the error shows

    with pytest.raises(ShapeError) as info:
        Net()(Tensor(np.ones((4, 5), np.float32)))
    text = str(info.value)
    assert "Dense" in text and "in_channels=3" in text and "(4, 5)" in text
    assert "return self.fc(x)  # the line the error shows" in text
    with pytest.raises(DTypeError, match="Dense: the input has dtype Float64"):
        Net()(Tensor(np.ones((4, 3))))
    with pytest.raises(ArgumentValueError, match="in_channels"):
        nn.Dense(0, 2)


# ----- activations and Flatten -----------------------------------------------------------------

ACTIVATIONS = [
    (nn.ReLU(), lambda x: np.maximum(x, 0)),
    (nn.Sigmoid(), lambda x: 1 / (1 + np.exp(-x))),
    (nn.Tanh(), np.tanh),
    (nn.GELU(approximate=False), np_gelu),
    (nn.GELU(), lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))),
    (nn.Softmax(), np_softmax),
    (nn.Softmax(axis=0), lambda x: np_softmax(x, 0)),
    (nn.LogSoftmax(), lambda x: np.log(np_softmax(x))),
    (nn.LeakyReLU(0.1), lambda x: np.where(x >= 0, x, 0.1 * x)),
    (nn.SiLU(), lambda x: x / (1 + np.exp(-x))),
]


@pytest.mark.parametrize("cell, ref", ACTIVATIONS, ids=lambda v: type(v).__name__)
def test_activations_forward_and_gradient(rng, cell, ref):
    x = rng.standard_normal((3, 4)) + 0.05  # keep away from ReLU's kink at 0
    np.testing.assert_allclose(cell(Tensor(x, f32)).asnumpy(), ref(x), rtol=1e-5, atol=1e-6)
    check_cell_grads(cell, (t64(x),), weights=False)


def test_get_activation_names_and_error():
    """MindSpore's names, exactly as spelled there; another name (a capitalised one too) is a
    KeyError that lists them, as in MindSpore 2.10."""
    assert isinstance(nn.get_activation("relu"), nn.ReLU)
    assert isinstance(nn.get_activation("logsoftmax"), nn.LogSoftmax)
    assert isinstance(nn.get_activation("fast_gelu"), nn.FastGelu)
    assert nn.get_activation(None) is None
    for name in ("swish", "LogSoftmax", "fastgelu", 3):
        with pytest.raises(KeyError) as info:
            nn.get_activation(name)
        assert info.value.args[0].startswith("The 'name' must be in ['softmin', 'softmax', ")
        assert info.value.args[0].endswith(f"'mish'], but got {name}.")
    with pytest.raises(KeyError, match="For 'Dense', the 'name' must be in"):
        nn.get_activation("nope", prim_name="Dense")
    with pytest.raises(KeyError, match="but got nope"):
        nn.Dense(3, 4, activation="nope")


def test_flatten(rng):
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    assert nn.Flatten()(Tensor(x)).shape == (2, 60)
    np.testing.assert_array_equal(nn.Flatten(start_dim=2)(Tensor(x)).asnumpy(),
                                  x.reshape(2, 3, 20))


# ----- Dropout and the random primitive ---------------------------------------------------------

def test_dropout_eval_is_identity_and_train_masks_and_scales():
    cellgraph.set_seed(3)
    drop = nn.Dropout(p=0.25)
    x = Tensor(np.ones((200, 50), np.float32))
    np.testing.assert_array_equal(drop(x).asnumpy(), x.asnumpy())  # a new Cell evaluates
    drop.set_train()
    first = drop(x).asnumpy()
    assert set(np.unique(first)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((first != 0).mean() - 0.75) < 0.02
    second = drop(x).asnumpy()
    assert (first != second).any(), "each run of the compiled graph draws a new mask"
    cellgraph.set_seed(3)  # reproducible from the seed: the same layer made after it
    again = nn.Dropout(p=0.25)
    again.set_train()
    np.testing.assert_array_equal(again(x).asnumpy(), first)
    drop.set_train(False)  # the graph is rebuilt for evaluation
    np.testing.assert_array_equal(drop(x).asnumpy(), x.asnumpy())


def test_dropout_gradient_uses_the_same_mask_as_the_output():
    drop = nn.Dropout(keep_prob=0.5).set_train()
    x = Tensor(np.full((6, 7), 2.0, np.float32))
    out, dx = cellgraph.value_and_grad(drop)(x)
    np.testing.assert_allclose(dx.asnumpy(), (out.asnumpy() != 0) * 2.0)


def test_dropout_argument_errors():
    with pytest.raises(ArgumentValueError, match="keep_prob"):
        nn.Dropout(keep_prob=0.0)
    with pytest.raises(ArgumentValueError, match="`p` must be in"):
        nn.Dropout(p=1.0)


def test_uniform_real_draws_from_the_global_seed_in_every_run():
    @cellgraph.jit
    def two_draws(x):  # mint's draws take the global generator's numbers
        return cellgraph.mint.rand_like(x), cellgraph.mint.rand_like(x)

    x = Tensor(np.zeros((4, 5), np.float32))
    cellgraph.set_seed(7)
    a, b = two_draws(x)
    assert a.dtype == f32 and a.shape == (4, 5)
    assert ((a.asnumpy() >= 0) & (a.asnumpy() < 1)).all()
    assert (a.asnumpy() != b.asnumpy()).any(), "two draws in one graph are not merged"
    c, _ = two_draws(x)
    assert (a.asnumpy() != c.asnumpy()).any(), "a draw is not folded into a constant"
    cellgraph.set_seed(7)
    np.testing.assert_array_equal(two_draws(x)[0].asnumpy(), a.asnumpy())
    rng = np.random.default_rng(7)
    np.testing.assert_allclose(a.asnumpy(), rng.random((4, 5)).astype(np.float32))


# ----- Embedding -------------------------------------------------------------------------------

@pytest.mark.parametrize("use_one_hot", [False, True])
def test_embedding_forward_and_table_gradient(rng, use_one_hot):
    table = rng.standard_normal((6, 3))
    emb = nn.Embedding(6, 3, use_one_hot=use_one_hot, embedding_table=Tensor(table, f32))
    ids = np.array([[0, 5, 2], [2, 2, 1]], np.int32)
    np.testing.assert_allclose(emb(Tensor(ids)).asnumpy(), table[ids], rtol=1e-6)
    check_weight_grads(to_float64(emb), (Tensor(ids),))


def test_embedding_padding_idx_row_is_zero():
    emb = nn.Embedding(5, 4, padding_idx=2)
    assert not emb.embedding_table.asnumpy()[2].any()
    assert emb.embedding_table.asnumpy()[1].any()
    with pytest.raises(DTypeError, match="integer ids"):
        emb(Tensor(np.ones((2,), np.float32)))


# ----- containers and names --------------------------------------------------------------------

class TwoLayer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4)
        self.body = nn.SequentialCell([nn.ReLU(), nn.Dense(4, 2)])

    def construct(self, x):
        return self.body(self.fc1(x))


def test_parameter_names_are_hierarchical():
    net = TwoLayer()
    assert net.fc1.weight.name == "fc1.weight"
    assert [p.name for p in net.trainable_params()] == [
        "fc1.weight", "fc1.bias", "body.1.weight", "body.1.bias"]
    assert [n for n, _ in net.parameters_and_names()] == [p.name for p in net.get_parameters()]


def test_sequential_cell_runs_in_order_and_indexes(rng):
    seq = nn.SequentialCell(nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2))
    assert len(seq) == 3 and isinstance(seq[1], nn.ReLU) and isinstance(seq[-1], nn.Dense)
    x = Tensor(rng.standard_normal((5, 3)).astype(np.float32))
    ref = seq[2](seq[1](seq[0](x)))  # each layer on its own (eagerly compiled)
    np.testing.assert_allclose(seq(x).asnumpy(), ref.asnumpy(), rtol=1e-6)
    names = [p.name for p in seq.trainable_params()]
    head = seq[0:2]
    assert len(head) == 2 and head[0] is seq[0]
    assert [p.name for p in seq.trainable_params()] == names == [
        "0.weight", "0.bias", "2.weight", "2.bias"]
    with pytest.raises(IndexError, match="index 3 is out of range for 3 cells"):
        seq[3]


class Stack(nn.Cell):
    def __init__(self, n):
        super().__init__()
        self.layers = nn.CellList()
        for _ in range(n):
            self.layers.append(nn.Dense(2, 2))

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x + self.layers[0](x)


def _np_dense(cell, x):
    return x @ cell.weight.asnumpy().T + cell.bias.asnumpy()


def test_cell_list_iterates_in_construct_and_recompiles_after_append(rng):
    net = Stack(2)
    # MindSpore 2.10 names a Cell appended to an attached CellList by its index only
    assert [p.name for p in net.trainable_params()][:2] == ["0.weight", "0.bias"]
    x = rng.standard_normal((3, 2)).astype(np.float32)
    h = _np_dense(net.layers[1], _np_dense(net.layers[0], x))
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), h + _np_dense(net.layers[0], h),
                               rtol=1e-5, atol=1e-6)
    net.layers.append(nn.Dense(2, 2))
    assert len(net.layers) == 3
    h = _np_dense(net.layers[2], h)
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), h + _np_dense(net.layers[0], h),
                               rtol=1e-5, atol=1e-6)


def test_containers_reject_non_cells():
    with pytest.raises(DTypeError, match="CellList: expected a Cell, got int"):
        nn.CellList([nn.ReLU(), 3])


# ----- ops.assign ------------------------------------------------------------------------------

class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.total = Parameter(Tensor(np.zeros(2, np.float32)), requires_grad=False)

    def construct(self, x):
        ops.assign(self.total, self.total + x)
        return self.total * 2  # reads after the assignment see the new value


def test_assign_in_a_graph_updates_the_parameter_after_the_run():
    counter = Counter()
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(counter(x).asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(counter(x).asnumpy(), [4.0, 8.0])
    np.testing.assert_allclose(counter.total.asnumpy(), [2.0, 4.0])
    assert len(counter._graph_cache.entries) == 1  # the update did not force a recompile


def test_assign_eagerly_and_shape_errors():
    p = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")
    ops.assign(p, 3.0)
    np.testing.assert_array_equal(p.asnumpy(), np.full((2, 2), 3.0))
    with pytest.raises(ShapeError, match=r"Assign: cannot assign a value of shape \(3,\) to "
                                         r"Parameter 'w' of shape \(2, 2\)"):
        ops.assign(p, Tensor(np.ones(3, np.float32)))

    class Bad(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = p

        def construct(self, x):
            ops.assign(self.w, x)  # bad assign
            return x

    with pytest.raises(ShapeError, match="bad assign"):
        Bad()(Tensor(np.ones(3, np.float32)))


def test_assign_add_sub_and_depend_in_graph_and_eagerly():
    p = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="acc")

    @cellgraph.jit
    def step(x):
        ops.assign_add(p, x)
        ops.AssignSub()(p, 0.5)
        return ops.depend(p * 1, x)

    np.testing.assert_allclose(step(Tensor(np.array([1.0, 1.0], np.float32))).asnumpy(),
                               [1.5, 2.5])
    np.testing.assert_allclose(p.asnumpy(), [1.5, 2.5])
    ops.assign_sub(p, Tensor(np.array([0.5, 0.5], np.float32)))
    np.testing.assert_allclose(p.asnumpy(), [1.0, 2.0])
    plain = Tensor(np.ones(2, np.float32))  # a Tensor is updated in place, as in MindSpore
    assert ops.assign(plain, Tensor(np.full(2, 1.5, np.float32))) is plain
    np.testing.assert_allclose(plain.asnumpy(), [1.5, 1.5])
    counter = Parameter(Tensor(np.zeros((), np.int32)), name="count")
    with pytest.raises(DTypeError, match="data type Int32, which cannot be converted to data type Float32"):
        ops.assign(counter, Tensor(np.float32(1.5)))
