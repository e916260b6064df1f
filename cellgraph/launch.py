"""`cellgraph launch`: start the worker processes of a data-parallel job on this machine.

    cellgraph launch --nproc 2 train.py --epochs 3
    cellgraph launch --nproc 8 --nnodes 2 --node-rank 0 --master-addr 10.0.0.1 train.py   # node 0
    cellgraph launch --worker_num 16 --local_worker_num 8 --node_rank 1 \\
        --master_addr 10.0.0.1 --master_port 8118 --log_dir logs train.py                 # msrun's

Across machines without --node-rank, nodes are numbered as msrun numbers them: the machine of
--master-addr is node 0, the others 1, 2, ... in the order their launchers arrive.

Each worker runs `python script.py ARGS` with torchrun's rendezvous variables (RANK,
WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, plus MindSpore's RANK_ID,
RANK_SIZE and DEVICE_ID), which `communication.init()` reads: global rank 0 hosts the store that
every rank connects to, on this machine or another. With --log-dir each worker's output goes to
LOG_DIR/worker_RANK.log, as msrun writes it; without, workers share this terminal.

A worker that fails stops the job: the launcher terminates the others (SIGTERM, then SIGKILL
after --grace seconds), says which rank failed and how, and exits non-zero; so does SIGINT or
SIGTERM sent to the launcher. Workers on other
machines see their collectives fail (the peer's connections close) and exit with an error too.
"""
from __future__ import annotations

import argparse
import datetime
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

MSRUN_DEFAULT_PORT = 8118


class LaunchError(Exception):
    """A command line that cannot describe a job (the CLI prints it as a usage error)."""


@dataclass
class Job:
    script: Path
    script_args: list
    nproc: int
    nnodes: int
    node_rank: int
    master_addr: str
    master_port: int
    log_dir: Path | None
    grace_s: float

    @property
    def world_size(self) -> int:
        return self.nproc * self.nnodes


