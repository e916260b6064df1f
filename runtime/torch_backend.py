"""The PyTorch backend, on the CPU (`torch`) or on the current CUDA device (`torch_cuda`).

Selecting it (PyTorch is an optional extra: `pip install cellgraph[torch]`):

    cellgraph.set_context(backend="torch")       # PyTorch on the CPU
    cellgraph.set_context(backend="torch_cuda")  # PyTorch on the GPU
    cellgraph.set_context(device_target="GPU")   # torch_cuda when PyTorch sees a CUDA device,
                                                 # else CuPy, else NumPy with a warning

`set_context(backend=...)` calls `cellgraph.runtime.backend.set_backend`, which imports this
module on first use. Tensors made while a backend is selected hold its arrays; kernels also take
NumPy arrays (Tensors made before the switch) and move them to the device.

The kernel table (`torch_kernels.TABLE` plus `torch_nn_kernels`) has an entry for every
primitive of the NumPy table, with the NumPy table's dtypes and params; see `torch_kernels` for
where that differs from PyTorch's own rules. Host fallbacks (`HOST_FALLBACKS`) run the NumPy
kernel on copies of their operands: `uniform_real`, so that `set_seed` gives the same random
draws (dropout masks) on every backend, and `print`, which formats on the host anyway. On CUDA,
integer `matmul` also runs on the host: CUDA has no integer matrix product.
"""
from __future__ import annotations

import functools

try:
    import torch
except ImportError as e:  # the backend is optional
    raise ImportError("the torch backend needs PyTorch: pip install 'cellgraph[torch]'") from e

import numpy as np

from . import collective_kernels, torch_nn_kernels  # noqa: F401  (nn kernels join TABLE)
from .backend import Backend, host_fallback, register_backend
from .torch_kernels import TABLE, TORCH_DTYPES, from_host, tensor, to_host

HOST_FALLBACKS = {
    "uniform_real": "draws from the global NumPy generator, so set_seed gives the same numbers "
                    "on every backend",
    "print": "formats values on the host",
}


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


def _on_device(collective, dev: torch.device):
    """A collective kernel whose operands are first made tensors on `dev` (NCCL reads device
    memory; Tensors made before the backend was selected hold NumPy arrays)."""
    def kernel(*xs, **params):
        return collective(*[tensor(x, dev) for x in xs], **params)
    return kernel


def make_backend(device: str = "cpu") -> Backend:
    """A torch backend on `device` ("cpu", "cuda", "cuda:1"); named `torch` on the CPU and
    `torch_cuda` (or `torch_cuda:1`) on a GPU."""
    dev = torch.device(device)
    name = "torch" if dev.type == "cpu" else "torch_" + str(dev)
    kernels = {prim: functools.partial(fn, dev) for prim, fn in TABLE.items()}
    to_device = functools.partial(from_host, dev=dev)
    for prim in HOST_FALLBACKS:
        kernels[prim] = host_fallback(prim, to_host, to_device)
    for prim, fn in collective_kernels.KERNELS.items():
        kernels[prim] = _on_device(fn, dev)
    return Backend(name, torch, kernels, to_host=to_host, from_host=to_device,
                   device="CPU" if dev.type == "cpu" else "GPU", asarray=_asarray(dev))


register_backend(make_backend("cpu"))
if torch.cuda.is_available():
    register_backend(make_backend("cuda"))
