"""The names MindSpore 2.10's mint modules give the operations their functions call (mint.cdist_,
mint.flatten_ext, mint.nn.functional.silu_func, mint.nn.nllloss, ...): the same objects where
MindSpore's are, with MindSpore's values where its CPU build runs them."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, mint, nn, ops
from cellgraph.mint import nn as MN
from cellgraph.mint.nn import functional as MF

X = Tensor(np.array([[-1.5, 0.5], [2.0, -0.25]], np.float32))


def test_the_names_that_are_other_names_objects():
    # MindSpore 2.10: each pair is one object
    assert mint.cdist_ is ops.cdist and mint.constexpr is ops.constexpr
    assert mint.flatten_ext is MF.flatten and mint.softmax_ext is MF.softmax
    assert MN.cross_entropy is MF.cross_entropy and MN.kl_div_ext is MF.kl_div
    assert MN.mse_loss_ext is MF.mse_loss
    assert MF.silu_func is ops.silu
    from cellgraph._check_jit_forbidden_api import jit_forbidden_register

    assert mint.jit_forbidden_register is jit_forbidden_register


def test_values_as_mindspore():
    # MindSpore 2.10's outputs (CPU, PyNative)
    np.testing.assert_allclose(MF.silu_func(X).asnumpy(),
                               [[-0.27363821864128113, 0.3112297058105469],
                                [1.761594295501709, -0.1094558835029602]], rtol=1e-6)
    np.testing.assert_allclose(mint.softmax_ext(X, 1).asnumpy(),
                               [[0.1192028671503067, 0.8807971477508545],
                                [0.9046506285667419, 0.09534941613674164]], rtol=1e-6)
    np.testing.assert_allclose(mint.cdist_(X, X).asnumpy(),
                               [[0.0, 3.5794553756713867], [3.5794553756713867, 0.0]], rtol=1e-6)
    assert mint.flatten_ext(Tensor(np.ones((2, 3, 4), np.float32)), 1).shape == (2, 12)
    log_probs = Tensor(np.log(np.array([[0.2, 0.8], [0.6, 0.4]], np.float32)))
    np.testing.assert_allclose(MN.nllloss(log_probs, Tensor(np.array([1, 0], np.int32))).asnumpy(),
                               0.3669845461845398, rtol=1e-6)
    squeezed = mint.squeeze_impl(Tensor(np.ones((1, 2, 1), np.float32)), (0,))
    np.testing.assert_array_equal(squeezed.asnumpy(), [[1.0], [1.0]])
    up = MN.upsample_nearest2d_op(Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)),
                                  (4, 4), None)
    np.testing.assert_array_equal(up.asnumpy()[0, 0], [[0, 0, 1, 1], [0, 0, 1, 1],
                                                       [2, 2, 3, 3], [2, 2, 3, 3]])
    assert mint.equal_ext_op(X, X) is True or bool(mint.equal_ext_op(X, X))


def test_the_generated_forms_are_the_functions_they_stand_for():
    # MindSpore's CPU build has no kernels for these (EluExt, ...): the values are mint's own
    np.testing.assert_allclose(MF.elu_ext(X, 0.5).asnumpy(), MF.elu(X, 0.5).asnumpy())
    np.testing.assert_allclose(MF.hardtanh_op(X, -1, 1).asnumpy(), MF.hardtanh(X).asnumpy())
    np.testing.assert_allclose(MF.threshold_op(X, 0.4, 9.0).asnumpy(),
                               [[9.0, 0.5], [2.0, 9.0]])
    cube = Tensor(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 2, 2))
    np.testing.assert_allclose(MF.adaptive_avg_pool3d_ext(cube, 1).asnumpy().reshape(-1),
                               [3.5, 11.5])
    y = X.copy()
    MF.inplace_elu(y, 1.0)
    np.testing.assert_allclose(y.asnumpy(), MF.elu(X).asnumpy())
    np.testing.assert_allclose(MF.norm_ext(X, 2, 1).asnumpy(), mint.norm(X, 2, 1).asnumpy())
    w = X.copy()
    mint.addr_(w, Tensor([1.0, 2.0]), Tensor([3.0, 4.0]), beta=2, alpha=0.5)
    np.testing.assert_allclose(w.asnumpy(), 2 * X.asnumpy() + 0.5 * np.outer([1, 2], [3, 4]))
    z = X.copy()
    MF.inplace_silu(z)
    np.testing.assert_allclose(z.asnumpy(), ops.silu(X).asnumpy())


def test_in_a_graph():
    class Net(nn.Cell):
        def construct(self, x):
            return mint.flatten_ext(x), MF.elu_ext(x), mint.squeeze_impl(x[None], (0,))

    flat, elu, same = Net()(X)
    assert flat.shape == (4,) and same.shape == (2, 2)
    np.testing.assert_allclose(elu.asnumpy(), MF.elu(X).asnumpy())
    assert ms.mint.nn.functional.silu_func is ops.silu
