"""`mindspore.ops._grad_experimental.grad_base`: `bprop_getters`, the registry of Python bprops
for Primitive subclasses, and `get_bprop_fn` (defined with the Primitive classes,
ops/primitive.py)."""
from cellgraph.ops.primitive import BpropRegistry, bprop_getters, get_bprop_fn

__all__ = ["BpropRegistry", "bprop_getters", "get_bprop_fn"]
