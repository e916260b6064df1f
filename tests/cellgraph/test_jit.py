"""cellgraph.jit as a decorator for functions and for construct, in both modes."""
import re

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, context, jit, nn, ops


@ms.jit
def scaled_exp(x, scale=2.0):
    return ops.exp(x) * scale


def test_jit_function_compiles_once_per_signature():
    x = Tensor(np.array([0.0, 1.0], np.float32))
    np.testing.assert_allclose(scaled_exp(x).asnumpy(), 2 * np.exp([0.0, 1.0]), rtol=1e-6)
    scaled_exp(x + 1)
    assert len(scaled_exp._cache.entries) == 1
    scaled_exp(Tensor(np.ones((2, 2), np.float32)))
    assert len(scaled_exp._cache.entries) == 2
    np.testing.assert_allclose(scaled_exp(x, scale=3.0).asnumpy(), 3 * np.exp([0.0, 1.0]),
                               rtol=1e-6)


class UsesJitHelper(nn.Cell):
    def construct(self, x):
        return scaled_exp(x) + 1


def test_jit_function_called_inside_construct_is_inlined():
    x = Tensor(np.array([0.5], np.float32))
    np.testing.assert_allclose(UsesJitHelper()(x).asnumpy(), 2 * np.exp(0.5) + 1, rtol=1e-6)
    text = ms.dump_ir(UsesJitHelper(), x, stage="optimize")
    assert "exp(" in text and "grad" not in text


class JitConstruct(nn.Cell):
    @ms.jit
    def construct(self, x, y):
        if x.sum() > 0:  # a Tensor condition: only compilable as a switch
            return x * y
        return x - y


def test_jit_construct_in_pynative_mode_compiles_the_graph():
    ms.set_context(mode=context.PYNATIVE_MODE)
    net = JitConstruct()
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))
    np.testing.assert_allclose(net(x, y).asnumpy(), [3.0, 8.0])
    np.testing.assert_allclose(net(-x, y).asnumpy(), [-4.0, -6.0])
    bound = net.construct
    assert len(bound._cache.entries) == 1  # one signature, both branches in one graph


def test_jit_construct_in_graph_mode_and_under_grad():
    net = JitConstruct()
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))
    np.testing.assert_allclose(net(x, y).asnumpy(), [3.0, 8.0])
    dx, dy = ms.grad(net, grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(dx.asnumpy(), [3.0, 4.0])
    np.testing.assert_allclose(dy.asnumpy(), [1.0, 2.0])


def test_jit_of_something_not_callable_says_so_at_jit():
    from cellgraph.primitives.errors import DTypeError

    for value in (42, "f", [1]):
        with pytest.raises(DTypeError, match=r"For 'jit', the first argument must be a 'Function' or "
                                             r"'Cell', but got "
                                             + re.escape(f"{type(value).__name__} {value!r}")):
            ms.jit(value)
    assert callable(ms.jit(None))  # the decorator form


def test_a_wrong_keyword_is_reported_as_the_unexpected_keyword():
    from cellgraph.primitives.errors import ArgumentError

    @ms.jit
    def scaled(x, y=1.0):
        return x * y

    def helper(x, s=1.0):
        return x * s

    class Net(nn.Cell):
        def construct(self, x, *, scale=2.0):
            return helper(x, sc=scale)

    class Model:
        @ms.jit
        def step(self, x, k=3.0):
            return x * k

    x = Tensor(np.ones(2, np.float32))
    unexpected = r"\(\) got an unexpected keyword argument "
    cases = [(lambda: scaled(xx=x),
              "scaled" + unexpected + r"'xx'; its parameters are \(x, y=1.0\)"),
             (lambda: Net()(x, scal=3.0),
              "Net.construct" + unexpected + r"'scal'; its parameters are \(x, \*, scale=2.0\)"),
             (lambda: Net()(x),  # inside the graph: MindSpore's words (and RuntimeError)
              (r"helper\(\): Got an unexpected keyword argument 'sc'; expected 2 positional "
               r"arguments \(x, s=1.0\)")),
             (lambda: Model().step(x, kk=1.0), "Model.step" + unexpected + "'kk'")]
    for call, message in cases:
        with pytest.raises(ArgumentError, match=message):
            call()
    np.testing.assert_allclose(Model().step(x, k=4.0).asnumpy(), [4.0, 4.0])
    np.testing.assert_allclose(scaled(x, y=2.0).asnumpy(), [2.0, 2.0])


def test_a_top_level_call_passes_extra_keywords_to_var_keyword():
    """**kwargs of construct or of a jit function takes the keywords a top-level call gives
    (each set of keyword names compiles once), as MindSpore 2.10 does."""

    class Mixed(nn.Cell):
        def construct(self, a, *args, **kwargs):
            return a + args[0] + args[1] + kwargs["d"]

    net = Mixed()
    out = net(Tensor([1]), Tensor([2]), Tensor([3]), b=Tensor([4]), c=Tensor([5]), d=Tensor([6]))
    assert out.asnumpy().tolist() == [12]
    assert net(1, 2, 3, d=Tensor([6])).asnumpy().tolist() == [12]

    @ms.jit
    def func(a, *args, **kwargs):
        return a + args[0] + kwargs["d"]

    assert func(Tensor([1]), Tensor([2]), d=Tensor([3])).asnumpy().tolist() == [6]
    assert func(Tensor([1]), Tensor([2]), d=Tensor([3]), e=4).asnumpy().tolist() == [6]


def test_jit_of_a_callable_object_with_var_keyword():
    class Scale:
        def __call__(self, x, **kwargs):
            return x * kwargs.get("factor", 2)

    scaled = ms.jit(Scale())
    assert scaled(Tensor([3])).asnumpy().tolist() == [6]
    assert scaled(Tensor([3]), factor=Tensor([4])).asnumpy().tolist() == [12]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("capture_mode", ["ast", "trace"])
def test_jit_on_a_cell_class_compiles_its_construct_and_returns_the_class(mode, capture_mode):
    ms.set_context(mode=mode)
    try:
        @jit(capture_mode=capture_mode)
        class AddNet(nn.Cell):
            def __init__(self):
                super(AddNet, self).__init__()  # noqa: UP008 (the name is still the class)
                self.add = ops.Add()

            def construct(self, x, y):
                return self.add(x, y) * 2

        assert isinstance(AddNet, type) and jit(AddNet) is AddNet
        x = Tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], ms.float32)
        y = Tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3]], ms.float32)
        # MindSpore 2.10's values
        np.testing.assert_allclose(AddNet()(x, y).asnumpy(), [[1.02, 1.8000001, 3.0],
                                                             [2.6000001, 3.0, 4.8]], rtol=1e-6)
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)
