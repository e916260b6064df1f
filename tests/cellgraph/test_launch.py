"""`cellgraph launch`: torchrun's and msrun's options, the rendezvous environment, per-rank logs,
and failures: a worker that fails or is killed stops the job with a non-zero status, promptly."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cellgraph.cli import build_parser
from cellgraph.launch import LaunchError, job_from_args, worker_env

from . import distributed_worker as worker

ENV_SCRIPT = """
import os, sys
print(*[f"{k}={os.environ[k]}" for k in ("RANK", "WORLD_SIZE", "LOCAL_RANK",
        "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")], *sys.argv[1:])
"""
FAIL_SCRIPT = """
import os, time
if os.environ["RANK"] == "1":
    raise SystemExit(3)
time.sleep(120)
"""


def _job(*argv):
    ns = build_parser().parse_args(["launch", *argv])
    return job_from_args(ns)


def _launch(*argv, **kwargs):
    return subprocess.run([sys.executable, "-m", "cellgraph", "launch", *argv],
                          check=False, capture_output=True, text=True, **kwargs)


@pytest.fixture
def script(tmp_path):
    def write(text):
        path = tmp_path / "job.py"
        path.write_text(text)
        return str(path)
    return write


def test_msrun_options_describe_a_two_machine_job(script):
    job = _job("--worker_num", "4", "--local_worker_num", "2", "--node_rank", "1",
               "--master_addr", "10.0.0.1", "--master_port", "9000", "--log_dir", "logs",
               script(""), "--lr", "0.1")
    assert (job.nproc, job.nnodes, job.node_rank, job.world_size) == (2, 2, 1, 4)
    assert job.script_args == ["--lr", "0.1"] and job.log_dir == Path("logs")
    env = worker_env(job, 1)
    assert (env["RANK"], env["WORLD_SIZE"], env["LOCAL_RANK"], env["MASTER_ADDR"],
            env["MASTER_PORT"]) == ("3", "4", "1", "10.0.0.1", "9000")


def test_torchrun_options(script):
    job = _job("--nproc", "3", "--nnodes", "2", "--node-rank", "0", "--master-addr", "h",
               "--master-port", "7000", script(""))
    assert (job.nproc, job.nnodes, job.world_size, job.master_port) == (3, 2, 6, 7000)
    assert _job("--nproc", "2", script("")).master_port > 0  # a free port on one machine


@pytest.mark.parametrize("argv, message", [
    (["--nproc", "2", "--nnodes", "2", "--node-rank", "2"], "takes --node-rank in 0..1"),
    (["--worker_num", "5", "--local_worker_num", "2"], "--worker_num 5 must equal"),
    (["--nproc", "0"], "at least one worker"),
])
def test_impossible_jobs_are_usage_errors(script, argv, message):
    with pytest.raises(LaunchError, match=message):
        _job(*argv, script(""))


def test_workers_get_the_rendezvous_environment_and_own_logs(script, tmp_path):
    done = _launch("--nproc", "2", "--log_dir", str(tmp_path / "logs"), script(ENV_SCRIPT),
                   "a", "--b", timeout=60)
    assert done.returncode == 0, done.stderr
    for rank in range(2):
        text = (tmp_path / "logs" / f"worker_{rank}.log").read_text()
        assert f"RANK={rank} WORLD_SIZE=2 LOCAL_RANK={rank} LOCAL_WORLD_SIZE=2 " \
               f"MASTER_ADDR=127.0.0.1" in text and text.rstrip().endswith("a --b")


def test_a_failing_worker_stops_the_job(script):
    start = time.monotonic()
    done = _launch("--nproc", "2", script(FAIL_SCRIPT), timeout=60)
    assert done.returncode == 3
    assert "worker rank 1" in done.stderr and "exited with status 3" in done.stderr
    assert time.monotonic() - start < 30  # rank 0 was stopped, not waited for


def test_stopping_the_launcher_stops_its_workers(script, tmp_path):
    job = script("import os, pathlib, sys, time\n"
                 "pid_file = pathlib.Path(sys.argv[1], 'pid' + os.environ['RANK'])\n"
                 "pid_file.write_text(str(os.getpid()))\n"
                 "time.sleep(120)\n")
    launcher = subprocess.Popen([sys.executable, "-m", "cellgraph", "launch", "--nproc", "2",
                                 job, str(tmp_path)])
    try:
        pids = _wait_for([tmp_path / f"pid{r}" for r in range(2)])
        launcher.send_signal(signal.SIGTERM)
        assert launcher.wait(timeout=30) == 130
    finally:
        launcher.kill()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def _wait_for(paths, timeout=120):
    deadline = time.monotonic() + timeout
    while not all(p.exists() and p.read_text() for p in paths):
        assert time.monotonic() < deadline, "the workers never started training"
        time.sleep(0.2)
    return [int(p.read_text()) for p in paths]


def test_killing_a_worker_mid_run_ends_the_job(tmp_path):
    pytest.importorskip("torch.distributed")
    launcher = subprocess.Popen(
        [sys.executable, "-m", "cellgraph", "launch", "--nproc", "2", "--log-dir",
         str(tmp_path / "logs"), worker.__file__, "train_forever", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        pids = _wait_for([tmp_path / f"pid_rank{r}" for r in range(2)])
        os.kill(pids[1], signal.SIGKILL)
        killed = time.monotonic()
        _, stderr = launcher.communicate(timeout=60)
    finally:
        launcher.kill()
    assert time.monotonic() - killed < 60
    assert launcher.returncode != 0
    assert "worker rank 1" in stderr and "SIGKILL" in stderr
    with pytest.raises(ProcessLookupError):
        os.kill(pids[0], 0)  # rank 0 is gone too


def _start_workers(task: str, out: Path, **env_vars) -> list:
    """Two workers started as on two machines: torchrun's variables, no launcher."""
    port = _job("--nproc", "2", worker.__file__).master_port
    workers = []
    for rank in range(2):
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE="2", LOCAL_RANK=str(rank),
                   MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), **env_vars)
        workers.append(subprocess.Popen([sys.executable, worker.__file__, task, str(out)],
                                        env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True))
    return workers


