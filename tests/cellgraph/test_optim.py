"""TrainOneStepCell with each optimizer against a hand-written NumPy training loop (3 steps,
float64), learning-rate schedules, state names, one compiled graph per step, and errors."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, ShapeError

f64 = cellgraph.float64
STEPS = 3


def np_grads(w, b, x, y):
    """Gradients of mean((x w^T + b - y)^2)."""
    dout = 2 * (x @ w.T + b - y) / y.size
    return dout.T @ x, dout.sum(0)


def np_update(kind, hp, p, g, state, t, lr):
    """One update of parameter `p` (state: a dict of this parameter's buffers), step t >= 0."""
    wd = hp.get("weight_decay", 0.0)
    if kind in ("SGD", "Momentum", "Adam"):
        g = g + wd * p
    if kind == "SGD":
        # the momentum is a float32 Parameter, as in MindSpore
        mom, damp = float(np.float32(hp.get("momentum", 0.0))), hp.get("dampening", 0.0)
        if mom == 0:
            return p - lr * g
        v = state["v"] = g if t == 0 else mom * state["v"] + (1 - damp) * g
        return p - lr * (g + mom * v if hp.get("nesterov") else v)
    if kind == "Momentum":
        mom = float(np.float32(hp["momentum"]))
        v = state["v"] = mom * state.get("v", 0) + g
        return p - lr * (g + mom * v if hp.get("use_nesterov") else v)
    b1, b2 = hp.get("beta1", 0.9), hp.get("beta2", 0.999)
    eps = hp.get("eps", 1e-6 if kind == "AdamWeightDecay" else 1e-8)
    m = state["m"] = b1 * state.get("m", 0) + (1 - b1) * g
    v = state["v"] = b2 * state.get("v", 0) + (1 - b2) * g * g
    n = t + 1
    if kind == "Adam":
        lr_t = lr * np.sqrt(1 - b2 ** n) / (1 - b1 ** n)
        return p - lr_t * m / (np.sqrt(v) + eps)
    if kind == "AdamW":
        wd = hp.get("weight_decay", 1e-2)
        m_hat, v_hat = m / (1 - b1 ** n), v / (1 - b2 ** n)
        return p * (1 - lr * wd) - lr * m_hat / (np.sqrt(v_hat) + eps)
    return p - lr * (m / (np.sqrt(v) + eps) + wd * p)  # AdamWeightDecay


def np_train(kind, hp, w, b, x, y, lrs):
    states = ({}, {})
    losses = []
    for t in range(STEPS):
        losses.append(np.mean((x @ w.T + b - y) ** 2))
        gw, gb = np_grads(w, b, x, y)
        w = np_update(kind, hp, w, gw, states[0], t, lrs[t])
        b = np_update(kind, hp, b, gb, states[1], t, lrs[t])
    return w, b, losses


class Net(nn.Cell):
    def __init__(self, w, b):
        super().__init__()
        self.fc = nn.Dense(3, 2, weight_init=Tensor(w), bias_init=Tensor(b), dtype=f64)

    def construct(self, x):
        return self.fc(x)


OPTIMIZERS = [
    ("SGD", {}),
    ("SGD", {"momentum": 0.9, "dampening": 0.2, "weight_decay": 0.05}),
    ("SGD", {"momentum": 0.8, "nesterov": True}),
    ("Momentum", {"momentum": 0.9}),
    ("Momentum", {"momentum": 0.7, "weight_decay": 0.1, "use_nesterov": True}),
    ("Adam", {}),
    ("Adam", {"beta1": 0.8, "beta2": 0.95, "eps": 1e-6, "weight_decay": 0.05}),
    ("AdamW", {"weight_decay": 0.1}),
    ("AdamWeightDecay", {"weight_decay": 0.1}),
]


def _data(rng):
    return (rng.standard_normal((2, 3)), rng.standard_normal(2), rng.standard_normal((5, 3)),
            rng.standard_normal((5, 2)))


def _run(kind, hp, lr, rng):
    w, b, x, y = _data(rng)
    net = Net(w, b)
    opt = getattr(nn, kind)(net.trainable_params(), learning_rate=lr, **hp)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    losses = [float(train(Tensor(x), Tensor(y)).asnumpy()) for _ in range(STEPS)]
    return (w, b, x, y), net, train, losses


@pytest.mark.parametrize("kind, hp", OPTIMIZERS, ids=lambda v: v if isinstance(v, str) else
                         "-".join(f"{k}={a}" for k, a in v.items()) or "default")
def test_train_one_step_matches_numpy(rng, kind, hp):
    lr = 0.05
    (w, b, x, y), net, train, losses = _run(kind, hp, lr, rng)
    lrs = [float(np.float32(lr))] * STEPS  # the learning-rate Parameter is float32
    w_ref, b_ref, loss_ref = np_train(kind, hp, w, b, x, y, lrs)
    np.testing.assert_allclose(losses, loss_ref, rtol=1e-12)
    np.testing.assert_allclose(net.fc.weight.asnumpy(), w_ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(net.fc.bias.asnumpy(), b_ref, rtol=1e-10, atol=1e-12)
    assert train.optimizer.global_step.asnumpy().item() == STEPS
    assert len(train._graph_cache.entries) == 1, "one graph, compiled once, for every step"


def test_whole_step_is_one_graph_with_the_updates_as_outputs(rng):
    _, _, train, _ = _run("Adam", {}, 0.01, rng)
    (entry,) = train._graph_cache.entries.values()
    graph = entry.compiled.graph
    names = sorted(p.name for p in graph.updates)
    assert names == ["beta1_power", "beta2_power", "fc.bias", "fc.weight", "global_step",
                     "moment1.fc.bias", "moment1.fc.weight", "moment2.fc.bias",
                     "moment2.fc.weight"]
    assert not any(n.callee.name == "grad" for n in graph.nodes)


SCHEDULES = [
    ("callable", lambda step: 0.1 * 0.5 ** step, [0.1, 0.05, 0.025]),
    ("list", [0.1, 0.03], [0.1, 0.03, 0.03]),  # the last rate is kept
    ("ExponentialDecayLR", nn.ExponentialDecayLR(0.1, 0.5, 2, is_stair=True), [0.1, 0.1, 0.05]),
    ("CosineDecayLR", nn.CosineDecayLR(0.01, 0.1, 2), [0.1, 0.055, 0.01]),
    ("PolynomialDecayLR", nn.PolynomialDecayLR(0.1, 0.01, 2, 2.0), [0.1, 0.0325, 0.01]),
    ("WarmUpLR", nn.WarmUpLR(0.1, 2), [0.0, 0.05, 0.1]),
]


@pytest.mark.parametrize("name, schedule, rates", SCHEDULES, ids=[s[0] for s in SCHEDULES])
@pytest.mark.parametrize("kind", ["SGD", "Adam"])
def test_learning_rate_schedules(rng, kind, name, schedule, rates):
    (w, b, x, y), net, _, losses = _run(kind, {}, schedule, rng)
    w_ref, _b_ref, loss_ref = np_train(kind, {}, w, b, x, y, rates)
    np.testing.assert_allclose(losses, loss_ref, rtol=1e-6)
    np.testing.assert_allclose(net.fc.weight.asnumpy(), w_ref, rtol=1e-6, atol=1e-9)


def test_pynative_training_matches_graph_mode(rng):
    seed_state = np.random.default_rng(5)
    _, graph_net, _, graph_losses = _run("Momentum", {"momentum": 0.9}, 0.1, seed_state)
    cellgraph.set_context(mode=cellgraph.PYNATIVE_MODE)
    _, eager_net, _, eager_losses = _run("Momentum", {"momentum": 0.9}, 0.1,
                                         np.random.default_rng(5))
    np.testing.assert_allclose(eager_losses, graph_losses, rtol=1e-12)
    np.testing.assert_allclose(eager_net.fc.weight.asnumpy(), graph_net.fc.weight.asnumpy(),
                               rtol=1e-12)


def test_batch_norm_running_stats_update_once_per_training_step(rng):
    cellgraph.set_seed(0)
    net = nn.SequentialCell(nn.Dense(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Dense(4, 1))
    x, y = rng.standard_normal((8, 3)).astype(np.float32), rng.standard_normal((8, 1))
    w, b = net[0].weight.asnumpy(), net[0].bias.asnumpy()
    hidden = x @ w.T + b
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.SGD(net.trainable_params(), 0.1))
    train.set_train()
    train(Tensor(x), Tensor(y.astype(np.float32)))
    np.testing.assert_allclose(net[1].moving_mean.asnumpy(), 0.1 * hidden.mean(0), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(net[1].moving_variance.asnumpy(),
                               0.9 + 0.1 * hidden.var(0, ddof=1), rtol=1e-5)
    assert not np.allclose(net[0].weight.asnumpy(), w), "the weights were trained"


def test_sens_scales_the_gradients(rng):
    w, b, x, y = _data(rng)
    net = Net(w, b)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.SGD(net.trainable_params(), 0.1), sens=4.0)
    train(Tensor(x), Tensor(y))
    gw, _ = np_grads(w, b, x, y)
    np.testing.assert_allclose(net.fc.weight.asnumpy(), w - np.float32(0.1) * 4.0 * gw,
                               rtol=1e-12)


class _HalvedStep(nn.TrainOneStepCell):
    """A subclass with its own construct, built from the attributes MindSpore's has."""

    def construct(self, *inputs):
        loss = self.network(*inputs)
        sens = cellgraph.ops.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        grads = self.grad_reducer(grads)
        return cellgraph.ops.depend(loss, self.optimizer(tuple([g * 0.5 for g in grads])))


def test_subclass_construct_uses_grad_weights_and_sens(rng):
    w, b, x, y = _data(rng)
    net = Net(w, b)
    train = _HalvedStep(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1),
                        sens=4.0)
    loss = train(Tensor(x), Tensor(y))
    np.testing.assert_allclose(loss.asnumpy(), np.mean((x @ w.T + b - y) ** 2), rtol=1e-12)
    gw, gb = np_grads(w, b, x, y)
    np.testing.assert_allclose(net.fc.weight.asnumpy(), w - np.float32(0.1) * 2.0 * gw,
                               rtol=1e-12)
    np.testing.assert_allclose(net.fc.bias.asnumpy(), b - np.float32(0.1) * 2.0 * gb,
                               rtol=1e-12)


def test_state_parameters_are_named_like_mindspore(rng):
    """MindSpore 2.10's names: the walk path of each Parameter, and its own name (the
    checkpoint key); state Parameters keep requires_grad=True, as there."""
    _, _, train, _ = _run("Adam", {}, 0.01, rng)
    state = ["global_step", "learning_rate", "beta1_power", "beta2_power", "moment1.fc.weight",
             "moment1.fc.bias", "moment2.fc.weight", "moment2.fc.bias"]
    assert [n for n, _ in train.parameters_and_names()] == \
        ["fc.weight", "fc.bias"] + ["optimizer." + n for n in state]
    assert [p.name for p in train.get_parameters()] == ["fc.weight", "fc.bias"] + state
    assert [p.name for p in train.trainable_params()] == ["fc.weight", "fc.bias"] + state
    assert [n for n, _ in train.cells_and_names()] == [
        "", "network", "network._backbone", "network._backbone.fc", "network._loss_fn",
        "optimizer", "grad_reducer"]


def test_momentum_and_sgd_state_as_mindspore(rng):
    """Momentum and SGD keep a float32 `momentum` Parameter; SGD an `accum` and a `stat`
    (ones until the first step with momentum), whatever the momentum; AdamWeightDecay's moments
    are `adam_m` and `adam_v` (MindSpore 2.10's checkpoint keys)."""
    w, b, x, y = _data(rng)
    net = Net(w, b)
    sgd = nn.SGD(net.trainable_params(), 0.1)
    assert [p.name for p in sgd.get_parameters()] == [
        "global_step", "learning_rate", "fc.weight", "fc.bias", "momentum", "accum.fc.weight", "accum.fc.bias",
        "stat.fc.weight", "stat.fc.bias"]
    assert sgd.momentum.dtype == cellgraph.float32 and float(sgd.momentum.asnumpy()) == 0.0
    np.testing.assert_array_equal(sgd.stat[0].asnumpy(), np.ones_like(w))
    mom = nn.SGD(net.trainable_params(), 0.1, momentum=0.5)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), mom)
    train(Tensor(x), Tensor(y))
    np.testing.assert_array_equal(mom.stat[0].asnumpy(), np.zeros_like(w))
    momentum = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    assert [p.name for p in momentum.get_parameters()] == [
        "global_step", "learning_rate", "fc.weight", "fc.bias", "momentum", "moments.fc.weight", "moments.fc.bias"]
    adamw = nn.AdamWeightDecay(net.trainable_params())
    assert [p.name for p in adamw.get_parameters()][4:] == [
        "adam_m.fc.weight", "adam_m.fc.bias", "adam_v.fc.weight", "adam_v.fc.bias"]


