"""Metrics against numbers worked out by hand (the examples of MindSpore's documentation)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, train

SCORES = np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]], np.float32)
LABELS = np.array([1, 0, 1], np.int32)


def test_accuracy_classification_with_indices_and_one_hot():
    metric = train.Accuracy("classification")
    metric.clear()
    metric.update(Tensor(SCORES), Tensor(LABELS))
    assert metric.eval() == pytest.approx(2 / 3)
    metric.update(SCORES, np.eye(2)[LABELS])  # one-hot labels, NumPy inputs
    assert metric.eval() == pytest.approx(2 / 3)
    with pytest.raises(RuntimeError, match="the number of samples is 0"):
        train.Accuracy().eval()
    with pytest.raises(ValueError, match="should equal to the dimension of y .* add 1"):
        metric.update(SCORES, np.full(SCORES.shape, 0.5))  # labels neither indices nor one-hot


def test_accuracy_multilabel():
    """As MindSpore's: predictions and labels must be 0 or 1 (scores are refused, not
    rounded), compared class by class."""
    metric = train.Accuracy("multilabel")
    metric.update(np.array([[1, 0], [1, 1]]), np.array([[1, 0], [1, 0]]))
    assert metric.eval() == 0.5
    with pytest.raises(ValueError, match="should be 0 or 1"):
        metric.update(np.array([[0.9, 0.2], [0.6, 0.7]]), np.array([[1, 0], [1, 0]]))
    with pytest.raises(ValueError, match="class number not match"):
        metric.update(np.array([[1, 0, 1]]), np.array([[1, 0, 1]]))


def test_loss_mae_mse():
    loss = train.Loss()
    loss.update(Tensor(np.array(0.2, np.float32)))
    loss.update(Tensor(np.array([0.1, 0.3], np.float32)))
    assert loss.eval() == pytest.approx(0.2)
    pred, true = np.array([0.1, 0.2, 0.6, 0.9]), np.array([0.1, 0.25, 0.7, 0.9])
    mae = train.MAE()
    mae.update(Tensor(pred.astype(np.float32)), Tensor(true.astype(np.float32)))
    assert mae.eval() == pytest.approx(np.abs(pred - true).mean(), rel=1e-5)
    mse = train.MSE()
    mse.update(pred, true)
    assert mse.eval() == pytest.approx(np.square(pred - true).mean())


def test_precision_recall_f1_per_class():
    pred = np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]])  # argmax: 1, 0, 0
    true = np.array([1, 0, 1])
    precision, recall, f1 = train.Precision(), train.Recall(), train.F1()
    for metric in (precision, recall, f1):
        metric.update(pred, true)
    np.testing.assert_allclose(precision.eval(), [0.5, 1.0])
    np.testing.assert_allclose(recall.eval(), [1.0, 0.5])
    np.testing.assert_allclose(f1.eval(), [2 / 3, 2 / 3])
    assert precision.eval(average=True) == pytest.approx(0.75)
    fbeta = train.Fbeta(2)
    fbeta.update(pred, true)
    p, r = np.array([0.5, 1.0]), np.array([1.0, 0.5])
    np.testing.assert_allclose(fbeta.eval(), 5 * p * r / (4 * p + r))


def test_top_k_accuracy():
    scores = np.array([[0.2, 0.5, 0.0, 0.3], [0.1, 0.2, 0.3, 0.4], [0.9, 0.0, 0.05, 0.05]])
    labels = np.array([3, 0, 0])
    top2 = train.TopKCategoricalAccuracy(2)
    top2.update(Tensor(scores.astype(np.float32)), Tensor(labels))
    assert top2.eval() == pytest.approx(2 / 3)
    top1 = train.Top1CategoricalAccuracy()
    top1.update(scores, labels)
    assert top1.eval() == pytest.approx(1 / 3)


def test_set_indexes_picks_the_inputs():
    metric = train.Accuracy().set_indexes([2, 1])
    metric.update(Tensor(np.array(0.0)), Tensor(LABELS), Tensor(SCORES))
    assert metric.eval() == pytest.approx(2 / 3)


def test_names_and_paths():
    assert isinstance(train.get_metric_fn("accuracy"), train.Accuracy)
    assert "top_5_accuracy" in train.names()
    from cellgraph.nn.metrics import Accuracy

    assert nn.Accuracy is train.Accuracy is ms.train.metrics.Accuracy is Accuracy
    assert issubclass(nn.TopKCategoricalAccuracy, nn.Metric)
    with pytest.raises(KeyError, match="unknown metric"):
        train.get_metric_fn("no_such_metric")


def test_confusion_matrix_binary_example_and_normalisations():
    metric = train.ConfusionMatrix(num_classes=2, normalize="no_norm", threshold=0.5)
    metric.clear()
    metric.update(Tensor(np.array([1, 0, 1, 0])), Tensor(np.array([1, 0, 0, 1])))
    np.testing.assert_array_equal(metric.eval(), [[1.0, 1.0], [1.0, 1.0]])
    scores = np.array([[0.9, 0.1, 0.0], [0.2, 0.7, 0.1], [0.1, 0.8, 0.1], [0.6, 0.3, 0.1]])
    labels = np.array([0, 1, 0, 0])
    counts = np.array([[2, 1, 0], [0, 1, 0], [0, 0, 0]], np.float64)
    for normalize, expected in (("target", counts / [[3], [1], [1]] * [[1], [1], [0]]),
                                ("prediction", counts / [2, 2, 1] * [1, 1, 0]),
                                ("all", counts / 4)):
        metric = nn.ConfusionMatrix(3, normalize=normalize)
        metric.update(Tensor(scores), Tensor(labels))
        np.testing.assert_allclose(metric.eval(), expected)
    with pytest.raises(ValueError, match="normalize"):
        train.ConfusionMatrix(2, normalize="rows")
    with pytest.raises(RuntimeError, match="update"):
        train.ConfusionMatrix(2).eval()


@pytest.mark.parametrize("indexes", [0, [0.0, 2.0], [0.0, 1], ["1", "0"]])
def test_set_indexes_refuses_what_mindspore_refuses(indexes):
    # MindSpore's own metric tests match this error type and wording
    with pytest.raises(ValueError, match="For 'set_indexes', the argument 'indexes' must be a "
                                         "list and all its elements must be int"):
        train.Accuracy("classification").set_indexes(indexes)
    with pytest.raises(TypeError, match="eval_type"):
        train.Accuracy("test")


def test_metrics_evaluate_to_numpy_floats():
    # MindSpore 2.10's eval gives np.float64 (its sums are NumPy's): 0.5, 0.75, 0.625, 3.0
    logits, labels = Tensor([[0.2, 0.8], [0.9, 0.1]]), Tensor([1, 1])
    cases = [(nn.Accuracy(), [(logits, labels)], 0.5),
             (nn.Top1CategoricalAccuracy(), [(logits, labels)], 0.5),
             (nn.MAE(), [(Tensor([1.0, 2.0]), Tensor([1.5, 1.0]))], 0.75),
             (nn.MSE(), [(Tensor([1.0, 2.0]), Tensor([1.5, 1.0]))], 0.625),
             (nn.Loss(), [(Tensor(2.0),), (Tensor(4.0),)], 3.0)]
    for metric, updates, value in cases:
        metric.clear()
        for update in updates:
            metric.update(*update)
        result = metric.eval()
        assert type(result) is np.float64 and result == value


def test_nn_metrics_is_a_module_of_nn_without_an_import_of_its_own():
    """`import mindspore.nn as nn; nn.metrics.Loss()` (mindcv's validate.py): nn.metrics is
    reached as an attribute, in a fresh interpreter where nothing imported it first."""
    import subprocess
    import sys

    code = ("import numpy as np\nimport cellgraph.nn as nn\n"
            "loss = nn.metrics.Loss()\nloss.clear()\n"
            "loss.update(np.array(0.5, np.float32))\nloss.update(np.array(1.5, np.float32))\n"
            "print(loss.eval(), nn.metrics.Top1CategoricalAccuracy is "
            "nn.Top1CategoricalAccuracy)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert float(out[0]) == pytest.approx(1.0)
    assert out[1] == "True"
