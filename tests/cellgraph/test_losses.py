"""Losses against NumPy references for every reduction, and their gradients against finite
differences (float64)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.testing import check_grads

f32 = cellgraph.float32
REDUCE = {"mean": np.mean, "sum": np.sum, "none": lambda v: v}


def np_log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def np_smooth_l1(x, y, beta):
    d = np.abs(x - y)
    return np.where(d < beta, 0.5 * d ** 2 / beta, d - 0.5 * beta)


def np_bce(x, y, weight=1.0, pos_weight=1.0):
    log_sig, log_one_minus = -np.log1p(np.exp(-x)), -np.log1p(np.exp(x))
    return -weight * (pos_weight * y * log_sig + (1 - y) * log_one_minus)


def _pair(rng, shape=(4, 3)):
    return rng.standard_normal(shape), rng.standard_normal(shape)


@pytest.mark.parametrize("reduction", list(REDUCE))
def test_elementwise_losses(rng, reduction):
    x, y = _pair(rng)
    y[0, 0] = x[0, 0] + 0.3  # inside SmoothL1's quadratic zone
    cases = [(nn.MSELoss(reduction), (x - y) ** 2),
             (nn.L1Loss(reduction), np.abs(x - y)),
             (nn.SmoothL1Loss(beta=0.5, reduction=reduction), np_smooth_l1(x, y, 0.5))]
    for loss, elementwise in cases:
        got = loss(Tensor(x, f32), Tensor(y, f32)).asnumpy()
        np.testing.assert_allclose(got, REDUCE[reduction](elementwise), rtol=1e-5, atol=1e-6,
                                   err_msg=type(loss).__name__)
        check_grads(loss, (x, y))


def test_mse_broadcasts_and_defaults(rng):
    x, y = rng.standard_normal((4, 3)), rng.standard_normal((1, 3))
    got = nn.MSELoss()(Tensor(x, f32), Tensor(y, f32)).asnumpy()
    np.testing.assert_allclose(got, np.mean((x - y) ** 2), rtol=1e-5)
    assert nn.SmoothL1Loss().reduction == "none"
    assert nn.SoftmaxCrossEntropyWithLogits().reduction == "none"


@pytest.mark.parametrize("reduction", list(REDUCE))
def test_softmax_cross_entropy_dense_and_sparse(rng, reduction):
    logits = rng.standard_normal((5, 4))
    ids = np.array([0, 3, 1, 1, 2], np.int32)
    dense = np.eye(4)[ids] * 0.8 + 0.05  # soft labels
    per_row = {"dense": -(dense * np_log_softmax(logits)).sum(-1),
               "sparse": -np_log_softmax(logits)[np.arange(5), ids]}
    for kind, labels in (("dense", Tensor(dense, f32)), ("sparse", Tensor(ids))):
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=kind == "sparse", reduction=reduction)
        got = loss(Tensor(logits, f32), labels).asnumpy()
        np.testing.assert_allclose(got, REDUCE[reduction](per_row[kind]), rtol=1e-5,
                                   atol=1e-6, err_msg=kind)
        # float16/float32 only, as MindSpore's primitives: the gradient against its formula,
        # softmax(logits) - labels, scaled as the reduction scales the rows
        targets = dense if kind == "dense" else np.eye(4)[ids]
        expected = (np.exp(np_log_softmax(logits)) - targets) / (5 if reduction == "mean" else 1)
        got = cellgraph.grad(loss)(Tensor(logits, f32), labels).asnumpy()
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6, err_msg=kind)


@pytest.mark.parametrize("reduction", list(REDUCE))
def test_bce_with_logits(rng, reduction):
    x = rng.standard_normal((3, 4)) * 3
    y = rng.uniform(size=(3, 4))
    weight, pos_weight = rng.uniform(0.5, 2, size=(4,)), rng.uniform(0.5, 2, size=(4,))
    plain = nn.BCEWithLogitsLoss(reduction)
    np.testing.assert_allclose(plain(Tensor(x, f32), Tensor(y, f32)).asnumpy(),
                               REDUCE[reduction](np_bce(x, y)), rtol=1e-5, atol=1e-6)
    weighted = nn.BCEWithLogitsLoss(reduction, weight=Tensor(weight), pos_weight=Tensor(
        pos_weight))
    np.testing.assert_allclose(weighted(Tensor(x), Tensor(y)).asnumpy(),
                               REDUCE[reduction](np_bce(x, y, weight, pos_weight)), rtol=1e-10)
    check_grads(weighted, (x, y))


def test_bce_with_logits_is_stable_for_large_logits():
    x = Tensor(np.array([-200.0, 200.0], np.float32))
    y = Tensor(np.array([1.0, 0.0], np.float32))
    np.testing.assert_allclose(nn.BCEWithLogitsLoss("none")(x, y).asnumpy(), [200.0, 200.0])


@pytest.mark.parametrize("reduction", list(REDUCE))
def test_nll_loss_with_weights_and_ignore_index(rng, reduction):
    log_probs = np_log_softmax(rng.standard_normal((6, 4)))
    labels = np.array([0, 3, -100, 1, 2, 3], np.int32)
    weight = np.array([0.5, 1.0, 2.0, 1.5])
    keep = labels != -100
    safe = np.where(keep, labels, 0)
    w = weight[safe] * keep
    per_row = -w * log_probs[np.arange(6), safe]
    ref = {"none": per_row, "sum": per_row.sum(), "mean": per_row.sum() / w.sum()}[reduction]
    loss = nn.NLLLoss(weight=Tensor(weight), reduction=reduction)
    np.testing.assert_allclose(loss(Tensor(log_probs), Tensor(labels)).asnumpy(), ref,
                               rtol=1e-10)
    check_grads(loss, (log_probs, Tensor(labels)))


def test_nll_and_cross_entropy_over_extra_axes(rng):
    logits = rng.standard_normal((2, 3, 4))  # (N, C, d)
    labels = rng.integers(0, 3, size=(2, 4)).astype(np.int64)
    log_probs = np_log_softmax(logits, axis=1)
    picked = np.take_along_axis(log_probs, labels[:, None], axis=1)[:, 0]
    # float64 logits and int64 labels: ops.cross_entropy takes them, nn.CrossEntropyLoss does not
    got = cellgraph.ops.cross_entropy(Tensor(logits), Tensor(labels)).asnumpy()
    np.testing.assert_allclose(got, -picked.mean(), rtol=1e-10)
    check_grads(cellgraph.ops.cross_entropy, (logits, Tensor(labels)))
    loss = nn.CrossEntropyLoss()(Tensor(logits.astype(np.float32)),
                                 Tensor(labels.astype(np.int32))).asnumpy()
    np.testing.assert_allclose(loss, -picked.mean(), rtol=1e-5)


def test_loss_errors_name_the_loss_and_values():
    with pytest.raises(ArgumentValueError, match=re.escape(
            "For 'MSELoss', the 'reduction' must be in ['mean', 'sum', 'none'], but got avg.")):
        nn.MSELoss("avg")
    x = Tensor(np.ones((4, 3), np.float32))
    with pytest.raises(ShapeError, match=r"SmoothL1Loss: logits of shape \(4, 3\) and labels of "
                                         r"shape \(4, 1\) must have one shape"):
        nn.SmoothL1Loss()(x, Tensor(np.ones((4, 1), np.float32)))
    sparse = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    with pytest.raises(DTypeError, match="expected integer class labels, got Float32"):
        sparse(x, Tensor(np.ones(4, np.float32)))
    with pytest.raises(ShapeError, match=r"labels of shape \(3,\) do not fit logits of shape "
                                         r"\(4, 3\)"):
        sparse(x, Tensor(np.ones(3, np.int32)))


def test_ranking_losses_match_their_formulas_and_differentiate():
    rng = np.random.default_rng(5)
    a, p, n = (rng.normal(size=(4, 3, 2)) for _ in range(3))
    d = {k: np.linalg.norm((u - v + 1e-6).reshape(4, -1), axis=1)
         for k, (u, v) in {"ap": (a, p), "an": (a, n)}.items()}
    loss = nn.TripletMarginLoss(margin=0.5, reduction="none")
    np.testing.assert_allclose(loss(Tensor(a), Tensor(p), Tensor(n)).asnumpy(),
                               np.maximum(d["ap"] - d["an"] + 0.5, 0), rtol=1e-6)
    np.testing.assert_allclose(loss(Tensor(a), Tensor(p), Tensor(n), 2.0).asnumpy(),
                               np.maximum(d["ap"] - d["an"] + 2.0, 0), rtol=1e-6)
    l1 = nn.TripletMarginLoss(p=1, margin=3.0, reduction="sum")
    expected = np.maximum(np.abs(a - p + 1e-6).sum((1, 2)) - np.abs(a - n + 1e-6).sum((1, 2))
                          + 3.0, 0).sum()
    np.testing.assert_allclose(l1(Tensor(a), Tensor(p), Tensor(n)).asnumpy(), expected,
                               rtol=1e-6)
    check_grads(lambda u, v, w: nn.TripletMarginLoss(margin=5.0)(u, v, w),
                (Tensor(a), Tensor(p), Tensor(n)), rtol=1e-4)
    x1, x2 = rng.normal(size=5), rng.normal(size=5)
    y = np.array([1.0, -1.0, 1.0, 1.0, -1.0])
    ranking = nn.MarginRankingLoss(0.2)
    np.testing.assert_allclose(ranking(Tensor(x1), Tensor(x2), Tensor(y)).asnumpy(),
                               np.maximum(-y * (x1 - x2) + 0.2, 0).mean())
    with pytest.raises(TypeError):
        nn.TripletMarginLoss(p=2.5)
    with pytest.raises(ValueError):
        nn.MarginRankingLoss(reduction="max")


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_label_smoothing(reduction):
    rng = np.random.default_rng(6)
    logits = rng.normal(size=(5, 4))
    labels = np.array([0, 3, -100, 1, 3])
    weight = np.array([1.0, 2.0, 0.5, 1.5])
    eps = 0.2
    shifted = logits - logits.max(1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    kept = labels != -100
    safe = np.where(kept, labels, 0)
    nll = -weight[safe] * log_p[np.arange(5), safe] * kept
    smooth = -(log_p * weight).sum(1) / 4 * kept
    if reduction == "mean":
        expected = ((1 - eps) * nll.sum() + eps * smooth.sum()) / (weight[safe] * kept).sum()
    else:
        expected = (1 - eps) * nll + eps * smooth
        expected = expected.sum() if reduction == "sum" else expected
    # float64 logits and int64 labels: ops.cross_entropy takes them, nn.CrossEntropyLoss does not
    def loss(x, y):
        return cellgraph.ops.cross_entropy(x, y, Tensor(weight), reduction=reduction,
                                           label_smoothing=eps)

    np.testing.assert_allclose(loss(Tensor(logits), Tensor(labels)).asnumpy(), expected,
                               rtol=1e-6)
    check_grads(lambda x: loss(x, Tensor(labels)), (Tensor(logits),), rtol=1e-4)
    layer = nn.CrossEntropyLoss(Tensor(weight.astype(np.float32)), reduction=reduction,
                                label_smoothing=eps)
    np.testing.assert_allclose(layer(Tensor(logits.astype(np.float32)),
                                     Tensor(labels.astype(np.int32))).asnumpy(), expected,
                               rtol=1e-5)
    dense = np.eye(4)[safe]
    smoothed = dense * (1 - eps) + eps / 4
    np.testing.assert_allclose(
        cellgraph.ops.cross_entropy(Tensor(logits), Tensor(dense), reduction="none",
                                    label_smoothing=eps).asnumpy(),
        -(smoothed * log_p).sum(1), rtol=1e-6)
    with pytest.raises(ValueError, match="label_smoothing"):
        nn.CrossEntropyLoss(label_smoothing=1.5)


# MindSpore 2.10 CPU on logits = RandomState(0).randn(3, 4) (float32), in both modes: nn's
# losses and ops.cross_entropy/nll_loss pick with GatherD, so a label in [-C, 0) counts from the
# end and any other label outside [0, C) raises RuntimeError ("For 'GatherD', the value of
# 'index' must be in [-4, 4), but got: 4"), labels equal to ignore_index excepted; ops.NLLLoss
# and mint's losses raise ValueError ("the label must in scope[0, C-1]") for every label outside
# [0, C); P.SparseSoftmaxCrossEntropyWithLogits raises RuntimeError for a negative label (and
# reads past the row for one >= C: here it raises too).
MS_LOGITS = np.random.RandomState(0).randn(3, 4).astype(np.float32)
ONES = np.ones(4, np.float32)


def _label_losses():
    from cellgraph import mint, ops

    return {
        "nn.CrossEntropyLoss": lambda x, y: nn.CrossEntropyLoss()(x, y),
        "nn.CrossEntropyLoss(ignore_index=-1)":
            lambda x, y: nn.CrossEntropyLoss(ignore_index=-1)(x, y),
        "nn.NLLLoss(weight)":
            lambda x, y: nn.NLLLoss(weight=Tensor(np.arange(1, 5, dtype=np.float32)))(x, y),
        "ops.cross_entropy": ops.cross_entropy,
        "ops.nll_loss": ops.nll_loss,
        "ops.NLLLoss": lambda x, y: ops.NLLLoss()(ops.log_softmax(x), y, Tensor(ONES))[0],
        "ops.NLLLoss(ignore_index=-1)":
            lambda x, y: ops.NLLLoss(ignore_index=-1)(ops.log_softmax(x), y, Tensor(ONES))[0],
        "mint.nn.functional.nll_loss": mint.nn.functional.nll_loss,
        "mint.nn.CrossEntropyLoss": lambda x, y: mint.nn.CrossEntropyLoss()(x, y),
        "SparseSoftmaxCrossEntropyWithLogits":
            lambda x, y: ops.SparseSoftmaxCrossEntropyWithLogits()(x, y),
    }


# (loss, labels) -> MindSpore's value, or the error type it raises
MS_LABEL_RESULTS = {
    ("nn.CrossEntropyLoss", (0, 1, 4)): RuntimeError,
    ("nn.CrossEntropyLoss", (0, 1, -1)): 1.7051144,
    ("nn.CrossEntropyLoss", (0, 1, -100)): 2.2548094,
    ("nn.CrossEntropyLoss", (0, 1, -5)): RuntimeError,
    ("nn.CrossEntropyLoss(ignore_index=-1)", (0, 1, -1)): 2.2548094,
    ("nn.CrossEntropyLoss(ignore_index=-1)", (0, 1, -100)): RuntimeError,
    ("nn.NLLLoss(weight)", (0, 1, -1)): -0.8037987,
    ("nn.NLLLoss(weight)", (0, 1, 3)): -0.8037987,
    ("nn.NLLLoss(weight)", (0, 1, 4)): RuntimeError,
    ("ops.cross_entropy", (0, 1, 4)): RuntimeError,
    ("ops.cross_entropy", (0, 1, -1)): 1.7051144,
    ("ops.nll_loss", (0, 1, -1)): -0.74701595,
    ("ops.nll_loss", (0, 1, -100)): -0.39338726,
    ("ops.nll_loss", (0, 1, -5)): RuntimeError,
    ("ops.NLLLoss", (0, 1, 4)): ValueError,
    ("ops.NLLLoss", (0, 1, -1)): ValueError,
    ("ops.NLLLoss", (0, 1, -100)): 2.25481,
    ("ops.NLLLoss(ignore_index=-1)", (0, 1, -1)): 2.25481,
    ("ops.NLLLoss(ignore_index=-1)", (0, 1, -100)): ValueError,
    ("mint.nn.functional.nll_loss", (0, 1, 4)): ValueError,
    ("mint.nn.functional.nll_loss", (0, 1, -1)): ValueError,
    ("mint.nn.functional.nll_loss", (0, 1, -100)): -0.39338726,
    ("mint.nn.CrossEntropyLoss", (0, 1, -1)): ValueError,
    ("mint.nn.CrossEntropyLoss", (0, 1, -100)): 2.2548075,
    ("SparseSoftmaxCrossEntropyWithLogits", (0, 1, -1)): RuntimeError,
    ("SparseSoftmaxCrossEntropyWithLogits", (0, 1, 4)): RuntimeError,
}


@pytest.mark.parametrize("mode", ["eager", "graph"])
@pytest.mark.parametrize("case", list(MS_LABEL_RESULTS), ids=lambda c: f"{c[0]}-{c[1]}")
def test_label_losses_check_labels_as_mindspore(case, mode):
    name, labels = case
    fn = _label_losses()[name]
    x, y = Tensor(MS_LOGITS), Tensor(np.array(labels, np.int32))
    call = cellgraph.jit(fn) if mode == "graph" else fn
    want = MS_LABEL_RESULTS[case]
    if isinstance(want, type):
        with pytest.raises(want, match="label .* out of range") as info:
            call(x, y)
        assert "Loss" in str(info.value) or "CrossEntropy" in str(info.value)
        return
    np.testing.assert_allclose(call(x, y).asnumpy(), want, rtol=1e-5)


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_ctc_loss_refuses_target_labels_outside_the_classes(mode):
    # MindSpore's CPU kernel returns a number for them (reading past the row); padding past a
    # sequence's target length is not read, whatever it holds
    from cellgraph import ops

    log_probs = Tensor(np.log(np.full((5, 2, 4), 0.25, np.float32)))
    lengths = Tensor(np.array([5, 5], np.int32))

    def call(targets, target_lengths):
        return ops.ctc_loss(log_probs, targets, lengths, target_lengths)[0]  # (loss, alpha)

    fn = cellgraph.jit(call) if mode == "graph" else call
    two = Tensor(np.array([2, 2], np.int32))
    np.testing.assert_allclose(fn(Tensor(np.array([[1, 2], [3, 1]], np.int32)), two).asnumpy(),
                               1.68806, rtol=1e-5)  # MindSpore's value
    for bad in ([[1, 7], [3, 1]], [[1, -1], [3, 1]]):
        with pytest.raises(RuntimeError, match=r"CTCLossV2.*target label -?\d out of range"):
            fn(Tensor(np.array(bad, np.int32)), two)
    padded = fn(Tensor(np.array([[1, -1], [3, 9]], np.int32)), Tensor(np.array([1, 1], np.int32)))
    assert np.isfinite(padded.asnumpy()).all()


MLSM_X = np.array([[0.3, -1.2, 2.0], [0.9, 0.4, -0.2]], np.float32)
MLSM_T = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 1.0]], np.float32)
MLSM_W = np.array([0.5, 1.0, 2.0], np.float32)
MS_MULTILABEL_SOFT_MARGIN = {  # MindSpore 2.10's values on MLSM_X, MLSM_T (weight None / MLSM_W)
    "mean": (0.74947864, 0.8040308),
    "sum": (1.4989574, 1.6080618),
    "none": ([0.8148551, 0.68410236], [0.714772, 0.89328974]),
}


@pytest.mark.parametrize("mode", ["eager", "graph"])
@pytest.mark.parametrize("reduction", list(MS_MULTILABEL_SOFT_MARGIN))
def test_multilabel_soft_margin_loss_matches_mindspore(mode, reduction):
    plain, weighted = MS_MULTILABEL_SOFT_MARGIN[reduction]
    for weight, want in ((None, plain), (Tensor(MLSM_W), weighted)):
        loss = nn.MultiLabelSoftMarginLoss(weight=weight, reduction=reduction)
        call = cellgraph.jit(loss.construct) if mode == "graph" else loss
        np.testing.assert_allclose(call(Tensor(MLSM_X), Tensor(MLSM_T)).asnumpy(), want,
                                   rtol=1e-6)


def test_multilabel_soft_margin_loss_gradient_and_errors():
    loss = nn.MultiLabelSoftMarginLoss(weight=Tensor(MLSM_W.astype(np.float64)))
    check_grads(loss, (Tensor(MLSM_X.astype(np.float64)), Tensor(MLSM_T.astype(np.float64))))
    # softplus stays finite where MindSpore's log(1 + exp(x)) overflows
    big = nn.MultiLabelSoftMarginLoss(reduction="none")(Tensor(np.array([[200.0]], np.float32)),
                                                         Tensor(np.array([[1.0]], np.float32)))
    np.testing.assert_allclose(big.asnumpy(), [0.0], atol=1e-6)
    with pytest.raises(ValueError):  # MindSpore: ValueError
        nn.MultiLabelSoftMarginLoss(reduction="bad")
    with pytest.raises(TypeError):
        nn.MultiLabelSoftMarginLoss()(1.0, Tensor(MLSM_T))


GNLL_VAR = np.array([[0.5, 2.0, 1e-8], [1.0, 0.3, 0.7]], np.float32)
MS_GAUSSIAN_NLL = {  # MindSpore 2.10 on MLSM_X (logits), MLSM_T (labels), GNLL_VAR
    (False, "mean"): 83332.484,
    (False, "sum"): 499994.9,
    (False, "none"): [[-2.5657359e-01, 1.5565736e+00, 4.9999309e+05],
                      [5.0000022e-03, -3.3531973e-01, 8.5023403e-01]],
    (True, "mean"): 83333.4,
    (True, "sum"): 500000.4,
    (True, "none"): [[6.6236502e-01, 2.4755120e+00, 4.9999400e+05],
                     [9.2393851e-01, 5.8361876e-01, 1.7691725e+00]],
}


@pytest.mark.parametrize("mode", ["eager", "graph"])
@pytest.mark.parametrize("case", list(MS_GAUSSIAN_NLL), ids=str)
def test_gaussian_nll_loss_matches_mindspore(mode, case):
    full, reduction = case
    loss = nn.GaussianNLLLoss(full=full, reduction=reduction)
    call = cellgraph.jit(loss.construct) if mode == "graph" else loss
    got = call(Tensor(MLSM_X), Tensor(MLSM_T), Tensor(GNLL_VAR)).asnumpy()
    np.testing.assert_allclose(got, MS_GAUSSIAN_NLL[case], rtol=2e-6)


def test_gaussian_nll_loss_broadcasts_var_gradient_and_errors():
    var = Tensor(np.array([0.5, 2.0], np.float32))  # one per sample, along the last axis
    got = nn.GaussianNLLLoss(reduction="none")(Tensor(MLSM_X), Tensor(MLSM_T), var).asnumpy()
    np.testing.assert_allclose(got, [[-0.2565736, 4.4934263, 0.6534264],  # MindSpore's values
                                     [0.3490736, 0.38657358, 0.7065736]], rtol=2e-6)
    f64 = [Tensor(a.astype(np.float64)) for a in (MLSM_X, MLSM_T, GNLL_VAR + 0.5)]
    check_grads(nn.GaussianNLLLoss(full=True), tuple(f64))
    for bad, error in (({"eps": 0.0}, ValueError), ({"eps": 1}, TypeError),
                       ({"full": 1}, TypeError), ({"reduction": "x"}, ValueError)):
        with pytest.raises(error):  # MindSpore's error types
            nn.GaussianNLLLoss(**bad)
    with pytest.raises(TypeError):
        nn.GaussianNLLLoss()(1.0, Tensor(MLSM_T), var)
    with pytest.raises(TypeError):
        nn.GaussianNLLLoss(False)  # keyword-only, as in MindSpore


CTC_LOG_PROBS = np.array([[[-1.4873000383377075, -1.7452000379562378, -0.972599983215332, -1.5082000494003296], [-2.649899959564209, -1.7525999546051025, -0.8101999759674072, -1.167099952697754]], [[-1.5604000091552734, -2.1221001148223877, -1.4799000024795532, -0.8152999877929688], [-2.8376998901367188, -0.7315000295639038, -1.7585999965667725, -1.2450000047683716]], [[-2.2767999172210693, -2.048799991607666, -1.3208999633789062, -0.6899999976158142], [-2.0360000133514404, -0.5410000085830688, -2.572700023651123, -1.555999994277954]], [[-0.5871999859809875, -1.3966000080108643, -2.2342000007629395, -2.412400007247925], [-1.5743999481201172, -0.8964999914169312, -2.126300096511841, -1.3257999420166016]], [[-1.8149000406265259, -1.114799976348877, -1.440999984741211, -1.3003000020980835], [-2.7383999824523926, -2.214200019836426, -1.3006000518798828, -0.5910999774932861]]], np.float32)  # (T=5, N=2, C=4), rows normalized, rounded to 1e-4
CTC_TARGETS = np.array([[1, 2], [3, 1]], np.int32)
CTC_INPUT_LENGTHS = np.array([5, 4], np.int32)
CTC_TARGET_LENGTHS = np.array([2, 1], np.int32)
MS_CTC = {"mean": 3.2652969360351562, "sum": 8.860870361328125,  # MindSpore 2.10's values
          "none": [4.66055154800415, 4.200318336486816]}


@pytest.mark.parametrize("mode", ["eager", "graph"])
@pytest.mark.parametrize("reduction", list(MS_CTC))
def test_ctc_loss_cell_matches_mindspore(mode, reduction):
    loss = nn.CTCLoss(reduction=reduction)
    call = cellgraph.jit(loss.construct) if mode == "graph" else loss
    got = call(Tensor(CTC_LOG_PROBS), Tensor(CTC_TARGETS), Tensor(CTC_INPUT_LENGTHS),
               Tensor(CTC_TARGET_LENGTHS))
    np.testing.assert_allclose(got.asnumpy(), MS_CTC[reduction], rtol=1e-6)


def test_ctc_loss_cell_blank_unbatched_and_infeasible():
    lengths = Tensor(CTC_INPUT_LENGTHS), Tensor(CTC_TARGET_LENGTHS)
    got = nn.CTCLoss(blank=3, reduction="none")(
        Tensor(CTC_LOG_PROBS), Tensor(np.array([[1, 2], [0, 1]], np.int32)), *lengths)
    np.testing.assert_allclose(got.asnumpy(), [4.263045787811279, 4.3259124755859375], rtol=1e-6)
    single = nn.CTCLoss()(Tensor(CTC_LOG_PROBS[:, 0]), Tensor(np.array([1, 2], np.int32)),
                          Tensor(np.array([5], np.int32)), Tensor(np.array([2], np.int32)))
    assert single.shape == ()
    np.testing.assert_allclose(single.asnumpy(), 2.330275774002075, rtol=1e-6)
    # sequence 0 needs 3 steps for the repeated label 1 but has 2: MindSpore gives inf
    short = (Tensor(CTC_LOG_PROBS), Tensor(np.array([[1, 1], [2, 2]], np.int32)),
             Tensor(np.array([2, 3], np.int32)), Tensor(np.array([2, 2], np.int32)))
    got = nn.CTCLoss(reduction="none")(*short).asnumpy()
    assert got[0] == np.inf
    np.testing.assert_allclose(got[1], 6.220600128173828, rtol=1e-6)
    # zero_infinity zeroes it, as documented (MindSpore's CPU kernel still returns inf there)
    got = nn.CTCLoss(reduction="none", zero_infinity=True)(*short).asnumpy()
    np.testing.assert_allclose(got, [0.0, 6.220600128173828], rtol=1e-6)


def test_ctc_loss_cell_gradient_and_errors():
    loss = nn.CTCLoss()
    rest = (Tensor(CTC_TARGETS), Tensor(CTC_INPUT_LENGTHS), Tensor(CTC_TARGET_LENGTHS))
    check_grads(lambda lp: loss(lp, *rest), (Tensor(CTC_LOG_PROBS.astype(np.float64)),))
    args = (Tensor(CTC_LOG_PROBS),) + rest
    for bad, error in (({"reduction": "x"}, ValueError), ({"blank": -1}, ValueError),
                       ({"blank": 1.5}, TypeError), ({"zero_infinity": 1}, TypeError)):
        with pytest.raises(error):  # MindSpore's error types
            nn.CTCLoss(**bad)(*args)
    with pytest.raises(ValueError):  # (T, C) log_probs with a batch of two target rows
        nn.CTCLoss()(Tensor(CTC_LOG_PROBS[:, 0]), Tensor(CTC_TARGETS),
                     Tensor(np.array([5], np.int32)), Tensor(np.array([2], np.int32)))


def test_triplet_margin_with_distance_loss_takes_a_distance_function():
    rng = np.random.default_rng(3)
    x, p, n = (cellgraph.Tensor(rng.standard_normal((4, 5)).astype(np.float32))
               for _ in range(3))
    loss = nn.TripletMarginWithDistanceLoss(
        distance_function=lambda a, b: (a - b).abs().sum(1), reduction="sum")
    np.testing.assert_allclose(loss(x, p, n).asnumpy(), 9.488965, rtol=1e-6)  # MindSpore's
    with pytest.raises(TypeError):
        nn.TripletMarginWithDistanceLoss(margin=1)


def test_mse_l1_and_mae_take_integer_labels():
    # MindSpore 2.10 promotes the operands: float32 losses for int32 labels, an int32 one for
    # two int32 tensors; SmoothL1Loss still refuses them
    logits = Tensor(np.array([[0.5, -1.5, 2.0], [3.0, -0.25, 1.0]], np.float32))
    labels = Tensor(np.array([[1, -2, 3], [4, 5, -6]], np.int32))
    for loss, value in [(nn.MSELoss(), 13.177083), (nn.L1Loss(), 2.5416667),
                        (nn.MAELoss(), 2.5416667)]:
        out = loss(logits, labels)
        assert out.dtype == cellgraph.float32
        np.testing.assert_allclose(out.asnumpy(), value, rtol=1e-6)
    np.testing.assert_allclose(cellgraph.ops.mse_loss(labels, logits).asnumpy(), 13.177083,
                               rtol=1e-6)
    assert nn.MSELoss()(labels, labels).dtype == cellgraph.int32
    with pytest.raises(TypeError):
        nn.SmoothL1Loss()(logits, labels)
