"""`mindspore.profiler.DynamicProfilerMonitor`: profiling switched on and off while a program
trains, by editing a JSON file.

The monitor counts training steps (a `Model.train` callback, or `step()` after each step of a
hand-written loop). At the start of a step, at most every `poll_interval` seconds, it re-reads
`cfg_path/profiler_config.json` when the file changed; steps `start_step` to `stop_step`
(counted from 1, inclusive) are recorded by a `Profiler`, whose results are written to
`output_path/rank{rank}_start{start}_stop{stop}/profiler/` after `stop_step`. A missing file is
created with start_step = stop_step = -1 (record nothing) for the user to edit.
"""
from __future__ import annotations

import json
import os
import time

from cellgraph import safe_io
from cellgraph.primitives.errors import ArgumentError
from cellgraph.train.callback import Callback

from .profiler import Profiler, ProfilerLevel

CONFIG_FILE = "profiler_config.json"
DEFAULT_CONFIG = {"start_step": -1, "stop_step": -1, "profiler_level": 0}
LEVELS = {-1: ProfilerLevel.LevelNone, 0: ProfilerLevel.Level0, 1: ProfilerLevel.Level1,
          2: ProfilerLevel.Level2}


def _rank() -> int:
    from cellgraph.runtime import distributed

    if distributed.is_initialized():
        from cellgraph.communication import get_rank

        return get_rank()
    return int(os.environ.get("RANK_ID", "0"))


def _read_config(path: str) -> dict:
    with open(path) as f:
        config = {**DEFAULT_CONFIG, **json.load(f)}
    start, stop = config["start_step"], config["stop_step"]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, stop)):
        raise ArgumentError(f"DynamicProfilerMonitor: start_step and stop_step in {path} must "
                            f"be ints, got {start!r} and {stop!r}")
    if start > 0 and stop < start:
        raise ArgumentError(f"DynamicProfilerMonitor: stop_step must be >= start_step in "
                            f"{path}, got start_step={start}, stop_step={stop}")
    return config


class DynamicProfilerMonitor(Callback):
    """Record the steps a JSON file names, re-read while training (see the module notes)."""

    def __init__(self, cfg_path=None, output_path="./dyn_profile_data", poll_interval=2,
                 **kwargs):
        if not isinstance(cfg_path, (str, os.PathLike)):
            raise ArgumentError(f"DynamicProfilerMonitor: `cfg_path` must be the folder of "
                                f"{CONFIG_FILE}, got {cfg_path!r}")
        if isinstance(poll_interval, bool) or not isinstance(poll_interval, (int, float)) or \
                poll_interval < 0:
            raise ArgumentError(f"DynamicProfilerMonitor: `poll_interval` must be a number of "
                                f"seconds >= 0, got {poll_interval!r}")
        self.config_file = os.path.join(os.fspath(cfg_path), CONFIG_FILE)
        self.output_path, self.poll_interval = os.fspath(output_path), poll_interval
        if not os.path.exists(self.config_file):
            os.makedirs(os.fspath(cfg_path), exist_ok=True)
            safe_io.write_text(self.config_file, json.dumps(DEFAULT_CONFIG, indent=2))
        self.config, self._mtime, self._polled = dict(DEFAULT_CONFIG), None, None
        self.steps_done = 0
        self.profiler = None
        self.results: list[str] = []  # the folders written, one per recorded range
        self._begin_step()

    # -- training hooks -------------------------------------------------------------------------
    def step_begin(self, run_context):
        self._begin_step()

    def step_end(self, run_context):
        self._end_step()

    def end(self, run_context):
        self._finish()

    def step(self) -> None:
        """End one step of a hand-written training loop (and begin the next)."""
        self._end_step()
        self._begin_step()

    # -- the state machine ----------------------------------------------------------------------
    def _poll(self) -> None:
        now = time.monotonic()
        if self._polled is not None and now - self._polled < self.poll_interval:
            return
        self._polled = now
        mtime = os.stat(self.config_file).st_mtime_ns
        if mtime != self._mtime:
            self._mtime, self.config = mtime, _read_config(self.config_file)

    def _begin_step(self) -> None:
        number = self.steps_done + 1
        self._poll()
        start, stop = self.config["start_step"], self.config["stop_step"]
        if self.profiler is None and 0 < start <= number <= stop:
            self._range = (start, stop)
            self.profiler = Profiler(output_path=self.output_path,
                                     profiler_level=LEVELS.get(self.config["profiler_level"],
                                                               ProfilerLevel.Level0))

    def _end_step(self) -> None:
        self.steps_done += 1
        if self.profiler is None:
            return
        self.profiler.step()
        if self.steps_done >= self._range[1]:
            self._finish()

    def _finish(self) -> None:
        if self.profiler is None:
            return
        self.profiler.stop()
        start, stop = self._range
        # start and stop come from the config file: the folder stays inside output_path
        folder = safe_io.contained(self.output_path, f"rank{_rank()}_start{start}_stop{stop}",
                                   folder=True)
        self.profiler.analyse(offline_path=folder)
        self.results.append(folder)
        self.profiler = None
