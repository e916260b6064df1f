"""mindspore.runtime's launch settings: MindSpore 2.10's checks and errors (recorded from its
CPU build), stored and read back through _c_expression.RuntimeConf."""
import pytest

import cellgraph as ms
from cellgraph._c_expression import RuntimeConf


@pytest.fixture(autouse=True)
def fresh_settings(monkeypatch):
    monkeypatch.setattr(RuntimeConf, "_instance", None)


def test_kernel_launch_capture_is_stored():
    ms.runtime.set_kernel_launch_capture(True, ["matmul", "addn"])
    conf = RuntimeConf.get_instance()
    assert conf.get_enable_kernel_launch_capture() is True
    assert conf.op_capture_skip == ["matmul", "addn"]
    ms.runtime.set_kernel_launch_capture(False)
    assert conf.get_enable_kernel_launch_capture() is False
    assert conf.op_capture_skip == []


@pytest.mark.parametrize("args, message", [
    ((1,), "The parameter 'enable_capture_graph' must be <class 'bool'>, but got <class 'int'>"),
    (("x",), "The parameter 'enable_capture_graph' must be <class 'bool'>, but got <class 'str'>"),
    ((True, ("a",)), "op_capture_skip must be a list"),
    ((True, [1]), "op_capture_skip must be a list of str"),
])
def test_kernel_launch_capture_errors(args, message):
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ms.runtime.set_kernel_launch_capture(*args)
    assert RuntimeConf.get_instance().get_enable_kernel_launch_capture() is False


def test_capture_and_launch_group_exclude_each_other():
    ms.runtime.set_kernel_launch_capture(True)
    with pytest.raises(RuntimeError, match="can not be set together"):
        ms.runtime.set_kernel_launch_group()
    ms.runtime.set_kernel_launch_capture(False)
    ms.runtime.set_kernel_launch_group()
    assert RuntimeConf.get_instance().kernel_launch_group == (2, 8)
    with pytest.raises(RuntimeError, match="can not be set together"):
        ms.runtime.set_kernel_launch_capture(True)
    with pytest.raises(RuntimeError, match="The 'kernel_launch_group' can not be set repeatedly."):
        ms.runtime.set_kernel_launch_group(thread_num=4, kernel_group_num=8)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"thread_num": 0}, ValueError, "The value of thread_num should be at least 1, but got 0"),
    ({"kernel_group_num": 0}, ValueError,
     "The value of kernel_group_num should be at least 1, but got 0"),
    ({"thread_num": 3, "kernel_group_num": 8}, ValueError,
     "Invalid parameter value, kernel_group_num: 8 cannot be evenly divisible by thread_num: 3"),
    ({"thread_num": 2.0}, TypeError, "The parameter 'thread_num' must be <class 'int'>"),
])
def test_launch_group_errors(kwargs, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(")):
        ms.runtime.set_kernel_launch_group(**kwargs)
    assert not RuntimeConf.get_instance().is_kernel_launch_group_configured()


def test_dispatch_threads_num():
    for bad, error in ((0, ValueError), (-1, ValueError), (True, TypeError), ("a", TypeError)):
        with pytest.raises(error, match="threads_num"):
            ms.runtime.dispatch_threads_num(bad)
    ms.runtime.dispatch_threads_num(3)
    assert RuntimeConf.get_instance().dispatch_threads == 3
    with pytest.raises(RuntimeError, match="The 'dispatch_threads_num' can not be set repeatedly."):
        ms.runtime.dispatch_threads_num(4)
