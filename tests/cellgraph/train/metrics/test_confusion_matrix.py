"""ConfusionMatrixMetric's rates and reductions, and ConfusionMatrix's argument types: values
and errors recorded from MindSpore 2.10."""
import numpy as np
import pytest

from cellgraph import Tensor, train

RNG = np.random.RandomState(0)
RNG.randint(0, 3, (2, 6, 7)), RNG.randint(0, 2, (4, 5, 3))  # the draws the recording made first
PRED = RNG.randint(0, 2, (3, 2, 4, 4)).astype(np.float32)
TRUTH = RNG.randint(0, 2, (3, 2, 4, 4))

# metric_name: (summed counts, per-sample "mean", per-sample "sum"), two updates, first channel kept
RATES = {
    "sensitivity": (0.4210526316, 0.4207792208, 1.0623376623),
    "precision": (0.5517241379, 0.5729166667, 1.3854166667),
    "f1 score": (0.4776119403, 0.4753289474, 1.1759868421),
    "mcc": (-0.0778902521, -0.0599004693, -0.2130347413),
    "accuracy": (0.453125, 0.453125, 1.109375),
    "balanced_accuracy": (0.4605263158, 0.4687229437, 1.1395021645),
    "prevalence threshold": (0.5214680753, 0.511026266, 1.2944660104),
    "markedness": (-0.0768472906, -0.0574404762, -0.2056547619),
    "fm": (0.4819801865, 0.4859404557, 1.1996224774),
    "informedness": (-0.0789473684, -0.0625541126, -0.220995671),
    "threat score": (0.3137254902, 0.3136446886, 0.7742673993),
    "fall_out": (0.5, 0.4833333333, 1.2833333333),
}


def _run(**options):
    metric = train.ConfusionMatrixMetric(skip_channel=False, **options)
    metric.update(Tensor(PRED), Tensor(TRUTH))
    metric.update(PRED[:1], TRUTH[:1])
    return metric.eval()


@pytest.mark.parametrize("name", sorted(RATES))
def test_rates_match_mindspore(name):
    summed, mean, total = RATES[name]
    np.testing.assert_allclose(_run(metric_name=name), [summed], atol=1e-9)
    assert _run(metric_name=name, calculation_method=True) == pytest.approx(mean, abs=1e-9)
    for decrease in ("sum", "sum_batch"):
        assert _run(metric_name=name, calculation_method=True, decrease=decrease) == \
            pytest.approx(total, abs=1e-9)


def test_reductions_and_checks():
    metric = train.ConfusionMatrixMetric(metric_name="tpr")  # the background channel kept
    metric.update(PRED, TRUTH)
    np.testing.assert_allclose(metric.eval(), [0.46296296296296297])
    with pytest.raises(ValueError):  # a per-channel mean is not one number (as in MindSpore)
        _run(metric_name="tpr", calculation_method=True, decrease="mean_channel")
    with pytest.raises(ValueError, match="decrease"):
        train.ConfusionMatrixMetric(decrease="median")
    with pytest.raises(TypeError, match="metric_name"):
        train.ConfusionMatrixMetric(metric_name=1)
    unknown = train.ConfusionMatrixMetric(metric_name="kappa")
    unknown.update(PRED, TRUTH)  # counts only: the name is read by eval
    with pytest.raises(NotImplementedError):
        unknown.eval()
    with pytest.raises(ValueError, match="binarized"):
        train.ConfusionMatrixMetric().update(PRED, TRUTH * 0.5)


def test_confusion_matrix_argument_types():
    with pytest.raises(TypeError):
        train.ConfusionMatrix(num_classes="1")
    with pytest.raises(TypeError):
        train.ConfusionMatrix(num_classes=2, threshold=1)  # MindSpore wants a float
    assert train.get_metric_fn("confusion_matrix_metric").metric_name == "sensitivity"
