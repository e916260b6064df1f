"""`FlopsUtilizationCollector`: the model's and the hardware's flops utilisation (MFU, HFU) per
step, as MindSpore's callback prints them.

The flops are those of the compiled training (or evaluation) step's matrix products and
convolutions, forward and backward (compiler/flops.py). Model flops and hardware flops are the
same number here: cellgraph does not recompute activations, so the hardware runs what the model
asks. With several ranks, each compiles its share (the shard) and the full model is the shards
of all ranks.
"""
from __future__ import annotations

import math
import os
import time

from cellgraph import _checkparam as validator
from cellgraph import log, safe_io
from cellgraph.compiler.flops import graph_flops

from ._callback import Callback

__all__ = ["FlopsUtilizationCollector"]


def _parallel() -> tuple[bool, int, int]:
    """(whether the job runs in a parallel mode, this rank, the number of ranks)."""
    from cellgraph.auto_parallel import get_auto_parallel_context
    from cellgraph.runtime import distributed

    if get_auto_parallel_context("parallel_mode") == "stand_alone":
        return False, 0, 1
    if not distributed.is_initialized():
        return True, 0, 1
    from cellgraph.communication.management import get_group_size, get_rank

    return True, get_rank(), get_group_size()


def _compiled_graph(network):
    """The graph compiled for the network's last call (None when it ran in PyNative)."""
    cache = getattr(network, "_graph_cache", None)
    if cache is None or not cache.entries:
        return None
    entry = cache.last if cache.last is not None else next(reversed(cache.entries.values()))
    return entry.compiled.graph


class FlopsUtilizationCollector(Callback):
    """Print the model's flops once, then the step time and the utilisations MFU and HFU
    against `computility` (a device's peak flops per second) every step but each
    `data_size`-th; `full_flops` reports the whole model's (else this rank's shard);
    `enable_ma_collector` also writes them under $MA_LOG_DIR. Graph mode only, static
    shapes."""

    def __init__(self, data_size, computility=1, full_flops=True, enable_ma_collector=False):
        super().__init__()
        self.step_time = time.time()
        self.computility = computility
        self.full_mfu = self.full_hfu = self.shard_mfu = self.shard_hfu = 0.0
        self.full_model_flops = self.shard_model_flops = 0.0
        self.full_hardware_flops = self.shard_hardware_flops = 0.0
        self.mfu_calculated = False
        self.data_size = data_size
        self.time_step_path = ""
        self.full_flops = full_flops
        self.verbose = not (computility == 1 and enable_ma_collector)
        self.ma = enable_ma_collector
        self.batch_step_size = None
        validator.check_bool(full_flops, "full_flops")
        validator.check_bool(enable_ma_collector, "enable_ma_collector")
        validator.check_positive_int(data_size, "data_size")

    def step_begin(self, run_context):
        """Note when the step began."""
        if self.batch_step_size is None:
            self.batch_step_size = self.data_size
            batch_num = getattr(run_context.original_args(), "batch_num", None)
            if isinstance(batch_num, int) and batch_num > 0:
                self.batch_step_size = batch_num
            validator.check_positive_int(self.batch_step_size)
        self.step_time = time.time()

    def _refuse(self, message: str) -> bool:
        if self.verbose:
            raise ValueError(message)
        log.info(message)
        return False

    def _count_flops(self, run_context) -> bool:
        """Count the compiled step's flops; False (or MindSpore's ValueError, when verbose)
        where they cannot be counted."""
        cb_params = run_context.original_args()
        if cb_params.mode not in ("train", "eval"):
            return self._refuse("FlopsUtilizationCollector only support train and eval mode!")
        network = cb_params.train_network if cb_params.mode == "train" else \
            cb_params.eval_network
        graph = _compiled_graph(network)
        if graph is None:
            return self._refuse("FlopsUtilizationCollector now only support graph mode.")
        flops, dynamic = graph_flops(graph)
        if dynamic:
            return self._refuse("FlopsUtilizationCollector now do not support dynamic shape.")
        _, _, ranks = _parallel()
        self.shard_model_flops = self.shard_hardware_flops = flops
        self.full_model_flops = self.full_hardware_flops = flops * ranks
        return True

    def step_end(self, run_context):
        """Print the flops (once), the step time and MFU/HFU."""
        step_ms = (time.time() - self.step_time) * 1000
        parallel, rank, ranks = _parallel()
        if not self.mfu_calculated:
            if not self._count_flops(run_context):
                return
            self.full_mfu = self.full_model_flops / self.computility
            self.full_hfu = self.full_hardware_flops / self.computility
            self.shard_mfu = self.shard_model_flops / self.computility
            self.shard_hfu = self.shard_hardware_flops / self.computility
            self.mfu_calculated = True
            if self.ma:
                self._write_ma_flops(rank)
            if self.verbose:
                self._print_flops(parallel, ranks)
        cb_params = run_context.original_args()
        if cb_params.dataset_sink_mode:
            step_ms /= self.batch_step_size
        if self.ma:
            safe_io.write_text(self.time_step_path,
                               f'time_monitor{{type="per_step_time", rank_id="{rank}"}} '
                               f"{step_ms} {round(time.time() * 1000)}\n")
        if self.verbose and cb_params.cur_step_num % self.data_size:
            mfu, hfu = (self.full_mfu, self.full_hfu) if self.full_flops else \
                (self.shard_mfu, self.shard_hfu)
            print(f"{cb_params.mode.title()} per step time: {step_ms:5.3f} ms"
                  f"{_percentage(' mfu:', 1000 * mfu / step_ms)}"
                  f"{_percentage(' hfu:', 1000 * hfu / step_ms)}", flush=True)

    def _print_flops(self, parallel: bool, ranks: int) -> None:
        if not self.full_flops:
            print(f"Shard model flops is {self.shard_model_flops}, Shard hardware flops is "
                  f"{self.shard_hardware_flops}.", flush=True)
            return
        full_model_flops = self.full_mfu * self.computility
        full_hardware_flops = self.full_hfu * self.computility
        if parallel:
            self.full_mfu /= ranks
            self.full_hfu /= ranks
        print(f"Full model flops is {full_model_flops}, Full hardware flops is "
              f"{full_hardware_flops}, Shard model flops is {self.shard_model_flops}, Shard "
              f"hardware flops is {self.shard_hardware_flops}.", flush=True)

    def _write_ma_flops(self, rank: int) -> None:
        folder = os.path.realpath(os.getenv("MA_LOG_DIR", "./"))
        stamp = round(time.time() * 1000)
        self.time_step_path = safe_io.contained(folder, f"time_step_rank_{rank}.txt")
        safe_io.write_text(safe_io.contained(folder, f"flops_rank_{rank}.txt"),
                           f'flops{{type="model_flops", rank_id="{rank}"}} '
                           f"{self.shard_model_flops} {stamp}\n"
                           f'flops{{type="hardware_flops", rank_id="{rank}"}} '
                           f"{self.shard_hardware_flops} {stamp}\n")


def _percentage(label: str, value: float, digits: int = 2) -> str:
    """`value` as a percentage rounded down to `digits` places, as MindSpore prints it."""
    scaled = math.floor(value * 10 ** (digits + 2)) / 10 ** digits
    return f"{label}{scaled:.{digits}f}%"
