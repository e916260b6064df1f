"""Run-time checks: a primitive that passes its input through unchanged and fails, naming the
offending values, when the input breaks a rule MindSpore's kernels enforce while they run (a
class label outside [0, C)). `error` picks what the kernel raises: "index" (IndexError, a
RuntimeError when located, as MindSpore's gathering kernels raise), "value" (ValueError, as
MindSpore's NLLLoss kernel raises) or "runtime" (RuntimeError, as its CheckNumerics and Assert
kernels raise). The check is the point of the node, so it is effectful: never
folded at compile time, merged or dropped. `op` names the operation the check is made for; a
run-time error names it (runtime/run_errors.py)."""
from __future__ import annotations

import numbers

from .batching import same_shape_rule
from .core import Primitive, TensorType
from .errors import DTypeError

# what a failing check raises, by its `error`
CHECK_ERRORS = {"index": IndexError, "value": ValueError, "runtime": RuntimeError}


def _check_range_type(x: TensorType, low, high, what, op, error="index") -> TensorType:
    if error not in CHECK_ERRORS:
        raise DTypeError(f"expected error='index', 'value' or 'runtime', got {error!r}")
    if not (x.dtype.is_int or x.dtype.is_bool):
        raise DTypeError(f"expected integer {what}s, got {x.dtype}")
    if not all(isinstance(v, numbers.Integral) for v in (low, high)) or not low < high:
        raise DTypeError(f"expected int bounds low < high, got [{low}, {high})")
    return x.strong()


check_range = Primitive("check_range", _check_range_type, label="CheckRange",
                        nondifferentiable=True, effectful=True)
check_range.def_batch(same_shape_rule(check_range))

# the same check where it belongs to the value it passes on (a sequence's `index`): like the
# kernel computing the value in MindSpore, it runs only where that value is used, and goes
# with it when it is dropped
checked_value = Primitive("checked_value", _check_range_type, label="CheckedValue",
                          nondifferentiable=True)
checked_value.def_batch(same_shape_rule(checked_value))


def range_message(offending: list, count: int, low: int, high: int, what: str) -> str:
    """The error text for `count` values outside [low, high), the first of them `offending`."""
    shown = ", ".join(str(v) for v in offending)
    more = f" (and {count - len(offending)} more)" if count > len(offending) else ""
    return f"{what} {shown}{more} out of range [{low}, {high})"