def test_optimizer_errors(rng):
    net = Net(*_data(rng)[:2])
    params = net.trainable_params()
    with pytest.raises(ArgumentValueError, match="For 'SGD', the 'learning rate' must be >= 0, got -1"):
        nn.SGD(params, learning_rate=-1.0)
    with pytest.raises(ArgumentValueError, match="the argument parameters must not be empty"):
        nn.Adam([])
    with pytest.raises(ArgumentValueError, match="Adam: `beta1` must be in"):
        nn.Adam(params, beta1=1.0)
    twins = [nn.Dense(2, 2).weight, nn.Dense(2, 2).weight]
    with pytest.raises(ArgumentValueError, match="several Parameters are named weight"):
        nn.Momentum(twins, 0.1, 0.9)
    with pytest.raises(ArgumentValueError, match="nesterov=True needs momentum > 0"):
        nn.SGD(params, nesterov=True)
    opt = nn.Adam(params)
    with pytest.raises(ArgumentError, match="Adam: expected 2 gradients, one per parameter, "
                                            "got 1"):
        opt((Tensor(np.ones((2, 3))),))
    with pytest.raises(ShapeError, match=r"the gradient for Parameter 'fc.bias' has shape "
                                         r"\(3,\), expected \(2,\)"):
        opt((Tensor(np.ones((2, 3))), Tensor(np.ones(3))))


