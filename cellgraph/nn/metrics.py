"""The 1.x module path of the metrics (mindspore.nn.metrics); they live in cellgraph.train."""
from cellgraph.train.metrics import *
from cellgraph.train.metrics import __all__  # noqa: F401
