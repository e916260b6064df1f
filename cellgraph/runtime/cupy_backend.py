"""The CuPy backend (`cupy`): the kernels of `cupy_kernels` on the current CUDA device.

Selecting it (CuPy is an optional extra: `pip install cellgraph[cupy]`):

    cellgraph.set_context(backend="cupy")
    cellgraph.set_context(device_target="GPU")  # CuPy when PyTorch has no CUDA device

`set_context(backend=...)` calls `cellgraph.runtime.backend.set_backend`, which imports this
module on first use; importing it without CuPy raises ImportError, and nothing else imports it.
"""
from __future__ import annotations

try:
    import cupy
except ImportError as e:  # the backend is optional
    raise ImportError("the cupy backend needs CuPy: pip install 'cellgraph[cupy]'") from e

from .backend import register_backend
from .cupy_kernels import make_backend

try:
    _HAS_DEVICE = cupy.cuda.runtime.getDeviceCount() > 0
except Exception:  # noqa: BLE001 - CuPy raises its own errors when no driver is present
    _HAS_DEVICE = False

if _HAS_DEVICE:
    register_backend(make_backend(cupy, "cupy", device="GPU"))
