"""The backend protocol: a name, an array module, a kernel table and transfers.

A kernel is `fn(*arrays, **params) -> array` registered under the primitive's name. The NumPy
backend is the reference; others (PyTorch, CuPy) plug in with the same table keys.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class Backend:
    name: str
    xp: Any  # the array module
    kernels: dict[str, Callable] = field(default_factory=dict)
    to_host: Callable = lambda a: a  # backend array -> numpy.ndarray
    from_host: Callable = lambda a: a  # numpy.ndarray -> backend array
    device: str = "CPU"

    def kernel(self, name: str) -> Callable:
        try:
            return self.kernels[name]
        except KeyError:
            raise NotImplementedError(
                f"backend {self.name} has no kernel for primitive {name}") from None

    def register(self, name: str):
        def deco(fn):
            self.kernels[name] = fn
            return fn
        return deco


_BACKENDS: dict[str, Backend] = {}
_current: list[Backend] = []


def register_backend(backend: Backend) -> None:
    _BACKENDS[backend.name] = backend


def get_backend(name: str | None = None) -> Backend:
    if name is None:
        return _current[-1] if _current else _BACKENDS["numpy"]
    return _BACKENDS[name]


def set_backend(name: str) -> Backend:
    backend = _BACKENDS[name]
    _current[:] = [backend]
    return backend


def available_backends() -> list[str]:
    return sorted(_BACKENDS)
