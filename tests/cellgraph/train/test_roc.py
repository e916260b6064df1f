"""train.ROC: MindSpore 2.10's curves (values recorded from it) and its errors."""
import numpy as np
import pytest

from cellgraph import Tensor
from cellgraph.train import ROC, get_metric_fn

LABELS = Tensor(np.array([0, 1, 2, 3]))


def _assert_curves(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        if isinstance(e, list):
            _assert_curves(g, e)
        else:
            np.testing.assert_allclose(g, e, rtol=1e-12)


def test_binary_with_a_positive_label():
    metric = ROC(pos_label=2)
    metric.clear()
    metric.update(Tensor(np.array([0.28, 0.55, 0.15, 0.05])), LABELS)
    _assert_curves(metric.eval(), [[0, 1 / 3, 2 / 3, 2 / 3, 1], [0, 0, 0, 1, 1],
                                   [1.55, 0.55, 0.28, 0.15, 0.05]])


def test_binary_default_positive_label_and_ties():
    metric = get_metric_fn("roc")
    metric.update([0.1, 0.4, 0.4, 0.8, 0.3], [1, 0, 1, 1, 0])
    _assert_curves(metric.eval(), [[0, 0, 0.5, 1, 1], [0, 1 / 3, 2 / 3, 2 / 3, 1],
                                   [1.8, 0.8, 0.4, 0.3, 0.1]])


def test_multiclass_one_against_the_rest():
    scores = Tensor(np.array([[0.28, 0.55, 0.15, 0.05], [0.10, 0.20, 0.05, 0.05],
                              [0.20, 0.05, 0.15, 0.05], [0.05, 0.05, 0.05, 0.75]]))
    metric = ROC(class_num=4)
    metric.update(scores, LABELS)
    fpr, tpr, thresholds = metric.eval()
    _assert_curves(fpr, [[0, 0, 1 / 3, 2 / 3, 1], [0, 1 / 3, 1 / 3, 1], [0, 1 / 3, 1], [0, 0, 1]])
    _assert_curves(tpr, [[0, 1, 1, 1, 1], [0, 0, 1, 1], [0, 1, 1], [0, 1, 1]])
    _assert_curves(thresholds, [[1.28, 0.28, 0.2, 0.1, 0.05], [1.55, 0.55, 0.2, 0.05],
                                [1.15, 0.15, 0.05], [1.75, 0.75, 0.05]])


def test_multiclass_reads_each_class_column_when_samples_and_classes_differ():
    metric = ROC(class_num=2)
    metric.update(np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]]), np.array([0, 1, 1]))
    fpr, tpr, thresholds = metric.eval()
    _assert_curves(fpr, [[0, 0, 0.5, 1], [0, 0, 0, 1]])
    _assert_curves(tpr, [[0, 1, 1, 1], [0, 0.5, 1, 1]])
    _assert_curves(thresholds, [[1.9, 0.9, 0.6, 0.2], [1.8, 0.8, 0.4, 0.1]])


def test_errors_are_mindspore_s():
    with pytest.raises(TypeError, match="'class_num' should be 'int'"):
        ROC(class_num=1.5)
    with pytest.raises(RuntimeError, match="call the 'update' method"):
        ROC().eval()
    scores = np.ones((4, 4))
    with pytest.raises(ValueError, match="'class_num' 3, the number of classes from predicted "
                                         "value 4"):
        ROC(class_num=3).update(scores, LABELS)
    with pytest.raises(ValueError, match="the 'pos_label' must be None, but got 1"):
        ROC(pos_label=1).update(scores, LABELS)
    with pytest.raises(ValueError, match="the 'class_num' must be 1, but got 2"):
        ROC(class_num=2).update(np.ones(3), np.ones(3))
    metric = ROC()
    metric.update(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="no negative samples"):
        metric.eval()
    with pytest.raises(ValueError, match="needs 2 inputs"):
        ROC().update(np.ones(3))
