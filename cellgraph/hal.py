"""`mindspore.hal`: what the devices are, asked of the backend that runs the kernels.

"CPU" is the host (one device: the processor's name, its core count and physical memory);
"GPU" answers through PyTorch's CUDA API when the torch_cuda backend is usable (through CuPy's
runtime otherwise); "Ascend" has no backend here, so it is never available and naming it in a
query raises UnsupportedError. The memory counters are those of `cellgraph.runtime`.
"""
from __future__ import annotations

import os
import platform
from dataclasses import dataclass

from cellgraph.primitives.errors import ArgumentValueError, UnsupportedError
from cellgraph.runtime import device_api as _device_api
from cellgraph.runtime import gpu
from cellgraph.runtime.device_api import (  # noqa: F401  (hal's stream names)
    Stream,
    StreamCtx,
    current_stream,
    empty_cache,
    synchronize,
)

from . import context

TARGETS = ("CPU", "GPU", "Ascend")


@dataclass(frozen=True)
class DeviceProperties:
    """A device's name, memory (bytes) and compute units (CPU cores, or GPU multiprocessors)."""

    name: str
    total_memory: int
    multi_processor_count: int
    major: int = 0
    minor: int = 0


def _target(device_target, op: str) -> str:
    target = context.get_context("device_target") if device_target is None else device_target
    if target not in TARGETS:
        raise ArgumentValueError(f"hal.{op}: device_target must be one of "
                                 f"{', '.join(TARGETS)}, got {target!r}")
    if target == "Ascend":
        raise UnsupportedError(f"hal.{op}: cellgraph has no Ascend backend; query 'CPU' or "
                               f"'GPU'")
    return target


def _cuda():
    """("torch", torch.cuda) or ("cupy", cupy.cuda.runtime) when a GPU backend is usable."""
    name, _ = gpu.find_gpu_backend()
    if name == "torch_cuda":
        import torch

        return "torch", torch.cuda
    if name == "cupy":
        import cupy

        return "cupy", cupy.cuda.runtime
    return None, None


def is_available(device_target) -> bool:
    """Whether `device_target` can run kernels here."""
    if device_target not in TARGETS:
        raise ArgumentValueError(f"hal.is_available: device_target must be one of "
                                 f"{', '.join(TARGETS)}, got {device_target!r}")
    return device_target == "CPU" or (device_target == "GPU" and _cuda()[0] is not None)


def is_initialized(device_target) -> bool:
    """Whether the current context runs on `device_target` (its backend is set up)."""
    return is_available(device_target) and context.get_context("device_target") == device_target


def device_count(device_target=None) -> int:
    """The number of devices of `device_target` (the host counts as one CPU)."""
    if _target(device_target, "device_count") == "CPU":
        return 1
    kind, lib = _cuda()
    if kind is None:
        return 0
    return int(lib.device_count() if kind == "torch" else lib.getDeviceCount())


def _check_id(device_id: int, target: str, op: str) -> None:
    count = device_count(target)
    if isinstance(device_id, bool) or not isinstance(device_id, int) or not (
            0 <= device_id < count):
        raise ArgumentValueError(f"hal.{op}: device_id must be an int in [0, {count}) for "
                                 f"{target}, got {device_id!r}")


def _host_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


def get_device_properties(device_id=0, device_target=None) -> DeviceProperties:
    """Name, total memory and compute units of one device."""
    target = _target(device_target, "get_device_properties")
    _check_id(device_id, target, "get_device_properties")
    if target == "CPU":
        return DeviceProperties(platform.processor() or platform.machine() or "CPU",
                                _host_memory(), os.cpu_count() or 1)
    kind, lib = _cuda()
    if kind == "torch":
        p = lib.get_device_properties(device_id)
        return DeviceProperties(p.name, int(p.total_memory), int(p.multi_processor_count),
                                int(p.major), int(p.minor))
    p = lib.getDeviceProperties(device_id)
    return DeviceProperties(p["name"].decode(), int(p["totalGlobalMem"]),
                            int(p["multiProcessorCount"]), int(p["major"]), int(p["minor"]))


def get_device_name(device_id=0, device_target=None) -> str:
    return get_device_properties(device_id, device_target).name


def get_device_capability(device_id=0, device_target=None):
    """(major, minor) compute capability of a GPU; None for the CPU, which has none."""
    props = get_device_properties(device_id, device_target)
    if _target(device_target, "get_device_capability") == "CPU":
        return None
    return props.major, props.minor


def get_arch_list(device_target=None):
    """The GPU architectures the GPU library was built for; None for the CPU."""
    if _target(device_target, "get_arch_list") == "CPU":
        return None
    kind, lib = _cuda()
    return list(lib.get_arch_list()) if kind == "torch" else None


def _memory_figure(name: str):
    """hal's spelling of the runtime memory function `name`: the same figures (those of the
    backend that runs the kernels), for the `device_target` checked as hal checks it."""
    figure = getattr(_device_api, name)

    def hal_figure(device_target=None):
        _target(device_target, name)
        return figure()
    hal_figure.__name__ = hal_figure.__qualname__ = name
    hal_figure.__doc__ = figure.__doc__
    return hal_figure


(memory_allocated, memory_reserved, max_memory_allocated, max_memory_reserved, memory_stats,
 reset_peak_memory_stats, reset_max_memory_allocated, reset_max_memory_reserved) = (
    _memory_figure(name) for name in (
        "memory_allocated", "memory_reserved", "max_memory_allocated", "max_memory_reserved",
        "memory_stats", "reset_peak_memory_stats", "reset_max_memory_allocated",
        "reset_max_memory_reserved"))
