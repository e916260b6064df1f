"""ops.random_categorical and ops.RandomCategorical: the draws of MindSpore 2.10's CPU kernel
(its minstd engine seeded from (0, seed), two states per double draw), recorded from
MindSpore, eagerly and in a graph, and its argument checks."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.common import dtype as mstype
from cellgraph.ops.operations import random_ops

ROWS = np.array([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]])
FIRST_TEN = [4, 4, 2, 4, 4, 3, 4, 4, 4, 4]  # seed 5, every dtype


class CategoricalNet(nn.Cell):
    def __init__(self, dtype):
        super().__init__()
        self.rc = random_ops.RandomCategorical(dtype)

    def construct(self, logits, num_sample, seed):
        return self.rc(logits, num_sample, seed)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("out", [mstype.int16, mstype.int32, mstype.int64])
def test_draws_match_mindspore(dtype, out):
    logits = Tensor(ROWS.astype(dtype))
    for got in (random_ops.RandomCategorical(out)(logits, 10, 5),
                ops.random_categorical(logits, 10, 5, out), CategoricalNet(out)(logits, 10, 5)):
        assert got.dtype == out
        np.testing.assert_array_equal(got.asnumpy(), [FIRST_TEN, FIRST_TEN])


def test_an_instance_carries_its_draws_on():
    logits = Tensor(ROWS.astype(np.float32))
    op = random_ops.RandomCategorical()
    # MindSpore 2.10 eagerly: the same instance and inputs go on; other inputs start again
    np.testing.assert_array_equal(op(logits, 6, 5).asnumpy(), [[4, 4, 2, 4, 4, 3]] * 2)
    np.testing.assert_array_equal(op(logits, 6, 5).asnumpy(), [[4, 4, 4, 4, 3, 4]] * 2)
    np.testing.assert_array_equal(op(logits, 4, 5).asnumpy(), [[4, 4, 2, 4]] * 2)
    # in a graph: the node's kernel goes on from run to run
    net = CategoricalNet(mstype.int16)
    ten = Tensor(np.arange(1, 11, dtype=np.float16)[None])
    assert net(ten, 8, 7).asnumpy().tolist() == [[9, 9, 9, 9, 9, 8, 8, 9]]
    assert net(ten, 8, 7).asnumpy().tolist() == [[9, 9, 8, 9, 9, 9, 8, 9]]
    assert net(ten, 8, -1).asnumpy().tolist() == [[7, 9, 8, 6, 9, 7, 8, 9]]
    probs = Tensor(np.log(np.array([[0.1, 0.2, 0.3, 0.4]])))
    assert ops.random_categorical(probs, 12, 3).asnumpy().tolist() == [
        [1, 1, 2, 2, 3, 3, 3, 2, 0, 2, 2, 2]]


def test_seed_zero_draws_from_the_global_generator():
    cellgraph.set_seed(1)
    logits = Tensor(np.zeros((1, 10), np.float32))
    first = ops.random_categorical(logits, 50).asnumpy()
    assert first.min() >= 0 and first.max() <= 9 and len(set(first[0])) > 1


@pytest.mark.parametrize("call, error, message", [
    (lambda x: random_ops.RandomCategorical(mstype.float32), TypeError, "'dtype' should be"),
    (lambda x: ops.random_categorical(x, 0, 5), ValueError, "can't has negative value, but got 0"),
    (lambda x: ops.random_categorical(x, 2.0, 5), TypeError, r"argument\[num_sample\]"),
    (lambda x: ops.random_categorical(x, 2, 1.5), TypeError, r"argument\[seed\]"),
    (lambda x: ops.random_categorical(x[0], 2, 5), ValueError, "only support 2D"),
    (lambda x: ops.random_categorical(x.astype(mstype.int32), 2, 5), TypeError,
     r"Tensor\[Int32\]"),
])
def test_checks_as_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call(Tensor(ROWS.astype(np.float32)))
