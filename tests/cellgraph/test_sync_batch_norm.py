"""nn.SyncBatchNorm: on one process it is BatchNorm2d; in a two-process job each rank
normalises its half of a batch with the statistics of the whole batch, and the gradient agrees
with BatchNorm's on the whole batch."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn

WORKER = """
import sys
import numpy as np
import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.communication import init, get_rank

init()
rank = get_rank()
x = np.random.default_rng(0).standard_normal((4, 3, 2, 2)).astype(np.float32)
half = Tensor(x[2 * rank:2 * rank + 2])
bn = nn.SyncBatchNorm(3, momentum=0.5)
bn.set_train()
y = bn(half)
weights = Tensor(np.arange(12.0, dtype=np.float32).reshape(1, 3, 2, 2))
grad = ms.grad(lambda t: (bn(t) * weights).sum())(half)
np.savez(sys.argv[1] + f"/rank{rank}.npz", y=y.asnumpy(), grad=grad.asnumpy(),
         mean=bn.moving_mean.asnumpy(), var=bn.moving_variance.asnumpy())
"""


def _whole_batch_reference(x):
    bn = nn.BatchNorm2d(3, momentum=0.5)
    bn.set_train()
    y = bn(Tensor(x)).asnumpy()
    weights = Tensor(np.arange(12.0, dtype=np.float32).reshape(1, 3, 2, 2))
    grad = ms.grad(lambda t: (bn(t) * weights).sum())(Tensor(x)).asnumpy()
    return y, grad, bn.moving_mean.asnumpy(), bn.moving_variance.asnumpy()


def test_sync_batch_norm_on_one_process_is_batch_norm():
    x = np.random.default_rng(1).standard_normal((4, 3, 2, 2)).astype(np.float32)
    sync, plain = nn.SyncBatchNorm(3), nn.BatchNorm2d(3)
    sync.set_train()
    plain.set_train()
    np.testing.assert_allclose(sync(Tensor(x)).asnumpy(), plain(Tensor(x)).asnumpy(),
                               rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(sync.moving_mean.asnumpy(), plain.moving_mean.asnumpy(),
                               rtol=1e-6)


def test_sync_batch_norm_reduces_statistics_across_processes(tmp_path):
    pytest.importorskip("torch.distributed")  # the collectives run on torch.distributed
    script = tmp_path / "job.py"
    script.write_text(WORKER)
    done = subprocess.run([sys.executable, "-m", "cellgraph", "launch", "--nproc", "2",
                           str(script), str(tmp_path)], capture_output=True, text=True,
                          timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    x = np.random.default_rng(0).standard_normal((4, 3, 2, 2)).astype(np.float32)
    y, grad, mean, var = _whole_batch_reference(x)
    for rank in range(2):
        got = np.load(tmp_path / f"rank{rank}.npz")
        rows = slice(2 * rank, 2 * rank + 2)
        np.testing.assert_allclose(got["y"], y[rows], rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(got["grad"], grad[rows], rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(got["mean"], mean, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got["var"], var, rtol=1e-5, atol=1e-6)
