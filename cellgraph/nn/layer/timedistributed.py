"""nn.TimeDistributed: a layer applied to every time step of a sequence."""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph.compiler.builder import Tracer
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Tensor

from ..cell import Cell

__all__ = ["TimeDistributed"]


def _check_tensor(value) -> None:
    if not isinstance(value, (Tensor, Tracer)):
        raise DTypeError(f"TimeDistributed: the inputs and outputs must be Tensors, got "
                         f"{type(value).__name__}")


def _swap_perm(axis_a: int, axis_b: int, length: int) -> tuple:
    """MindSpore's permutation that moves the later of the two axes before the earlier."""
    perm = tuple(range(length))
    axis_a, axis_b = sorted((axis_a, axis_b))
    return perm[:axis_a] + (perm[axis_b],) + perm[axis_a:axis_b] + perm[axis_b + 1:]


class TimeDistributed(Cell):
    """`layer` applied to each slice of the input along `time_axis`, the results stacked
    along it again; with `reshape_with_axis`, the time axis is instead merged into that axis,
    the layer applied once and the result split back, as MindSpore does."""

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        super().__init__()
        if not isinstance(layer, Cell) and not callable(layer):
            raise DTypeError(f"TimeDistributed: `layer` must be a Cell or Primitive, got "
                             f"{type(layer).__name__}")
        for name, value in (("time_axis", time_axis), ("reshape_with_axis", reshape_with_axis)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise DTypeError(f"TimeDistributed: `{name}` must be an int, got "
                                 f"{type(value).__name__}")
        self.layer, self.time_axis, self.reshape_with_axis = layer, time_axis, reshape_with_axis

    def construct(self, inputs):
        _check_tensor(inputs)
        shape = tuple(inputs.shape)
        rank = len(shape)
        if rank < 3:
            raise ArgumentValueError(f"TimeDistributed: the inputs must be at least 3D, got "
                                     f"{rank}D")
        time_axis = self.time_axis % rank
        if self.reshape_with_axis is not None:
            merge = self.reshape_with_axis % rank
            moved = rank - 2 if merge == rank - 1 else (
                merge + 1 if time_axis > merge else merge - 1)
            pos = min(moved, merge)
            inputs = P.transpose(inputs, _swap_perm(moved, time_axis, rank))
            moved_shape = tuple(inputs.shape)
            inputs = P.reshape(inputs, moved_shape[:pos] + (-1,) + moved_shape[pos + 2:])
            outputs = self.layer(inputs)
            _check_tensor(outputs)
            if pos >= len(outputs.shape) or inputs.shape[pos] != outputs.shape[pos]:
                raise ArgumentValueError(f"TimeDistributed: `reshape_with_axis` is invalid for "
                                         f"inputs of shape {tuple(inputs.shape)} and outputs of "
                                         f"shape {tuple(outputs.shape)}")
            out_shape = tuple(outputs.shape[:pos]) + moved_shape[pos:pos + 2] + \
                tuple(outputs.shape[pos + 1:])
            return P.reshape(outputs, (-1,) + out_shape[1:])
        steps = []
        for item in P.unstack(inputs, time_axis):
            out = self.layer(item)
            _check_tensor(out)
            if time_axis > len(out.shape):
                raise ArgumentValueError(f"TimeDistributed: `time_axis` must be in "
                                         f"[{-len(out.shape) - 1}, {len(out.shape)}], got "
                                         f"{time_axis}")
            steps.append(out)
        return P.stack(steps, time_axis)
