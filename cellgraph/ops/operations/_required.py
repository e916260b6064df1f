"""The arguments MindSpore's primitive classes require: `ops.Pad()` without `paddings` raises
TypeError there, so it does here, and the class's signature shows them without a default."""
from __future__ import annotations

import inspect


def require(cls: type, *names: str) -> type:
    """Make `names` (init parameters of the PrimitiveClass `cls`) required; returns `cls`."""
    base = inspect.signature(cls)
    params = [p.replace(default=inspect.Parameter.empty) if p.name in names else p
              for p in base.parameters.values()]
    missing = set(names) - {p.name for p in params}
    if missing:
        raise ValueError(f"{cls.__name__} has no init parameter {sorted(missing)}")
    signature = inspect.Signature(params)
    init = cls.__init__

    def __init__(self, *args, **kwargs):
        try:
            signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{cls.__name__}.__init__() {exc}") from None
        init(self, *args, **kwargs)

    cls.__init__ = __init__
    cls.__signature__ = signature
    return cls
