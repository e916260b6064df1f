"""`mindspore.profiler.schedule`: which steps a profiler records (PyTorch's semantics, which
MindSpore follows): after `skip_first` steps, cycles of `wait` idle, `warmup` and `active`
recorded steps, `repeat` times (0: until the profiler stops); the last active step of a cycle
hands the recording to `on_trace_ready`."""
from __future__ import annotations

import enum


class ProfilerAction(enum.Enum):
    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def _count(value, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"schedule: {name} must be an int >= {low}, got {value!r}")
    return value


class Schedule:
    """step -> ProfilerAction."""

    def __init__(self, *, wait: int, active: int, warmup: int = 0, repeat: int = 0,
                 skip_first: int = 0):
        self.wait, self.active = _count(wait, "wait", 0), _count(active, "active", 1)
        self.warmup, self.repeat = _count(warmup, "warmup", 0), _count(repeat, "repeat", 0)
        self.skip_first = _count(skip_first, "skip_first", 0)

    def __call__(self, step: int) -> ProfilerAction:
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        cycle = self.wait + self.warmup + self.active
        if self.repeat and step // cycle >= self.repeat:
            return ProfilerAction.NONE
        position = step % cycle
        if position < self.wait:
            return ProfilerAction.NONE
        if position < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return ProfilerAction.RECORD if position < cycle - 1 else ProfilerAction.RECORD_AND_SAVE


def schedule(*, wait: int, active: int, warmup: int = 0, repeat: int = 0,
             skip_first: int = 0) -> Schedule:
    return Schedule(wait=wait, active=active, warmup=warmup, repeat=repeat,
                    skip_first=skip_first)


def always_record(step: int) -> ProfilerAction:
    """No schedule: every step is recorded."""
    return ProfilerAction.RECORD
