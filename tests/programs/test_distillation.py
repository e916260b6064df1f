"""Knowledge distillation as scripts write it: a frozen teacher (requires_grad=False on every
parameter, set_train(False)), a student trained on a mix of the hard-label cross entropy and
nn.KLDivLoss between temperature-softened log-probabilities, ops.stop_gradient on the teacher's
logits, a custom WithLossCell taking both networks, and nn.TrainOneStepCell; the distillation
loss and its gradient are checked against NumPy."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

T = 2.0
ALPHA = 0.7


class MLP(nn.Cell):
    def __init__(self, hidden):
        super().__init__()
        self.fc1 = nn.Dense(5, hidden)
        self.fc2 = nn.Dense(hidden, 3)

    def construct(self, x):
        return self.fc2(ops.relu(self.fc1(x)))


class DistillLoss(nn.Cell):
    def __init__(self, student, teacher, temperature=T, alpha=ALPHA):
        super().__init__(auto_prefix=False)
        self.student = student
        self.teacher = teacher
        self.t = temperature
        self.alpha = alpha
        self.kl = nn.KLDivLoss(reduction="batchmean")
        self.ce = nn.CrossEntropyLoss()
        self.log_softmax = nn.LogSoftmax(axis=1)
        self.softmax = nn.Softmax(axis=1)

    def construct(self, x, label):
        student_logits = self.student(x)
        teacher_logits = ops.stop_gradient(self.teacher(x))
        soft_loss = self.kl(self.log_softmax(student_logits / self.t),
                            self.softmax(teacher_logits / self.t)) * (self.t ** 2)
        hard_loss = self.ce(student_logits, label)
        return self.alpha * soft_loss + (1 - self.alpha) * hard_loss


def np_log_softmax(z):
    z = z - z.max(1, keepdims=True)
    return z - np.log(np.exp(z).sum(1, keepdims=True))


def np_distill(student_logits, teacher_logits, label):
    log_p = np_log_softmax(student_logits / T)
    q = np.exp(np_log_softmax(teacher_logits / T))
    soft = (q * (np.log(q) - log_p)).sum() / len(label) * T ** 2
    hard = -np_log_softmax(student_logits)[np.arange(len(label)), label].mean()
    return ALPHA * soft + (1 - ALPHA) * hard


def make_data(n=32, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 5)).astype(np.float32)
    label = (x[:, :3] + 0.3 * rng.normal(size=(n, 3))).argmax(1).astype(np.int32)
    return x, label


def freeze(net):
    for p in net.get_parameters():
        p.requires_grad = False
    net.set_train(False)


def test_distillation_loss_and_logit_gradient_match_numpy():
    x, label = make_data()
    student, teacher = MLP(8), MLP(16)
    freeze(teacher)
    loss_net = DistillLoss(student, teacher)
    s = student(Tensor(x)).asnumpy().astype(np.float64)
    t = teacher(Tensor(x)).asnumpy().astype(np.float64)
    np.testing.assert_allclose(loss_net(Tensor(x), Tensor(label)).asnumpy(),
                               np_distill(s, t, label), rtol=1e-5)

    def on_logits(logits):
        return loss_net.alpha * loss_net.kl(loss_net.log_softmax(logits / T),
                                            loss_net.softmax(Tensor(t, ms.float32) / T)) \
            * T ** 2 + (1 - ALPHA) * loss_net.ce(logits, Tensor(label))

    grad = ops.grad(on_logits)(Tensor(s, ms.float32)).asnumpy()
    p_s, p_t = np.exp(np_log_softmax(s / T)), np.exp(np_log_softmax(t / T))
    onehot = np.eye(3)[label]
    expected = (ALPHA * T * (p_s - p_t) + (1 - ALPHA) * (np.exp(np_log_softmax(s)) - onehot)) \
        / len(label)
    np.testing.assert_allclose(grad, expected, rtol=1e-4, atol=1e-6)


def test_student_learns_and_teacher_stays_frozen():
    ms.set_seed(0)
    x, label = make_data(64)
    teacher = MLP(16)
    teacher_opt = nn.Adam(teacher.trainable_params(), learning_rate=0.02)
    teacher_step = nn.TrainOneStepCell(nn.WithLossCell(teacher, nn.CrossEntropyLoss()),
                                       teacher_opt)
    for _ in range(60):
        teacher_step(Tensor(x), Tensor(label))
    freeze(teacher)
    assert teacher.trainable_params() == []
    frozen = [p.asnumpy().copy() for p in teacher.get_parameters()]

    student = MLP(8)
    loss_net = DistillLoss(student, teacher)
    assert len(loss_net.trainable_params()) == 4
    opt = nn.Momentum(loss_net.trainable_params(), learning_rate=0.05, momentum=0.9)
    train = nn.TrainOneStepCell(loss_net, opt)
    train.set_train()
    losses = [float(train(Tensor(x), Tensor(label)).asnumpy()) for _ in range(60)]
    assert losses[-1] < 0.5 * losses[0]
    for before, p in zip(frozen, teacher.get_parameters()):
        np.testing.assert_array_equal(before, p.asnumpy())
    agree = (student(Tensor(x)).argmax(1) == teacher(Tensor(x)).argmax(1)).asnumpy().mean()
    assert agree > 0.85
    with pytest.raises(ValueError):
        nn.KLDivLoss(reduction="sum_all")