@pytest.mark.slow
def test_a_worker_whose_peer_dies_exits_with_an_error(tmp_path):
    """Without a launcher (workers on different machines): the surviving worker's collective
    fails as the dead peer's connections close, and it exits non-zero, naming the cause."""
    pytest.importorskip("torch.distributed")
    workers = _start_workers("train_forever", tmp_path)
    try:
        pids = _wait_for([tmp_path / f"pid_rank{r}" for r in range(2)])
        os.kill(pids[1], signal.SIGKILL)
        _, stderr = workers[0].communicate(timeout=60)
    finally:
        for w in workers:
            w.kill()
    assert workers[0].returncode not in (0, None)
    assert "CommunicationError" in stderr and "failed on rank 0" in stderr


@pytest.mark.slow
def test_a_worker_whose_peer_stops_answering_times_out(tmp_path):
    """A peer that is alive but never reaches the collective: the wait ends after
    CELLGRAPH_COMM_TIMEOUT seconds with an error, not a hang."""
    pytest.importorskip("torch.distributed")
    workers = _start_workers("stall", tmp_path, CELLGRAPH_COMM_TIMEOUT="3")
    try:
        _, stderr = workers[0].communicate(timeout=90)
    finally:
        for w in workers:
            w.kill()
    assert workers[0].returncode not in (0, None)
    assert "CommunicationError: AllReduce on group 'hccl_world_group' failed on rank 0" in stderr
    assert "did not answer within 3 s" in stderr


ALL_REDUCE_SCRIPT = """
import numpy as np
from cellgraph import Tensor, ops
from cellgraph.communication import get_group_size, get_rank, init
init()
total = ops.AllReduce()(Tensor(np.array([get_rank() + 1.0])))
print(f"rank {get_rank()} of {get_group_size()}: {total.asnumpy()[0]:g}")
"""


def _two_launchers(job: str, out: Path, node_ranks) -> None:
    """Two launchers of 2 workers each, as on two machines (both on loopback here)."""
    port = str(_job("--nproc", "1", job).master_port)
    nodes = [subprocess.Popen([sys.executable, "-m", "cellgraph", "launch", "--nproc", "2",
                               "--nnodes", "2", *node_rank, "--master-port", port,
                               "--log-dir", str(out / f"launcher{i}"), job])
             for i, node_rank in enumerate(node_ranks)]
    try:
        assert [n.wait(timeout=120) for n in nodes] == [0, 0]
    finally:
        for n in nodes:
            n.kill()


@pytest.mark.slow
def test_two_launchers_make_one_job_as_on_two_machines(script, tmp_path):
    """--nnodes 2: each launcher starts its node's workers; together they are one world."""
    pytest.importorskip("torch.distributed")
    _two_launchers(script(ALL_REDUCE_SCRIPT), tmp_path, [["--node-rank", "0"],
                                                         ["--node-rank", "1"]])
    for rank in range(4):
        log = tmp_path / f"launcher{rank // 2}" / f"worker_{rank}.log"
        assert log.read_text().strip().endswith(f"rank {rank} of 4: 10")


@pytest.mark.slow
def test_without_node_ranks_the_launchers_number_the_machines(script, tmp_path):
    """msrun's default: no --node-rank; the launchers agree on node 0 and node 1."""
    pytest.importorskip("torch.distributed")
    _two_launchers(script(ALL_REDUCE_SCRIPT), tmp_path, [[], []])
    logs = sorted(p.name for p in tmp_path.glob("launcher*/worker_*.log"))
    assert logs == [f"worker_{r}.log" for r in range(4)]
    for log in tmp_path.glob("launcher*/worker_*.log"):
        rank = int(log.stem.split("_")[1])
        assert log.read_text().strip().endswith(f"rank {rank} of 4: 10")


