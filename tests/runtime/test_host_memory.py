"""glibc's malloc thresholds, which the NumPy backend fixes so that freed array pages are
reused (runtime/host_memory.py)."""
from __future__ import annotations

import platform
import resource
import sys

import numpy as np
import pytest

from cellgraph.runtime import host_memory

GLIBC = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not GLIBC, reason="the thresholds are glibc's")
def test_thresholds_are_set_on_glibc():
    assert host_memory.retain_freed_memory() is True


@pytest.mark.skipif(not GLIBC, reason="the thresholds are glibc's")
def test_arrays_of_a_step_reuse_freed_pages():
    """Four live 4 MiB temporaries per round, freed and made again: after the first round no
    page is faulted in afresh (with glibc's defaults every round faults in most of them)."""
    host_memory.retain_freed_memory()

    def one_round():
        arrays = [np.ones(1 << 20, np.float32) for _ in range(4)]
        return sum(float(a[0]) for a in arrays)

    one_round()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(5):
        assert one_round() == 4.0
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    assert faults < 5 * 4 * (4 << 20) // 4096 // 4, faults  # far fewer than one per new page
