"""The in-place update primitives (ops.ApplyMomentum, ApplyGradientDescent, Adam, ApplyRMSProp,
ScatterUpdate/ScatterAdd/ScatterNdUpdate) against their formulas, eagerly and in a graph."""
import numpy as np
import pytest

from cellgraph import Parameter, Tensor, nn, ops

G = np.array([0.5, -1.0, 2.0], np.float32)


def param(values, name):
    return Parameter(Tensor(np.asarray(values, np.float32)), name=name)


def test_gradient_descent_and_rmsprop():
    var = param([1.0, 1.0, 1.0], "var")
    out = ops.ApplyGradientDescent()(var, 0.1, Tensor(G))
    np.testing.assert_allclose(var.asnumpy(), 1 - 0.1 * G, rtol=1e-6)
    assert out.shape == (3,)
    var, ms_, mom = param([1.0, 2.0, 3.0], "v"), param([0.1] * 3, "ms"), param([0.2] * 3, "m")
    ops.ApplyRMSProp()(var, ms_, mom, 0.01, Tensor(G), 0.9, 0.5, 1e-6)
    mean_square = 0.9 * 0.1 + 0.1 * G ** 2
    moment = 0.5 * 0.2 + 0.01 * G / np.sqrt(mean_square + 1e-6)
    np.testing.assert_allclose(ms_.asnumpy(), mean_square, rtol=1e-5)
    np.testing.assert_allclose(var.asnumpy(), np.array([1.0, 2.0, 3.0]) - moment, rtol=1e-5)