def add_parser(sub) -> None:
    p = sub.add_parser("launch", help="start N processes of a data-parallel script",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("--nproc", "--nproc-per-node", "--nproc_per_node", "--local_worker_num",
                   type=int, dest="nproc", help="worker processes on this machine")
    p.add_argument("--nnodes", type=int, help="machines in the job (default 1)")
    p.add_argument("--worker_num", type=int, help="workers on all machines (msrun's option)")
    p.add_argument("--node-rank", "--node_rank", type=int, dest="node_rank", default=-1,
                   help="this machine's index, 0..nnodes-1")
    p.add_argument("--master-addr", "--master_addr", dest="master_addr", default="127.0.0.1",
                   help="address of the machine that runs global rank 0 (default 127.0.0.1)")
    p.add_argument("--master-port", "--master_port", type=int, dest="master_port",
                   help="rendezvous port on the master (default: a free port on one machine, "
                        f"{MSRUN_DEFAULT_PORT} across machines)")
    p.add_argument("--log-dir", "--log_dir", dest="log_dir",
                   help="write each worker's output to LOG_DIR/worker_RANK.log")
    p.add_argument("--grace", type=float, default=5.0, help="seconds a worker gets to exit "
                   "after SIGTERM when the job stops (default 5)")
    p.add_argument("script", help="the Python script every worker runs")
    p.add_argument("script_args", nargs=argparse.REMAINDER, help="arguments for the script")
    p.set_defaults(handler=command_launch)


def _sizes(ns) -> tuple[int, int]:
    """(workers per machine, machines) from torchrun's or msrun's spelling of them."""
    nproc, nnodes, total = ns.nproc, ns.nnodes, ns.worker_num
    if nproc is None:
        nproc = total // (nnodes or 1) if total else 1
    if nnodes is None:
        nnodes = total // nproc if total else 1
    if nproc < 1 or nnodes < 1:
        raise LaunchError(f"expected at least one worker and one machine, got --nproc {nproc} "
                          f"--nnodes {nnodes}")
    if total is not None and total != nproc * nnodes:
        raise LaunchError(f"--worker_num {total} must equal workers per machine ({nproc}) "
                          f"times machines ({nnodes})")
    return nproc, nnodes


def _free_port(addr: str) -> int:
    with socket.socket() as s:
        s.bind((addr, 0))
        return s.getsockname()[1]


def job_from_args(ns) -> Job:
    nproc, nnodes = _sizes(ns)
    node_rank = ns.node_rank if nnodes > 1 else 0
    if not -1 <= node_rank < nnodes:
        raise LaunchError(f"a job on {nnodes} machines takes --node-rank in 0..{nnodes - 1} "
                          f"(or none: ranks by arrival), got {ns.node_rank}")
    script = Path(ns.script)
    if not script.is_file():
        raise LaunchError(f"no such file: {ns.script}")
    port = ns.master_port or (_free_port(ns.master_addr) if nnodes == 1 else MSRUN_DEFAULT_PORT)
    log_dir = Path(ns.log_dir) if ns.log_dir else None
    return Job(script.resolve(), list(ns.script_args), nproc, nnodes, node_rank, ns.master_addr,
               port, log_dir, ns.grace)


def worker_env(job: Job, local_rank: int) -> dict:
    rank = job.node_rank * job.nproc + local_rank
    env = dict(os.environ)
    env.update(RANK=str(rank), WORLD_SIZE=str(job.world_size), LOCAL_RANK=str(local_rank),
               LOCAL_WORLD_SIZE=str(job.nproc), GROUP_RANK=str(job.node_rank),
               MASTER_ADDR=job.master_addr, MASTER_PORT=str(job.master_port),
               RANK_ID=str(rank), RANK_SIZE=str(job.world_size), DEVICE_ID=str(local_rank),
               PYTHONUNBUFFERED="1")
    return env


def _start(job: Job, local_rank: int) -> tuple[subprocess.Popen, Path | None]:
    rank = job.node_rank * job.nproc + local_rank
    log = None if job.log_dir is None else job.log_dir / f"worker_{rank}.log"
    out = None if log is None else open(log, "w", encoding="utf-8")  # noqa: SIM115
    try:
        proc = subprocess.Popen([sys.executable, str(job.script), *job.script_args],
                                env=worker_env(job, local_rank), stdout=out,
                                stderr=subprocess.STDOUT if out else None)
    finally:
        if out is not None:
            out.close()  # the child holds its own descriptor
    return proc, log


def _describe(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


def _stop(procs: list, grace_s: float) -> None:
    """SIGTERM to the workers still running; SIGKILL to those alive after `grace_s`."""
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    for p in procs:
        try:
            p.wait(timeout=max(deadline - time.monotonic(), 0.01))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def run_job(job: Job, poll_s: float = 0.1) -> int:
    """Start the workers, wait for them; the first failure stops the rest. Exit status: 0 when
    every worker succeeded, else the failed worker's status (128 + signal for a signal)."""
    if job.log_dir is not None:
        job.log_dir.mkdir(parents=True, exist_ok=True)
    started = [_start(job, local) for local in range(job.nproc)]
    procs = [p for p, _ in started]
    previous = signal.signal(signal.SIGTERM, _interrupt)  # a scheduler stopping the job
    try:
        while True:
            codes = [p.poll() for p in procs]
            failed = next((i for i, c in enumerate(codes) if c not in (None, 0)), None)
            if failed is not None:
                return _fail(job, started, failed, codes[failed])
            if all(c == 0 for c in codes):
                return 0
            time.sleep(poll_s)
    except KeyboardInterrupt:
        _stop(procs, job.grace_s)
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _fail(job: Job, started: list, local: int, code: int) -> int:
    rank = job.node_rank * job.nproc + local
    log = started[local][1]
    where = f"; its output is in {log}" if log else ""
    print(f"cellgraph launch: worker rank {rank} (pid {started[local][0].pid}) {_describe(code)}"
          f"{where}; stopping the other workers", file=sys.stderr, flush=True)
    _stop([p for p, _ in started], job.grace_s)
    return code if code > 0 else 128 - code


def _is_local(addr: str) -> bool:
    """Whether `addr` is an address of this machine (one a socket can bind)."""
    try:
        with socket.socket() as s:
            s.bind((addr, 0))
        return True
    except OSError:
        return False


def assign_node_rank(job: Job, timeout_s: float = 300.0):
    """msrun's automatic node ranks (a multi-machine job without --node-rank): the launcher on
    the master's machine is node 0 and serves a small store on MASTER_PORT + 1; the others take
    1, 2, ... in the order they reach it. Returns the store, which must live as long as the job."""
    from cellgraph.runtime.distributed import torch_distributed

    dist = torch_distributed()  # the store is torch.distributed's TCPStore
    timeout = datetime.timedelta(seconds=timeout_s)
    port = job.master_port + 1
    if _is_local(job.master_addr):
        try:
            job.node_rank = 0
            return dist.TCPStore(job.master_addr, port, is_master=True, timeout=timeout,
                                 wait_for_workers=False)
        except (RuntimeError, OSError):
            pass  # another launcher on this machine serves it already
    store = dist.TCPStore(job.master_addr, port, is_master=False, timeout=timeout)
    job.node_rank = int(store.add("cellgraph_launch_nodes", 1))
    if job.node_rank >= job.nnodes:
        raise LaunchError(f"{job.node_rank + 1} machines joined a job of --nnodes {job.nnodes}")
    return store


def command_launch(ns) -> int:
    job = job_from_args(ns)
    store = assign_node_rank(job) if job.node_rank < 0 else None
    try:
        return run_job(job)
    finally:
        del store  # node 0's store served the other launchers until the job ended
