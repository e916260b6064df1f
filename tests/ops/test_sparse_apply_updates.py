"""The sparse optimizer updates (ops.FusedSparseAdam, FusedSparseLazyAdam, FusedSparseFtrl,
FusedSparseProximalAdagrad, SparseApplyFtrl, SparseApplyAdagrad, SparseApplyAdagradV2) on
Parameters, with a repeated index: the values MindSpore 2.10's CPU kernels give (recorded
below, rounded to 6 places), and their argument checks."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn
from cellgraph.ops import operations as P

V = np.random.RandomState(0).uniform(0.5, 1.5, (4, 2)).astype(np.float32)
G = np.array([[0.3, -0.2], [0.1, 0.4], [-0.5, 0.2]], np.float32)
I = np.array([2, 0, 2], np.int32)


class Net(nn.Cell):
    def __init__(self, op, nslots, scalars):
        super().__init__()
        self.op, self.n, self.scalars = op, nslots, scalars
        self.var = Parameter(Tensor(V), name="var")
        self.s0 = Parameter(Tensor(np.full((4, 2), 0.1, np.float32)), name="s0")
        self.s1 = Parameter(Tensor(np.full((4, 2), 0.2, np.float32)), name="s1")

    def construct(self, grad, indices):
        if self.n == 2:
            return self.op(self.var, self.s0, self.s1, *self.scalars, grad, indices)
        return self.op(self.var, self.s0, *self.scalars, grad, indices)


ADAM = (0.9, 0.999, 0.001, 0.9, 0.999, 1e-8)
PROX = (Tensor(0.1, ms.float32), Tensor(0.01, ms.float32), Tensor(0.02, ms.float32))
PROX0 = (Tensor(0.1, ms.float32), Tensor(0.0, ms.float32), Tensor(0.02, ms.float32))
CASES = {
    "FusedSparseAdam": (lambda: P.FusedSparseAdam(), 2, ADAM),
    "FusedSparseAdamN": (lambda: P.FusedSparseAdam(use_nesterov=True), 2, ADAM),
    "FusedSparseLazyAdam": (lambda: P.FusedSparseLazyAdam(), 2, ADAM),
    "FusedSparseLazyAdamN": (lambda: P.FusedSparseLazyAdam(use_nesterov=True), 2, ADAM),
    "FusedSparseFtrl": (lambda: P.FusedSparseFtrl(0.1, 0.01, 0.02, -0.5), 2, ()),
    "FusedSparseFtrl2": (lambda: P.FusedSparseFtrl(0.1, 0.0, 0.0, -0.3), 2, ()),
    "SparseApplyFtrl": (lambda: P.SparseApplyFtrl(0.1, 0.01, 0.02, -0.5), 2, ()),
    "FusedSparseProximalAdagrad": (lambda: P.FusedSparseProximalAdagrad(), 1, PROX),
    "FusedSparseProximalAdagrad0": (lambda: P.FusedSparseProximalAdagrad(), 1, PROX0),
    "SparseApplyAdagrad": (lambda: P.SparseApplyAdagrad(lr=0.1), 1, ()),
    "SparseApplyAdagradNS": (lambda: P.SparseApplyAdagrad(lr=0.1, update_slots=False), 1, ()),
}
# (var, [slots]) after one update: MindSpore 2.10 CPU
MS = {
    'FusedSparseAdam': ([[1.048743, 1.215097], [1.1027, 1.04482], [0.923605, 1.14583], [0.937524, 1.391709]],
        [[[0.1, 0.13], [0.09, 0.09], [0.07, 0.09], [0.09, 0.09]], [[0.19981, 0.19996], [0.1998, 0.1998], [0.19984, 0.1998], [0.1998, 0.1998]]]),
    'FusedSparseAdamN': ([[1.048743, 1.215078], [1.102763, 1.044883], [0.923624, 1.145837], [0.937587, 1.391773]],
        [[[0.1, 0.13], [0.09, 0.09], [0.07, 0.09], [0.09, 0.09]], [[0.19981, 0.19996], [0.1998, 0.1998], [0.19984, 0.1998], [0.1998, 0.1998]]]),
    'FusedSparseLazyAdam': ([[1.048743, 1.215097], [1.102763, 1.044883], [0.923605, 1.14583], [0.937587, 1.391773]],
        [[[0.1, 0.13], [0.1, 0.1], [0.07, 0.09], [0.1, 0.1]], [[0.19981, 0.19996], [0.2, 0.2], [0.19984, 0.1998], [0.2, 0.2]]]),
    'FusedSparseLazyAdamN': ([[1.048743, 1.215078], [1.102763, 1.044883], [0.923624, 1.145837], [0.937587, 1.391773]],
        [[[0.1, 0.13], [0.1, 0.1], [0.07, 0.09], [0.1, 0.1]], [[0.19981, 0.19996], [0.2, 0.2], [0.19984, 0.1998], [0.2, 0.2]]]),
    'FusedSparseFtrl': ([[-0.038169, 0.339269], [1.102763, 1.044883], [0.138867, -0.059333], [0.937587, 1.391773]],
        [[[0.11, 0.26], [0.1, 0.1], [0.14, 0.1], [0.1, 0.1]], [[0.138119, -1.753509], [0.2, 0.2], [-0.535147, 0.2], [0.2, 0.2]]]),
    'FusedSparseFtrl2': ([[-0.028606, 0.21298], [1.102763, 1.044883], [0.088684, -0.039905], [0.937587, 1.391773]],
        [[[0.11, 0.26], [0.1, 0.1], [0.14, 0.1], [0.1, 0.1]], [[0.14753, -1.421776], [0.2, 0.2], [-0.491682, 0.2], [0.2, 0.2]]]),
    'SparseApplyFtrl': ([[-0.038169, 0.339269], [1.102763, 1.044883], [0.210247, 0.126216], [0.937587, 1.391773]],
        [[[0.11, 0.26], [0.1, 0.1], [0.44, 0.18], [0.1, 0.1]], [[0.138119, -1.753509], [0.2, 0.2], [-1.413033, -0.550536], [0.2, 0.2]]]),
    'FusedSparseProximalAdagrad': ([[1.009559, 1.130348], [1.102763, 1.044883], [0.969254, 1.13555], [0.937587, 1.391773]],
        [[[0.11, 0.26], [0.1, 0.1], [0.14, 0.1], [0.1, 0.1]]]),
    'FusedSparseProximalAdagrad0': ([[1.012556, 1.132302], [1.102763, 1.044883], [0.971912, 1.138692], [0.937587, 1.391773]],
        [[[0.11, 0.26], [0.1, 0.1], [0.14, 0.1], [0.1, 0.1]]]),
    'SparseApplyAdagrad': ([[1.018662, 1.136743], [1.102763, 1.044883], [0.977107, 1.145894], [0.937587, 1.391773]],
        [[[0.11, 0.26], [0.1, 0.1], [0.14, 0.1], [0.1, 0.1]]]),
    'SparseApplyAdagradNS': ([[1.017191, 1.088698], [1.102763, 1.044883], [0.9869, 1.145894], [0.937587, 1.391773]],
        [[[0.1, 0.1], [0.1, 0.1], [0.1, 0.1], [0.1, 0.1]]]),
}


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("case", sorted(CASES))
def test_sparse_updates_write_mindspores_values(case, mode):
    ms.set_context(mode=mode)
    try:
        make, nslots, scalars = CASES[case]
        net = Net(make(), nslots, scalars)
        out = net(Tensor(G), Tensor(I))
        var, slots = MS[case]
        np.testing.assert_allclose(net.var.asnumpy(), var, rtol=1e-5, atol=2e-6)
        for got, want in zip((net.s0, net.s1)[:nslots], slots):
            np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=2e-6)
        assert len(out) == nslots + 1 and all(o.shape == (4, 2) for o in out)
        np.testing.assert_allclose(out[0].asnumpy(), var, rtol=1e-5, atol=2e-6)
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)


def test_sparse_apply_adagrad_v2_updates_a_repeated_row_again():
    net = Net(P.SparseApplyAdagradV2(lr=0.1, epsilon=1e-3), 1, ())
    net(Tensor(G), Tensor(I))
    g1, g2, v = G[0].astype(np.float64), G[2].astype(np.float64), V[2].astype(np.float64)
    a1 = 0.1 + g1 ** 2
    a2 = a1 + g2 ** 2
    np.testing.assert_allclose(net.s0.asnumpy()[2], a2, rtol=1e-6)  # MindSpore: [0.44, 0.18]
    np.testing.assert_allclose(net.var.asnumpy()[2],
                               v - g1 * 0.1 / np.sqrt(a1 + 1e-3) - g2 * 0.1 / np.sqrt(a2 + 1e-3),
                               rtol=1e-5)
    np.testing.assert_array_equal(net.var.asnumpy()[[1, 3]], V[[1, 3]])


def _lazy_adam(var, m, v, grad, indices):
    net = Net(P.FusedSparseLazyAdam(), 2, ADAM)
    net.var = Parameter(Tensor(np.ones(var, np.float32)), name="var")
    net.s0 = Parameter(Tensor(np.ones(m, np.float32)), name="m")
    net.s1 = Parameter(Tensor(np.ones(v, np.float32)), name="v")
    return net(grad, indices)


ONES = Tensor(np.ones([3, 3, 3], np.float32))
IDX = Tensor(np.array([0, 1, 2], np.int32))


@pytest.mark.parametrize("shapes, grad, indices, error", [
    # the checks MindSpore's tests make (ValueError for shapes, TypeError for types)
    (([3, 3, 3], [3, 2, 3], [3, 3, 3]), ONES, IDX, ValueError),
    (([3, 3, 3], [3, 3, 3], [3, 2, 3]), ONES, IDX, ValueError),
    (([3, 3, 3],) * 3, ONES, Tensor(np.array([0, 1], np.int32)), ValueError),
    (([3, 3, 3],) * 3, ONES, Tensor(np.array(0, np.int32)), ValueError),
    (([3, 3, 3],) * 3, Tensor(np.float32(3)), IDX, ValueError),
    (([3, 3, 3],) * 3, Tensor(np.ones([3, 2, 3], np.float32)), IDX, ValueError),
    (([3, 3, 3],) * 3, ONES, Tensor(np.array([0, 1, 2], np.float32)), TypeError),
    (([3, 3, 3],) * 3, ONES, [IDX, IDX], TypeError),
    (([3, 3, 3],) * 3, [ONES, ONES], IDX, TypeError),
])
def test_sparse_updates_check_their_operands(shapes, grad, indices, error):
    with pytest.raises(error):
        _lazy_adam(*shapes, grad, indices)


@pytest.mark.parametrize("make, error, message", [
    # MindSpore 2.10's messages
    (lambda: P.SparseApplyFtrl(lr=0.0, l1=0.01, l2=0.02, lr_power=-0.5), ValueError,
     "For 'SparseApplyFtrl', the 'lr' must be float and must > 0, but got '0.0'"),
    (lambda: P.FusedSparseFtrl(lr=0.1, l1=-0.01, l2=0.02, lr_power=-0.5), ValueError,
     "the 'l1' must be float and must >= 0, but got '-0.01'"),
    (lambda: P.FusedSparseFtrl(lr=0.1, l1=0.01, l2=0.02, lr_power=0.5), ValueError,
     "the argument 'lr_power' must <= 0, but got 0.5"),
    (lambda: P.SparseApplyFtrl(lr=1, l1=0.01, l2=0.02, lr_power=-0.5), TypeError,
     "For 'SparseApplyFtrl', the type of 'lr' should be 'float', but got type 'int'"),
    (lambda: P.SparseApplyAdagrad(lr=1), TypeError, "the type of 'lr' should be 'float'"),
    (lambda: P.FusedSparseAdam(use_nesterov=1), TypeError,
     "For 'FusedSparseAdam', the type of 'use_nesterov' should be 'bool', but got type 'int'"),
])
def test_sparse_update_attributes_are_checked(make, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace("[", r"\[")):
        make()


class _RMSPropNet(nn.Cell):
    def __init__(self, dtype):
        super().__init__()
        self.op = P.SparseApplyRMSProp(0.2, 0.01, 1e-6)
        self.var = Parameter(Tensor(np.array([[0.6, 0.3], [0.1, 0.5], [1., 2.]]), dtype), name="var")
        self.ms = Parameter(Tensor(np.array([[0.2, 0.4], [0.1, 0.3], [1., 1.]]), dtype), name="ms")
        self.mom = Parameter(Tensor(np.array([[0.3, 0.1], [0.3, 0.6], [0., 0.]]), dtype), name="mom")

    def construct(self, lr, grad, indices):
        return self.op(self.var, self.ms, self.mom, lr, grad, indices)


@pytest.mark.parametrize("dtype, tol", [(ms.float32, 1e-6), (ms.float16, 1e-3)])
def test_sparse_apply_rms_prop_as_mindspore(dtype, tol):
    # values recorded from MindSpore 2.10 (CPU); ms stays where the gradient is zero, as its
    # kernel leaves it, and float16 is computed in float32 and stored rounded
    net = _RMSPropNet(dtype)
    out = net(Tensor(0.01, dtype), Tensor(np.array([[0.3, 0.], [0.1, 0.8], [0., 0.5]]), dtype),
              Tensor(np.array([2, 0, 1], np.int32)))
    expected = ([[0.592436, 0.288603], [0.097, 0.484194], [0.994248, 2.0]],
                [[0.048, 0.592], [0.1, 0.26], [0.272, 1.0]],
                [[0.007564, 0.011397], [0.003, 0.015806], [0.005752, 0.0]])
    for got, want, param in zip(out, expected, (net.var, net.ms, net.mom)):
        assert got.dtype == dtype
        np.testing.assert_allclose(got.asnumpy().astype(np.float64), want, atol=tol)
        np.testing.assert_allclose(param.asnumpy().astype(np.float64), want, atol=tol)
    with pytest.raises(ValueError, match=r"the shape of grad : \[2,2,\] must be equal to "
                                         r"\[3,2,\]"):
        net(Tensor(0.01, dtype), Tensor(np.zeros((2, 2)), dtype),
            Tensor(np.array([2, 0], np.int32)))


@pytest.mark.parametrize("make, inputs, message", [
    (lambda: P.SparseApplyAdagrad(lr=1e-8), ("accum",),
     (r"SparseApplyAdagrad\], the input argument\[accum\] must be a type of \{Tensor\[Float16\], "
     r"Tensor\[Float32\]\}, but got Ref\[Tensor\[Float64\]\]\.")),
    (lambda: P.SparseApplyAdagradV2(lr=1e-8, epsilon=1e-6), ("accum",),
     r"SparseApplyAdagradV2\], the input argument\[accum\] must be a type of"),
    (lambda: P.SparseApplyRMSProp(0.2, 0.01, 1e-6), ("ms", "mom", 0.01),
     (r"SparseApplyRMSProp\], the input argument\[grad\] must be a type of \{Tensor\[Float16\], "
     r"Tensor\[Float32\]\}, but got Tensor\[Float64\]\.")),
])
def test_sparse_updates_take_float16_and_float32_only(make, inputs, message):
    # MindSpore 2.10's TypeErrors for float64 operands
    var = Parameter(Tensor(np.array([0.2])), name="var")
    slots = [Parameter(Tensor(np.array([0.1])), name=n) if isinstance(n, str) else n
             for n in inputs]
    with pytest.raises(TypeError, match=message):
        make()(var, *slots, Tensor(np.array([0.7])), Tensor(np.array([0], np.int32)))


def test_indices_of_a_run_time_length_are_refused_clearly():
    from cellgraph.primitives.errors import UnsupportedError

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.ftrl = P.SparseApplyFtrl(lr=0.01, l1=0.0, l2=0.0, lr_power=-0.5)
            self.var = Parameter(Tensor(np.ones((4, 2), np.float32)), name="var")
            self.accum = Parameter(Tensor(np.ones((4, 2), np.float32)), name="accum")
            self.linear = Parameter(Tensor(np.ones((4, 2), np.float32)), name="linear")

        def construct(self, grad, indices):
            ids, _ = P.Unique()(indices)  # as many rows of grad as there are distinct indices
            rows = P.Cast()(P.ExpandDims()(ids, 1), ms.float32) + grad
            return self.ftrl(self.var, self.accum, self.linear, rows, ids)[0]

    with pytest.raises(UnsupportedError, match="number of indices must be known"):
        Net()(Tensor(np.ones((1, 2), np.float32)), Tensor(np.array([1, 1, 2], np.int32)))
