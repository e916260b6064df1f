"""safe_io, the one way cellgraph writes files: contained paths, no symbolic link followed,
temp file + fsync + atomic rename, the temp removed on failure (and after a killed process),
an existing file's mode kept."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from cellgraph import safe_io
from cellgraph.safe_io import UnsafePathError


def _umask() -> int:
    old = os.umask(0)
    os.umask(old)
    return old


def test_contained_keeps_user_names_inside(tmp_path):
    assert safe_io.contained(tmp_path, "a.ir") == str(tmp_path / "a.ir")
    assert safe_io.contained(tmp_path, "sub", "x..y") == str(tmp_path / "sub" / "x..y")
    for hostile in ("../escaped", "x/../../escaped", "/etc/passwd", "..", ".", "", "a\x00b"):
        with pytest.raises(UnsafePathError):
            safe_io.contained(tmp_path, hostile)
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (tmp_path / "link").symlink_to(outside)  # a folder link leading out is refused
    with pytest.raises(UnsafePathError, match="leads outside"):
        safe_io.contained(tmp_path, "link", "f")


def test_atomic_write_replaces_a_symlink_and_never_writes_through_it(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("keep")
    path = tmp_path / "out.bin"
    path.symlink_to(victim)
    safe_io.write_bytes(path, b"new")
    assert victim.read_text() == "keep"
    assert not path.is_symlink() and path.read_bytes() == b"new"


def test_mode_kept_and_new_files_get_the_umask_mode(tmp_path):
    path = tmp_path / "f"
    safe_io.write_bytes(path, b"1")
    assert os.stat(path).st_mode & 0o777 == 0o666 & ~_umask()
    for mode in (0o644, 0o600, 0o640):
        os.chmod(path, mode)
        safe_io.write_text(path, "2")
        assert os.stat(path).st_mode & 0o777 == mode


def test_failed_write_leaves_the_old_file_and_no_temp(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"old")
    with pytest.raises(RuntimeError), safe_io.atomic_write(path) as f:
        f.write(b"half")
        raise RuntimeError("disk full")
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["f"]


def test_a_killed_writer_leaves_a_temp_the_next_write_removes(tmp_path):
    path = tmp_path / "big.ckpt"
    script = textwrap.dedent(f"""
        import os, sys
        from cellgraph import safe_io
        os.fsync = lambda fd: (print("written", flush=True), sys.stdin.read())
        with safe_io.atomic_write({str(path)!r}) as f:
            f.write(b"x" * 1000000)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "written"  # blocked inside the write
    temps = [n for n in os.listdir(tmp_path) if n.endswith(safe_io.TMP_SUFFIX)]
    assert len(temps) == 1 and temps[0].startswith(".big.ckpt.")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdin.close()
    proc.stdout.close()
    assert os.listdir(tmp_path) == temps  # the killed save's temp is still there ...
    safe_io.write_bytes(path, b"ok")
    assert sorted(os.listdir(tmp_path)) == ["big.ckpt"]  # ... until the next save


def test_open_append_refuses_symlinks(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("keep")
    (tmp_path / "log").symlink_to(victim)
    with pytest.raises(UnsafePathError, match="symbolic link"):
        safe_io.open_append(tmp_path / "log")
    with safe_io.open_append(tmp_path / "new.log", text=True) as f:
        f.write("a\n")
    with safe_io.open_append(tmp_path / "new.log", text=True) as f:
        f.write("b\n")
    assert (tmp_path / "new.log").read_text() == "a\nb\n" and victim.read_text() == "keep"