def test_get_lr_takes_no_step_as_mindspores():
    net = nn.Dense(2, 1)
    schedule = nn.PolynomialDecayLR(0.1, 0.01, 4, 1.0)
    opt = nn.SGD(net.trainable_params(), learning_rate=schedule)
    np.testing.assert_allclose(float(opt.get_lr().asnumpy()), 0.1, rtol=1e-6)
    with pytest.raises(TypeError):
        opt.get_lr(2)


def test_adam_takes_mindspores_keyword_options():
    net = nn.Dense(2, 1)
    lazy = nn.Adam(net.trainable_params(), use_lazy=True)
    assert lazy.use_lazy and not lazy.use_offload
    # MindSpore's errors: an unknown keyword is a KeyError
    with pytest.raises(KeyError, match="use_lazzy"):
        nn.Adam(net.trainable_params(), use_lazzy=True)
    with pytest.raises(ValueError, match="'use_lazy' and 'use_offload' can not both be True"):
        nn.Adam(net.trainable_params(), use_lazy=True, use_offload=True)
    for option in ("use_lazy", "use_offload"):
        with pytest.raises(ValueError, match="there is no parameter named 'use_amsgrad'"):
            nn.Adam(net.trainable_params(), use_amsgrad=True, **{option: True})
    with pytest.raises(TypeError, match="'use_nesterov' must be bool"):
        nn.Adam(net.trainable_params(), use_nesterov=1)
    offload = nn.AdamOffload(net.trainable_params(), learning_rate=0.01)
    assert offload.use_offload and offload.params is offload.parameters


