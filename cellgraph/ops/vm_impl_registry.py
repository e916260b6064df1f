"""`mindspore.ops.vm_impl_registry`: Python implementations of primitives, for debugging.

`@vm_impl_registry.register(PrimClass)` (or a primitive's name) files a getter
`getter(prim) -> impl(*inputs)`; `get_vm_impl_fn(prim)` calls the getter for a Primitive or a
name and returns the implementation, or None when none is registered. MindSpore's debugging VM
ran these in place of kernels; none of its 2.10 back ends (the CPU one included) calls them, and
neither does cellgraph: programs register and look them up, as here.
"""
from __future__ import annotations

from .primitive import PrimitiveRegistry

__all__ = ["VmImplRegistry", "get_vm_impl_fn", "vm_impl_registry"]


class VmImplRegistry(PrimitiveRegistry):
    """The registry of the primitives' Python implementations."""

    label = "vm_impl_registry"


vm_impl_registry = VmImplRegistry()


def get_vm_impl_fn(prim):
    """The Python implementation registered for `prim` (a Primitive or a primitive's name),
    made by its getter; None when none is registered."""
    getter = vm_impl_registry.get(prim, None)
    if getter:
        return getter(prim)
    return None
