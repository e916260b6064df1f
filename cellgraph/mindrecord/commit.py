"""Atomic commits of a dataset's files (every shard file and its `.db` index together).

The files are written into a staging folder beside them, `.NAME.PID.XXXX.cgstage` (NAME: the
file name given to FileWriter), and fsync'ed. Then a marker `COMMIT` listing them is written
into that folder (atomically): that is the commit point. The files are then renamed into place
and the staging folder removed. A process killed before the marker leaves the old files as they
were (its staging folder is removed by the next commit or read of that dataset, once the
process is gone); one killed after it has its rename finished by the next commit or read
(`recover`), so a reader sees the old dataset or the new one, never half of each.
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil

from cellgraph import safe_io

SUFFIX = ".cgstage"
MARKER = "COMMIT"


def _fsync(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def new_stage(folder: str, name: str) -> str:
    stage = os.path.join(folder, f".{name}.{os.getpid()}.{secrets.token_hex(4)}{SUFFIX}")
    os.makedirs(folder, exist_ok=True)
    os.mkdir(stage, 0o700)
    return stage


def publish(stage: str, folder: str, names: list[str], modes: dict[str, int]) -> None:
    """Make the staged `names` the dataset's files (the commit point is the marker)."""
    for name in names:
        path = os.path.join(stage, name)
        os.chmod(path, modes.get(name, 0o600))
        _fsync(path)
    safe_io.write_text(os.path.join(stage, MARKER), json.dumps(names))
    _fsync(stage)
    _finish(stage, folder, names)


def _finish(stage: str, folder: str, names: list[str]) -> None:
    for name in names:
        with contextlib.suppress(FileNotFoundError):  # moved already (by another reader)
            os.replace(os.path.join(stage, name), safe_io.contained(folder, name))
    _fsync(folder)
    shutil.rmtree(stage, ignore_errors=True)


def discard(stage: str) -> None:
    shutil.rmtree(stage, ignore_errors=True)


def _owner_gone(entry: str) -> bool:
    parts = entry[:-len(SUFFIX)].rsplit(".", 2)
    return len(parts) == 3 and parts[1].isdigit() and not safe_io._pid_alive(int(parts[1]))


def recover(folder: str, name: str | None = None) -> None:
    """Finish the commits of `folder` that passed their commit point and remove the staging
    folders of writers killed before it (only those whose process is gone). `name` limits this
    to the datasets written with that file name."""
    with contextlib.suppress(OSError):
        for entry in os.listdir(folder):
            if not entry.endswith(SUFFIX) or (name is not None and not entry.startswith(
                    f".{name}.")) or not _owner_gone(entry):
                continue
            stage = os.path.join(folder, entry)
            if os.path.islink(stage) or not os.path.isdir(stage):
                continue
            try:
                with open(os.path.join(stage, MARKER), encoding="utf-8") as f:
                    names = json.load(f)
            except (OSError, ValueError):
                discard(stage)
                continue
            if isinstance(names, list) and all(isinstance(n, str) and os.path.basename(n) == n
                                               for n in names):
                _finish(stage, folder, names)
            else:
                discard(stage)
