"""hal answers for the host truthfully and refuses Ascend."""
from __future__ import annotations

import os

import pytest

import cellgraph as ms
from cellgraph import hal
from cellgraph.primitives.errors import UnsupportedError


def test_cpu_is_one_device_with_the_hosts_cores_and_memory():
    assert hal.is_available("CPU")
    assert not hal.is_available("Ascend")
    assert hal.device_count("CPU") == 1
    props = hal.get_device_properties(0, "CPU")
    assert props.multi_processor_count == os.cpu_count()
    assert props.total_memory == os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert hal.get_device_name(0, "CPU") == props.name
    assert hal.get_device_capability(0, "CPU") is None
    if ms.get_context("device_target") == "CPU":
        assert hal.is_initialized("CPU")
        assert hal.memory_allocated() == 0  # the NumPy backend has no device pool


def test_gpu_count_matches_the_gpu_backend_and_ascend_is_refused():
    from cellgraph.runtime import gpu

    has_gpu = gpu.find_gpu_backend()[0] is not None
    assert hal.is_available("GPU") == has_gpu
    assert (hal.device_count("GPU") > 0) == has_gpu
    with pytest.raises(UnsupportedError, match="Ascend"):
        hal.device_count("Ascend")
    with pytest.raises(ValueError, match="device_id"):
        hal.get_device_properties(1, "CPU")
    with pytest.raises(ValueError, match="device_target"):
        hal.is_available("TPU")
