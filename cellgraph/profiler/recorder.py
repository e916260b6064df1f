"""Timing every kernel: a backend that wraps the current one's kernels.

While a profiler records, the current backend is replaced by `<name>+profiler`, whose kernel
table hands out timed wrappers of the wrapped backend's kernels. Compiled graphs are cached per
backend, so the next call of a Cell recompiles against the timed kernels (the recompilation is
not counted in any kernel's time), and eager operations look their kernels up on each call.
On a CUDA backend each timed kernel synchronises the device, so its time is the kernel's and not
its launch's. Stopping puts the wrapped backend back.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from cellgraph.runtime import backend as rb


@dataclass(frozen=True)
class OpEvent:
    """One kernel run: the primitive's name, when it started (ns since the profiler started),
    how long it took (ns) and the profiler step it ran in."""

    name: str
    start_ns: int
    duration_ns: int
    step: int


class Recording:
    """The events of one recording, and the step counter the schedule advances."""

    def __init__(self):
        self.origin_ns = time.perf_counter_ns()
        self.events: list[OpEvent] = []
        self.markers: list[tuple[str, int, int]] = []  # (message, start_ns, duration_ns)
        self.step = 0
        self.active = False

    def now(self) -> int:
        return time.perf_counter_ns() - self.origin_ns


def _device_sync(base: rb.Backend):
    if base.name == "torch_cuda":
        import torch

        return torch.cuda.synchronize
    if base.name == "cupy":
        import cupy

        return lambda: cupy.cuda.Device().synchronize()
    return None


class _TimedKernels(dict):
    """The wrapped backend's kernels, each wrapped on first lookup."""

    def __init__(self, base: rb.Backend, recording: Recording):
        super().__init__()
        self.base, self.recording, self.sync = base, recording, _device_sync(base)

    def __missing__(self, name: str):
        kernel, recording, sync = self.base.kernel(name), self.recording, self.sync
        op = name.partition("@")[0]  # a variant's kernel (`matmul@2d`) counts as its operation's

        def timed(*args, **params):
            if not recording.active:
                return kernel(*args, **params)
            start = time.perf_counter_ns()
            out = kernel(*args, **params)
            if sync is not None:
                sync()
            end = time.perf_counter_ns()
            recording.events.append(OpEvent(op, start - recording.origin_ns, end - start,
                                            recording.step))
            return out

        self[name] = timed
        return timed


def install(recording: Recording) -> rb.Backend:
    """Make the timed backend current; returns the backend it wraps."""
    base = rb.get_backend()
    timed = rb.Backend(f"{base.name}+profiler", base.xp, _TimedKernels(base, recording),
                       base.to_host, base.from_host, base.device, base.asarray,
                       base.array_type)
    rb.register_backend(timed)
    rb.set_backend(timed.name)
    return base


def uninstall(base: rb.Backend) -> None:
    rb.set_backend(base.name)
