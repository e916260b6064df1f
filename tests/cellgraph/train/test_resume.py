"""Kill and resume: under `cellgraph launch --max-restarts 1` a worker killed mid-run (SIGKILL)
makes the launcher restart both workers, which resume from the last checkpoint rank 0 wrote
(parameters, optimizer state, epoch and step, the random generator, the dataset's position)
and end at the parameters of a run that was never interrupted. Also the pieces in one process:
resume_state / resume_checkpoint and the dataset iterator's position."""
from __future__ import annotations

import json

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import dataset, nn
from cellgraph.train import CheckpointError, resume_checkpoint, resume_state, save_checkpoint
from cellgraph.train.resume import RNG_KEY, latest_checkpoint

from .. import distributed_worker as worker


def _final(out):
    return [dict(np.load(out / f"final_rank{r}.npz")) for r in range(2)]


def _kill_and_resume(task, tmp_path, kill_at, resumed_from):
    killed, plain = tmp_path / "killed", tmp_path / "plain"
    killed.mkdir(), plain.mkdir()
    stderr = worker.launch(task, killed, launcher_args=["--max-restarts", "1"],
                           task_args=[kill_at], timeout=300)
    assert "worker rank 1" in stderr and "SIGKILL" in stderr, stderr
    assert "restarting the workers (restart 1 of 1)" in stderr
    worker.launch(task, plain, task_args=[0], timeout=300)
    for r in range(2):  # the second attempt ran the steps after the checkpoint, no more
        steps = (killed / f"steps_attempt1_rank{r}.txt").read_text().split()
        assert steps == [str(s) for s in range(resumed_from + 1, 19)]
    resumed, uninterrupted = _final(killed), _final(plain)
    for name, expected in uninterrupted[0].items():
        for r in range(2):
            np.testing.assert_allclose(resumed[r][name], expected, rtol=0, atol=1e-6,
                                       err_msg=f"rank {r} {name}")
    return resumed, uninterrupted


@pytest.mark.slow
def test_model_train_resumes_from_model_checkpoint_after_a_kill(tmp_path):
    pytest.importorskip("torch.distributed")
    _kill_and_resume("resume_model", tmp_path, kill_at=10, resumed_from=9)  # mid-epoch
    log = (tmp_path / "killed" / "logs" / "worker_0.log").read_text()
    assert "restart 1 of 1" in log


@pytest.mark.slow
def test_a_hand_loop_resumes_from_save_checkpoint_after_a_kill(tmp_path):
    pytest.importorskip("torch.distributed")
    _kill_and_resume("resume_loop", tmp_path, kill_at=14, resumed_from=12)  # an epoch's end


# ----- in one process ------------------------------------------------------------------------

def _pipeline():
    dataset.config.set_seed(5)
    data = np.arange(10, dtype=np.float32)
    return dataset.NumpySlicesDataset({"x": data}, shuffle=True).batch(3)


def _rows(iterator, epochs):
    return [[r[0].asnumpy().tolist() for r in iterator] for _ in range(epochs)]


def test_an_iterator_seeks_to_a_position_of_another(tmp_path):
    iterator = _pipeline().create_tuple_iterator(num_epochs=-1)
    _rows(iterator, 1)
    next(iterator)
    position = iterator.position
    assert (position["epoch"], position["rows"]) == (1, 1)
    rest = _rows(iterator, 2)
    again = _pipeline().create_tuple_iterator(num_epochs=-1)
    again.seek(json.loads(json.dumps(position)))  # through a checkpoint's text
    assert _rows(again, 2) == rest
    with pytest.raises(RuntimeError, match="already been read"):
        again.seek(position)


def test_resume_checkpoint_restores_parameters_generator_and_position(tmp_path):
    ms.set_seed(2)
    net = nn.Dense(3, 2)
    iterator = _pipeline().create_tuple_iterator(num_epochs=-1)
    next(iterator), next(iterator)
    save_checkpoint(net, str(tmp_path / "a.ckpt"), append_dict=resume_state(1, 2, iterator))
    weight, generator = net.weight.asnumpy().copy(), ms.common.seed.get_rng_state()
    rest = _rows(iterator, 2)
    net.weight.set_data(ms.Tensor(np.zeros((2, 3), np.float32)))
    ms.common.seed.global_rng().random(7)
    again = _pipeline().create_tuple_iterator(num_epochs=-1)
    state = resume_checkpoint(net, tmp_path, again)
    assert state == {"epoch_num": 1, "step_num": 2, "ckpt_file_name": str(tmp_path / "a.ckpt")}
    np.testing.assert_array_equal(net.weight.asnumpy(), weight)
    assert ms.common.seed.get_rng_state() == generator  # the global generator's
    assert _rows(again, 2) == rest


def test_resume_checkpoint_needs_the_resume_entries(tmp_path):
    net = nn.Dense(3, 2)
    assert resume_checkpoint(net, tmp_path) is None  # nothing to resume from
    save_checkpoint(net, str(tmp_path / "plain.ckpt"), append_dict={"epoch_num": 1})
    with pytest.raises(CheckpointError, match=f"lacks step_num, {RNG_KEY}"):
        resume_checkpoint(net, tmp_path / "plain.ckpt")


def test_latest_checkpoint_takes_the_newest_of_a_prefix(tmp_path):
    import os

    for i, name in enumerate(["net-1_3.ckpt", "net_1-2_3.ckpt", "other-9_9.ckpt", "net.txt"]):
        (tmp_path / name).write_bytes(b"")
        os.utime(tmp_path / name, ns=(i * 10**9, i * 10**9))
    assert latest_checkpoint(tmp_path, "net") == str(tmp_path / "net_1-2_3.ckpt")
    assert latest_checkpoint(tmp_path) == str(tmp_path / "other-9_9.ckpt")
    assert latest_checkpoint(tmp_path / "missing") is None
