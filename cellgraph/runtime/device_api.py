"""`mindspore.runtime`'s device functions: synchronisation and memory statistics of the
current backend.

On a CUDA backend (PyTorch or CuPy) they ask that library's allocator. The NumPy backend runs
every kernel to completion on the host and has no device memory pool: synchronize returns at
once and the device memory counters read 0. Pool sizing (`set_memory`) belongs to MindSpore's
allocator; it is accepted with a warning that it changes nothing here.
"""
from __future__ import annotations

import contextlib
import warnings

from .backend import get_backend

__all__ = ["Stream", "StreamCtx", "current_stream", "empty_cache", "launch_blocking",
           "max_memory_allocated", "max_memory_reserved", "memory_allocated", "memory_reserved",
           "memory_stats", "reset_max_memory_allocated", "reset_max_memory_reserved", "reset_peak_memory_stats",
           "set_memory", "synchronize"]


def _library():
    """("torch", torch.cuda) or ("cupy", cupy) for a CUDA backend, else (None, None)."""
    name = get_backend().name
    if name == "torch_cuda":
        import torch

        return "torch", torch.cuda
    if name == "cupy":
        import cupy

        return "cupy", cupy
    return None, None


def synchronize() -> None:
    """Wait until every kernel launched on the device has finished."""
    kind, lib = _library()
    if kind == "torch":
        lib.synchronize()
    elif kind == "cupy":
        lib.cuda.Device().synchronize()


def memory_allocated() -> int:
    """Bytes held by live device tensors."""
    kind, lib = _library()
    if kind == "torch":
        return int(lib.memory_allocated())
    if kind == "cupy":
        return int(lib.get_default_memory_pool().used_bytes())
    return 0


def memory_reserved() -> int:
    """Bytes the allocator holds from the device (live tensors and its cache)."""
    kind, lib = _library()
    if kind == "torch":
        return int(lib.memory_reserved())
    if kind == "cupy":
        return int(lib.get_default_memory_pool().total_bytes())
    return 0


def max_memory_allocated() -> int:
    kind, lib = _library()
    if kind == "torch":
        return int(lib.max_memory_allocated())
    return memory_allocated()  # CuPy keeps no peak: the current figure bounds it from below


def max_memory_reserved() -> int:
    kind, lib = _library()
    if kind == "torch":
        return int(lib.max_memory_reserved())
    return memory_reserved()


def reset_peak_memory_stats() -> None:
    kind, lib = _library()
    if kind == "torch":
        lib.reset_peak_memory_stats()


reset_max_memory_allocated = reset_max_memory_reserved = reset_peak_memory_stats


def memory_stats() -> dict:
    return {"total_allocated_memory": memory_allocated(), "total_reserved_memory":
            memory_reserved(), "max_allocated_memory": max_memory_allocated(),
            "max_reserved_memory": max_memory_reserved()}


def empty_cache() -> None:
    """Give cached, unused device memory back to the device."""
    kind, lib = _library()
    if kind == "torch":
        lib.empty_cache()
    elif kind == "cupy":
        lib.get_default_memory_pool().free_all_blocks()


def launch_blocking() -> None:
    """MindSpore's switch to run every kernel synchronously, so that a kernel's error is raised
    at the call that launched it. The NumPy backend already runs each kernel to completion
    before the call returns; a CUDA backend launches asynchronously through its library, which
    this switch does not change (a warning says so)."""
    if _library()[0] is not None:
        warnings.warn("runtime.launch_blocking: the CUDA backend's kernels stay asynchronous; "
                      "call runtime.synchronize() to wait for them", RuntimeWarning, stacklevel=2)


def set_memory(init_size="2GB", increase_size="2GB", max_size="1024GB", optimize_level="O0",
               huge_page_reserve_size="0GB") -> None:
    warnings.warn("runtime.set_memory: MindSpore's memory pool options do not apply; the "
                  "backend's own allocator manages device memory", RuntimeWarning, stacklevel=2)


class Stream:
    """A device work queue. Kernels here run on the backend's default stream, so every Stream
    is that one: synchronize waits for the device, query reports whether work is pending."""

    def __init__(self, priority=0, **kwargs):
        self.priority = priority

    def synchronize(self) -> None:
        synchronize()

    def query(self) -> bool:
        synchronize()
        return True

    def wait_stream(self, stream) -> None:
        synchronize()


_DEFAULT_STREAM = Stream()


def current_stream() -> Stream:
    return _DEFAULT_STREAM


@contextlib.contextmanager
def StreamCtx(ctx_stream):
    """Run the block on `ctx_stream` (all streams are the default one here)."""
    yield ctx_stream
