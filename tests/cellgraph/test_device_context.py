"""device_context (cpu, gpu, ascend) and multiprocessing, as MindSpore 2.10 answers on a
machine with only a CPU."""
import multiprocessing

import pytest

import cellgraph as cg
from cellgraph import device_context as dc


def test_cpu_queries_and_threads_num(monkeypatch):
    from cellgraph.device_context.cpu import op_tuning

    assert dc.cpu.device_count() == 1 and dc.cpu.is_available()
    monkeypatch.setattr(op_tuning, "_SET", [])
    with pytest.raises(TypeError, match="'num' must be"):
        dc.cpu.op_tuning.threads_num("a")
    with pytest.raises(ValueError, match="must > 0"):
        dc.cpu.threads_num(0)
    with pytest.warns(RuntimeWarning):
        dc.cpu.op_tuning.threads_num(2)
    assert cg.get_context("runtime_num_threads") == 2
    with pytest.raises(RuntimeError, match="can not be set repeatedly"):
        dc.cpu.op_tuning.threads_num(3)


def test_devices_this_machine_lacks():
    with pytest.raises(RuntimeError, match="Device Ascend not exist"):
        dc.ascend.device_count()
    if not cg.hal.is_available("GPU"):
        with pytest.raises(RuntimeError, match="GPU not exist"):
            dc.gpu.is_available()


def test_multiprocessing_is_pythons():
    assert cg.multiprocessing.Process is multiprocessing.Process
    assert cg.multiprocessing.get_context("spawn").get_start_method() == "spawn"
