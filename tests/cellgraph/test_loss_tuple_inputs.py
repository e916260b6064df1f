"""A tuple handed to a loss Cell (a network that returns (logits, aux_logits) in training,
trained through WithLossCell) raises TypeError, as MindSpore 2.10's primitives reject it, before
any check reads a dtype or a shape; NLLLoss raises AttributeError there, as MindSpore's does."""
import numpy as np
import pytest

from cellgraph import Tensor, nn

X = Tensor(np.full((2, 3), 0.5, np.float32))
T = Tensor(np.full((2, 3), 0.25, np.float32))
Y = Tensor(np.array([1, 2], np.int32))

# MindSpore 2.10 raises TypeError for each of these, with the tuple as logits or as labels
LOSSES = [
    (lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), Y),
    (nn.SoftmaxCrossEntropyWithLogits, T),
    (nn.L1Loss, T), (nn.MSELoss, T), (nn.SmoothL1Loss, T), (nn.BCELoss, T),
    (nn.BCEWithLogitsLoss, T), (nn.CrossEntropyLoss, Y), (nn.HuberLoss, T),
    (nn.KLDivLoss, T), (nn.SoftMarginLoss, T), (nn.FocalLoss, Y),
]


@pytest.mark.parametrize("make, labels", LOSSES)
def test_tuple_logits_raise_type_error(make, labels):
    with pytest.raises(TypeError):
        make()((X, X), labels)


@pytest.mark.parametrize("make, labels", LOSSES)
def test_tuple_labels_raise_type_error(make, labels):
    with pytest.raises(TypeError):
        make()(X, (labels, labels))


def test_nll_loss_tuple_raises_attribute_error():
    with pytest.raises(AttributeError):
        nn.NLLLoss()((X, X), Y)


class _TwoHeads(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)
        self.aux = nn.Dense(4, 3)

    def construct(self, x):
        return self.fc(x), self.aux(x)


def test_training_a_two_headed_network_raises_type_error():
    net = _TwoHeads()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                                nn.Momentum(net.trainable_params(), 0.001, 0.9))
    with pytest.raises(TypeError, match="SoftmaxCrossEntropyWithLogits: logits and labels must"):
        train(Tensor(np.ones((2, 4), np.float32)), Y)
