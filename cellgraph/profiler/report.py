"""What a recording becomes: per-operation statistics (a table, a CSV file, one op's JSON) and
a Chrome trace (`trace_view.json`, opened by chrome://tracing or ui.perfetto.dev)."""
from __future__ import annotations

import csv
import json
import os
from collections import defaultdict
from dataclasses import dataclass

from cellgraph import safe_io

STAT_FIELDS = ("op_type", "count", "total_time_us", "avg_time_us", "min_time_us",
               "max_time_us", "ratio_percent")


@dataclass(frozen=True)
class OpStat:
    """The runs of one primitive: how many, and their times in microseconds."""

    op_type: str
    count: int
    total_time_us: float
    avg_time_us: float
    min_time_us: float
    max_time_us: float
    ratio_percent: float


def op_statistics(events) -> list[OpStat]:
    """One OpStat per primitive, the most time-consuming first."""
    durations = defaultdict(list)
    for event in events:
        durations[event.name].append(event.duration_ns / 1e3)
    grand_total = sum(sum(times) for times in durations.values()) or 1.0
    stats = [OpStat(name, len(times), sum(times), sum(times) / len(times), min(times),
                    max(times), 100.0 * sum(times) / grand_total)
             for name, times in durations.items()]
    return sorted(stats, key=lambda s: (-s.total_time_us, s.op_type))


def format_table(stats: list[OpStat], limit: int | None = None) -> str:
    """The statistics as an aligned text table."""
    header = f"{'op_type':<28}{'count':>8}{'total(us)':>14}{'avg(us)':>12}{'ratio(%)':>10}"
    lines = [header, "-" * len(header)]
    for s in stats[:limit]:
        lines.append(f"{s.op_type:<28}{s.count:>8}{s.total_time_us:>14.1f}"
                     f"{s.avg_time_us:>12.2f}{s.ratio_percent:>10.2f}")
    return "\n".join(lines)


def write_statistics(stats: list[OpStat], path: str) -> None:
    with safe_io.atomic_write(path, text=True, newline="") as f:
        writer = csv.writer(f)
        writer.writerow(STAT_FIELDS)
        for s in stats:
            writer.writerow([getattr(s, field) for field in STAT_FIELDS])


def write_trace(events, markers, path: str, pretty: bool = False) -> None:
    """Chrome trace events: one complete event ("X") per kernel run, per mstx range, in us."""
    pid = os.getpid()
    trace = [{"name": e.name, "ph": "X", "ts": e.start_ns / 1e3, "dur": e.duration_ns / 1e3,
              "pid": pid, "tid": 0, "cat": "kernel", "args": {"step": e.step}}
             for e in events]
    trace += [{"name": message, "ph": "X" if duration else "i", "ts": start / 1e3,
               "dur": duration / 1e3, "pid": pid, "tid": 1, "cat": "mstx"}
              for message, start, duration in markers]
    safe_io.write_text(path, json.dumps({"traceEvents": trace, "displayTimeUnit": "ms"},
                                        indent=4 if pretty else None))
