"""The files save_checkpoint writes (.ckpt and .safetensors): a planted symbolic link is
replaced, never written through; an existing file's mode is kept; a save killed mid-write
leaves no temporary file behind once the next save to that path has run."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, safe_io


@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_symlink_at_the_checkpoint_path_is_replaced_not_followed(tmp_path, fmt):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    path = tmp_path / f"net.{fmt}"
    path.symlink_to(victim)
    ms.save_checkpoint(nn.Dense(2, 2), str(path), format=fmt)
    assert victim.read_text() == "precious" and not path.is_symlink()
    assert set(ms.load_checkpoint(str(path), format=fmt)) == {"weight", "bias"}


@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_an_existing_checkpoint_keeps_its_mode(tmp_path, fmt):
    path = tmp_path / f"net.{fmt}"
    ms.save_checkpoint(nn.Dense(2, 2), str(path), format=fmt)
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(path).st_mode & 0o777 == 0o666 & ~umask
    for mode in (0o644, 0o640):
        os.chmod(path, mode)
        ms.save_checkpoint(nn.Dense(2, 2), str(path), format=fmt)
        assert os.stat(path).st_mode & 0o777 == mode


def test_a_save_killed_mid_write_leaves_no_temp_after_the_next_save(tmp_path):
    path = tmp_path / "big.ckpt"
    # 64 MB of parameters; the process blocks at the fsync, its temp file fully written
    script = textwrap.dedent(f"""
        import os, sys
        import numpy as np
        import cellgraph as ms
        os.fsync = lambda fd: (print("written", flush=True), sys.stdin.read())
        ms.save_checkpoint({{"w": ms.Tensor(np.ones((4096, 4096), np.float32))}}, {str(path)!r})
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "written"
        temps = [n for n in os.listdir(tmp_path) if n.endswith(safe_io.TMP_SUFFIX)]
        assert len(temps) == 1 and os.path.getsize(tmp_path / temps[0]) > 64 * 2 ** 20
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
    assert not path.exists()  # the killed save never replaced anything
    ms.save_checkpoint({"w": Tensor(np.zeros(2, np.float32))}, str(path))
    assert os.listdir(tmp_path) == ["big.ckpt"]


def test_a_failed_save_keeps_the_old_checkpoint(tmp_path):
    path = tmp_path / "net.ckpt"
    ms.save_checkpoint({"w": Tensor(np.ones(2, np.float32))}, str(path))
    before = path.read_bytes()

    class Broken(Tensor):
        def asnumpy(self):
            raise RuntimeError("device lost")

    with pytest.raises(RuntimeError, match="device lost"):
        ms.save_checkpoint({"w": Broken(np.ones(2, np.float32))}, str(path))
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["net.ckpt"]
