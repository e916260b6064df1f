"""nn.Optimizer's attributes as MindSpore's base lays them out, so that optimizers written
against MindSpore's base run unchanged. Expected values recorded from MindSpore 2.10 (CPU)
running the same programs."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops


class MyMomentum(nn.Optimizer):
    """The optimizer of MindSpore's nn.Optimizer docstring, with group rates."""

    def __init__(self, params, learning_rate, momentum=0.9, weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.moments = self.parameters.clone(prefix="moments", init="zeros")
        self.momentum = momentum
        self.opt = ops.ApplyMomentum()

    def construct(self, gradients):
        params = self.parameters
        lr = self.get_lr()
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        self.assignadd(self.global_step, self.global_step_increase_tensor)
        success = None
        if self.is_group_lr:
            for param, mom, grad, rate in zip(params, self.moments, gradients, lr):
                success = self.opt(param, mom, rate, grad, self.momentum)
        else:
            for param, mom, grad in zip(params, self.moments, gradients):
                success = self.opt(param, mom, lr, grad, self.momentum)
        return success


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        w1 = np.sin(np.arange(128.0)).reshape(32, 4).astype(np.float32) * 0.3
        w2 = np.cos(np.arange(32.0)).reshape(1, 32).astype(np.float32) * 0.2
        self.fc = nn.Dense(4, 32, weight_init=Tensor(w1), bias_init="zeros")
        self.out = nn.Dense(32, 1, weight_init=Tensor(w2), bias_init="zeros")

    def construct(self, x):
        return self.out(self.fc(x))


# (losses of 3 steps, fc.weight[:2, :2], out.bias) from MindSpore 2.10
USER_OPTIMIZER_CASES = {
    "loss_scale_and_decay": ([0.10808858275413513, 0.1025398001074791, 0.09314937144517899],
                             [[-0.003184033092111349, 0.2482149600982666],
                              [-0.22751358151435852, -0.2876059114933014]],
                             0.010313513688743114),
    "dynamic_group_rates": ([0.10808858275413513, 0.10102381557226181, 0.09186752885580063],
                            [[-0.00302592059597373, 0.2497704029083252],
                             [-0.2286907434463501, -0.2891336679458618]],
                            0.010305024683475494),
    "fixed_group_rates": ([0.10808858275413513, 0.10102381557226181, 0.08945703506469727],
                          [[-0.0062911491841077805, 0.2468947023153305],
                           [-0.2304881364107132, -0.2907164990901947]],
                          0.01029287837445736),
}


@pytest.mark.parametrize("case", sorted(USER_OPTIMIZER_CASES))
def test_an_optimizer_written_against_mindspores_base_trains_as_there(case):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Net()
    if case == "loss_scale_and_decay":
        opt = MyMomentum(net.trainable_params(), 0.01, weight_decay=0.1, loss_scale=2.0)
    elif case == "dynamic_group_rates":
        opt = MyMomentum([{"params": [net.fc.weight], "lr": [0.02, 0.01, 0.005],
                           "grad_centralization": True},
                          {"params": [net.fc.bias, net.out.weight], "weight_decay": 0.05},
                          {"params": [net.out.bias]}], 0.01)
    else:
        opt = MyMomentum([{"params": [net.fc.weight], "lr": 0.02},
                          {"params": [net.fc.bias, net.out.weight, net.out.bias],
                           "weight_decay": 0.05}], 0.01)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt,
                                sens=2.0 if case == "loss_scale_and_decay" else 1.0)
    x = Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
    y = Tensor(np.array([[0.5], [-0.2], [0.1]], np.float32))
    losses = [float(train(x, y).asnumpy()) for _ in range(3)]
    want_losses, want_weight, want_bias = USER_OPTIMIZER_CASES[case]
    np.testing.assert_allclose(losses, want_losses, rtol=1e-5)
    np.testing.assert_allclose(net.fc.weight.asnumpy()[:2, :2], want_weight, rtol=1e-5,
                               atol=1e-7)
    np.testing.assert_allclose(net.out.bias.asnumpy(), [want_bias], rtol=1e-5)
    assert opt.global_step.shape == (1,) and opt.global_step.asnumpy().tolist() == [3]


