"""cellgraph.nn: Cell and the layers, losses, optimizers and wrappers built on it."""
from .cell import Cell  # noqa: F401
