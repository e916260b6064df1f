"""nn.SoftmaxCrossEntropyWithLogits computes through the primitives MindSpore's layer holds
(softmax_cross_entropy, one_hot with float32 on/off values), so a strategy set on them reaches
the graph; values recorded from MindSpore 2.10."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import dump_ir, nn
from cellgraph.ops.operations.nn_ops import OneHot, SoftmaxCrossEntropyWithLogits

LOGITS = np.array([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]], np.float32)


@pytest.mark.parametrize("sparse, reduction, expected", [
    (True, "none", [0.4643688, 0.07077423]),
    (True, "mean", 0.2675712),
    (False, "sum", 0.535143),
])
def test_values_as_mindspore(sparse, reduction, expected):
    cg.set_context(mode=cg.GRAPH_MODE)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=sparse, reduction=reduction)
    labels = cg.Tensor([1, 2], cg.int32) if sparse else cg.Tensor(np.eye(3, dtype=np.float32)[[1, 2]])
    np.testing.assert_allclose(loss(cg.Tensor(LOGITS), labels).asnumpy(), expected, rtol=1e-5)


def test_the_layer_s_primitives_carry_their_strategies():
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    assert isinstance(loss.softmax_cross_entropy, SoftmaxCrossEntropyWithLogits)
    assert isinstance(loss.one_hot, OneHot)
    assert loss.on_value.dtype == cg.float32 and float(loss.off_value.asnumpy()) == 0.0
    loss.softmax_cross_entropy.shard(((1, 1), (1, 1)))
    loss.one_hot.shard(((1, 1), (), ()))
    text = dump_ir(loss, cg.Tensor(LOGITS), cg.Tensor([1, 2], cg.int32), stage="parse")
    lines = [ln for ln in text.splitlines() if "in_strategy" in ln]
    assert any("one_hot(" in ln and "((1, 1), (), ())" in ln for ln in lines)
    assert any("softmax_cross_entropy(" in ln and "((1, 1), (1, 1))" in ln for ln in lines)