def test_optimizer_takes_parameters_from_a_one_shot_iterator():
    # MindSpore's own tests write Adam(filter(lambda x: x.requires_grad, net.get_parameters()))
    net = nn.Dense(2, 1)
    opt = nn.Adam(filter(lambda p: p.requires_grad, net.get_parameters()), learning_rate=0.01)
    assert [p.name for p in opt.parameters] == [p.name for p in net.trainable_params()]
    momentum = nn.Momentum((p for p in net.trainable_params()), 0.1, 0.9)
    assert len(momentum.parameters) == 2


def test_train_one_step_returns_gradients_by_parameter_name():
    net = nn.Dense(4, 2)
    step = nn.TrainOneStepCell(
        nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
        nn.SGD(net.trainable_params(), 0.0), return_grad=True)
    step.set_train()
    x = np.arange(4, dtype=np.float32).reshape(1, 4)
    logits = x @ net.weight.asnumpy().T + net.bias.asnumpy()
    loss, grads = step(Tensor(x), Tensor(np.array([0], np.int32)))
    assert isinstance(grads, dict) and sorted(grads) == ["bias", "weight"]   # as MindSpore
    softmax = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    np.testing.assert_allclose(grads["bias"].asnumpy(), softmax[0] - [1.0, 0.0], rtol=1e-5)
    assert grads["weight"].shape == (2, 4) and float(loss.asnumpy()) > 0


