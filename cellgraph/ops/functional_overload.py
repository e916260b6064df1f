"""MindSpore's `ops.functional_overload`: the functions that take both of MindSpore's calling
forms, which MindSpore's own examples and mint call through this module. They are mint's
(`mint.any`, `mint.max`, ...) and mint.nn.functional's (`conv2d`, `gelu`, ...), as in
MindSpore, where nearly all are the same objects. Its Ascend-only kernels (grouped and
quantised matmuls, sparse and NSA attention, lightning_indexer) and its in-place
`bernoulli_` and `rmod` are not here."""
from __future__ import annotations

import importlib

_MINT = ("add", "addcdiv", "any", "bitwise_not", "clamp", "clip", "div", "divide", "einsum",
         "empty", "empty_like", "eq", "floor_divide", "fmod", "ge", "greater_equal", "imag",
         "index_add", "kthvalue", "lerp", "less", "lt", "max", "min", "mul", "nansum", "real",
         "remainder", "repeat_interleave", "sub", "where", "xlogy")
_NN_FUNCTIONAL = ("conv1d", "conv2d", "conv3d", "gelu", "pixel_shuffle")

__all__ = sorted(_MINT + _NN_FUNCTIONAL)  # noqa: PLE0605  (the two lists above)


def __getattr__(name: str):
    """mint's function of that name (loaded on first use: mint loads nn)."""
    if name in _MINT:
        module = "cellgraph.mint"
    elif name in _NN_FUNCTIONAL:
        module = "cellgraph.mint.nn.functional"
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__