@pytest.mark.parametrize("nesterov", [False, True])
def test_adam_primitive_in_a_graph(nesterov):
    var, m, v = param([1.0, 2.0, 3.0], "var"), param([0.1] * 3, "m"), param([0.2] * 3, "v")
    adam = ops.Adam(use_nesterov=nesterov)

    class Step(nn.Cell):
        def construct(self, grad):
            return adam(var, m, v, 0.9 ** 2, 0.999 ** 2, 0.01, 0.9, 0.999, 1e-8, grad)

    new_var, new_m, new_v = Step()(Tensor(G))
    m_ref = 0.9 * 0.1 + 0.1 * G
    v_ref = 0.999 * 0.2 + 0.001 * G ** 2
    lr_t = 0.01 * np.sqrt(1 - 0.999 ** 2) / (1 - 0.9 ** 2)
    direction = 0.9 * m_ref + 0.1 * G if nesterov else m_ref
    expected = np.array([1.0, 2.0, 3.0]) - lr_t * direction / (np.sqrt(v_ref) + 1e-8)
    np.testing.assert_allclose(var.asnumpy(), expected, rtol=1e-5)
    np.testing.assert_allclose(new_var.asnumpy(), expected, rtol=1e-5)
    # float32 moments, 1 - beta rounded to float32 as MindSpore's kernel has it: a few ulps
    np.testing.assert_allclose(m.asnumpy(), m_ref, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(new_v.asnumpy(), v_ref, rtol=1e-6, atol=1e-7)
    assert new_m.shape == (3,)


def test_scatter_updates_need_parameters_and_integer_indices():
    table = param(np.zeros((3, 2)), "table")
    ops.ScatterAdd()(table, Tensor(np.array([0, 0], np.int32)),
                     Tensor(np.ones((2, 2), np.float32)))
    np.testing.assert_array_equal(table.asnumpy()[0], [2.0, 2.0])
    plain = Tensor(np.zeros((3, 2), np.float32))  # MindSpore updates a plain Tensor in place
    ops.ScatterUpdate()(plain, Tensor(np.array([0], np.int32)), Tensor(np.ones((1, 2), np.float32)))
    np.testing.assert_array_equal(plain.asnumpy()[0], [1.0, 1.0])
    with pytest.raises(TypeError, match="Parameter or Tensor"):
        ops.ScatterUpdate()(np.zeros((3, 2), np.float32),
                            Tensor(np.array([0], np.int32)), Tensor(np.ones((1, 2), np.float32)))
    with pytest.raises(TypeError, match="integer"):
        ops.ScatterUpdate()(table, Tensor(np.array([0.0])), Tensor(np.ones((1, 2), np.float32)))


def test_update_primitives_take_mindspore_init_arguments():
    with pytest.raises(TypeError):
        ops.ApplyGradientDescent(use_locking=True)   # MindSpore's takes no arguments
    assert ops.ScatterAdd(True).use_locking is True
    with pytest.raises(TypeError):
        ops.ScatterAdd(flag=1)


def _f32(*values):
    return Tensor(np.array(values, np.float32))


def _sgd_inputs():
    return _f32(2, -0.5, 1.7, 4), _f32(0.1, 0.3, -0.2, -0.1), _f32(1.5, -0.3, 0.2, -0.7)


def test_sgd_as_mindspore():
    grad = _f32(1, -1, 0.5, 2)
    # MindSpore 2.10 CPU: (parameters, accum, stat) after each call; the Tensors update in place
    params, accum, stat = _sgd_inputs()
    out = ops.SGD()(params, grad, _f32(0.01), accum, _f32(0.1), stat)
    np.testing.assert_allclose(out.asnumpy(), [1.99, -0.4903, 1.695, 3.9801], rtol=1e-6)
    params, accum, stat = _sgd_inputs()
    out = ops.SGD(weight_decay=0.1, nesterov=True)(params, grad, _f32(0.01), accum, _f32(0.1),
                                                   stat)
    np.testing.assert_allclose(out.asnumpy(), [1.9868, -0.48848, 1.69263, 3.97361], rtol=1e-6)
    np.testing.assert_allclose(accum.asnumpy(), [1.2, -1.02, 0.67, 2.39], rtol=1e-6)
    np.testing.assert_allclose(stat.asnumpy(), [0, -0.3, 0, -0.7], rtol=1e-6)
    params, accum, stat = _sgd_inputs()  # momentum 0: plain descent, accum and stat kept
    out = ops.SGD(dampening=0.3)(params, grad, _f32(0.01), accum, _f32(0.0), stat)
    np.testing.assert_allclose(out.asnumpy(), [1.99, -0.49, 1.695, 3.98], rtol=1e-6)
    np.testing.assert_allclose(accum.asnumpy(), [0.1, 0.3, -0.2, -0.1], rtol=1e-6)
    np.testing.assert_allclose(stat.asnumpy(), [1.5, -0.3, 0.2, -0.7], rtol=1e-6)


def test_sgd_in_a_graph_as_mindspore():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.sgd = ops.SGD(dampening=0.3)
            self.p, self.a, self.s = (Parameter(t, name=n) for t, n in zip(_sgd_inputs(), "pas"))

        def construct(self, g):
            return self.sgd(self.p, g, _f32(0.01), self.a, _f32(0.2), self.s)

    net = Net()
    net(_f32(1, -1, 0.5, 2))
    net(_f32(1, -1, 0.5, 2))
    # MindSpore 2.10 CPU, GRAPH_MODE, after two steps
    np.testing.assert_allclose(net.p.asnumpy(), [1.981, -0.48532, 1.6905, 3.96944], rtol=1e-6)
    np.testing.assert_allclose(net.a.asnumpy(), [0.9, -0.828, 0.45, 1.676], rtol=1e-6)
    np.testing.assert_allclose(net.s.asnumpy(), [0, -0.3, 0, -0.7], rtol=1e-6)


def test_centered_rms_prop_as_mindspore():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = ops.ApplyCenteredRMSProp()
            self.var, self.mg = param([1, 2, 3], "var"), param([0.5, 2.0, -0.1], "mg")
            self.ms_, self.mom = param([0.3, 1.0, 0.2], "ms"), param([0.1, 0.2, 0.3], "mom")

        def construct(self, g):
            return self.op(self.var, self.mg, self.ms_, self.mom, g, 0.1, 0.9, 0.5, 1e-6)

    net = Net()
    net(_f32(0.4, 2.0, -1.0))
    # MindSpore 2.10 CPU: the second element's variance is negative, so it keeps var and moment
    np.testing.assert_allclose(net.var.asnumpy(), [0.763298, 2.0, 3.052485], rtol=1e-6)
    np.testing.assert_allclose(net.mg.asnumpy(), [0.49, 2.0, -0.19], rtol=1e-6)
    np.testing.assert_allclose(net.ms_.asnumpy(), [0.286, 1.3, 0.28], rtol=1e-6)
    np.testing.assert_allclose(net.mom.asnumpy(), [0.236702, 0.2, -0.052485], rtol=1e-5)


def test_adam_with_amsgrad_v2_as_mindspore():
    var, m = param([0.2] * 4, "var"), param([0.1, 0.2, 0.4, 0.3], "m")
    v, vhat = param([0.2, 0.1, 0.3, 0.4], "v"), param([0.1, 0.2, 0.6, 0.2], "vhat")
    op = ops.ApplyAdamWithAmsgradV2()

    class Step(nn.Cell):
        def construct(self, grad):
            return op(var, m, v, vhat, 0.9, 0.999, 0.01, 0.8, 0.999, 1e-8, grad)

    out = Step()(_f32(0.4, 0.2, 0.2, 0.3))
    # MindSpore 2.10 CPU
    expected = ([0.19886853, 0.1985858, 0.19853032, 0.19849943], [0.16, 0.2, 0.36, 0.3],
                [0.19996, 0.09994, 0.29974, 0.39969], [0.19996, 0.2, 0.6, 0.39969])
    for got, want, stored in zip(out, expected, (var, m, v, vhat)):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
        np.testing.assert_allclose(stored.asnumpy(), want, rtol=1e-6)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.SGD(dampening=0.1, nesterov=True), ValueError,
     "the 'dampening' must be 0 when 'nesterov' is True"),
    (lambda: ops.SGD(nesterov=1), TypeError, "the type of 'nesterov' should be 'bool'"),
    (lambda: ops.SGD()(_f32(1), _f32(1), _f32(0.1), _f32(1), _f32(0.1),
                       Tensor(np.array([1], np.int32))), TypeError,
     r"input argument\[stat\] must be a type of \{Tensor\[Float16\], Tensor\[Float32\]\}"),
    (lambda: ops.ApplyCenteredRMSProp(use_locking=1), TypeError,
     "the type of 'use_locking' should be 'bool'"),
    (lambda: ops.ApplyAdamWithAmsgradV2()(G, Tensor(G), Tensor(G), Tensor(G), 0.9, 0.999, 0.01,
                                          0.8, 0.999, 1e-8, Tensor(G)), TypeError,
     "must be a Parameter or Tensor"),
])
def test_update_errors_as_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_adam_rounds_its_moments_as_mindspore_s_cpu_kernel():
    """m += (g - m)(1 - beta1), v += (g^2 - v)(1 - beta2) in float32, bit for bit (beta v +
    (1 - beta) g^2 rounds otherwise on a sixth to a third of these)."""
    rng = np.random.default_rng(7)
    g, m0, v0 = (rng.standard_normal(64).astype(np.float32) for _ in range(3))
    v0 = np.abs(v0)
    var, m, v = (Parameter(Tensor(a.copy()), name=n) for a, n in
                 ((np.zeros(64, np.float32), "var"), (m0, "m"), (v0, "v")))
    ops.Adam()(var, m, v, Tensor(np.float32(0.9)), Tensor(np.float32(0.999)),
               Tensor(np.float32(0.01)), 0.9, 0.999, 1e-8, Tensor(g))
    one = np.float32(1)
    np.testing.assert_array_equal(m.asnumpy(), m0 + (g - m0) * (one - np.float32(0.9)))
    np.testing.assert_array_equal(v.asnumpy(), v0 + (g * g - v0) * (one - np.float32(0.999)))


