"""`train.amp`: the "auto" level's primitive lists and argument table, at MindSpore's paths."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, amp, nn, ops
from cellgraph._c_expression.amp import get_prim_cast_strategy_info
from cellgraph.train import amp as train_amp


class _ExpNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.exp = ops.Exp()
        self.pow = ops.Pow()

    def construct(self, x, w):
        return self.pow(self.exp(self.matmul(x, w)), x[:, :2])


X = np.array([[0.5, -1.0], [1.5, 0.25]], np.float16)


def test_the_lists_hold_primitive_classes_and_build_train_network_is_shared():
    assert ops.MatMul in train_amp.AMP_AUTO_WHITE_LIST
    assert ops.Exp in train_amp.AMP_AUTO_BLACK_LIST and ops.Softmax in train_amp.AMP_AUTO_BLACK_LIST
    assert not set(train_amp.AMP_AUTO_WHITE_LIST) & set(train_amp.AMP_AUTO_BLACK_LIST)
    assert train_amp.AMP_PRIM_ARG_TABLE[ops.Exp] == []  # a defaultdict: cast every argument
    assert train_amp.build_train_network is amp.build_train_network is ms.build_train_network


def test_auto_runs_white_primitives_low_and_black_ones_in_float32():
    w = Tensor(np.eye(2, dtype=np.float16))
    net = amp.auto_mixed_precision(_ExpNet(), "auto")
    lines = ms.dump_ir(net, Tensor(X), w, stage="parse").splitlines()
    assert ": f16[2,2]" in next(line for line in lines if " = matmul(" in line)
    assert ": f32[2,2]" in next(line for line in lines if " = exp(" in line)
    out = net(Tensor(X), w)
    assert out.dtype == ms.float32
    x32 = X.astype(np.float32)
    np.testing.assert_allclose(out.asnumpy(), np.exp(x32) ** x32, rtol=1e-3)


def test_the_argument_table_is_recorded_but_every_float_argument_is_cast():
    # MindSpore 2.10: the positions reach the strategy (arg_pos), yet its casts take every
    # float input, so MatMul with [1] listed still gets two float16 operands
    train_amp.AMP_PRIM_ARG_TABLE[ops.MatMul] = [1]
    try:
        net = amp.auto_mixed_precision(_ExpNet(), "auto")
        info = get_prim_cast_strategy_info(net.amp_strategy, "MatMul")
        assert info.arg_pos == [1]
        x = Tensor(np.array([[0.5, -1.0], [1.5, 0.25]], np.float32))
        assert net.matmul(x, x).dtype == ms.float32  # outside the network: no strategy
        assert net(x, x).dtype == ms.float32  # Pow (black list) runs in float32
    finally:
        del train_amp.AMP_PRIM_ARG_TABLE[ops.MatMul]
