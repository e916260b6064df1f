"""Timing helpers shared by the workloads: interleaved medians and the optional comparisons.

The machines this runs on are shared and noisy, so every implementation of a workload is timed
in small batches, in rounds that time one batch of each (A B C A B C ...), and the median batch
time reported: a slow spell then hits every column alike instead of one.
"""
from __future__ import annotations

import importlib
import os
import statistics
import sys
import time
from collections.abc import Callable

MIN_BATCH_S = 0.005  # a batch runs the function at least this long, to dwarf timer overhead

# What a sample measures: wall time, or with `python -m bench --clock cpu` the process's CPU
# time (all its threads), which a machine shared with other work disturbs far less: time spent
# descheduled is not charged. Compile-time rows (W5) always measure wall time.
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
_clock = [time.perf_counter]


def set_clock(name: str) -> None:
    _clock[0] = CLOCKS[name]


def calibrate(fn: Callable[[], object], min_batch_s: float = MIN_BATCH_S) -> int:
    """How many calls of `fn` make one batch of at least `min_batch_s` seconds."""
    fn()  # warm: compile caches, allocator, lazy imports
    number = 1
    while True:
        clock = _clock[0]
        start = clock()
        for _ in range(number):
            fn()
        elapsed = clock() - start
        if elapsed >= min_batch_s or number >= 1 << 20:
            return number
        number = max(number * 2, int(number * min_batch_s / max(elapsed, 1e-9)) + 1)


def compare(fns: dict[str, Callable[[], object]], repeats: int,
            interleaved: tuple[str, ...] = ("cellgraph", "numpy")) -> dict[str, float]:
    """Median seconds per call of each function.

    Every round times one batch of each function, so that a slow spell of a shared machine
    hits every column alike. The `interleaved` ones (cellgraph and its NumPy reference)
    alternate batch by batch; each of the others (JAX, PyTorch) runs in its own slot of the
    round, after a pause of SETTLE_S: their thread pools keep spinning for a while after each
    call, and on a small machine that would slow whichever call came next. A value of None in
    `fns` (a library that is not installed) gives None.
    """
    live = {name: fn for name, fn in fns.items() if fn is not None}
    if gpu_mode():
        live = _on_gpu(live)  # (adds the torch.compile column)
    groups = [[n for n in live if n in interleaved]] + [[n] for n in live if n not in interleaved]
    groups = [group for group in groups if group]
    result: dict[str, float | None] = dict.fromkeys([*fns, *live])
    numbers = {}
    for group in groups:
        _settle(len(groups))
        numbers.update((name, calibrate(live[name])) for name in group)
    samples: dict[str, list[float]] = {name: [] for name in live}
    for _ in range(max(repeats, 1)):
        for group in groups:
            _settle(len(groups))
            for name in group:
                fn, number = live[name], numbers[name]
                start = _clock[0]()
                for _ in range(number):
                    fn()
                samples[name].append((_clock[0]() - start) / number)
    result.update((name, statistics.median(times)) for name, times in samples.items())
    return result


def _on_gpu(live: dict) -> dict:
    """Each timed call waits for the GPU; PyTorch's call also runs through `torch.compile`
    (column "torch_compile")."""
    torch = optional("torch")
    if "torch" in live and torch is not None:
        compiled = torch.compile(live["torch"])
        try:
            compiled()  # compiles now; a function torch.compile cannot take leaves the column empty
            live["torch_compile"] = compiled
        except Exception as e:  # noqa: BLE001 - reported, not fatal to the other columns
            print(f"    torch.compile: {type(e).__name__}: {str(e).splitlines()[0][:200]}",
                  file=sys.stderr, flush=True)

    waits = device_waits()

    def waited(fn):
        def call():
            out = fn()
            for wait in waits:
                wait()
            return out
        return call

    return {name: waited(fn) for name, fn in live.items()}


SETTLE_S = 0.02  # a pause between the slots of different libraries


def _settle(n_groups: int) -> None:
    if n_groups > 1:
        time.sleep(SETTLE_S)


def median_of(values) -> float:
    return statistics.median(values)


