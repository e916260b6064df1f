"""`mindspore.scipy`: SciPy's interfaces over Tensors. `linalg` holds the decompositions and
inverses MindSpore's `scipy.linalg` offers (see its docstring for which)."""
from cellgraph._lazy import lazy_names as _lazy_names

__getattr__, __dir__ = _lazy_names(globals(), {"linalg": ("cellgraph.scipy.linalg", None)})
