"""`mindspore._c_expression`: the names of MindSpore's C++ extension module that programs and
MindSpore's own tests reach: `TensorPy`, the class every Tensor (and Parameter) is an instance
of; `security`, which says whether the build is MindSpore's security-hardened one (it refuses
save_graphs and similar debugging settings; cellgraph has no such build); and the monad classes
behind `mindspore.common._monad`."""
from __future__ import annotations

import types

from cellgraph.common._monad import IOMonad, UMonad
from cellgraph.runtime.tensor import Tensor as TensorPy

__all__ = ["IOMonad", "TensorPy", "UMonad", "security"]


def _enable_security() -> bool:
    """False: no setting is refused for security reasons."""
    return False


security = types.SimpleNamespace(enable_security=_enable_security)
