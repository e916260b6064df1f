"""`mindspore.train.metrics.metric`: the Metric base class and `rearrange_inputs`, which
every metric builds on."""
from __future__ import annotations

import numbers

import numpy as np

__all__ = ["Metric", "rearrange_inputs"]


def _numpy(data) -> np.ndarray:
    if hasattr(data, "asnumpy"):
        return data.asnumpy()
    if isinstance(data, (np.ndarray, list, tuple, numbers.Number)):
        return np.asarray(data)
    raise TypeError(f"metric: expected a Tensor, a NumPy array or a list, got "
                    f"{type(data).__name__}")


def rearrange_inputs(func):
    """Decorator for `update`: the inputs picked by `set_indexes`, in that order."""
    def wrapper(self, *inputs):
        if self._indexes is not None:
            inputs = tuple(inputs[i] for i in self._indexes)
        return func(self, *inputs)

    wrapper.__name__, wrapper.__doc__ = func.__name__, func.__doc__
    return wrapper


class Metric:
    """Base class: subclasses define clear, update and eval."""

    def __init__(self):
        self._indexes = None

    def _convert_data(self, data) -> np.ndarray:
        return _numpy(data)

    @property
    def indexes(self):
        return self._indexes

    def set_indexes(self, indexes):
        """Which of the inputs `update` receives (Model.eval passes loss, outputs, label)."""
        if not isinstance(indexes, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in indexes):
            # MindSpore's error type and wording, which its own tests match
            raise ValueError("For 'set_indexes', the argument 'indexes' must be a list and all "
                             "its elements must be int, please check whether it is correct. "
                             f"Got {indexes!r}.")
        self._indexes = indexes
        return self

    def clear(self):
        raise NotImplementedError

    def update(self, *inputs):
        raise NotImplementedError

    def eval(self):
        raise NotImplementedError

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()


def check_type(name: str, value, types: tuple):
    """`value` if it is one of `types` (a bool is not an int unless bool is listed), else
    MindSpore's TypeError for the metric argument `name`."""
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        expected = " or ".join(repr(t.__name__) for t in types)
        raise TypeError(f"The type of {name!r} should be {expected}, but got type "
                        f"{type(value).__name__!r}.")
    return value


def check_choice(name: str, value, choices: tuple):
    """`value` if it is a str among `choices`, else MindSpore's TypeError or ValueError."""
    check_type(name, value, (str,))
    if value not in choices:
        raise ValueError(f"The {name!r} must be str and must be in {list(choices)!r}, but got "
                         f"{value!r}.")
    return value