def optional(module: str):
    """The module if it is installed (and not switched off by BENCH_NO_<NAME>=1), else None.

    JAX and PyTorch are comparisons only, never dependencies of cellgraph.
    """
    if os.environ.get(f"BENCH_NO_{module.upper()}"):
        return None
    try:
        return importlib.import_module(module)
    except Exception:  # noqa: BLE001 - a broken install counts as absent
        return None


def gpu_mode() -> bool:
    """`python -m bench --device GPU`: cellgraph's GPU backends against JAX and PyTorch on the
    same GPU (eager and `torch.compile`)."""
    return os.environ.get("BENCH_DEVICE") == "GPU"


def jax_numpy():
    """(jax, jax.numpy) configured for float32 on the CPU (on JAX's GPU with `--device GPU`), or
    (None, None) when JAX is absent."""
    jax = optional("jax")
    if jax is None:
        return None, None
    if not gpu_mode():
        jax.config.update("jax_platforms", "cpu")
    import jax.numpy as jnp

    return jax, jnp


def block(value):
    """Wait for a JAX result (asynchronous dispatch), so timings cover the work itself; a
    cellgraph Tensor waits for the array it holds (the `jax` backend's are asynchronous too)."""
    value = getattr(value, "_data", value)
    ready = getattr(value, "block_until_ready", None)
    if ready is not None:
        return ready()
    if isinstance(value, (tuple, list)):
        for v in value:
            block(v)
    return value


CELLGRAPH_BACKENDS = ("numpy", "torch", "jax")
GPU_BACKENDS = ("torch_cuda", "cupy", "jax")


def cellgraph_backends() -> list[str]:
    """The cellgraph backends a workload times on this machine: `numpy`, and `torch` / `jax`
    when their library is installed (and not switched off by BENCH_NO_<NAME>=1); with
    `--device GPU`, those of `torch_cuda`, `cupy` and `jax` that see a device."""
    from cellgraph.runtime.backend import get_backend

    names = []
    for name in GPU_BACKENDS if gpu_mode() else CELLGRAPH_BACKENDS:
        library = {"torch_cuda": "torch"}.get(name, name)
        if name != "numpy" and optional(library) is None:
            continue
        try:
            get_backend(name)
        except (ImportError, KeyError):
            continue
        names.append(name)
    return names


def torch_array(torch, array):
    """A NumPy array as a PyTorch tensor on the device the run compares on (a GPU with
    `--device GPU`)."""
    tensor = torch.from_numpy(array)
    return tensor.to("cuda") if gpu_mode() else tensor


def device_waits() -> list[Callable[[], object]]:
    """The calls that wait for the work queued on the GPU by PyTorch and CuPy (JAX results wait
    through `block`), found once: a timed call runs them after every call, so that a GPU timing
    covers the work and not only its launch."""
    waits = []
    torch, cupy = optional("torch"), optional("cupy")
    if torch is not None and torch.cuda.is_available():
        waits.append(torch.cuda.synchronize)
    if cupy is not None:
        waits.append(cupy.cuda.runtime.deviceSynchronize)
    return waits


def on_backend(name: str, build: Callable[[], tuple]) -> Callable[[], object]:
    """`build()` -> (fn, args) run with cellgraph backend `name` selected (its Parameters and
    arguments are made there); returns a call that selects the backend, runs, waits and selects
    the numpy backend again, so that a workload's own cellgraph column, timed in the same
    rounds, still runs on numpy."""
    from cellgraph.runtime.backend import set_backend

    set_backend(name)
    try:
        fn, args = build()
    finally:
        set_backend("numpy")

    def call():
        set_backend(name)
        try:
            out = fn(*args)
            block(out)
        finally:
            set_backend("numpy")
        return out

    return call


def peer_target(row: dict, bound: float, peers: tuple[str, ...]) -> dict:
    """`row` with a target of at most `bound` times the fastest of `peers` (`"jax"`,
    `"torch"`): judged as `target_met` and described in the note. No peer timed: no target."""
    times = [row.get(f"{p}_s") for p in peers]
    times = [t for t in times if t is not None]
    if not times:
        return row
    label = " / ".join({"jax": "JAX", "torch": "PyTorch"}[p] for p in peers)
    return dict(row, target_met=row["cellgraph_s"] <= bound * min(times),
                note=f"target <= {bound:g}x {label}")
