"""`Tensor(..., const_arg=True)` and `set_const_arg`: MindSpore's mark for a Tensor to be
compiled as a constant, kept on the Tensor; graphs compute the same values either way, each
such Tensor gets its own specialisation, and gradients leave it out (MindSpore 2.10's results,
GRAPH_MODE, recorded below)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, mutable, nn, ops
from cellgraph.common.api import _cell_graph_executor
from cellgraph.ops.composite import GradOperation


def test_const_arg_is_kept_and_set():
    x = Tensor([[1.0, 2.0]], ms.float32, const_arg=True)
    assert x.const_arg and not Tensor([1.0]).const_arg
    assert x.set_const_arg(False) is x and not x.const_arg
    assert ms.tensor([1.0], const_arg=True).const_arg
    with pytest.raises(TypeError, match="'const_arg' should be 'bool'"):
        x.set_const_arg(1)


def test_a_const_arg_tensor_computes_as_any_tensor():
    @ms.jit
    def f(a, b):
        return ops.matmul(a, b)

    a = Tensor(np.array([[0.5, 0.6], [1.2, 1.3]], np.float32), const_arg=True)
    b = Tensor(np.array([[1.0, 0.0], [0.0, 2.0]], np.float32), const_arg=True)
    np.testing.assert_allclose(f(a, b).asnumpy(), [[0.5, 1.2], [1.2, 2.6]], rtol=1e-6)


@pytest.mark.parametrize("make, message", [
    (lambda: Tensor([0], dtype=ms.int32, const_arg=1),
     "For 'Tensor', the type of 'const_arg' should be 'bool', but got type 'int'."),
    (lambda: Tensor([0], dtype=ms.int32, const_arg="yes"),
     "For 'Tensor', the type of 'const_arg' should be 'bool', but got type 'str'."),
    (lambda: Tensor([0], dtype=ms.int32).set_const_arg(1),
     "For 'set_const_arg', the type of 'const_arg' should be 'bool', but got type 'int'."),
])
def test_const_arg_must_be_a_bool(make, message):
    # MindSpore 2.10's messages, word for word
    with pytest.raises(TypeError) as info:
        make()
    assert str(info.value) == message


class Product(nn.Cell):
    def construct(self, x, y, z):
        return x * y * z


def _shown(result):
    if isinstance(result, tuple):
        return tuple(_shown(r) for r in result)
    return result.asnumpy().tolist()


C = Tensor(np.full(2, 2.0, np.float32), const_arg=True)
V = Tensor(np.full(2, 3.0, np.float32))


@pytest.mark.parametrize("args, position, expected", [
    # the gradients of the const_arg inputs are dropped; one left comes back bare
    ((C, V, V), (0, 1), [6.0, 6.0]),
    ((C, V, V), (0, 1, 2), ([6.0, 6.0], [6.0, 6.0])),
    ((C, V, V), 0, ()),
    ((C, V, V), (0,), ()),
    ((V, C, V), (1, 2), [6.0, 6.0]),
    ((V, C, V), 0, [6.0, 6.0]),
    ((C, C, V), (0, 1), ()),
    ((C, C, V), (0, 1, 2), [4.0, 4.0]),
    ((C, C, C), (0, 1, 2), ()),
])
def test_grad_leaves_out_const_arg_inputs(args, position, expected):
    assert _shown(ms.grad(Product(), grad_position=position)(*args)) == expected


@pytest.mark.parametrize("args, get_all, expected", [
    ((C, V, V), True, ([6.0, 6.0], [6.0, 6.0])),
    ((C, V, V), False, ()),
    ((V, C, V), False, [6.0, 6.0]),
    ((C, C, V), True, ([4.0, 4.0],)),
    ((C, C, C), True, ()),
])
def test_grad_operation_leaves_out_const_arg_inputs(args, get_all, expected):
    assert _shown(GradOperation(get_all=get_all)(Product())(*args)) == expected


def test_const_arg_input_of_a_grad_inside_a_graph():
    class GradFirst(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = Product()

        def construct(self, x, y, z):
            return GradOperation()(self.net)(x, y, z)

    assert GradFirst()(C, V, V) == ()
    assert _shown(GradFirst()(V, C, V)) == [6.0, 6.0]


def test_each_const_arg_tensor_has_its_own_phase_and_mutable_clears_the_mark():
    class Matmul(nn.Cell):
        def construct(self, x, y):
            return ops.matmul(x, y)

    net = Matmul()
    data = np.ones((2, 2), np.float32)
    x, p = Tensor(data, const_arg=True), Tensor(data, const_arg=True)
    y = Tensor(data)
    first, _ = _cell_graph_executor.compile(net, x, y)
    again, compiled = _cell_graph_executor.compile(net, x, y)
    assert (again, compiled) == (first, False)
    assert _cell_graph_executor.compile(net, p, y)[0] != first
    assert mutable(x) is x and not x.const_arg
    assert _cell_graph_executor.compile(net, mutable(x), y)[0] == \
        _cell_graph_executor.compile(net, mutable(p), y)[0]
