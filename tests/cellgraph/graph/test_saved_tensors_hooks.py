"""mindspore.saved_tensors_hooks, register_saved_tensors_hooks and
Cell.register_saved_tensors_hooks: which tensors are packed and unpacked, in what order, with
what values, and the gradients that follow, as MindSpore 2.10 gives them on CPU (recorded from
it: the expected lists below are what its hooks printed)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.compiler.saved_tensors import EAGER_REGIONS

X = np.array([1.0, 2.0], np.float32)
Y = np.array([3.0, 4.0], np.float32)


@pytest.fixture(autouse=True)
def pynative():
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=mode)
    assert not EAGER_REGIONS.hooks


class Recorder:
    """pack and unpack hooks that note the values they see (and pack as `scale` times)."""

    def __init__(self, scale=1.0, tag=""):
        self.events, self.scale, self.tag = [], scale, tag

    def pack(self, x):
        self.events.append((self.tag + "pack", x.asnumpy().tolist()))
        return x * self.scale if self.scale != 1.0 else x

    def unpack(self, x):
        self.events.append((self.tag + "unpack", x.asnumpy().tolist()))
        return x


def close(events, expected):
    assert [e[0] for e in events] == [e[0] for e in expected]
    for (_, got), (_, want) in zip(events, expected):
        np.testing.assert_allclose(got, want, rtol=1e-5)


def test_mindspore_example(capsys):
    """saved_tensors_hooks' docstring example: mul saves both inputs, packed as x + 1, so each
    gradient reads 2; the hooks' prints and the function's come in program order."""
    def pack_hook(x):
        print("packing ", x)
        return x + 1

    def unpack_hook(x):
        print("unpacking ", x)
        return x

    def forward_fn(x, y):
        with ms.saved_tensors_hooks(pack_hook, unpack_hook):
            out = x * y
        print("forward end")
        return out

    x = ops.ones(2, dtype=ms.float32)
    out, (dx, dy) = ms.value_and_grad(forward_fn, grad_position=(0, 1))(x, x)
    np.testing.assert_array_equal(out.asnumpy(), [1, 1])
    np.testing.assert_array_equal(dx.asnumpy(), [2, 2])
    np.testing.assert_array_equal(dy.asnumpy(), [2, 2])
    assert capsys.readouterr().out == ("packing  [1. 1.]\npacking  [1. 1.]\nforward end\n"
                                       "unpacking  [2. 2.]\nunpacking  [2. 2.]\n")


def test_what_each_operation_saves():
    """mul saves its inputs, sin its input, exp its output, add and sum nothing; packed in
    program order, unpacked in reverse order of the operations (MindSpore 2.10's order)."""
    hooks = Recorder()

    def f(x, y):
        with ms.saved_tensors_hooks(hooks.pack, hooks.unpack):
            a = x * y
            b = ops.sin(a)
            c = ops.exp(b)
            return (c + x).sum()

    out, (dx, dy) = ms.value_and_grad(f, grad_position=(0, 1))(Tensor(X), Tensor(Y))
    close(hooks.events, [("pack", X), ("pack", Y), ("pack", [3, 8]),
                         ("pack", [1.1515628, 2.6895065]), ("unpack", [1.1515628, 2.6895065]),
                         ("unpack", [3, 8]), ("unpack", X), ("unpack", Y)])
    np.testing.assert_allclose(out.asnumpy(), 6.84107, rtol=1e-5)
    np.testing.assert_allclose(dx.asnumpy(), [-2.42011547, -0.565293193], rtol=1e-5)
    np.testing.assert_allclose(dy.asnumpy(), [-1.14003849, -0.782646596], rtol=1e-5)


def test_packed_objects_need_not_be_tensors():
    store, events = {}, []

    def pack(t):
        key = len(store)
        store[key] = t.asnumpy()
        events.append(("pack", key))
        return key

    def unpack(key):
        events.append(("unpack", key))
        return Tensor(store[key])

    def f(x, y):
        with ms.saved_tensors_hooks(pack, unpack):
            return (x * y).sum()

    dx = ms.grad(f)(Tensor(X), Tensor(Y))
    np.testing.assert_array_equal(dx.asnumpy(), Y)
    assert events == [("pack", 0), ("pack", 1), ("unpack", 0), ("unpack", 1)]


def test_the_innermost_region_packs():
    inner, outer = Recorder(tag="inner "), Recorder(tag="outer ")

    def f(x, y):
        with ms.saved_tensors_hooks(outer.pack, outer.unpack):
            with ms.saved_tensors_hooks(inner.pack, inner.unpack):
                a = x * y
            b = a * y
        return b.sum()

    dx = ms.grad(f)(Tensor(X), Tensor(Y))
    np.testing.assert_array_equal(dx.asnumpy(), [9, 16])
    assert [e[0] for e in inner.events] == ["inner pack", "inner pack", "inner unpack",
                                            "inner unpack"]
    assert [e[0] for e in outer.events] == ["outer pack", "outer pack", "outer unpack",
                                            "outer unpack"]


def test_saved_inputs_without_gradients_are_packed_too():
    """PyNative saves what the operation's backward reads, whichever gradients are wanted."""
    hooks = Recorder()

    def f(x, y):
        with ms.saved_tensors_hooks(hooks.pack, hooks.unpack):
            return ops.matmul(x.reshape(1, 2), y.reshape(2, 1)).sum()

    dx = ms.grad(f)(Tensor(X), Tensor(Y))
    np.testing.assert_array_equal(dx.asnumpy(), Y)
    assert [(e[0], np.shape(e[1])) for e in hooks.events] == [
        ("pack", (1, 2)), ("pack", (2, 1)), ("unpack", (1, 2)), ("unpack", (2, 1))]


def test_no_gradient_no_packing():
    hooks = Recorder()
    with ms.saved_tensors_hooks(hooks.pack, hooks.unpack):
        out = Tensor(X) * Tensor(Y)
    np.testing.assert_array_equal(out.asnumpy(), [3, 8])
    assert hooks.events == []


def test_region_around_a_gradient_call_and_a_cell():
    """A region opened in Python holds the gradient called inside it; a Cell's operations are
    the region's too (tanh saves its output)."""
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([0.5, 0.5], np.float32)), name="w")

        def construct(self, x):
            return ops.tanh(x * self.w).sum()

    net, hooks = Net(), Recorder()
    grad = ms.grad(net, grad_position=None, weights=net.trainable_params())
    with ms.saved_tensors_hooks(hooks.pack, hooks.unpack):
        (dw,) = grad(Tensor(X))
    close(hooks.events, [("pack", X), ("pack", [0.5, 0.5]), ("pack", [0.46211717, 0.7615942]),
                         ("unpack", [0.46211717, 0.7615942]), ("unpack", X),
                         ("unpack", [0.5, 0.5])])
    np.testing.assert_allclose(dw.asnumpy(), [0.786447704, 0.839948595], rtol=1e-5)
    hooks.events.clear()
    grad(Tensor(X))  # outside the region: no hooks (and no graph compiled with them)
    assert hooks.events == []


