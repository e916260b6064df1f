"""cellgraph.recompute: the block's values and gradients unchanged, MindSpore 2.10's argument
checks (its outcomes for the same calls recorded below)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops, recompute


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 3, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return ops.relu(self.dense(x)) * 2


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x):
        return recompute(self.block, x).sum()


X = np.arange(6, dtype=np.float32).reshape(2, 3) - 2


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_value_and_gradient_of_the_block(mode):
    ms.set_context(mode=mode)
    net = Net()
    assert float(net(Tensor(X))) == 36.0
    np.testing.assert_array_equal(ops.grad(net)(Tensor(X)).asnumpy(), [[0, 0, 0], [6, 6, 6]])


def test_a_function_block_needs_use_reentrant_false():
    with pytest.raises(TypeError, match="only support block which inherited from Cell"):
        recompute(lambda t: t, Tensor(X))
    np.testing.assert_array_equal(
        recompute(lambda t: t * 3, Tensor(X), use_reentrant=False).asnumpy(), X * 3)
    # output_recompute implies use_reentrant=False, as MindSpore's
    np.testing.assert_array_equal(
        recompute(lambda t: t, Tensor(X), output_recompute=True).asnumpy(), X)


def test_context_fn_only_without_use_reentrant():
    with pytest.raises(ValueError, match="context_fn is only supported when use_reentrant=False"):
        recompute(Block(), Tensor(X), context_fn=lambda: (None, None))
    entered = []

    class Recording:
        def __init__(self, name):
            self.name = name

        def __enter__(self):
            entered.append(self.name)

        def __exit__(self, *exc):
            return False

    out = recompute(Block(), Tensor(X), use_reentrant=False,
                    context_fn=lambda: (Recording("forward"), Recording("recompute")))
    assert entered == ["forward"] and out.shape == (2, 3)
