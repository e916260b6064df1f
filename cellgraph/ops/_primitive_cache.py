"""MindSpore's `ops._primitive_cache`: `_get_cache_prim(cls)(*args, **kwargs)`, one primitive
instance per class and arguments, made once and reused (MindSpore's functional ops use it so
that an eager call does not build its primitive again). Inside a graph being built each call
makes its own instance, as MindSpore's graph mode does."""
from __future__ import annotations

import threading

from cellgraph.compiler.builder import current_builder

__all__ = ["_get_cache_prim"]

_PRIM_CACHE: dict = {}
_LOCK = threading.Lock()


def _get_cache_prim(cls):
    """A function that returns `cls(*args, **kwargs)`: eagerly the cached instance for the
    class and the arguments (by their text, as MindSpore keys them), in a graph a new one."""

    def cached(*args, **kwargs):
        if current_builder() is not None:
            return cls(*args, **kwargs)
        key = str((str(cls), *(str(a) for a in args),
                   *(f"{name}:{value}" for name, value in kwargs.items())))
        with _LOCK:
            if key not in _PRIM_CACHE:
                _PRIM_CACHE[key] = cls(*args, **kwargs)
            return _PRIM_CACHE[key]

    return cached
