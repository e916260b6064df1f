"""mindspore.common.file_system: the functions checkpoint files are created and opened with."""
import sys
import types

import pytest

import cellgraph as ms
from cellgraph.common import file_system
from cellgraph.common.file_system import (
    FileSystem,
    _register_basic_file_system,
    _register_mindio_file_system,
)


def test_basic_file_system_is_pythons_open():
    fs = FileSystem()
    assert (fs.create, fs.create_args, fs.open, fs.open_args, fs.backend) == (
        open, ("ab",), open, ("rb",), "basic")
    fs.create, fs.create_args = print, ()
    assert _register_basic_file_system(fs) is True
    assert (fs.create, fs.create_args) == (open, ("ab",))


def test_mindio_absent_leaves_the_record(monkeypatch):
    for name in ("mindio_acp", "mindio"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails
    fs = FileSystem()
    assert _register_mindio_file_system(fs) is False
    assert fs.backend == "basic" and fs.create is open
    assert ms.mindio_preload("a.ckpt") is False


def test_mindio_registered_when_it_initialises(monkeypatch):
    calls = []
    fake = types.SimpleNamespace(
        initialize=lambda **kw: calls.append(kw) or 0, create_file=object(),
        open_file=object(), preload=calls.append)
    monkeypatch.setitem(sys.modules, "mindio_acp", fake)
    monkeypatch.setitem(file_system.mindio_server_info, "memfs.data_block_pool_capacity_in_gb",
                        "100")
    ms.set_mindio_server_info(8)
    fs = FileSystem()
    assert _register_mindio_file_system(fs) is True
    assert (fs.create, fs.create_args, fs.open, fs.open_args, fs.backend) == (
        fake.create_file, (), fake.open_file, (), "mindio")
    assert calls[0] == {"server_info": {"memfs.data_block_pool_capacity_in_gb": "8"}}
    assert ms.mindio_preload("a.ckpt") is True and calls[-1] == "a.ckpt"


# MindSpore 2.10's messages
@pytest.mark.parametrize("value, error, message", [
    (0, ValueError, "must be int and must > 0, but got '0' with type 'int'"),
    (1.5, TypeError, "must be int, but got 'float'"),
    (True, TypeError, "must be int and must > 0, but got 'True' with type 'bool'"),
])
def test_set_mindio_server_info_checks(value, error, message):
    with pytest.raises(error, match=message):
        ms.set_mindio_server_info(value)


def test_mindio_preload_checks_the_name():
    with pytest.raises(TypeError, match="For 'mindio_preload', the type of 'ckpt_file_name' "
                                        "should be 'str', but got type 'int'"):
        ms.mindio_preload(3)
