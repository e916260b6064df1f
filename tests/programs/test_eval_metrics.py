"""Evaluation as scripts write it: nn.WithEvalCell around a trained network, Model.eval with a
dictionary of metrics (Accuracy, Precision, Recall, F1, Top-k, Loss), the metric objects used
by hand with clear/update/eval over batches, nn.MAE/nn.MSE for a regression head, and a
ConfusionMatrix; every number checked against NumPy."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph import Tensor, nn
from cellgraph.train import Model


def make_logits(n=40, classes=4, seed=0):
    rng = np.random.default_rng(seed)
    logits = rng.normal(size=(n, classes)).astype(np.float32)
    labels = rng.integers(0, classes, size=n).astype(np.int32)
    # make about half of the predictions right
    right = rng.random(n) < 0.5
    logits[right, labels[right]] += 3.0
    return logits, labels


class Identity(nn.Cell):
    def construct(self, x):
        return x


def np_precision_recall(pred, labels, classes):
    precision, recall = [], []
    for c in range(classes):
        tp = np.sum((pred == c) & (labels == c))
        precision.append(tp / max(np.sum(pred == c), 1))
        recall.append(tp / max(np.sum(labels == c), 1))
    return np.array(precision), np.array(recall)


def test_metrics_by_hand_over_batches():
    logits, labels = make_logits()
    pred = logits.argmax(1)
    metrics = {"acc": nn.Accuracy(), "precision": nn.Precision(), "recall": nn.Recall(),
               "f1": nn.F1(), "top2": nn.TopKCategoricalAccuracy(2)}
    for metric in metrics.values():
        metric.clear()
        for start in range(0, 40, 16):
            metric.update(Tensor(logits[start:start + 16]), Tensor(labels[start:start + 16]))
    precision, recall = np_precision_recall(pred, labels, 4)
    np.testing.assert_allclose(metrics["acc"].eval(), np.mean(pred == labels))
    np.testing.assert_allclose(metrics["precision"].eval(), precision, rtol=1e-6)
    np.testing.assert_allclose(metrics["recall"].eval(), recall, rtol=1e-6)
    f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-12)
    np.testing.assert_allclose(metrics["f1"].eval(), f1, rtol=1e-5, atol=1e-6)
    top2 = np.argsort(-logits, axis=1)[:, :2]
    np.testing.assert_allclose(metrics["top2"].eval(),
                               np.mean([labels[i] in top2[i] for i in range(40)]))
    macro = nn.Precision("classification")
    macro.update(Tensor(logits), Tensor(labels))
    np.testing.assert_allclose(macro.eval(average=True), precision.mean(), rtol=1e-6)


def test_model_eval_with_eval_cell_and_loss_metric():
    logits, labels = make_logits(seed=1)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    eval_net = nn.WithEvalCell(Identity(), loss)
    model = Model(Identity(), loss_fn=loss, eval_network=eval_net,
                  metrics={"acc": nn.Accuracy(), "loss": nn.Loss()}, eval_indexes=[0, 1, 2])
    dataset = ds.NumpySlicesDataset({"data": logits, "label": labels}, shuffle=False).batch(8)
    result = model.eval(dataset)
    shifted = logits - logits.max(1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    per_batch = [-log_probs[s:s + 8][np.arange(8), labels[s:s + 8]].mean()
                 for s in range(0, 40, 8)]
    np.testing.assert_allclose(result["loss"], np.mean(per_batch), rtol=1e-5)
    np.testing.assert_allclose(result["acc"], np.mean(logits.argmax(1) == labels))


def test_regression_metrics_and_confusion_matrix():
    rng = np.random.default_rng(2)
    pred = rng.normal(size=(12, 1)).astype(np.float32)
    target = rng.normal(size=(12, 1)).astype(np.float32)
    mae, mse = nn.MAE(), nn.MSE()
    for metric in (mae, mse):
        metric.clear()
        metric.update(Tensor(pred), Tensor(target))
    np.testing.assert_allclose(mae.eval(), np.abs(pred - target).mean(), rtol=1e-6)
    np.testing.assert_allclose(mse.eval(), ((pred - target) ** 2).mean(), rtol=1e-6)

    logits, labels = make_logits(seed=3)
    matrix = nn.ConfusionMatrix(num_classes=4)
    matrix.clear()
    matrix.update(Tensor(logits), Tensor(labels))
    expected = np.zeros((4, 4))
    for t, p in zip(labels, logits.argmax(1)):
        expected[t, p] += 1
    np.testing.assert_array_equal(matrix.eval(), expected)


def test_accuracy_before_update_raises():
    with pytest.raises(RuntimeError):
        nn.Accuracy().eval()
