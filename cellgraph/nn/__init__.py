"""cellgraph.nn: Cell and the layers, losses, optimizers and wrappers built on it."""
from .cell import Cell  # noqa: F401
from .grad_cells import Jvp, Vjp  # noqa: F401
