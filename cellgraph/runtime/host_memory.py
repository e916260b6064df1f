"""How freed host memory is kept for reuse: glibc's malloc settings for array-sized blocks.

NumPy takes every array from malloc. By default glibc serves blocks above a threshold that
adapts to the sizes freed (up to 32 MiB) with their own mmap, and returns the free top of its
heap to the system once it exceeds twice that threshold; a compiled step whose temporaries are
a few MiB each then maps fresh pages for most of them on every run, and the page faults (the
kernel zeroing each 4 KiB page) cost as much as the arithmetic: a quarter to a third of a CNN
training step on one core. Fixing both thresholds keeps blocks up to `MMAP_THRESHOLD` in the
heap and up to `TRIM_THRESHOLD` of free heap mapped, so the next step's arrays reuse pages that
are already there. Where the C library is not glibc nothing changes.
"""
from __future__ import annotations

import ctypes
import ctypes.util

MMAP_THRESHOLD = 32 << 20  # glibc's own ceiling for its adaptive threshold
TRIM_THRESHOLD = 64 << 20  # free heap kept mapped, at most

# mallopt's parameter numbers (malloc.h)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3


def retain_freed_memory() -> bool:
    """Set glibc's thresholds as the module docstring explains; False where malloc is not
    glibc's (or refuses them)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        libc.gnu_get_libc_version  # noqa: B018 - glibc only: mallopt's numbers are its own
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