def _two_layers():
    class Two(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = nn.Dense(4, 32)
            self.out = nn.Dense(32, 1)

    two = Two()
    return two.net, two.out


def test_group_attributes_as_mindspore_holds_them():
    net, out = _two_layers()
    opt = nn.Momentum([{"params": [net.weight], "lr": [0.02, 0.01, 0.005],
                        "grad_centralization": True},
                       {"params": [net.bias, out.weight], "weight_decay": 0.05},
                       {"params": [out.bias]},
                       {"order_params": [out.bias, net.weight, net.bias, out.weight]}], 0.01, 0.9)
    assert (opt.is_group, opt.is_group_lr, opt.dynamic_lr, opt.is_group_params_ordered) == \
        (True, True, True, True)
    assert [p.name for p in opt.parameters] == ["out.bias", "net.weight", "net.bias",
                                                "out.weight"]
    # a dynamic group rate makes every rate a Cell of the step, one per parameter
    assert isinstance(opt.learning_rate, nn.CellList) and len(opt.learning_rate) == 4
    assert [type(c).__name__ for c in opt.learning_rate] == [
        "_ConvertToCell", "_IteratorLearningRate", "_ConvertToCell", "_ConvertToCell"]
    assert [c.learning_rate.name for c in opt.learning_rate] == [
        "learning_rate", "learning_rate_group_0", "learning_rate", "learning_rate"]
    np.testing.assert_allclose([float(w.asnumpy()) for w in opt.weight_decay],
                               [0.0, 0.0, 0.05, 0.05])
    assert opt.decay_flags == (False, False, True, True) and opt.exec_weight_decay
    assert opt.grad_centralization_flags == (False, True, False, False)
    assert opt.global_step.shape == (1,) and opt.global_step.dtype == ms.int32
    assert opt.get_lr_parameter(net.weight).name == "learning_rate_group_0"
    assert opt.get_lr_parameter([out.bias])[0].name == "learning_rate"
    np.testing.assert_allclose([float(v.asnumpy()) for v in opt.get_lr()],
                               [0.01, 0.02, 0.01, 0.01], rtol=1e-5)


def test_fixed_group_rates_are_a_parameter_tuple_and_weight_decay_is_scaled():
    net, _ = _two_layers()
    opt = nn.SGD([{"params": [net.weight], "lr": 0.02},
                  {"params": [net.bias], "weight_decay": 0.1}], 0.01, weight_decay=0.0,
                 loss_scale=4.0)
    assert isinstance(opt.learning_rate, ms.ParameterTuple)
    assert [p.name for p in opt.learning_rate] == ["learning_rate_group_0", "learning_rate"]
    assert opt.get_lr() is opt.learning_rate and not opt.dynamic_lr
    # the weight decay is added to gradients still scaled by the loss scale
    np.testing.assert_allclose([float(w.asnumpy()) for w in opt.weight_decay], [0.0, 0.4])
    assert opt.decay_flags == (False, True)
    plain = nn.Momentum(net.trainable_params(), 0.1, 0.9, weight_decay=0.1, loss_scale=2.0)
    assert isinstance(plain.weight_decay, Tensor)
    np.testing.assert_allclose(float(plain.weight_decay.asnumpy()), 0.2)
    assert isinstance(plain.learning_rate, Parameter) and plain.learning_rate.name == \
        "learning_rate"


class _StepDecay(nn.Cell):
    def construct(self, step):
        return 0.1 * ops.cast(step, ms.float32)


def test_weight_decay_given_as_a_cell_of_the_step():
    w = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")
    opt = nn.Momentum([w], learning_rate=0.5, momentum=0.5, weight_decay=_StepDecay())
    assert opt.dynamic_weight_decay and opt.exec_weight_decay and opt.dynamic_decay_flags
    assert type(opt.weight_decay).__name__ == "_WrappedWeightDecay"
    for _ in range(3):
        opt((Tensor(np.full((2, 2), 0.5, np.float32)),))
    np.testing.assert_allclose(w.asnumpy(), np.full((2, 2), -0.1525000035762787), rtol=1e-6)
    with pytest.raises(TypeError, match="dynamic weight decay is currently not supported"):
        nn.SGD([w], weight_decay=_StepDecay())


def test_errors_as_mindspore_raises_them():
    w = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")
    b = Parameter(Tensor(np.ones((2,), np.float32)), name="b")
    cases = [
        (RuntimeError, "the w parameter already exists", [{"params": [w]}, {"params": [w]}], {}),
        (ValueError, "must be the same size as the argument 'learning_rate'",
         [{"params": [w], "lr": [0.1, 0.2]}, {"params": [b], "lr": [0.1]}], {}),
        (KeyError, "the key in group params must be one of", [{"params": [w], "momentum": 1}],
         {}),
        (TypeError, "must be 'Parameter' or 'dict'", [w, {"params": [b]}], {}),
        (ValueError, "can not be None", None, {}),
        (ValueError, "must not be empty", [], {}),
        (TypeError, "must be Iterable type", 5, {}),
        (TypeError, "must be int, float, Tensor, Iterable or LearningRateSchedule", [w],
         {"learning_rate": np.array(1)}),
        (ValueError, "the dimension of it should be 0 or 1, but got 2", [w],
         {"learning_rate": Tensor(np.ones((2, 2)))}),
        (TypeError, "'weight_decay' must be int, float or Cell", [w], {"weight_decay": "x"}),
        (ValueError, "'loss_scale' must be > 0", [w], {"loss_scale": 0.0}),
        (TypeError, "'loss_scale' must be float", [w], {"loss_scale": "a"}),
    ]
    for error, message, params, kwargs in cases:
        with pytest.raises(error, match=message):
            nn.SGD(params, **kwargs)


def test_a_one_shot_iterable_of_groups_params_is_read_once():
    net, _ = _two_layers()
    opt = nn.SGD([{"params": filter(lambda p: "weight" in p.name, net.trainable_params()),
                   "lr": 0.2},
                  {"params": iter([net.bias])}], 0.1)
    assert [p.name for p in opt.parameters] == ["net.weight", "net.bias"]
    assert [p.name for p in opt.learning_rate] == ["learning_rate_group_0", "learning_rate"]


def test_the_base_construct_and_a_bare_parameter_as_mindspore():
    w = Parameter(Tensor(np.ones((2,), np.float32)), name="w")
    with pytest.raises(NotImplementedError):
        nn.Optimizer(0.5, [w]).construct()
    # MindSpore iterates a lone Parameter into Tensors and refuses them
    with pytest.raises(TypeError, match="pass \\[w\\]"):
        nn.SGD(w)
    with pytest.raises(TypeError, match="pass \\[w\\]"):
        nn.SGD([{"params": w}])
    with pytest.raises(ValueError):
        nn.Optimizer(-0.5, [w])


@pytest.mark.parametrize("kwargs", [{"momentum": 1}, {"decay": 1}, {"epsilon": 1},
                                    {"centered": 1}, {"use_locking": 0}])
def test_rmsprop_takes_floats_and_bools_only_as_mindspore(kwargs):
    w = Parameter(Tensor(np.ones((2,), np.float32)), name="w")
    with pytest.raises(TypeError, match=f"'{next(iter(kwargs))}' must be"):
        nn.RMSProp([w], **kwargs)


class _UserSGD(nn.Optimizer):
    """mindcv's way: get_lr overridden, iterating the per-parameter rate Cells and counting
    the step itself."""

    def get_lr(self):
        lr = self.learning_rate
        if self.dynamic_lr:
            if self.is_group_lr:
                lr = ()
                for learning_rate in self.learning_rate:
                    current_dynamic_lr = learning_rate(self.global_step).reshape(())
                    lr += (current_dynamic_lr,)
            else:
                lr = self.learning_rate(self.global_step).reshape(())
        if self._is_dynamic_lr_or_weight_decay():
            self.assignadd(self.global_step, self.global_step_increase_tensor)
        return lr

    def construct(self, gradients):
        lr = self.get_lr()
        gradients = self.decay_weight(gradients)
        out = ()
        for i in range(len(self.parameters)):
            param = self.parameters[i]
            rate = lr[i] if self.is_group_lr else lr
            out += (ops.assign(param, param - rate * gradients[i]),)
        return out


def test_a_user_get_lr_over_schedule_and_list_group_rates():
    w = Parameter(Tensor(np.ones((2,), np.float32)), name="w")
    b = Parameter(Tensor(np.ones((2,), np.float32)), name="b")
    opt = _UserSGD([0.2, 0.1, 0.05],
                   [{"params": [w], "lr": nn.ExponentialDecayLR(0.1, 0.5, 1)},
                    {"params": [b], "weight_decay": 0.1}])
    grads = (Tensor(np.full((2,), 1.0, np.float32)), Tensor(np.full((2,), 2.0, np.float32)))
    for _ in range(3):
        opt(grads)
    # MindSpore 2.10's values
    np.testing.assert_allclose(w.asnumpy(), [0.824999988079071] * 2, rtol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), [0.27232903242111206] * 2, rtol=1e-6)
    assert opt.global_step.asnumpy().tolist() == [3]