def test_sgd_names_its_primitive_and_a_parameter_as_mindspore():
    accum, stat = param([1.0, 1.0], "accum"), Tensor(np.ones(2, np.float32))
    ints = Parameter(Tensor(np.ones(2, np.int32)), name="ints")
    with pytest.raises(TypeError) as info:
        ops.SGD()(ints, Tensor(np.ones(2, np.int32)), Tensor(0.1), accum, Tensor(0.1), stat)
    assert str(info.value).split("\n")[0] == (
        "For primitive[SGD], the input argument[parameters] must be a type of {Tensor[Float16], "
        "Tensor[Float32]}, but got Ref[Tensor[Int32]].")
    with pytest.raises(TypeError) as info:
        ops.SGD()(param([1.0, 1.0], "p"), Tensor(np.ones(2, np.int32)), Tensor(0.1), accum,
                  Tensor(0.1), stat)
    assert str(info.value).split("\n")[0] == (
        "For primitive[SGD], the input argument[gradient] must be a type of {Tensor[Float16], "
        "Tensor[Float32]}, but got Tensor[Int32].")


def test_sgd_takes_its_learning_rate_as_a_tensor_only():
    with pytest.raises(TypeError) as info:
        ops.SGD()(param([1.0, 1.0], "p"), Tensor(np.ones(2, np.float32)), 0.1,
                  param([1.0, 1.0], "accum"), Tensor(0.1), Tensor(np.ones(2, np.float32)))
    assert str(info.value).split("\n")[0] == (
        "For Primitive[SGD], the type of input argument[learning_rate] must be Tensor but got "
        "Float32.")


class _SGDNet(nn.Cell):
    def __init__(self, parameters):
        super().__init__()
        self.sgd, self.parameters = ops.SGD(), parameters
        self.accum = param([1.0, 1.0], "accum")

    def construct(self, gradient, learning_rate):
        return self.sgd(self.parameters, gradient, learning_rate, self.accum, Tensor(0.1),
                        Tensor(np.ones(2, np.float32)))


@pytest.mark.parametrize("parameters, gradient, learning_rate, name, got", [
    (Parameter(Tensor(np.ones(2, np.int32)), name="ints"), np.ones(2, np.float32), Tensor(0.1),
     "parameters", "Ref[Tensor[Int32]]"),
    (param([1.0, 1.0], "p"), np.ones(2, np.int32), Tensor(0.1), "gradient", "Tensor[Int32]"),
    (param([1.0, 1.0], "p"), np.ones(2, np.float32), 0.1, "learning_rate", "Float32"),
])
def test_sgd_in_a_graph_says_what_mindspore_python_check_says(parameters, gradient,
                                                              learning_rate, name, got):
    with pytest.raises(TypeError) as info:
        _SGDNet(parameters)(Tensor(gradient), learning_rate)
    assert str(info.value).split("\n")[0] == (
        f"For 'SGD', the element of '{name}' must be one of Tensor[Float16], Tensor[Float32], but "
        f"got {got}.The supported data types depend on the hardware that executes the operator, "
        f"for more details, please refer to the MindSpore official website to get more "
        f"information about the data type.")
