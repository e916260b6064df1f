"""The model zoo's BERT fine-tuning set-up on a tiny classifier: a LearningRateSchedule subclass
mixing WarmUpLR and PolynomialDecayLR through ops.Greater and a cast, AdamWeightDecay with
parameter groups chosen by a decay filter, and a TrainOneStepWithLossScaleCell subclass whose
construct scales the sens, divides and clips gradients with HyperMap over MultitypeFuncGraphs
(clip_by_value with F.tuple_to_array bounds, or nn.ClipByNorm), checks overflow with
start_overflow_check/get_overflow_status, lets the DynamicLossScaleUpdateCell decide, and
calls the optimizer under `if not overflow`."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn
from cellgraph import dtype as mstype
from cellgraph.ops import composite as C
from cellgraph.ops import functional as F
from cellgraph.ops import operations as P

GRADIENT_CLIP_TYPE = 1
GRADIENT_CLIP_VALUE = 1.0

clip_grad = C.MultitypeFuncGraph("clip_grad")


@clip_grad.register("Number", "Number", "Tensor")
def _clip_grad(clip_type, clip_value, grad):
    if clip_type not in (0, 1):
        return grad
    dt = F.dtype(grad)
    if clip_type == 0:
        new_grad = C.clip_by_value(grad, F.cast(F.tuple_to_array((-clip_value,)), dt),
                                   F.cast(F.tuple_to_array((clip_value,)), dt))
    else:
        new_grad = nn.ClipByNorm()(grad, F.cast(F.tuple_to_array((clip_value,)), dt))
    return new_grad


grad_scale = C.MultitypeFuncGraph("grad_scale")
reciprocal = P.Reciprocal()


@grad_scale.register("Tensor", "Tensor")
def tensor_grad_scale(scale, grad):
    return grad * reciprocal(scale)


class BertLearningRate(nn.learning_rate_schedule.LearningRateSchedule):
    def __init__(self, learning_rate, end_learning_rate, warmup_steps, decay_steps, power):
        super().__init__()
        self.warmup_flag = False
        if warmup_steps > 0:
            self.warmup_flag = True
            self.warmup_lr = nn.WarmUpLR(learning_rate, warmup_steps)
        self.decay_lr = nn.PolynomialDecayLR(learning_rate, end_learning_rate, decay_steps,
                                             power)
        self.warmup_steps = Tensor(np.array([warmup_steps]).astype(np.float32))
        self.greater = P.Greater()
        self.one = Tensor(np.array([1.0]).astype(np.float32))
        self.cast = P.Cast()

    def construct(self, global_step):
        decay_lr = self.decay_lr(global_step)
        if self.warmup_flag:
            is_warmup = self.cast(self.greater(self.warmup_steps, global_step), mstype.float32)
            warmup_lr = self.warmup_lr(global_step)
            lr = (self.one - is_warmup) * decay_lr + is_warmup * warmup_lr
        else:
            lr = decay_lr
        return lr


class Classifier(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(6, 16, activation="gelu")
        self.layernorm = nn.LayerNorm((16,))
        self.out = nn.Dense(16, 2)

    def construct(self, x):
        return self.out(self.layernorm(self.dense(x)))


class ClassifierLoss(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, x, label):
        return self.loss(self.net(x), label)


class BertFinetuneCell(nn.TrainOneStepWithLossScaleCell):
    def __init__(self, network, optimizer, scale_update_cell=None):
        super().__init__(network, optimizer, scale_update_cell)
        self.cast = P.Cast()

    def construct(self, x, label, sens=None):
        weights = self.weights
        loss = self.network(x, label)
        if sens is None:
            scaling_sens = self.scale_sense
        else:
            scaling_sens = sens
        status, scaling_sens = self.start_overflow_check(loss, scaling_sens)
        grads = self.grad(self.network, weights)(x, label,
                                                 self.cast(scaling_sens, mstype.float32))
        grads = self.hyper_map(F.partial(grad_scale, scaling_sens), grads)
        grads = self.hyper_map(F.partial(clip_grad, GRADIENT_CLIP_TYPE, GRADIENT_CLIP_VALUE),
                               grads)
        cond = self.get_overflow_status(status, grads)
        overflow = cond
        if sens is None:
            overflow = self.process_loss_scale(cond)
        if not overflow:
            self.optimizer(grads)
        return (loss, cond, scaling_sens)


def make_data(n=48, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 6)).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 0).astype(np.int32)
    return Tensor(x), Tensor(y)


def make_optimizer(net, lr):
    params = net.trainable_params()
    decay_filter = lambda x: "layernorm" not in x.name.lower() and "bias" not in x.name.lower()
    decay_params = list(filter(decay_filter, params))
    other_params = list(filter(lambda x: not decay_filter(x), params))
    group_params = [{"params": decay_params, "weight_decay": 0.01},
                    {"params": other_params, "weight_decay": 0.0},
                    {"order_params": params}]
    return nn.AdamWeightDecay(group_params, lr, eps=1e-6)


def test_bert_learning_rate_warms_up_then_decays():
    lr = BertLearningRate(0.1, 0.0, warmup_steps=4, decay_steps=10, power=1.0)
    values = [lr(Tensor(step, mstype.int32)).asnumpy().item() for step in range(12)]
    expected = [0.1 * s / 4 if s < 4 else 0.1 * (1 - s / 10) if s < 10 else 0.0
                for s in range(12)]
    np.testing.assert_allclose(values, expected, rtol=1e-5, atol=1e-7)


def test_clip_grad_by_norm_and_value():
    grad = Tensor(np.array([3.0, 4.0], np.float32))
    np.testing.assert_allclose(_clip_grad(1, 1.0, grad).asnumpy(), [0.6, 0.8], rtol=1e-6)
    np.testing.assert_allclose(_clip_grad(0, 1.0, grad).asnumpy(), [1.0, 1.0])
    np.testing.assert_allclose(_clip_grad(2, 1.0, grad).asnumpy(), [3.0, 4.0])


@pytest.mark.filterwarnings("ignore:invalid value encountered")
def test_finetune_cell_trains_and_skips_overflowing_steps():
    ms.set_seed(0)
    net = Classifier()
    loss_net = ClassifierLoss(net)
    lr = BertLearningRate(0.02, 0.0, warmup_steps=3, decay_steps=60, power=1.0)
    optimizer = make_optimizer(net, lr)
    update_cell = nn.DynamicLossScaleUpdateCell(loss_scale_value=2 ** 10, scale_factor=2,
                                                scale_window=5)
    cell = BertFinetuneCell(loss_net, optimizer, scale_update_cell=update_cell)
    cell.set_train()
    x, y = make_data()
    first = None
    for step in range(40):
        loss, overflow, _ = cell(x, y)
        assert not bool(overflow.asnumpy())
        first = first if first is not None else float(loss.asnumpy())
    assert float(loss.asnumpy()) < 0.5 * first
    # no overflow in 40 steps: the scale doubled every 5 steps
    assert float(cell.scale_sense.asnumpy()) == 2.0 ** (10 + 40 // 5)

    # an infinite sens overflows: the weights stay, the fixed-sens path skips the update
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    _, overflow, _ = cell(x, y, Tensor(np.float32(np.inf)))
    assert bool(overflow.asnumpy())
    for b, p in zip(before, net.trainable_params()):
        np.testing.assert_array_equal(b, p.asnumpy())
    assert isinstance(cell.scale_sense, Parameter)
