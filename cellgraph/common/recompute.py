"""`mindspore.recompute`: run a block whose activations MindSpore recomputes in the backward pass
instead of keeping them. Recomputation trades memory for time and never changes a value, and
reverse mode here keeps the forward values it needs, so the block runs as a plain call after
MindSpore's checks of the arguments; the options that steer recomputation (`output_recompute`,
`early_stop`) change memory use only."""
from __future__ import annotations

import contextlib

from cellgraph.primitives.errors import ArgumentValueError, DTypeError

__all__ = ["recompute"]


def recompute(block, *args, use_reentrant=True, output_recompute=False, early_stop=True,
              context_fn=None, **kwargs):
    """block(*args, **kwargs), with MindSpore's checks: with `use_reentrant` (the default,
    unless `output_recompute`) `block` must be a Cell and `context_fn` is refused; without it,
    `context_fn()` gives two context managers, the first of which the forward call runs in."""
    from cellgraph.nn.cell import Cell

    if output_recompute:
        use_reentrant = False
    if use_reentrant and not isinstance(block, Cell):
        raise DTypeError("Recompute function now only support block which inherited from Cell "
                         "when use_reentrant=True!")
    if use_reentrant:
        if context_fn is not None:
            raise ArgumentValueError("context_fn is only supported when use_reentrant=False.")
        return block(*args, **kwargs)
    forward_ctx = context_fn()[0] if context_fn is not None else contextlib.nullcontext()
    with forward_ctx:
        return block(*args, **kwargs)