def test_unpack_must_give_the_saved_tensor():
    def f(x, y):
        with ms.saved_tensors_hooks(lambda t: t, lambda t: t.sum()):
            return (x * y).sum()

    with pytest.raises(RuntimeError, match=r"unpack_hook must return the saved tensor's shape"):
        ms.grad(f)(Tensor(X), Tensor(Y))


# ----- graph mode --------------------------------------------------------------------------------

def test_register_saved_tensors_hooks_in_jit():
    """register_saved_tensors_hooks' example: the hooks run in the graph (their prints are the
    graph's); only the tensors the wanted gradients read are packed, in the order the backward
    pass reads them (y before x), and unpacked first thing in the backward pass."""
    @ms.register_saved_tensors_hooks(lambda x: x + 1, lambda x: x)
    def forward_fn(x, y):
        return x * y

    x, y = Tensor(np.ones(2, np.float32)), Tensor(np.full(2, 3.0, np.float32))
    out, (dx, dy) = ms.jit(ms.value_and_grad(forward_fn, grad_position=(0, 1)))(y, x)
    np.testing.assert_array_equal(out.asnumpy(), [3, 3])
    np.testing.assert_array_equal(dx.asnumpy(), [2, 2])
    np.testing.assert_array_equal(dy.asnumpy(), [4, 4])
    # in PyNative the decorator changes nothing
    _, (dx, dy) = ms.value_and_grad(forward_fn, grad_position=(0, 1))(y, x)
    np.testing.assert_array_equal(dx.asnumpy(), [1, 1])

    @ms.register_saved_tensors_hooks(lambda x: x * 2, lambda x: x)
    def inner(a, b):
        return ops.sin(a * b)

    def outer(a, b):
        return inner(a, b).sum() + (a * b).sum()

    # y (for d/dx of a * b) and a * b (for sin) come back doubled; the second a * b is not
    # in the region
    dx = ms.jit(ms.grad(outer))(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(dx.asnumpy(), [8.761022, -3.6612759], rtol=1e-5)


def test_graph_mode_order_of_the_hooks(capsys):
    """The graph's hooks: packed in the order the backward pass reads them, unpacked first
    thing in the backward pass in that order (MindSpore 2.10 prints y, x*y, then 2y, 2xy)."""
    def pack(x):
        print("pack", x)
        return x * 2

    def unpack(x):
        print("unpack", x)
        return x

    @ms.register_saved_tensors_hooks(pack, unpack)
    def inner(a, b):
        return ops.sin(a * b)

    ms.jit(ms.grad(lambda a, b: inner(a, b).sum()))(Tensor(X), Tensor(Y))
    printed = capsys.readouterr().out.split("Tensor(shape=[2], dtype=Float32, value=")
    assert [p.split("]")[0].strip() for p in printed[1:]] == [
        "[ 3.00000000e+00  4.00000000e+00", "[ 3.00000000e+00  8.00000000e+00",
        "[ 6.00000000e+00  8.00000000e+00", "[ 6.00000000e+00  1.60000000e+01"]
    assert [p.split()[-1] for p in printed[:-1]] == ["pack", "pack", "unpack", "unpack"]


def test_graph_mode_cells():
    """GRAPH_MODE: a decorated construct and Cell.register_saved_tensors_hooks pack y only for
    the gradient with respect to x (2y comes back); in PyNative a registered Cell packs both
    and the decorator does nothing (MindSpore 2.10: [6, 8], [6, 8], [6, 8], [3, 4])."""
    def pack(x):
        return x * 2

    def unpack(x):
        return x

    class Decorated(nn.Cell):
        @ms.register_saved_tensors_hooks(pack, unpack)
        def construct(self, a, b):
            return (a * b).sum()

    class Plain(nn.Cell):
        def construct(self, a, b):
            return (a * b).sum()

    registered = Plain()
    registered.register_saved_tensors_hooks(pack, unpack)
    x, y = Tensor(X), Tensor(Y)
    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_array_equal(ms.grad(Decorated())(x, y).asnumpy(), [6, 8])
    np.testing.assert_array_equal(ms.grad(registered)(x, y).asnumpy(), [6, 8])
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(ms.grad(registered)(x, y).asnumpy(), [6, 8])
    np.testing.assert_array_equal(ms.grad(Decorated())(x, y).asnumpy(), [3, 4])
    registered.register_saved_tensors_hooks(lambda t: t * 3, unpack)  # compiled again
    np.testing.assert_array_equal(ms.grad(registered)(x, y).asnumpy(), [9, 12])


def test_with_statement_refused_in_graph_mode():
    def f(a, b):
        with ms.saved_tensors_hooks(lambda t: t, lambda t: t):
            return (a * b).sum()

    with pytest.raises(TypeError, match="Only support jit_class instance"):
        ms.jit(ms.grad(f))(Tensor(X), Tensor(Y))


def test_second_order_passes_the_hooks_by():
    """A gradient of the gradient: the unpacked tensors are constants to it."""
    def f(x):
        with ms.saved_tensors_hooks(lambda t: t, lambda t: t):
            return (ops.sin(x)).sum()

    g = ms.grad(ms.grad(f))(Tensor(X))
    assert g.shape == (2,)
