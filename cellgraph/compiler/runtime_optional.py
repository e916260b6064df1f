"""A value or None, which of the two known only when the graph runs.

A Tensor `if` whose branches leave a variable (or the function's result) as a value in one and
None in the other gives, in MindSpore's graphs, whichever the branch taken gave. Here the switch
carries a flag beside the value (zeros where the branch gave None), and the pair is a
`RuntimeOptional`:

    if x.any():                 %1 = switch(%c) {then: (True, 6), else: (False, 0)}
        return 6          ->    RuntimeOptional(present=%1[0], value=%1[1])
                                the caller gets Tensor(6) or None

It can be returned (the caller gets the value or None), be joined again by another Tensor `if`,
and be compared with None by `is` / `is not` (a bool graph value); any other use needs the
value, which the graph cannot know here, and is refused with a clear error."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.primitives import functional as F
from cellgraph.primitives.errors import DTypeError

from .builder import Tracer


class RuntimeOptional:
    """`value` when `present` (a bool graph value) holds when the graph runs, else None."""

    def __init__(self, present, value):
        self.present, self.value = present, value

    @property
    def runtime_optional(self) -> list:
        """The parts a graph's result tree keeps (pytree's "optional" kind)."""
        return [self.present, self.value]

    @staticmethod
    def rebuild(static, items):
        """From a graph's result tree: again a RuntimeOptional while a graph is built, else the
        value or None the caller gets."""
        present, value = items
        if isinstance(present, Tracer):
            return RuntimeOptional(present, value)
        return value if bool(np.asarray(present.asnumpy() if hasattr(present, "asnumpy")
                                        else present)) else None

    def is_none(self):
        """`self is None`: a bool known when the graph runs (the caller gets a Python bool)."""
        from .dynamic_sequence import variable_scalar

        if not isinstance(self.present, Tracer):
            return not self.present
        return variable_scalar(F.logical_not(self.present))

    def __bool__(self):
        raise DTypeError("a value that a Tensor `if` left as None in one branch is known only "
                         "when the graph runs, so its truth cannot be tested while compiling; "
                         "test `value is None` first, or give both branches a value")

    def __repr__(self) -> str:
        return f"RuntimeOptional({self.value!r} or None)"


def joins_with_none(a, b) -> bool:
    """Whether a Tensor `if`'s two results pair a value with None (or with a value that may be
    None), so that they join as a RuntimeOptional."""
    optional = (type(None), RuntimeOptional)
    return (isinstance(a, optional) or isinstance(b, optional)) and not (a is None and b is None)


def _as_tensor(value):
    """A Python int or float as the 0-d Tensor MindSpore gives for a number that may be None
    (a bool and anything else as it is)."""
    from .dynamic_sequence import number_array

    if isinstance(value, numbers.Number) and not isinstance(value, (bool, complex)):
        return number_array(value)
    return value


def as_optional_pair(a, b, zeros_like_value) -> tuple:
    """`a` and `b` as RuntimeOptionals of one structure: None as absent, over zeros like the
    other side's value; a plain value as present."""
    def value_of(v):
        return v.value if isinstance(v, RuntimeOptional) else v

    def optional(v, other):
        if isinstance(v, RuntimeOptional):
            return v
        if v is None:
            return RuntimeOptional(False, zeros_like_value(_as_tensor(value_of(other))))
        return RuntimeOptional(True, _as_tensor(v))

    return optional(a, b), optional(b, a)


def identical(a, b):
    """`a is b`, where a value that may be None compares with None by its flag."""
    if isinstance(a, RuntimeOptional) and b is None:
        return a.is_none()
    if isinstance(b, RuntimeOptional) and a is None:
        return b.is_none()
    return a is b


def not_identical(a, b):
    if isinstance(a, RuntimeOptional) and b is None or isinstance(b, RuntimeOptional) and a is None:
        from .dynamic_sequence import variable_scalar

        optional = a if isinstance(a, RuntimeOptional) else b
        if not isinstance(optional.present, Tracer):
            return bool(optional.present)
        return variable_scalar(optional.present)
    return a is not b
