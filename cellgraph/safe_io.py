"""Writing files safely: every file cellgraph writes goes through here.

* `contained(directory, *names, folder=False)`: a path built from user strings (a graph's, a tag's, a
  file's name) that stays inside `directory` or raises; never a path outside it.
* `atomic_write(path)`: a context manager giving a binary file. The bytes go to a temporary
  file beside `path` (created with O_EXCL | O_NOFOLLOW), are flushed and fsync'ed, then renamed
  over `path`, so a reader sees the old file or the new one, never half of one, and a symbolic
  link at `path` is replaced, never followed. The new file keeps the mode of the file it
  replaces (a new one gets the usual 0666 & ~umask). On an error the temporary file is removed;
  a process killed mid-write leaves one behind, named `.NAME.PID.cgtmp`, which the next write to
  the same path removes (once the process that made it is gone).
* `open_append(path)`: an appending writer that refuses a symbolic link (O_NOFOLLOW).
"""
from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat

from cellgraph.primitives.errors import CellgraphError

TMP_SUFFIX = ".cgtmp"


class UnsafePathError(CellgraphError, ValueError):
    """A path that would leave its folder, or a symbolic link where a file is appended to."""


def contained(directory, *names, folder: bool = False) -> str:
    """`directory` joined with `names`, checked to stay inside `directory` (after resolving
    `..` and the symbolic links of the folders on the way), else UnsafePathError. The last
    name is followed too when it is a `folder` to write into; a file's is not (writers replace
    or refuse a link there)."""
    root = os.path.realpath(os.fspath(directory))
    names = [os.fspath(name) for name in names]
    for name in names:
        if not name or "\x00" in name:
            raise UnsafePathError(f"expected a file name, got {name!r}")
    path = os.path.normpath(os.path.join(root, *names))
    parent, last = os.path.split(path)
    resolved = os.path.realpath(path) if folder else os.path.join(os.path.realpath(parent), last)
    if last in ("", ".", "..") or os.path.commonpath([root, resolved]) != root or \
            resolved == root:
        raise UnsafePathError(f"{os.path.join(*names)!r} leads outside the folder "
                              f"{os.fspath(directory)!r}")
    return resolved


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022  # the usual value; reading it with os.umask would race other threads


def _target_mode(path: str) -> int:
    """The mode of the regular file at `path`, or the one a new file gets."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return 0o666 & ~_umask()
    if stat.S_ISREG(st.st_mode):
        return stat.S_IMODE(st.st_mode)
    return 0o666 & ~_umask()


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _tmp_prefix(path: str) -> str:
    return f".{os.path.basename(path)}."


def remove_stale_temps(path) -> list[str]:
    """Remove the temporary files earlier writes to `path` left behind when their process was
    killed (named `.NAME.PID.XXXX.cgtmp`, PID no longer running). Returns what was removed."""
    path = os.path.abspath(os.fspath(path))
    directory, prefix = os.path.dirname(path), _tmp_prefix(path)
    removed = []
    try:
        entries = os.listdir(directory)
    except OSError:
        return removed
    for entry in entries:
        if not (entry.startswith(prefix) and entry.endswith(TMP_SUFFIX)):
            continue
        pid = entry[len(prefix):-len(TMP_SUFFIX)].split(".")[0]
        if pid.isdigit() and not _pid_alive(int(pid)):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(os.path.join(directory, entry))
                removed.append(entry)
    return removed


@contextlib.contextmanager
def atomic_write(path, *, text: bool = False, encoding: str = "utf-8", newline=None):
    """A file object for writing `path` atomically (see the module docstring)."""
    path = os.path.abspath(os.fspath(path))
    directory = os.path.dirname(path)
    if os.path.isdir(path) and not os.path.islink(path):
        raise IsADirectoryError(errno.EISDIR, f"{path!r} is a folder, expected a file name")
    os.makedirs(directory, exist_ok=True)
    remove_stale_temps(path)
    mode = _target_mode(path)
    tmp = os.path.join(directory, f"{_tmp_prefix(path)}{os.getpid()}.{secrets.token_hex(4)}"
                                  f"{TMP_SUFFIX}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                 | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        with os.fdopen(fd, "w" if text else "wb", **(
                {"encoding": encoding, "newline": newline} if text else {})) as f:
            yield f
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(tmp, path)  # replaces a symbolic link at `path`; never writes through it
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(directory)


def _fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename itself is done
    finally:
        os.close(fd)


def write_bytes(path, data: bytes) -> None:
    """Write `data` to `path` atomically."""
    with atomic_write(path) as f:
        f.write(data)


def write_model_file(data: bytes, file_name, suffix: str) -> str:
    """`data` to `file_name` + `suffix` unless it ends so (an exported model: ".onnx",
    ".mindir"), atomically, its folder made; returns the path written."""
    file_name = os.fspath(file_name)
    if not file_name.endswith(suffix):
        file_name += suffix
    folder = os.path.dirname(file_name)
    if folder:
        os.makedirs(folder, exist_ok=True)
    write_bytes(file_name, data)
    return file_name


def write_text(path, text: str, encoding: str = "utf-8") -> None:
    """Write `text` to `path` atomically."""
    with atomic_write(path, text=True, encoding=encoding) as f:
        f.write(text)


def open_append(path, *, text: bool = False, encoding: str = "utf-8"):
    """`path` opened for appending (created with 0666 & ~umask if absent); a symbolic link
    there raises UnsafePathError instead of being followed."""
    path = os.fspath(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as e:
        if e.errno == errno.ELOOP or os.path.islink(path):
            raise UnsafePathError(f"{path!r} is a symbolic link; refusing to append through "
                                  f"it") from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnsafePathError(f"{path!r} is not a regular file")
    return os.fdopen(fd, "a" if text else "ab", **({"encoding": encoding} if text else {}))
