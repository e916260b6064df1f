"""`mindspore.nn.probability.distribution._utils`: the helpers MindSpore's distributions (and
distributions users write the same way) build on (utils.py)."""
from .utils import (
    CheckTensor,
    CheckTuple,
    cast_to_tensor,
    check_greater_equal_zero,
    check_greater_zero,
    check_prob,
    set_param_type,
)

__all__ = ["CheckTensor", "CheckTuple", "cast_to_tensor", "check_greater_equal_zero",
           "check_greater_zero", "check_prob", "set_param_type"]
