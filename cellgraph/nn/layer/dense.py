"""BiDense: y = x1ᵀ A x2 + b, a bilinear map of two inputs."""
from __future__ import annotations

import math

import cellgraph.ops as P
from cellgraph.common.initializer import Uniform, initializer
from cellgraph.compiler.builder import Tracer
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Parameter, Tensor

from ..cell import Cell
from ._checks import positive_int

__all__ = ["BiDense"]


class BiDense(Cell):
    """The bilinear map y[..., o] = sum_ij x1[..., i] weight[o, i, j] x2[..., j] + bias[o],
    weight of shape (out_channels, in1_channels, in2_channels); both initialized uniform in
    +-1/sqrt(in1_channels) unless given."""

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None,
                 bias_init=None, has_bias=True, dtype=dt.float32):
        super().__init__()
        self.in1_channels = positive_int(in1_channels, "BiDense", "in1_channels")
        self.in2_channels = positive_int(in2_channels, "BiDense", "in2_channels")
        self.out_channels = positive_int(out_channels, "BiDense", "out_channels")
        if not isinstance(has_bias, bool):
            raise DTypeError(f"BiDense: `has_bias` must be a bool, got {type(has_bias).__name__}")
        self.has_bias = has_bias
        bound = 1 / math.sqrt(self.in1_channels)
        shape = (self.out_channels, self.in1_channels, self.in2_channels)
        if weight_init is None:
            weight_init = Uniform(bound)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != shape:
            raise ArgumentValueError(f"BiDense: `weight_init` must have shape (out_channels, "
                                     f"in1_channels, in2_channels) = {shape}, got "
                                     f"{tuple(weight_init.shape)}")
        self.weight = Parameter(initializer(weight_init, shape, dtype), name="weight")
        self.bias = None
        if has_bias:
            if bias_init is None:
                bias_init = Uniform(bound)
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (self.out_channels,):
                raise ArgumentValueError(f"BiDense: `bias_init` must have shape "
                                         f"({self.out_channels},), got {tuple(bias_init.shape)}")
            self.bias = Parameter(initializer(bias_init, (self.out_channels,), dtype),
                                  name="bias")

    def construct(self, input1, input2):
        for name, value in (("input1", input1), ("input2", input2)):
            if not isinstance(value, (Tensor, Tracer)):
                raise DTypeError(f"BiDense: `{name}` must be a Tensor, got "
                                 f"{type(value).__name__}")
        shape1, shape2 = tuple(input1.shape), tuple(input2.shape)
        for name, shape, size in (("input1", shape1, self.in1_channels),
                                  ("input2", shape2, self.in2_channels)):
            if not shape or shape[-1] != size:
                raise ShapeError(f"BiDense: the last dimension of `{name}` must be {size}, got "
                                 f"shape {shape}")
        if shape1[:-1] != shape2[:-1]:
            raise ShapeError(f"BiDense: the dimensions but the last of `input1` {shape1} and "
                             f"`input2` {shape2} must be the same")
        x1 = P.reshape(input1, (-1, self.in1_channels))
        x2 = P.reshape(input2, (-1, self.in2_channels))
        w = P.reshape(P.transpose(self.weight, (1, 2, 0)), (self.in1_channels, -1))
        out = P.reshape(P.matmul(x1, w), (-1, self.in2_channels, self.out_channels))
        out = P.reduce_sum(out * P.expand_dims(x2, -1), 1)
        if self.has_bias:
            out = out + self.bias
        return P.reshape(out, shape1[:-1] + (self.out_channels,))

    def extend_repr(self) -> str:
        text = f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, " \
               f"output_channels={self.out_channels}"
        return text + (f", has_bias={self.has_bias}" if self.has_bias else "")
