"""The summary operations (`ops.ScalarSummary`, `TensorSummary`, `ImageSummary`,
`HistogramSummary`): `op(name, value)` inside a network keeps the value when the graph runs,
for the next `SummaryRecord.record(step)` to write.

One effectful primitive of the core, `summary` (compiler/summary_op.py), does it for the four
kinds: its kernel copies the value to the host and keeps the latest value per (kind, name) (what
a step's record writes, as in MindSpore), so an unrecorded network holds one value per name,
not one per step.
"""
from __future__ import annotations

from cellgraph.compiler.summary_op import summary_p
from cellgraph.runtime.numpy_backend import take_summaries as take_latest  # noqa: F401


def _check_rank(op: str, shape, ranks: tuple, what: str) -> None:
    if len(shape) not in ranks:
        raise ValueError(f"{op}: `value` must be {what}, got shape {tuple(shape)}")


class _SummaryOp:
    kind = ""
    ranks: tuple = ()
    what = ""

    def __call__(self, name, value):
        op = type(self).__name__
        if not isinstance(name, str) or not name:
            raise TypeError(f"{op}: `name` must be a non-empty str, got {name!r}")
        if not hasattr(value, "shape"):
            raise TypeError(f"{op}: `value` must be a Tensor, got {type(value).__name__}")
        if self.ranks:
            _check_rank(op, value.shape, self.ranks, self.what)
        summary_p(value, kind=self.kind, tag=name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class ScalarSummary(_SummaryOp):
    """A scalar (shape () or (1,)) under `name`."""

    kind, ranks, what = "scalar", (0, 1), "a scalar (shape () or (1,))"


class TensorSummary(_SummaryOp):
    """A Tensor of any shape under `name`."""

    kind = "tensor"


class ImageSummary(_SummaryOp):
    """A batch of images, NCHW, under `name`."""

    kind, ranks, what = "image", (4,), "a 4-D NCHW batch of images"


class HistogramSummary(_SummaryOp):
    """The histogram of a Tensor's values under `name`."""

    kind = "histogram"
