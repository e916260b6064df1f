"""`mindspore.profiler`: per-kernel timing over the running backend (see profiler.py)."""
from . import mstx
from .dynamic import DynamicProfilerMonitor
from .profiler import (
    AicoreMetrics,
    Profiler,
    ProfilerActivity,
    ProfilerLevel,
    profile,
    tensorboard_trace_handler,
)
from .schedule import ProfilerAction, Schedule, schedule

__all__ = ["AicoreMetrics", "DynamicProfilerMonitor", "Profiler", "ProfilerAction", "ProfilerActivity", "ProfilerLevel",
           "Schedule", "mstx", "profile", "schedule", "tensorboard_trace_handler"]
