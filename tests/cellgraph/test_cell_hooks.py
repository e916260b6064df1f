"""Forward hooks with MindSpore's options: prepend, with_kwargs, always_call."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn


class Scale(nn.Cell):
    def construct(self, x, y=1.0):
        return x * y


class Fails(nn.Cell):
    def construct(self, x):
        raise RuntimeError("construct failed")


@pytest.fixture
def pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=ms.GRAPH_MODE)


def test_prepend_and_keyword_hooks_as_mindspore(pynative):
    # the same program on MindSpore 2.10 prints [4. 7.] and this order of calls
    order = []
    net = Scale()
    net.register_forward_pre_hook(lambda cell, args: order.append("a"))
    net.register_forward_pre_hook(lambda cell, args: order.append("b"), prepend=True)

    def with_kwargs(cell, args, kwargs):
        order.append(("pre", dict(kwargs)))
        return args, {"y": 3.0}

    def after(cell, args, kwargs, output):
        order.append(("post", dict(kwargs)))
        return output + 1

    net.register_forward_pre_hook(with_kwargs, with_kwargs=True)
    net.register_forward_hook(after, with_kwargs=True)
    out = net(Tensor(np.array([1.0, 2.0], np.float32)), y=2.0)
    np.testing.assert_array_equal(out.asnumpy(), [4.0, 7.0])
    assert order == ["b", "a", ("pre", {"y": 2.0}), ("post", {"y": 3.0})]


def test_always_call_runs_when_construct_raises(pynative):
    seen = []
    net = Fails()
    net.register_forward_hook(lambda cell, args, output: seen.append(("always", output)),
                              always_call=True)
    net.register_forward_hook(lambda cell, args, output: seen.append("not"))
    with pytest.raises(RuntimeError, match="construct failed"):
        net(Tensor(np.ones(2, np.float32)))
    assert seen == [("always", None)]


def test_hook_options_are_keyword_only():
    with pytest.raises(TypeError):
        Scale().register_forward_hook(lambda *a: None, True)
