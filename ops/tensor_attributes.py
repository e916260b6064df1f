"""Attributes of a tensor that follow from its type alone (element size, byte counts, strides),
shared by eager Tensors and graph tracers so that both answer them the same way."""
from __future__ import annotations


class TensorAttributes:
    """Mixin over `aval`: the answers are compile-time constants inside a graph."""

    __slots__ = ()

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self.aval.dtype.np.itemsize

    @property
    def nbytes(self) -> int:
        """Bytes of the whole tensor."""
        return self.aval.size * self.aval.dtype.np.itemsize

    @property
    def strides(self) -> tuple:
        """Bytes to step along each axis of the row-major layout, as NumPy counts them."""
        step, out = self.aval.dtype.np.itemsize, []
        for size in reversed(self.aval.shape):
            out.append(step)
            step *= size
        return tuple(reversed(out))

    def is_contiguous(self) -> bool:
        return True  # every backend keeps its arrays row-major

    def contiguous(self):
        return self

    def element_size(self) -> int:
        return self.itemsize

    def is_floating_point(self) -> bool:
        return self.aval.dtype.is_float
