"""The backend protocol: a name, an array module, a kernel table and transfers.

A kernel is `fn(*arrays, **params) -> array` registered under the primitive's name: the shared
array-API table (runtime/kernels.py) bound to the backend's namespace, plus the backend's
override table. The NumPy backend is the reference; others (PyTorch, CuPy, JAX) plug in with
the same keys, and a compiling backend (JAX) also lowers whole graphs (`compile_graph`). The
optional ones register themselves when their module is imported, which `get_backend` /
`set_backend` do on first use of their names (see `runtime/torch_backend.py`,
`runtime/cupy_backend.py`, `runtime/jax_backend.py`).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Backend:
    name: str
    xp: Any  # the array module
    kernels: dict[str, Callable] = field(default_factory=dict)
    to_host: Callable = lambda a: a  # backend array -> numpy.ndarray
    from_host: Callable = lambda a: a  # numpy.ndarray -> backend array
    device: str = "CPU"
    # (value, NumPy dtype) -> a backend array of that dtype: how results the type rules promise
    # are made from what a kernel returned (a Python number, another dtype); default xp.asarray
    asarray: Callable | None = None
    array_type: type | None = None  # the class of its arrays (default: xp.ndarray)
    # A compiling backend takes whole graphs: Compiled (the optimised graph, its generated
    # module) -> fn(*input arrays, *weight arrays) -> tuple of output arrays, run instead of
    # the generated Python (None: run that, kernel by kernel through `kernels`)
    compile_graph: Callable | None = None
    # Compiled -> Compiled: the graph rewritten for this backend before it is bound (the numpy
    # backend fuses elementwise runs into compiled kernels where numba is installed); None:
    # bound as it is
    lower: Callable | None = None

    def __post_init__(self):
        if self.asarray is None:
            xp = self.xp
            self.asarray = lambda value, dtype: xp.asarray(value, dtype=dtype)
        if self.array_type is None:
            self.array_type = self.xp.ndarray

    def native(self, value):
        """`value` as this backend's array: an array of another backend (a Tensor made before
        a switch, a NumPy constant) is copied over; Python numbers stay numbers."""
        if isinstance(value, self.array_type) or type(value) in (bool, int, float):
            return value
        return self.from_host(self.to_host(value) if hasattr(value, "shape") else value)

    def kernel(self, name: str) -> Callable:
        """The kernel of primitive `name`; for a variant's (`matmul@2d`), the variant's kernel
        where this backend has one, else the primitive's."""
        try:
            return self.kernels[name]
        except KeyError:
            if "@" in name:
                return self.kernel(name.partition("@")[0])
            raise NotImplementedError(
                f"backend {self.name} has no kernel for primitive {name}") from None

    def register(self, name: str):
        def deco(fn):
            self.kernels[name] = fn
            return fn
        return deco


# primitives every non-NumPy backend runs through the NumPy kernel, and why
HOST_FALLBACKS = {
    "uniform_real": "draws from the global NumPy generator (or an op seed's stream), so "
                    "set_seed gives the same numbers on every backend",
    "standard_normal": "draws from the global NumPy generator (or an op seed's stream), as "
                       "uniform_real",
    "random_permutation": "draws from the global NumPy generator (or an op seed's stream), "
                          "as uniform_real",
    "shuffled_true_positions": "draws from the global NumPy generator (or an op seed's "
                               "stream), as uniform_real",
    "uniform_int": "draws from the global NumPy generator (or an op seed's stream), as "
                   "uniform_real",
    "random_poisson": "draws from the global NumPy generator (or an op seed's stream), as "
                      "uniform_real",
    "random_gamma": "draws from the global NumPy generator (or an op seed's stream), as "
                    "uniform_real",
    "uniform_candidate_sampler": "draws from the global NumPy generator (or the instance's "
                                 "stream), as uniform_real",
    "eig": "LAPACK's general eigensolver through NumPy: CuPy has none, JAX's runs on the CPU "
           "only, and one solver gives every backend the same eigenvectors",
    "print": "formats values on the host",
    "py_hook": "calls the user's Python function (HookBackward) on host values",
    "py_func": "calls the user's Python function (ops.Custom, func_type='pyfunc') on host "
               "arrays",
    "summary": "keeps summary values on the host, for SummaryRecord to write",
}


def with_host_fallbacks(kernels: dict, to_host: Callable, from_host: Callable) -> dict:
    """`kernels` with the HOST_FALLBACKS running on the host."""
    for name in HOST_FALLBACKS:
        kernels[name] = host_fallback(name, to_host, from_host)
    return kernels


def host_fallback(name: str, to_host: Callable, from_host: Callable) -> Callable:
    """A kernel that runs the NumPy kernel `name` on the host: array operands are copied there
    and array results back. For the few primitives a backend declares as host fallbacks."""
    def kernel(*args, **params):
        out = get_backend("numpy").kernel(name)(
            *[to_host(a) if hasattr(a, "shape") else a for a in args], **params)
        return tuple(from_host(o) for o in out) if isinstance(out, tuple) else from_host(out)
    kernel.host_fallback = name
    return kernel


_BACKENDS: dict[str, Backend] = {}
_current: list[Backend] = []
# backend name -> the module that registers it on import (optional dependencies)
_OPTIONAL = {"torch": "torch_backend", "torch_cuda": "torch_backend", "cupy": "cupy_backend",
             "jax": "jax_backend"}


def register_backend(backend: Backend) -> None:
    _BACKENDS[backend.name] = backend


def get_backend(name: str | None = None) -> Backend:
    if name is None:
        return _current[-1] if _current else _BACKENDS["numpy"]
    if name not in _BACKENDS and name in _OPTIONAL:
        importlib.import_module(f"{__package__}.{_OPTIONAL[name]}")  # ImportError: not installed
        if name not in _BACKENDS:
            raise KeyError(f"backend {name!r} is installed but sees no device")
    try:
        return _BACKENDS[name]
    except KeyError:
        known = sorted(set(_BACKENDS) | set(_OPTIONAL))
        raise KeyError(f"unknown backend {name!r}; expected one of {', '.join(known)}") from None


def set_backend(name: str) -> Backend:
    """Run later eager ops and compiled calls on backend `name` (`numpy`, `torch`, ...)."""
    backend = get_backend(name)
    _current[:] = [backend]
    return backend


def available_backends() -> list[str]:
    return sorted(_BACKENDS)
