"""The rates ConfusionMatrixMetric computes from per-class counts of true positives, false
positives, true negatives and false negatives, each by its MindSpore names."""
from __future__ import annotations

import numpy as np

_NAN = np.array(float("nan"))


def _ratio(numerator, denominator):
    return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), _NAN)


def _tpr(tp, fp, tn, fn):
    return tp, tp + fn


def _tnr(tp, fp, tn, fn):
    return tn, fp + tn


def _ppv(tp, fp, tn, fn):
    return tp, tp + fp


def _npv(tp, fp, tn, fn):
    return tn, tn + fn


def _fnr(tp, fp, tn, fn):
    return fn, tp + fn


def _fpr(tp, fp, tn, fn):
    return fp, fp + tn


def _fdr(tp, fp, tn, fn):
    return fp, fp + tp


def _for(tp, fp, tn, fn):
    return fn, fn + tn


def _pt(tp, fp, tn, fn):
    tpr, tnr = _ratio(tp, tp + fn), _ratio(tn, fp + tn)
    return np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0


def _ts(tp, fp, tn, fn):
    return tp, tp + fn + fp


def _acc(tp, fp, tn, fn):
    return tp + tn, tp + fn + fp + tn


def _ba(tp, fp, tn, fn):
    return _ratio(tp, tp + fn) + _ratio(tn, fp + tn), 2.0


def _f1(tp, fp, tn, fn):
    return tp * 2.0, tp * 2.0 + fn + fp


def _mcc(tp, fp, tn, fn):
    return tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))


def _fm(tp, fp, tn, fn):
    return np.sqrt(_ratio(tp, tp + fp) * _ratio(tp, tp + fn)), 1.0


def _bm(tp, fp, tn, fn):
    return _ratio(tp, tp + fn) + _ratio(tn, fp + tn) - 1.0, 1.0


def _mk(tp, fp, tn, fn):
    with np.errstate(divide="ignore", invalid="ignore"):
        npv = tn / (tn + fn)  # MindSpore divides unguarded here
    return _ratio(tp, tp + fp) + npv - 1.0, 1.0


RATES = {"tpr": _tpr, "tnr": _tnr, "ppv": _ppv, "npv": _npv, "fnr": _fnr, "fpr": _fpr,
         "fdr": _fdr, "for": _for, "pt": _pt, "ts": _ts, "acc": _acc, "ba": _ba, "f1": _f1,
         "mcc": _mcc, "fm": _fm, "bm": _bm, "mk": _mk}

ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"),
    "tnr": ("specificity", "selectivity", "true_negative_rate", "tnr"),
    "ppv": ("precision", "positive_predictive_value", "ppv"),
    "npv": ("negative_predictive_value", "npv"),
    "fnr": ("miss_rate", "false_negative_rate", "fnr"),
    "fpr": ("fall_out", "false_positive_rate", "fpr"),
    "fdr": ("false_discovery_rate", "fdr"),
    "for": ("false_omission_rate", "for"),
    "pt": ("prevalence_threshold", "pt"),
    "ts": ("threat_score", "critical_success_index", "ts", "csi"),
    "acc": ("accuracy", "acc"),
    "ba": ("balanced_accuracy", "ba"),
    "f1": ("f1_score", "f1"),
    "mcc": ("matthews_correlation_coefficient", "mcc"),
    "fm": ("fowlkes_mallows_index", "fm"),
    "bm": ("informedness", "bookmaker_informedness", "bm"),
    "mk": ("markedness", "deltap", "mk"),
}
_BY_ALIAS = {alias: rate for rate, aliases in ALIASES.items() for alias in aliases}


def rate_of(metric_name: str, counts: np.ndarray) -> np.ndarray:
    """The rate `metric_name` ("sensitivity", "f1 score", "mcc", ...) of counts whose last axis
    is (tp, fp, tn, fn); nan where its denominator is 0."""
    rate = _BY_ALIAS.get(metric_name.replace(" ", "_").lower())
    if rate is None:
        raise NotImplementedError("The metric is not implemented.")
    if counts.ndim == 1:
        counts = counts[None]
    if counts.shape[-1] != 4:
        raise ValueError(f"For 'ConfusionMatrix', the size of the last dimension of "
                         f"confusion_matrix must be 4, but got {counts.shape[-1]}.")
    with np.errstate(divide="ignore", invalid="ignore"):
        numerator, denominator = RATES[rate](*np.moveaxis(counts, -1, 0))
        if isinstance(denominator, np.ndarray):
            return np.where(denominator != 0, numerator / denominator, _NAN)
        return numerator / denominator
