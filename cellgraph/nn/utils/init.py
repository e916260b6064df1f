"""`mindspore.nn.utils`."""
from __future__ import annotations

import contextlib

__all__ = ["no_init_parameters"]


@contextlib.contextmanager
def no_init_parameters():
    """MindSpore defers filling the Parameters of Cells built in this block until
    `init_parameters_data()` or a checkpoint load, to save memory and time. cellgraph fills
    them when they are created, so the block changes nothing observable: a checkpoint loaded
    afterwards replaces the values, and `init_parameters_data()` returns them as they are."""
    yield
