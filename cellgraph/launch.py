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
With --max-restarts N (torchrun's option) the launcher instead starts all its workers again, up
to N times; each restart sets CELLGRAPH_RESTART_COUNT (and torchrun's
TORCHELASTIC_RESTART_COUNT), and the workers resume from the last checkpoint rank 0 wrote
(`ModelCheckpoint` does it for `Model.train`; `cellgraph.train.latest_checkpoint` and
`resume_checkpoint` for a hand loop). On one machine each attempt rendezvouses on a fresh port
unless --master-port names one; across machines every launcher needs the same --max-restarts.

Workers die with their launcher: each runs in its own process group, which the launcher stops
as a whole (the worker and the processes it started). A launcher killed outright (SIGKILL)
cannot do that, so a small watchdog process does: it learns the workers' process groups
through a pipe from the launcher and, when the pipe closes without the launcher saying the job
ended, stops those groups (SIGTERM, then SIGKILL after --grace seconds). On Linux each worker
also asks the kernel for SIGTERM when the launcher dies (PR_SET_PDEATHSIG).
msrun's `--join False` is the exception: the launcher starts the workers in their own session,
prints their pids and exits, as msrun does; they are then on their own.

--cluster_time_out (msrun's option) bounds the rendezvous: how long workers and launchers wait
for the others to arrive (seconds, default 600; negative: forever), passed to the workers as
CELLGRAPH_CLUSTER_TIMEOUT.
"""
from __future__ import annotations

import argparse
import ast
import ctypes
import ctypes.util
import datetime
import errno
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
    max_restarts: int = 0
    join: bool = True
    cluster_timeout_s: float = 600.0
    port_given: bool = True

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
    p.add_argument("--max-restarts", "--max_restarts", type=int, dest="max_restarts", default=0,
                   help="times the workers are all started again after one fails; they resume "
                        "from the last checkpoint (default 0: a failure ends the job)")
    p.add_argument("--join", type=_bool, default=True, metavar="{True,False}",
                   help="msrun's option: wait for the workers (True, the default here) or start "
                        "them detached and exit (False)")
    p.add_argument("--cluster_time_out", "--cluster-time-out", type=int,
                   dest="cluster_time_out", default=600,
                   help="seconds the rendezvous waits for every worker and launcher to arrive "
                        "(msrun's option; default 600, negative: forever)")
    p.add_argument("script", help="the Python script every worker runs")
    p.add_argument("script_args", nargs=argparse.REMAINDER, help="arguments for the script")
    p.set_defaults(handler=command_launch)


def _bool(text: str) -> bool:
    """msrun's spelling of a boolean option (a Python literal: True or False)."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        value = None
    if not isinstance(value, bool):
        raise argparse.ArgumentTypeError(f"expected True or False, got {text!r}")
    return value


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
    if ns.max_restarts < 0:
        raise LaunchError(f"--max-restarts must be 0 or more, got {ns.max_restarts}")
    if ns.max_restarts and not ns.join:
        raise LaunchError("--max-restarts needs the launcher to watch its workers; it cannot be "
                          "used with --join False")
    return Job(script.resolve(), list(ns.script_args), nproc, nnodes, node_rank, ns.master_addr,
               port, log_dir, ns.grace, ns.max_restarts, ns.join, float(ns.cluster_time_out),
               ns.master_port is not None)


def worker_env(job: Job, local_rank: int, restart: int = 0) -> dict:
    rank = job.node_rank * job.nproc + local_rank
    env = dict(os.environ)
    env.update(RANK=str(rank), WORLD_SIZE=str(job.world_size), LOCAL_RANK=str(local_rank),
               LOCAL_WORLD_SIZE=str(job.nproc), GROUP_RANK=str(job.node_rank),
               MASTER_ADDR=job.master_addr, MASTER_PORT=str(job.master_port),
               RANK_ID=str(rank), RANK_SIZE=str(job.world_size), DEVICE_ID=str(local_rank),
               CELLGRAPH_RESTART_COUNT=str(restart), CELLGRAPH_MAX_RESTARTS=str(job.max_restarts),
               TORCHELASTIC_RESTART_COUNT=str(restart),
               TORCHELASTIC_MAX_RESTARTS=str(job.max_restarts),
               CELLGRAPH_CLUSTER_TIMEOUT=f"{job.cluster_timeout_s:g}", PYTHONUNBUFFERED="1")
    return env


def open_log(path: Path, append: bool):
    """A worker's log file for writing (appended to on restarts), never through a symbolic link
    planted at its name (O_NOFOLLOW: a link there is an error, not a redirection)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0) | (
        os.O_APPEND if append else os.O_TRUNC)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise LaunchError(f"refusing to write the worker log {path}: it is a symbolic "
                              f"link") from None
        raise
    return os.fdopen(fd, "w", encoding="utf-8")


def _parent_death_signal():
    """A function for the child, between fork and exec: it leads its own process group and, on
    Linux, gets SIGTERM when the launcher dies (exiting at once if that already happened)."""
    launcher = os.getpid()
    libc = None
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        except OSError:
            libc = None

    def setup():
        os.setpgid(0, 0)
        if libc is not None:
            libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
            if os.getppid() != launcher:  # the launcher died before the call
                os._exit(1)
    return setup


def watchdog(grace_s: float, lines=None) -> int:
    """The watchdog's body (`python -m cellgraph.launch watchdog GRACE`): reads the workers'
    process groups, one a line, from the launcher; "done" means the launcher ended the job
    itself. End of input without it (the launcher died): stop those groups."""
    groups = set()
    for line in lines if lines is not None else sys.stdin:
        if line.strip() == "done":
            return 0
        groups.add(int(line))

    def alive():
        left = []
        for group in groups:
            try:
                os.killpg(group, 0)
                left.append(group)
            except OSError:
                pass
        return left

    for group in alive():
        _kill_group(group, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    for group in alive():
        _kill_group(group, signal.SIGKILL)
    return 0


def _kill_group(group: int, sig: int) -> None:
    try:
        os.killpg(group, sig)
    except OSError:
        pass


class _Watchdog:
    """The process that stops the workers' groups if the launcher dies without doing it."""

    def __init__(self, grace_s: float):
        self.proc = subprocess.Popen([sys.executable, "-m", "cellgraph.launch", "watchdog",
                                      f"{grace_s:g}"],
                                     stdin=subprocess.PIPE, text=True, start_new_session=True)

    def watch(self, proc: subprocess.Popen) -> None:
        try:
            self.proc.stdin.write(f"{proc.pid}\n")  # a worker leads its own group: pgid == pid
            self.proc.stdin.flush()
        except OSError:  # the watchdog is gone (killed): the launcher still stops its workers
            pass

    def close(self) -> None:
        """The launcher has stopped what it started: the watchdog leaves without acting."""
        try:
            self.proc.stdin.write("done\n")
            self.proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        self.proc.wait()


def _start(job: Job, local_rank: int, restart: int = 0) -> tuple[subprocess.Popen, Path | None]:
    rank = job.node_rank * job.nproc + local_rank
    log = None if job.log_dir is None else job.log_dir / f"worker_{rank}.log"
    out = None if log is None else open_log(log, append=restart > 0)
    try:
        if out is not None and restart:
            out.write(f"--- cellgraph launch: restart {restart} of {job.max_restarts} ---\n")
            out.flush()
        detached = {"start_new_session": True} if not job.join else {
            "preexec_fn": _parent_death_signal()}
        proc = subprocess.Popen([sys.executable, str(job.script), *job.script_args],
                                env=worker_env(job, local_rank, restart), stdout=out,
                                stderr=subprocess.STDOUT if out else None, **detached)
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


def _signal_group(p: subprocess.Popen, sig: int) -> None:
    """`sig` to the worker's process group (the worker and what it started)."""
    _kill_group(p.pid, sig)


def _stop(procs: list, grace_s: float) -> None:
    """SIGTERM to the workers' process groups; SIGKILL to those alive after `grace_s`."""
    for p in procs:
        _signal_group(p, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    for p in procs:
        try:
            p.wait(timeout=max(deadline - time.monotonic(), 0.01))
        except subprocess.TimeoutExpired:
            pass
    for p in procs:  # what is left of each group, the worker's own children included
        _signal_group(p, signal.SIGKILL)
        p.wait()


def run_job(job: Job, poll_s: float = 0.1) -> int:
    """Start the workers, wait for them; the first failure stops the rest and, while restarts
    are left, starts them all again. Exit status: 0 when every worker succeeded, else the
    failed worker's status (128 + signal for a signal)."""
    if job.log_dir is not None:
        job.log_dir.mkdir(parents=True, exist_ok=True)
    if not job.join:
        return _detach(job)
    previous = signal.signal(signal.SIGTERM, _interrupt)  # a scheduler stopping the job
    watchdog = _Watchdog(job.grace_s)
    try:
        return _attempts(job, poll_s, watchdog)
    except _Interrupted:
        return 130
    finally:
        watchdog.close()
        signal.signal(signal.SIGTERM, previous)


def _attempts(job: Job, poll_s: float, watchdog: _Watchdog) -> int:
    code = 0
    for restart in range(job.max_restarts + 1):
        if restart and job.nnodes == 1 and not job.port_given:
            job.master_port = _free_port(job.master_addr)  # the old store may linger
        code = _attempt(job, restart, poll_s, watchdog)
        if code == 0 or restart == job.max_restarts:
            return code
        print(f"cellgraph launch: restarting the workers (restart {restart + 1} of "
              f"{job.max_restarts})", file=sys.stderr, flush=True)
    return code


def _attempt(job: Job, restart: int, poll_s: float, watchdog: _Watchdog) -> int:
    started = []
    try:
        for local in range(job.nproc):
            started.append(_start(job, local, restart))
            watchdog.watch(started[-1][0])
        procs = [p for p, _ in started]
        while True:
            codes = [p.poll() for p in procs]
            failed = next((i for i, c in enumerate(codes) if c not in (None, 0)), None)
            if failed is not None:
                return _fail(job, started, failed, codes[failed])
            if all(c == 0 for c in codes):
                return 0
            time.sleep(poll_s)
    except KeyboardInterrupt:
        _stop([p for p, _ in started], job.grace_s)
        raise _Interrupted from None


class _Interrupted(Exception):
    """SIGINT or SIGTERM reached the launcher: the job ends (status 130), no restart."""


def _detach(job: Job) -> int:
    """msrun's --join False: start the workers in their own sessions and return."""
    for local in range(job.nproc):
        proc, log = _start(job, local)
        rank = job.node_rank * job.nproc + local
        where = f", output in {log}" if log else ""
        print(f"cellgraph launch: worker rank {rank} started, pid {proc.pid}{where}",
              file=sys.stderr, flush=True)
    return 0


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
    timeout = job.cluster_timeout_s if job.cluster_timeout_s >= 0 else 10 * 365 * 86400.0
    store = assign_node_rank(job, timeout) if job.node_rank < 0 else None
    try:
        return run_job(job)
    finally:
        del store  # node 0's store served the other launchers until the job ended


if __name__ == "__main__" and sys.argv[1:2] == ["watchdog"]:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the terminal's ^C is the launcher's to handle
    sys.exit(watchdog(float(sys.argv[2])))
