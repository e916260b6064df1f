"""MindSpore's `mint.special`: mint's special functions under the names `torch.special` uses."""
from cellgraph.mint.nn.functional import log_softmax

from . import erfc, exp2, expm1, log1p, sinc
from . import round as _round

__all__ = ["erfc", "exp2", "expm1", "log1p", "log_softmax", "round", "sinc"]


def round(input):
    """input rounded to the nearest integer, halves to even."""
    return _round(input)
