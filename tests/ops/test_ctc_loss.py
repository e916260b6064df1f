"""ops.CTCLoss (MindSpore's first CTC primitive: unnormalised scores, the last class the blank,
sparse labels) against MindSpore 2.10: losses, the gradient output, the gradient through it and
the kernel's errors, recorded from it."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops
from cellgraph.ops import operations as P

# batch entry 0: labels 1 1 2 over 5 steps; entry 1: 0 2 over 4; entry 2: 1 over 2
INDICES = np.array([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [2, 0]], np.int64)
VALUES = np.array([1, 1, 2, 0, 2, 1], np.int32)
LENGTHS = np.array([5, 4, 2], np.int32)


def _scores():
    return np.random.RandomState(0).standard_normal((5, 3, 4)).astype(np.float32)


def _ctc(x, indices=INDICES, values=VALUES, lengths=LENGTHS, **flags):
    return P.CTCLoss(**flags)(Tensor(x), Tensor(indices), Tensor(values), Tensor(lengths))


def test_docstring_example():
    x = np.array([[[0.3, 0.6, 0.6], [0.4, 0.3, 0.9]],
                  [[0.9, 0.4, 0.2], [0.9, 0.9, 0.1]]], np.float32)
    loss, gradient = _ctc(x, np.array([[0, 0], [1, 0]], np.int64), np.array([2, 2], np.int32),
                          np.array([2, 2], np.int32))
    np.testing.assert_allclose(loss.asnumpy(), [0.79628, 0.5995158], rtol=1e-5)
    np.testing.assert_allclose(gradient.asnumpy(), [
        [[0.27029088, 0.36485454, -0.6351454], [0.28140804, 0.25462854, -0.5360366]],
        [[0.47548494, 0.2883962, 0.04510255], [0.4082751, 0.4082751, 0.02843709]]],
        rtol=1e-5, atol=1e-6)


# MindSpore 2.10's losses for each combination of the flags
@pytest.mark.parametrize("flags, expected", [
    ({}, [7.55074405670166, 2.576319694519043, 1.1668992042541504]),
    ({"ctc_merge_repeated": False}, [7.1599626541137695, 3.8024721145629883, 1.4474889039993286]),
    ({"preprocess_collapse_repeated": True},
     [5.87205696105957, 2.576319694519043, 1.1668992042541504]),
    ({"preprocess_collapse_repeated": True, "ctc_merge_repeated": False},
     [6.528149127960205, 3.8024721145629883, 1.4474889039993286]),
])
def test_losses_as_mindspore(flags, expected):
    loss, gradient = _ctc(_scores(), **flags)
    np.testing.assert_allclose(loss.asnumpy(), expected, rtol=1e-5)
    assert gradient.shape == (5, 3, 4)
    # past each entry's sequence length the gradient is zero
    assert not gradient.asnumpy()[4, 1:].any() and not gradient.asnumpy()[2:, 2].any()


def test_gradient_output_as_mindspore():
    _, gradient = _ctc(_scores())
    g = gradient.asnumpy()
    np.testing.assert_allclose(g[:, 0], [
        [0.30096766352653503, -0.24476373195648193, 0.1372341364622116, -0.1934381127357483],
        [0.34387198090553284, -0.6044984459877014, 0.2504088580608368, 0.0102175772190094],
        [0.8210132122039795, -0.061185285449028015, 0.0888138860464096, -0.8486419916152954],
        [0.4189673960208893, -0.5490394234657288, 0.04790792241692543, 0.08216381818056107],
        [0.06893660128116608, 0.2798754870891571, -0.8310381770133972, 0.48222556710243225]],
        rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(g[:2, 2], [
        [0.11495472490787506, -0.11308452486991882, 0.14720125496387482, -0.14907151460647583],
        [0.016050977632403374, -0.5430304408073425, 0.48940759897232056, 0.037571750581264496]],
        rtol=1e-5, atol=1e-6)
    # each step's gradient sums to zero over the classes (softmax minus a posterior)
    np.testing.assert_allclose(g.sum(-1), 0, atol=1e-6)


def test_merge_repeated_off_gradient_as_mindspore():
    _, gradient = _ctc(_scores(), ctc_merge_repeated=False)
    np.testing.assert_allclose(gradient.asnumpy()[:2, 1], [
        [-0.1483260989189148, 0.03655758500099182, 0.2512013614177704, -0.13943269848823547],
        [0.40994447469711304, 0.11532134562730789, -0.42455750703811646, -0.10070813447237015]],
        rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", [cg.PYNATIVE_MODE, cg.GRAPH_MODE])
def test_grad_scales_the_gradient_output(mode):
    """d sum(loss * w) / dx is the gradient output scaled per batch entry, as in MindSpore."""
    cg.set_context(mode=mode)
    try:
        w = Tensor(np.array([1.0, -2.0, 0.5], np.float32))
        indices, values, lengths = Tensor(INDICES), Tensor(VALUES), Tensor(LENGTHS)

        def f(x):
            return (P.CTCLoss()(x, indices, values, lengths)[0] * w).sum()

        dx = cg.grad(f)(Tensor(_scores())).asnumpy()
    finally:
        cg.set_context(mode=cg.PYNATIVE_MODE)
    np.testing.assert_allclose(dx[1], [
        [0.34387198090553284, -0.6044984459877014, 0.2504088580608368, 0.0102175772190094],
        [-0.018827080726623535, -0.23064269125461578, 0.27320653200149536,
         -0.02373644709587097],
        [0.008025488816201687, -0.27151522040367126, 0.24470379948616028,
         0.018785875290632248]], rtol=1e-5, atol=1e-6)
    _, gradient = _ctc(_scores())
    np.testing.assert_allclose(dx, gradient.asnumpy() * np.array([1, -2, 0.5])[:, None],
                               rtol=1e-6, atol=1e-7)


def test_training_step_through_a_loss_cell():
    """A Cell whose loss is CTCLoss's first output trains (the CRNN zoo model's pattern)."""
    class Loss(nn.Cell):
        def __init__(self):
            super().__init__()
            self.ctc = P.CTCLoss()
            self.indices = Tensor(INDICES)
            self.lengths = Tensor(LENGTHS)

        def construct(self, logits, label):
            return self.ctc(logits, self.indices, label, self.lengths)[0]

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = cg.Parameter(Tensor(np.ones((1, 1, 4), np.float32)), name="w")

        def construct(self, x):
            return x * self.w

    net = Net()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, Loss()), nn.SGD(net.trainable_params(), 0.1))
    first = train(Tensor(_scores()), Tensor(VALUES)).asnumpy()
    second = train(Tensor(_scores()), Tensor(VALUES)).asnumpy()
    np.testing.assert_allclose(first, [7.55074405670166, 2.576319694519043, 1.1668992042541504],
                               rtol=1e-5)
    assert second.sum() < first.sum()


def test_infeasible_and_ignored_entries_as_mindspore():
    x = _scores()[:, :1]
    # "1 1" needs three steps (a blank between); two are given: infinite loss, zero gradient
    loss, gradient = _ctc(x, np.array([[0, 0], [0, 1]], np.int64), np.array([1, 1], np.int32),
                          np.array([2], np.int32))
    assert np.isinf(loss.asnumpy()).all() and not gradient.asnumpy().any()
    # more labels than steps, ignored by the flag: the same
    loss, gradient = _ctc(x, np.array([[0, 0], [0, 1], [0, 2]], np.int64),
                          np.array([1, 1, 2], np.int32), np.array([2], np.int32),
                          ignore_longer_outputs_than_inputs=True)
    assert np.isinf(loss.asnumpy()).all() and not gradient.asnumpy().any()


def test_trailing_blank_labels_are_dropped():
    x = _scores()[:, :1]
    loss, _ = _ctc(x, np.array([[0, 0], [0, 1]], np.int64), np.array([1, 3], np.int32),
                   np.array([4], np.int32))
    np.testing.assert_allclose(loss.asnumpy(), [5.1235833], rtol=1e-5)


def test_an_entry_without_labels_as_mindspore():
    """MindSpore's kernel starts the backward variables of an entry without labels at its last
    two steps, so its loss reads -(log y_blank(0) + ... + log(1 + y_blank(T-1))): kept."""
    x = np.random.default_rng(3).normal(size=(4, 3, 3)).astype(np.float32)
    loss, gradient = _ctc(x, np.array([[0, 0], [0, 1], [1, 0]], np.int64),
                          np.array([0, 0, 1], np.int32), np.array([4, 3, 2], np.int32))
    np.testing.assert_allclose(loss.asnumpy(),
                               [3.030107259750366, 2.276369571685791, 0.9352937936782837],
                               rtol=1e-6)
    np.testing.assert_allclose(gradient.asnumpy()[:2, 2], [
        [0.09851139783859253, 0.5888820886611938, -0.6873934864997864],
        [0.2193981558084488, 0.5251240134239197, 0.05198730528354645]], rtol=1e-5, atol=1e-6)


def test_float16_and_float64():
    loss16, _ = _ctc(_scores().astype(np.float16))
    assert loss16.dtype == cg.float16
    np.testing.assert_allclose(loss16.asnumpy(), [7.547, 2.58, 1.167], rtol=1e-3)
    # MindSpore's CPU kernel computes float64 scores in float32
    loss64, _ = _ctc(_scores()[:, :1].astype(np.float64), np.array([[0, 0]], np.int64),
                     np.array([1], np.int32), np.array([4], np.int32))
    assert loss64.dtype == cg.float64
    np.testing.assert_allclose(loss64.asnumpy(), [5.12358332], rtol=1e-7)


def test_flags_must_be_bools():
    with pytest.raises(TypeError, match="For 'CTCLoss', the type of 'ctc_merge_repeated' "
                                        "should be 'bool', but got type 'int'"):
        P.CTCLoss(ctc_merge_repeated=1)


def test_operand_types_are_checked():
    with pytest.raises(TypeError, match=r"the input argument\[labels_indices\] must be a type "
                                        r"of \{Tensor\[Int64\]\}, but got Tensor\[Int32\]"):
        _ctc(_scores(), INDICES.astype(np.int32))


@pytest.mark.parametrize("indices, values, lengths, message", [
    ([[0, 0], [0, 1], [0, 2]], [1, 1, 2], [2],
     ("input time\\(sequence length\\) must be greater than output size\\(label length\\), "
      "but got sequence length: 2 and label length: 3")),
    ([[0, 0], [0, 1]], [3, 1], [4],
     "the value of labels_values\\[1\\] must be in the range of \\[0, num_classes\\), but got 1"),
    ([[0, 0]], [1], [6], "'max_time': 5 and 'sequence_length': 6"),
    ([[0, 0]], [1], [0], "the 'sequence_length' must be greater than 0"),
])
def test_kernel_errors_as_mindspore(indices, values, lengths, message):
    with pytest.raises(RuntimeError, match=message):
        loss, _ = _ctc(_scores()[:, :1], np.array(indices, np.int64), np.array(values, np.int32),
                       np.array(lengths, np.int32))
        loss.asnumpy()


def test_top_level_spelling():
    assert ops.CTCLoss is P.CTCLoss
