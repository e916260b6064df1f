"""`auc`: the area under a curve given by its points, by the trapezoidal rule."""
from __future__ import annotations

import numpy as np

__all__ = ["auc"]

_trapezoid = getattr(np, "trapezoid", None) or np.trapz  # NumPy 2 renamed trapz


def _as_1d(values: np.ndarray) -> np.ndarray:
    if values.ndim == 1 or (values.ndim == 2 and values.shape[1] == 1):
        return values.ravel()
    raise ValueError(f"For 'auc', the input must be a 1-dimensional array, or a 2-dimensional "
                     f"array with the second dimension of 1, but got shape {values.shape}.")


def auc(x, y, reorder=False):
    """The area under the curve through the points (x, y), e.g. the fpr and tpr of `ROC`. With
    `reorder` the points are sorted by x; otherwise x must rise or fall monotonically."""
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got "
                        f"{type(x)}, {type(y)}")
    for values in (x, y):
        if values.ndim == 0:
            raise TypeError(f"Singleton array {values} cannot be considered as a valid "
                            f"collection.")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"{[int(x.shape[0]), int(y.shape[0])]}.")
    x, y = _as_1d(x), _as_1d(y)
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', the shape of the argument 'x' in axis 0 must be greater "
                         f"than 2, but got {x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        steps = np.diff(x)
        if np.any(steps < 0):
            if not np.all(steps <= 0):
                raise ValueError(f"For 'auc', if the argument is False, the argument 'x' array "
                                 f"must be increasing or decreasing, but got 'x': {x}")
            direction = -1
    return direction * _trapezoid(y, x)
