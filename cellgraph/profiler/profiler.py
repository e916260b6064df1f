"""`mindspore.Profiler` / `mindspore.profiler.profile`: the time of every kernel the program
runs (see recorder.py for how), grouped per primitive. `analyse()` writes, under
`output_path/profiler/`: op_statistic.csv (per primitive: count, total, average, min, max time
in us, share of the total), kernel_details.csv (every run) and trace_view.json (a Chrome trace);
`table()` gives the statistics as text and `op_analyse(name)` one primitive's as JSON.

Ascend's hardware counters (aic_metrics, l2_cache, hbm_ddr, pcie) and the NPU activity do not
exist here: asking for them warns that they are not collected.
"""
from __future__ import annotations

import csv
import dataclasses
import enum
import json
import os
import warnings

from cellgraph import safe_io

from . import recorder, report
from .schedule import ProfilerAction, always_record


class ProfilerLevel(enum.Enum):
    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(enum.Enum):
    CPU = "CPU"
    NPU = "NPU"
    GPU = "GPU"


class AicoreMetrics(enum.Enum):
    AiCoreNone = "AiCoreNone"
    ArithmeticUtilization = "ArithmeticUtilization"
    PipeUtilization = "PipeUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    ResourceConflictRatio = "ResourceConflictRatio"
    MemoryUB = "MemoryUB"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"


_ASCEND_ONLY = ("l2_cache", "hbm_ddr", "pcie", "data_process", "parallel_strategy",
                "profile_memory", "with_stack", "record_shapes", "mstx")
_ACTIVE: list = []  # the profilers recording now (mstx markers go to them)


def _warn_unsupported(aic_metrics, activities, options: dict) -> None:
    asked = [k for k in _ASCEND_ONLY if options.get(k)]
    if aic_metrics not in (None, AicoreMetrics.AiCoreNone):
        asked.append(f"aic_metrics={aic_metrics}")
    if ProfilerActivity.NPU in (activities or ()):
        asked.append("ProfilerActivity.NPU")
    if asked:
        warnings.warn(f"Profiler: {', '.join(asked)} not collected: cellgraph times each "
                      f"kernel on its backend and has no Ascend counters", stacklevel=3)


class Profiler:
    """Time every kernel between start() and stop() (from construction when start_profile)."""

    def __init__(self, output_path="./data", profiler_level=ProfilerLevel.Level0,
                 activities=None, schedule=None, on_trace_ready=None, start_profile=True,
                 aic_metrics=None, **options):
        _warn_unsupported(aic_metrics, activities, options)
        self.output_path = os.fspath(output_path)
        self.profiler_level = profiler_level
        self.schedule = schedule or always_record
        self.on_trace_ready = on_trace_ready
        self.recording = recorder.Recording()
        self._base = None
        if start_profile:
            self.start()

    # -- recording ------------------------------------------------------------------------------
    def start(self) -> None:
        if self._base is not None:
            return
        self._base = recorder.install(self.recording)
        self._action = self.schedule(self.recording.step)
        self.recording.active = self._records(self._action)
        _ACTIVE.append(self)

    def stop(self) -> None:
        if self._base is None:
            return
        self.recording.active = False
        recorder.uninstall(self._base)
        self._base = None
        _ACTIVE.remove(self)

    def step(self) -> None:
        """End a step: hand a finished cycle to on_trace_ready, then follow the schedule."""
        if self._action is ProfilerAction.RECORD_AND_SAVE and self.on_trace_ready is not None:
            self.on_trace_ready(self)
            self.recording.events.clear()
            self.recording.markers.clear()
        self.recording.step += 1
        self._action = self.schedule(self.recording.step)
        self.recording.active = self._base is not None and self._records(self._action)

    @staticmethod
    def _records(action) -> bool:
        return action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    # -- results --------------------------------------------------------------------------------
    @property
    def events(self) -> list:
        return list(self.recording.events)

    def op_statistics(self) -> list:
        return report.op_statistics(self.recording.events)

    def table(self, limit=None) -> str:
        """The per-primitive statistics, the most time-consuming first."""
        return report.format_table(self.op_statistics(), limit)

    def op_analyse(self, op_name, device_id=None) -> str:
        """JSON of the statistics of `op_name` (a primitive's name, or a list of them)."""
        names = [op_name] if isinstance(op_name, str) else list(op_name)
        stats = {s.op_type: dataclasses.asdict(s) for s in self.op_statistics()}
        return json.dumps({name: stats.get(name) for name in names})

    def analyse(self, offline_path=None, pretty=False, step_list=None, mode="sync") -> None:
        """Write op_statistic.csv, kernel_details.csv and trace_view.json (indented with
        `pretty`)."""
        self.export(safe_io.contained(offline_path or self.output_path, "profiler",
                                      folder=True), step_list, pretty=bool(pretty))

    def export(self, directory: str, step_list=None, pretty: bool = False) -> None:
        os.makedirs(directory, exist_ok=True)
        events = [e for e in self.recording.events if step_list is None or e.step in step_list]
        report.write_statistics(report.op_statistics(events),
                                os.path.join(directory, "op_statistic.csv"))
        with safe_io.atomic_write(os.path.join(directory, "kernel_details.csv"), text=True,
                                  newline="") as f:
            writer = csv.writer(f)
            writer.writerow(("name", "step", "start_us", "duration_us"))
            writer.writerows((e.name, e.step, e.start_ns / 1e3, e.duration_ns / 1e3)
                             for e in events)
        report.write_trace(events, self.recording.markers,
                           os.path.join(directory, "trace_view.json"), pretty=pretty)


