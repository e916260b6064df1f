"""The summary operations (`ops.ScalarSummary`, `TensorSummary`, `ImageSummary`,
`HistogramSummary`): `op(name, value)` inside a network keeps the value when the graph runs,
for the next `SummaryRecord.record(step)` to write.

One effectful primitive of the core, `summary` (compiler/summary_op.py), does it for the four
kinds: its kernel copies the value to the host and keeps the latest value per (kind, name) (what
a step's record writes, as in MindSpore), so an unrecorded network holds one value per name,
not one per step.
"""
from __future__ import annotations

import math

from cellgraph.compiler.builder import is_tensor_like
from cellgraph.compiler.summary_op import summary_p
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.numpy_backend import take_summaries as take_latest  # noqa: F401


def _check_value(op: str, kind: str, shape) -> None:
    """MindSpore's checks of a summary value's shape, in its words."""
    shape = tuple(shape)
    if kind == "scalar" and math.prod(shape) != 1:
        raise ShapeError(f'For "{op}", the v rank must be less than or equal to 1, but got '
                         f'{shape[0] if shape else 0}.')
    if kind == "image" and len(shape) != 4:
        raise ShapeError(f'For "{op}", the tensor seems not to hold a valid image.')
    if kind in ("tensor", "histogram") and not shape:
        raise ShapeError(f'For "{op}", the value should not be empty.')


class _SummaryOp:
    kind = ""

    def __call__(self, name, value):
        op = type(self).__name__
        if not isinstance(name, str):
            raise DTypeError(f"For '{op}', the type of 'name' should be 'String', but got type "
                             f"'{type(name).__name__}'.")
        if not name:
            raise ArgumentValueError(f"For '{op}', the name must be valid string, but got "
                                     f"'{name}'.")
        if not is_tensor_like(value):
            raise DTypeError(f'For "{op}", the parameter "value" expect to be Tensor, but got '
                             f'{type(value).__name__}')
        _check_value(op, self.kind, value.shape)
        summary_p(value, kind=self.kind, tag=name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class ScalarSummary(_SummaryOp):
    """A scalar (a Tensor of one value) under `name`."""

    kind = "scalar"


class TensorSummary(_SummaryOp):
    """A Tensor of any shape under `name`."""

    kind = "tensor"


class ImageSummary(_SummaryOp):
    """A batch of images, NCHW, under `name`."""

    kind = "image"


class HistogramSummary(_SummaryOp):
    """The histogram of a Tensor's values under `name`."""

    kind = "histogram"
