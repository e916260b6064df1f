"""Cell buffers and state dicts, as MindSpore's Cell has them (register_buffer, _Buffer
attributes, named_buffers, get_buffer, state_dict, load_state_dict and their hooks)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Parameter, Tensor, nn
from cellgraph.common.parameter import _Buffer


def _t(*values):
    return Tensor(np.array(values, np.float32))


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = _Buffer(_t(1, 2, 3))
        self.register_buffer("shift", _t(3, 4, 5))
        self.register_buffer("scratch", _t(0, 0, 0), persistent=False)
        self.weight = Parameter(_t(10, 20, 30))

    def construct(self, x):
        return (x + self.scale) * self.shift + self.weight


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.offset = _Buffer(_t(6, 6, 6))
        self.bias = Parameter(_t(8, 8, 8))

    def construct(self, x):
        return self.inner(x) + self.offset - self.bias


def test_buffers_are_read_by_construct_and_listed():
    net = Outer()
    np.testing.assert_allclose(net(_t(2, 2, 2)).asnumpy(), [17, 34, 53])
    assert [name for name, _ in net.named_buffers()] == [
        "offset", "inner.scale", "inner.shift", "inner.scratch"]
    assert len(list(net.buffers(recurse=False))) == 1 and len(net.inner._buffers) == 3
    np.testing.assert_allclose(net.get_buffer("inner.shift").asnumpy(), [3, 4, 5])
    assert [p.name for p in net.get_parameters()] == ["bias", "inner.weight"]
    net.inner.shift = _t(1, 1, 1)                   # assigning to a buffer's name replaces it
    np.testing.assert_allclose(net.get_buffer("inner.shift").asnumpy(), [1, 1, 1])
    np.testing.assert_allclose(net(_t(2, 2, 2)).asnumpy(), [11, 22, 33])


def test_register_buffer_errors():
    net = Inner()
    with pytest.raises(TypeError, match="buffer name should be a string"):
        net.register_buffer(2, _t(1))
    with pytest.raises(KeyError, match='contain "."'):
        net.register_buffer("a.b", _t(1))
    with pytest.raises(KeyError, match="already exists"):
        net.register_buffer("weight", _t(1))
    with pytest.raises(TypeError, match="Tensor or None"):
        net.register_buffer("c", np.ones(2))
    with pytest.raises(AttributeError, match="has no attribute"):
        net.get_buffer("missing")
    with pytest.raises(AttributeError, match="is not a buffer"):
        net.get_buffer("weight")
    with pytest.raises(TypeError):
        _Buffer(np.ones(2))


def test_state_dict_round_trip_through_a_checkpoint(tmp_path):
    net = Outer()
    state = net.state_dict()
    assert list(state) == ["bias", "offset", "inner.weight", "inner.scale", "inner.shift"]
    assert state["bias"] is net.bias and state["inner.scale"] is net.inner.scale
    cg.save_checkpoint(state, str(tmp_path / "net.ckpt"))
    other = Outer()
    other.bias.set_data(_t(0, 0, 0))
    other.inner.scale.assign_value(_t(9, 9, 9))
    result = other.load_state_dict(cg.load_checkpoint(str(tmp_path / "net.ckpt")))
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert str(result) == "<All keys matched successfully>"
    np.testing.assert_allclose(other.bias.asnumpy(), [8, 8, 8])
    np.testing.assert_allclose(other.inner.scale.asnumpy(), [1, 2, 3])


def test_load_state_dict_strict():
    net = Outer()
    state = dict(net.state_dict())
    del state["inner.shift"]
    state["inner.extra"] = _t(1)
    with pytest.raises(RuntimeError, match='Missing key.*"inner.shift".*\n.*Unexpected'):
        Outer().load_state_dict(state)
    result = Outer().load_state_dict(state, strict=False)   # reported, as MindSpore does
    assert result.missing_keys == ["inner.shift"] and result.unexpected_keys == ["inner.extra"]
    with pytest.raises(RuntimeError, match="size mismatch for bias"):
        Outer().load_state_dict({**net.state_dict(), "bias": _t(1, 2)})


def test_state_dict_hooks():
    calls = []
    net = Inner()
    net.register_state_dict_pre_hook(lambda cell, prefix, keep_vars: calls.append("pre"))
    handle = net.register_state_dict_post_hook(
        lambda cell, state, prefix, meta: calls.append(sorted(state)))
    net.register_load_state_dict_pre_hook(lambda cell, *args: calls.append("load pre"))
    net.register_load_state_dict_post_hook(
        lambda cell, keys: calls.append(("load post", keys.missing_keys)))
    net.load_state_dict(net.state_dict())
    assert calls == ["pre", ["scale", "shift", "weight"], "load pre", ("load post", [])]
    handle.remove()
    net.state_dict()
    assert calls[-1] == "pre"


def test_setting_a_parameter_attribute_to_a_new_parameter_replaces_it():
    # MindSpore 2.10: `net.w = Parameter(float16 data, name="w")` puts that Parameter in place
    # (its dtype kept); a plain Tensor still sets the data of the Parameter there
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.ones(2, np.float32)), name="w")

        def construct(self, x):
            return self.w * x

    net = Net()
    old = net.w
    new = Parameter(Tensor(np.array([1.5, 2.5]), cg.float16), name="w")
    net.w = new
    assert net.w is new and net.w.dtype == cg.float16
    assert net(Tensor(np.ones(2, np.float16))).dtype == cg.float16
    net.w = Tensor(np.array([3., 4.], np.float32))
    assert net.w is new and net.w.asnumpy().tolist() == [3., 4.]
    assert old.asnumpy().tolist() == [1., 1.]
