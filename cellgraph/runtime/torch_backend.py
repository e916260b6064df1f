"""The PyTorch backend, on the CPU (`torch`) or on the current CUDA device (`torch_cuda`).

Selecting it (PyTorch is an optional extra: `pip install cellgraph[torch]`):

    cellgraph.set_context(backend="torch")       # PyTorch on the CPU
    cellgraph.set_context(backend="torch_cuda")  # PyTorch on the GPU
    cellgraph.set_context(device_target="GPU")   # torch_cuda when PyTorch sees a CUDA device,
                                                 # else CuPy, else NumPy with a warning

`set_context(backend=...)` calls `cellgraph.runtime.backend.set_backend`, which imports this
module on first use. Tensors made while a backend is selected hold its arrays; NumPy arrays
(Tensors made before the switch) are moved to the device when a call reaches the runtime.

The kernels are the shared array-API table (runtime/kernels.py) on `array_api_compat.torch`
(a dependency of the `torch` extra), plus torch's override table (`torch_kernels.TABLE`) and
the host fallbacks of `backend.HOST_FALLBACKS`.
"""
from __future__ import annotations

import functools

try:
    import torch
except ImportError as e:  # the backend is optional
    raise ImportError("the torch backend needs PyTorch: pip install 'cellgraph[torch]'") from e

import numpy as np

from .backend import Backend, register_backend, with_host_fallbacks
from .kernels import bind_kernels
from .torch_kernels import TABLE, TORCH_DTYPES, array_namespace, from_host, to_host


def _asarray(dev: torch.device):
    """Backend.asarray: a kernel result as a tensor on `dev` of the given NumPy dtype."""
    def asarray(value, dtype):
        tdt = TORCH_DTYPES[np.dtype(dtype)]
        if isinstance(value, torch.Tensor):
            return value.to(device=dev, dtype=tdt)
        if isinstance(value, (bool, int, float)):
            return torch.tensor(value, dtype=tdt, device=dev)
        return from_host(np.asarray(value, dtype=dtype), dev)
    return asarray


def make_backend(device: str = "cpu") -> Backend:
    """A torch backend on `device` ("cpu", "cuda", "cuda:1"); named `torch` on the CPU and
    `torch_cuda` (or `torch_cuda:1`) on a GPU."""
    dev = torch.device(device)
    name = "torch" if dev.type == "cpu" else "torch_" + str(dev)
    kernels = bind_kernels(array_namespace(dev))
    kernels.update({prim: functools.partial(fn, dev) for prim, fn in TABLE.items()})
    to_device = functools.partial(from_host, dev=dev)
    with_host_fallbacks(kernels, to_host, to_device)
    return Backend(name, torch, kernels, to_host=to_host, from_host=to_device,
                   device="CPU" if dev.type == "cpu" else "GPU", asarray=_asarray(dev),
                   array_type=torch.Tensor)


register_backend(make_backend("cpu"))
if torch.cuda.is_available():
    register_backend(make_backend("cuda"))