def test_target_property_as_mindspore_has_it():
    """`opt.target` is the device target; the base refuses a new one (NotImplementedError), and
    a subclass's setter that calls `_set_base_target` (mindcv's Adan does) gets MindSpore's
    checks: only the device the program runs on is taken here."""
    net = nn.Dense(2, 2)
    momentum = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    assert momentum.target == "CPU"
    with pytest.raises(NotImplementedError):
        momentum.target = "CPU"

    class Movable(nn.Optimizer):
        @nn.Optimizer.target.setter
        def target(self, value):
            self._set_base_target(value)

    movable = Movable(0.1, net.trainable_params())
    movable.target = "CPU"
    assert movable.target == "CPU"
    with pytest.raises(ValueError, match="cannot be set to 'GPU' in the 'CPU' environment"):
        movable.target = "GPU"
    with pytest.raises(ValueError, match="must be one of"):
        movable.target = "TPU"
    with pytest.raises(TypeError, match="must be string"):
        movable.target = 1


def test_base_attributes_optimizers_written_for_mindspore_read():
    """What a MindSpore optimizer subclass reads in construct outside parallel mode."""
    net = nn.Dense(2, 2)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    assert opt.param_length == 2 and opt.optim_filter == (True, True)
    assert opt.use_parallel is False and opt.param_rank is None
    assert opt.dynamic_weight_decay is False and opt._is_dynamic_lr_or_weight_decay() is False
    scheduled = nn.Momentum(net.trainable_params(), [0.1, 0.05], 0.9)
    assert scheduled._is_dynamic_lr_or_weight_decay() is True


class _AdamWrittenAgainstMindSpore(nn.Adam):
    """An optimizer derived from Adam as MindFlow's AdaHessian is: MindSpore's construct steps,
    the beta powers updated in place, then _apply_adam."""

    def construct(self, gradients):
        params = self._parameters
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        if not self.use_offload:
            gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        gradients = self._grad_sparse_indices_deduplicate(gradients)
        lr = self.get_lr()
        self.assignadd(self.global_step, self.global_step_increase_tensor)
        self.beta1_power *= self.beta1
        self.beta2_power *= self.beta2
        return self._apply_adam(params, self.beta1_power, self.beta2_power, self.moment1,
                                self.moment2, lr, gradients)


