"""Kernels of MindSpore's back ends that have no public primitive class: a program reaches one
by defining its own `Primitive` subclass of that name with no Python `__call__` (MindSpore looks
the kernel up by the primitive's name and reads its attributes). Each kernel here is a
composition of cellgraph operations over `(prim, *inputs)`, reading the attributes the same way.
"""
from __future__ import annotations

import numbers

from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of, normalize_axis
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.primitives.nn_functional import slice as _slice

KERNELS: dict = {}


def kernel(name):
    def register(fn):
        KERNELS[name] = fn
        return fn
    return register


@kernel("Shift")
def _shift(prim, x, fill_value):
    """Shift(periods, axis)(x, fill_value): x moved `periods` places along `axis` (towards the
    end when positive), the places it leaves set to `fill_value`; |periods| >= the axis length
    fills everything (MindSpore's CPU kernel)."""
    periods, axis = int(prim.attrs.get("periods", 1)), int(prim.attrs.get("axis", -1))
    shape = tuple(abstract_of(x).shape)
    if not -len(shape) <= axis < len(shape):
        raise ArgumentValueError(f"For 'Shift', the 'axis' must be less than the dimension of "
                                 f"input tensor {len(shape)}D, but got {axis}")
    axis = normalize_axis(axis, len(shape))
    size = shape[axis]
    dtype = abstract_of(x).dtype

    def narrow(start, length):
        return _slice(x, tuple(start if d == axis else 0 for d in range(len(shape))),
                      tuple(length if d == axis else n for d, n in enumerate(shape)))

    def filled(length):
        part = tuple(length if d == axis else n for d, n in enumerate(shape))
        if isinstance(fill_value, numbers.Number):
            return F.fill(dtype, part, fill_value)
        return F.broadcast_to(F.cast(fill_value, dtype), part)

    if periods == 0:
        return x
    if abs(periods) >= size:
        return filled(size)
    if periods > 0:
        return F.concat((filled(periods), narrow(0, size - periods)), axis)
    return F.concat((narrow(-periods, size + periods), filled(-periods)), axis)
