"""Cell hooks with MindSpore's options: forward (prepend, with_kwargs, always_call) and
backward (pre-hooks and hooks on the gradients)."""
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


def test_prepend_and_keyword_hooks_as_mindspore(pynative_mode):
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


def test_always_call_runs_when_construct_raises(pynative_mode):
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


class Doubling(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.dense(x * 2).sum()


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_backward_hooks_see_and_replace_the_gradients(mode):
    """MindSpore 2.10 (PyNative) calls pre(grad_output=([[1, 1]],)), then post(grad_input=
    ([[2, 2]],), grad_output=([[1, 1]],)), and the gradient with respect to x is [[40, 40]]."""
    ms.set_context(mode=mode)
    calls = []

    def pre(cell, grad_output):
        calls.append(("pre", type(cell).__name__, [g.asnumpy().tolist() for g in grad_output]))

    def post(cell, grad_input, grad_output):
        calls.append(("post", [g.asnumpy().tolist() for g in grad_input],
                      [g.asnumpy().tolist() for g in grad_output]))
        return (grad_input[0] * 10,)

    net = Doubling()
    pre_handle = net.dense.register_backward_pre_hook(pre)
    net.dense.register_backward_hook(post)
    x = Tensor(np.ones([1, 2], np.float32))
    assert ms.grad(net)(x).asnumpy().tolist() == [[40.0, 40.0]]
    assert calls == [("pre", "Dense", [[[1.0, 1.0]]]),
                     ("post", [[[2.0, 2.0]]], [[[1.0, 1.0]]])]
    pre_handle.remove()  # recompiles: only the hook is left
    calls.clear()
    assert ms.grad(net)(x).asnumpy().tolist() == [[40.0, 40.0]]
    assert [c[0] for c in calls] == ["post"]


def test_a_backward_pre_hook_replaces_the_output_gradient(pynative_mode):
    net = Doubling()
    net.dense.register_backward_pre_hook(lambda cell, g: (g[0] * 3,))
    assert ms.grad(net)(Tensor(np.ones([1, 2], np.float32))).asnumpy().tolist() == [[12.0, 12.0]]



def test_backward_hooks_wrap_outside_the_forward_hooks(pynative_mode):
    """As MindSpore orders them: inputs after the forward pre-hooks, outputs after the forward
    hooks, so a forward hook that doubles the output leaves grad_output 1 (MindSpore 2.10's
    hook tutorial prints `grad input:  (... [ 1.00000000e+00]),)` for this Cell)."""
    seen = []

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.relu = nn.ReLU()
            self.relu.register_forward_hook(lambda cell, inputs, output: output + output)
            self.relu.register_backward_pre_hook(
                lambda cell, grad_output: seen.append(grad_output[0].asnumpy().tolist()))

        def construct(self, x, y):
            return self.relu(x + y)

    x = Tensor(np.ones([1], np.float32))
    grads = ms.grad(Net(), grad_position=(0, 1))(x, x)
    assert seen == [[1.0]] and [g.asnumpy().tolist() for g in grads] == [[2.0], [2.0]]


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Scale()

    def construct(self, x):
        return self.inner(x) + 1


def test_a_compiled_graph_sees_hooks_and_precision_changed_on_an_inner_cell():
    """Each Cell's hooks and mixed-precision types are guarded as one version, which every
    change replaces (registering, removing, assigning, to_float)."""
    net, x = Outer(), Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(net(x).asnumpy(), [2.0, 3.0])
    handle = net.inner.register_forward_hook(lambda cell, args, out: out * 10)
    np.testing.assert_allclose(net(x).asnumpy(), [11.0, 21.0])
    handle.remove()
    np.testing.assert_allclose(net(x).asnumpy(), [2.0, 3.0])
    net.inner._forward_hooks = dict(net.inner._forward_hooks or {}, k=(
        lambda cell, args, out: out * 3, False, False))
    np.testing.assert_allclose(net(x).asnumpy(), [4.0, 7.0])
    net.inner._forward_hooks = None
    net.inner.to_float(ms.float16)
    assert net(x).dtype == ms.float16


def test_a_jit_hook_is_refused_as_mindspore():
    """MindSpore 2.10 refuses a @jit-decorated hook function with TypeError ("Decorating hook
    function ... with '@jit' is not supported.") on all four Cell hooks, and a non-callable."""
    @ms.jit
    def hook(cell, inputs, output):
        return output

    cell = nn.ReLU()
    for register in (cell.register_forward_pre_hook, cell.register_forward_hook,
                     cell.register_backward_pre_hook, cell.register_backward_hook):
        with pytest.raises(TypeError, match="Decorating hook function hook with '@jit'"):
            register(hook)
        with pytest.raises(TypeError):
            register("Test")


def test_parameter_forward_hooks_as_mindspore():
    """MindSpore 2.10's example: construct reads the hooked Parameter as hook(param), and the
    gradient flows through the hook (out 60, d out / d x 20)."""
    import cellgraph as ms

    class Scale(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = ms.Parameter(ms.Tensor(2.0))

        def construct(self, x):
            return x * self.weight

    def times_ten(param):
        return param * 10

    net = Scale()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert float(net(ms.Tensor(3.0)).asnumpy()) == 6.0  # compiled before: compiled again
        net.register_parameter_forward_hook([{"params": [net.weight], "hook": times_ten}])
        out, grad = ms.jit(ms.value_and_grad(net))(ms.Tensor(3.0))
        assert (float(out.asnumpy()), float(grad.asnumpy())) == (60.0, 20.0)
        assert float(net(ms.Tensor(3.0)).asnumpy()) == 60.0
        _, (weight_grad,) = ms.value_and_grad(net, None, net.trainable_params())(ms.Tensor(3.0))
        assert float(weight_grad.asnumpy()) == 30.0
        every = Scale()
        every.register_parameter_forward_hook(lambda param: param + 1)  # the whole network
        assert float(every(ms.Tensor(3.0)).asnumpy()) == 9.0
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for bad, error in (([{"params": [net.weight]}], ValueError), ([{"params": [1], "hook": abs}],
                       TypeError), (3, TypeError), ([{"params": [], "hook": 1}], TypeError)):
        with pytest.raises(error):
            net.register_parameter_forward_hook(bad)


def test_hook_handles_number_themselves_and_hold_the_cell_weakly():
    """MindSpore's HookHandle.handle_id counts the handles made; removing a hook of a Cell that
    is gone does nothing."""
    import gc

    net = nn.Dense(2, 2)
    first = net.register_forward_hook(lambda cell, args, out: out)
    second = net.register_forward_pre_hook(lambda cell, args: None)
    assert second.handle_id > first.handle_id
    del net
    gc.collect()
    first.remove()