RESTART_SCRIPT = """
import os, pathlib, sys
out = pathlib.Path(sys.argv[1])
count = os.environ["CELLGRAPH_RESTART_COUNT"]
(out / f"attempt{count}_rank{os.environ['RANK']}").write_text(os.environ["MASTER_PORT"])
if count == "0" and os.environ["RANK"] == "1":
    raise SystemExit(5)
"""


def test_max_restarts_starts_the_workers_again(script, tmp_path):
    done = _launch("--nproc", "2", "--max-restarts", "1", "--log_dir", str(tmp_path / "logs"),
                   script(RESTART_SCRIPT), str(tmp_path), timeout=60)
    assert done.returncode == 0, done.stderr
    assert "worker rank 1" in done.stderr and "restarting the workers (restart 1 of 1)" in \
        done.stderr
    names = sorted(p.name for p in tmp_path.glob("attempt*"))
    assert names == ["attempt0_rank0", "attempt0_rank1", "attempt1_rank0", "attempt1_rank1"]
    # a fresh rendezvous port for the second attempt
    assert (tmp_path / "attempt0_rank0").read_text() != (tmp_path / "attempt1_rank0").read_text()
    assert "restart 1 of 1" in (tmp_path / "logs" / "worker_0.log").read_text()


def test_restarts_run_out(script, tmp_path):
    done = _launch("--max_restarts", "2", script("raise SystemExit(4)"), timeout=60)
    assert done.returncode == 4
    assert done.stderr.count("exited with status 4") == 3
    assert "restart 2 of 2" in done.stderr


@pytest.mark.parametrize("argv, message", [
    (["--max-restarts", "-1"], "--max-restarts must be 0 or more"),
    (["--max-restarts", "1", "--join", "False"], "cannot be used with --join False"),
])
def test_restart_options_are_checked(script, argv, message):
    with pytest.raises(LaunchError, match=message):
        _job(*argv, script(""))


def test_msrun_join_and_cluster_time_out(script):
    job = _job("--join", "True", "--cluster_time_out", "30", script(""))
    assert job.join and job.cluster_timeout_s == 30
    assert worker_env(job, 0)["CELLGRAPH_CLUSTER_TIMEOUT"] == "30"
    assert not _job("--join", "False", script("")).join
    with pytest.raises(SystemExit):
        _job("--join", "yes", script(""))


def test_join_false_starts_detached_workers(script, tmp_path):
    job = script("import pathlib, sys, time\ntime.sleep(1)\n"
                 "pathlib.Path(sys.argv[1], 'done').write_text('1')\n")
    done = _launch("--join", "False", job, str(tmp_path), timeout=60)
    assert done.returncode == 0 and "worker rank 0 started, pid" in done.stderr
    _wait_for([tmp_path / "done"], timeout=60)  # the worker outlived its launcher


def test_a_symlink_planted_at_a_worker_log_is_not_followed(script, tmp_path):
    logs, victim = tmp_path / "logs", tmp_path / "victim.txt"
    logs.mkdir()
    victim.write_text("keep me")
    (logs / "worker_0.log").symlink_to(victim)
    done = _launch("--log_dir", str(logs), script("print('hello')"), timeout=60)
    assert done.returncode != 0 and "is a symbolic link" in done.stderr
    assert victim.read_text() == "keep me"


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, exited but not yet reaped by its new parent, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_launcher_killed_by_sigkill_takes_its_workers_down(script, tmp_path):
    """The workers and the processes they started (a child each here) all end."""
    job = script("import os, pathlib, subprocess, sys, time\n"
                 "child = subprocess.Popen([sys.executable, '-c', 'import time; "
                 "time.sleep(120)'])\n"
                 "rank = os.environ['RANK']\n"
                 "pathlib.Path(sys.argv[1], 'child' + rank).write_text(str(child.pid))\n"
                 "pathlib.Path(sys.argv[1], 'pid' + rank).write_text(str(os.getpid()))\n"
                 "time.sleep(120)\n")
    launcher = subprocess.Popen([sys.executable, "-m", "cellgraph", "launch", "--nproc", "2",
                                 job, str(tmp_path)])
    pids = []
    try:
        pids = _wait_for([tmp_path / f"pid{r}" for r in range(2)])
        pids += [int((tmp_path / f"child{r}").read_text()) for r in range(2)]
        launcher.kill()
        launcher.wait(timeout=30)
        deadline = time.monotonic() + 30
        while any(_alive(pid) for pid in pids):
            assert time.monotonic() < deadline, "a worker outlived its launcher"
            time.sleep(0.1)
    finally:
        for pid in pids:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_the_watchdog_stops_the_groups_unless_told_the_job_ended():
    from cellgraph.launch import watchdog

    def sleeper():
        return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                                start_new_session=True)

    kept, stopped = sleeper(), sleeper()
    try:
        watchdog(5, lines=[f"{kept.pid}\n", "done\n"])
        assert kept.poll() is None  # the launcher ended the job itself
        watchdog(5, lines=[f"{stopped.pid}\n"])  # input ended: the launcher died
        assert stopped.wait(timeout=30) == -signal.SIGTERM
    finally:
        for p in (kept, stopped):
            p.kill()
            p.wait()