@pytest.mark.parametrize("cls", [nn.Adam, _AdamWrittenAgainstMindSpore])
def test_adam_keeps_mindspores_beta_powers(cls):
    p = cellgraph.Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="w")
    opt = cls([p], learning_rate=0.1)
    g = Tensor(np.array([0.3, -0.2, 0.5], np.float32))
    for _ in range(3):
        opt((g,))
    # MindSpore 2.10's values for both classes
    np.testing.assert_allclose(p.asnumpy(), [0.70000124, 2.29999876, 2.70000124], rtol=1e-5)
    np.testing.assert_allclose(opt.beta1_power.asnumpy(), 0.7289999127388, rtol=1e-7)
    np.testing.assert_allclose(opt.beta2_power.asnumpy(), 0.9970030784606934, rtol=1e-7)
    assert opt.global_step.asnumpy().tolist() == [3] and opt.beta1_power.shape == ()


@pytest.mark.parametrize("options", [{}, {"use_lazy": True}, {"use_offload": True}])
def test_adam_follows_mindspores_kernel_to_the_last_bit(options):
    # MindSpore 2.10 CPU: a Dense(16, 10) with weights 0.01, three steps of Adam(lr=0.01) on one
    # example, losses exactly these float32 values (its kernel: m += (g - m)(1 - beta1), ...).
    # Equal to the bit with NumPy 2; NumPy 1.26's summation order can move the last bit of the
    # loss (one ulp, 2.4e-7 relative), which the tolerance allows and no more.
    net = nn.Dense(16, 10, weight_init=Tensor(np.full((10, 16), 0.01, np.float32)),
                   bias_init="zeros")
    optimizer = nn.Adam(filter(lambda p: p.requires_grad, net.get_parameters()),
                        learning_rate=0.01, **options)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer)
    data = Tensor(np.arange(16, dtype=np.float32).reshape(1, 16) * 0.01)
    label = Tensor(np.array([0], np.int32))
    losses = [step(data, label).asnumpy() for _ in range(3)]
    np.testing.assert_allclose(losses, np.array([2.3025851249694824, 2.263073682785034,
                                                 2.223747491836548], np.float32), rtol=2.5e-7,
                               atol=0)


def test_adafactor_counts_its_steps_in_afactor_step(rng):
    w, b, x, y = _data(rng)
    net = Net(w.astype(np.float32), b.astype(np.float32))
    net.to_float(cellgraph.float32)
    for p in net.get_parameters():
        p.set_dtype(cellgraph.float32)
    opt = nn.AdaFactor(net.trainable_params())
    assert opt.step.name == "afactor_step" and opt.step.shape == (1,)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    for _ in range(2):
        train(Tensor(x.astype(np.float32)), Tensor(y.astype(np.float32)))
    np.testing.assert_array_equal(opt.step.asnumpy(), [2.0])


def test_adam_holds_mindspores_update_operations_for_subclasses():
    """MindSpore's Adam and LazyAdam keep their update primitives as `opt` and `sparse_opt`
    (the sparse one set to run on the CPU), which subclasses call in their construct."""
    from cellgraph import ops

    params = nn.Dense(3, 2).trainable_params()
    adam, lazy = nn.Adam(params), nn.LazyAdam(params)
    assert isinstance(adam.opt, ops.Adam) and isinstance(adam.sparse_opt, ops.FusedSparseAdam)
    assert isinstance(lazy.opt, ops.Adam)
    assert isinstance(lazy.sparse_opt, ops.FusedSparseLazyAdam)
    assert isinstance(nn.Adam(params, use_amsgrad=True).opt, ops.ApplyAdamWithAmsgradV2)