def analyse(profiler_path: str, max_process_number: int = max(1, (os.cpu_count() or 2) // 2),
            pretty=False, step_list=None, data_simplification=True) -> None:
    """`mindspore.profiler.profiler.analyse`: MindSpore's offline parsing of the raw data an
    Ascend run left in `*_ascend_ms*` folders. cellgraph's Profiler writes its results when it
    analyses (there is no raw data to parse later), and Ascend's raw data is not a format it
    reads: as MindSpore's does, this logs an error (a path that does not exist, or holds no
    such folder) and returns None, never raising."""
    from cellgraph import log

    real = os.path.realpath(os.fspath(profiler_path))
    if not os.path.isdir(real):
        log.error(f"Call to analyse failed. Exception: [Errno 2] No such file or directory: "
                  f"'{real}'")
        return
    found = [d for d in [real, *(os.path.join(real, n) for n in os.listdir(real))]
             if os.path.isdir(d) and "_ascend_ms" in os.path.basename(d)]
    if not found:
        log.error(f"Invalid path: {real}. Expected a *_ascend_ms_* directory or a parent "
                  f"directory of multiple *_ascend_ms_*")
        return
    log.error(f"Call to analyse failed: cellgraph cannot parse the Ascend raw profiling data "
              f"in {', '.join(found)}")


class profile(Profiler):
    """`mindspore.profiler.profile`: the Profiler as a context manager (records from entry)."""

    def __init__(self, activities=None, schedule=None, on_trace_ready=None, start_profile=True,
                 experimental_config=None, **options):
        super().__init__(activities=activities, schedule=schedule,
                         on_trace_ready=on_trace_ready, start_profile=False, **options)
        self._start_on_enter = start_profile

    def __enter__(self):
        if self._start_on_enter:
            self.start()
        return self


def tensorboard_trace_handler(dir_name=None, worker_name=None, analyse_flag=True,
                              async_mode=False):
    """An on_trace_ready that writes each finished cycle to dir_name/<worker>_<step>/."""
    directory = os.fspath(dir_name or "./data")
    worker = worker_name or f"{os.uname().nodename}_{os.getpid()}"

    def handler(prof: Profiler) -> None:
        # the worker's name is the user's: it names a folder inside `directory`, never above
        prof.export(safe_io.contained(directory, f"{worker}_{prof.recording.step}",
                                      folder=True))

    return handler
