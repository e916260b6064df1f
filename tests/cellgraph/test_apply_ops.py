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
    np.testing.assert_allclose(m.asnumpy(), m_ref, rtol=1e-6)
    np.testing.assert_allclose(new_v.asnumpy(), v_ref, rtol=1e-6)
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
