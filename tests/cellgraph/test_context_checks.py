"""set_context's argument checks and side effects as MindSpore 2.10's (types checked first
with its TypeError, then values), get_jit_config, the context object and set_deterministic."""
import os
import warnings

import pytest

import cellgraph as cg
from cellgraph import context


@pytest.fixture(autouse=True)
def _restore():
    saved = {k: context.get_context(k) for k in ("device_id", "deterministic")}
    saved_jit = context._state.get("jit_config")
    yield
    context.set_context(**saved)
    context._state["jit_config"] = saved_jit


@pytest.mark.parametrize("kwargs, error, text", [
    ({"device_id": "cpu"}, TypeError,
     "The parameter 'device_id' must be <class 'int'>, but got <class 'str'>"),
    ({"device_id": 4096}, ValueError, "must be in range [0, 4095], but got 4096"),
    ({"variable_memory_max_size": True}, TypeError,
     "The parameter 'variable_memory_max_size' must be <class 'str'>"),
    ({"max_device_memory": 1}, TypeError, "The parameter 'max_device_memory' must be"),
    ({"deterministic": "NOTRIGHT"}, ValueError, "must be one of ['ON', 'OFF']"),
    ({"jit_config": {"jit_level": ""}}, ValueError,
     "the value of argument jit_level must be one of ['O0', 'O1', 'O2'], but got ."),
    ({"jit_config": {"x": "O1"}}, ValueError, "the key of argument 'jit_config' must be"),
    ({"jit_config": {"jit_level": "O1", "infer_boost": "on"}}, ValueError,
     "Only jit_level set O0 can set infer_boost to on."),
])
def test_refused(kwargs, error, text):
    with pytest.raises(error) as info:
        context.set_context(**kwargs)
    assert text in str(info.value)


def test_accepted_and_effects():
    context.set_context(device_id=1)
    assert context.get_context("device_id") == 1
    context.set_context(jit_config={"jit_level": "O1"})
    assert context.get_jit_config() == {"jit_level": "O1"}
    context.set_context(deterministic="ON")
    assert os.environ["HCCL_DETERMINISTIC"] == "true"
    assert os.environ["TE_PARALLEL_COMPILER"] == "1"
    context.set_context(deterministic="OFF")
    assert "HCCL_DETERMINISTIC" not in os.environ and "TE_PARALLEL_COMPILER" not in os.environ
    with warnings.catch_warnings():  # an Ascend memory option: kept, no effect here
        warnings.simplefilter("ignore")
        context.set_context.__wrapped__(max_device_memory="3GB")
    assert context.get_context("max_device_memory") == "3GB"


def test_context_object():
    ctx = context._context()
    assert ctx is context.K_CONTEXT and ctx is context._context()
    assert ctx.get_param("mode") == context.get_context("mode")


def test_set_deterministic(monkeypatch):
    from cellgraph import device

    monkeypatch.setattr(device, "_DETERMINISTIC_SET", [])
    with pytest.raises(TypeError, match="must be <class 'bool'>"):
        cg.set_deterministic(1)
    cg.set_deterministic(True)
    assert context.get_context("deterministic") == "ON"
    assert os.environ["HCCL_DETERMINISTIC"] == "true"
    with pytest.raises(RuntimeError, match="can not be set repeatedly"):
        cg.set_deterministic(False)


def test_save_graphs_path_is_made_and_kept_absolute(tmp_path, monkeypatch):
    """MindSpore makes the folder when it is set and reads it back as an absolute path."""
    monkeypatch.chdir(tmp_path)
    before = context.get_context("save_graphs_path")
    try:
        context.set_context(save_graphs_path="ir_files/deeper")
        assert os.path.isdir(tmp_path / "ir_files" / "deeper")
        assert context.get_context("save_graphs_path") == str(tmp_path / "ir_files" / "deeper")
    finally:
        context.set_context(save_graphs_path=before)


def test_ps_context_keeps_mindspores_keys_and_refuses_parameter_servers():
    import cellgraph as ms
    from cellgraph.primitives.errors import UnsupportedError

    assert ms.get_ps_context("scheduler_port") == 6667  # MindSpore 2.10's defaults
    assert ms.get_ps_context("ms_role") == "MS_NOT_PS" and not ms.get_ps_context("enable_ps")
    ms.set_ps_context(enable_ssl=True, client_password="secret")
    assert ms.get_ps_context("enable_ssl") is True
    ms.reset_ps_context()
    assert ms.get_ps_context("enable_ssl") is False
    with pytest.raises(ValueError, match="Set PS context keyword foo is not recognized"):
        ms.set_ps_context(foo=1)
    with pytest.raises(ValueError, match="Get PS context keyword foo is not recognized"):
        ms.get_ps_context("foo")
    with pytest.raises(UnsupportedError, match="enable_ps"):
        ms.set_ps_context(enable_ps=True)


def test_mode_and_unknown_keys_raise_mindspores_errors():
    # MindSpore 2.10: a mode that is not an int is a TypeError, an int other than 0 or 1 and an
    # unknown get_context key are ValueErrors
    with pytest.raises(ValueError, match=r"'mode' should be context.GRAPH_MODE \(0\) or "
                                         r"context.PYNATIVE_MODE \(1\), but got 2"):
        context.set_context(mode=2)
    with pytest.raises(TypeError, match="The parameter 'mode' must be <class 'int'>"):
        context.set_context(mode="GRAPH_MODE")
    with pytest.raises(ValueError, match="the argument unknown_key is not recognized"):
        context.get_context("unknown_key")


def test_a_program_starts_in_pynative_mode_and_runs_construct_as_python():
    """MindSpore starts in PyNative mode: construct's Python side effects run on every call
    until the program asks for GRAPH_MODE, which compiles (the side effect runs once, while
    tracing)."""
    import subprocess
    import sys

    program = (
        "import numpy as np, cellgraph as cg\n"
        "from cellgraph import nn\n"
        "calls = []\n"
        "class Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        calls.append(1)\n"
        "        return x * 2\n"
        "print(cg.get_context('mode'))\n"
        "net, x = Net(), cg.Tensor(np.ones(2, np.float32))\n"
        "net(x); net(x)\n"
        "print(len(calls), net(x).asnumpy().tolist())\n"
        "cg.set_context(mode=cg.GRAPH_MODE)\n"
        "calls.clear(); net2 = Net(); net2(x); net2(x)\n"
        "print(cg.get_context('mode'), len(calls))\n")
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[:3] == ["1", "2 [2.0, 2.0]", "0 1"]
