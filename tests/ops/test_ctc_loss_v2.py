"""ops.CTCLossV2 and ops.ctc_loss take their lengths as MindSpore 2.10 does: int32/int64
Tensors or tuples of Python ints; other lengths raise MindSpore's TypeError or ValueError."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn, ops

LOG_PROBS = np.log(np.array([[[0.2, 0.3, 0.5]], [[0.1, 0.6, 0.3]], [[0.4, 0.4, 0.2]]],
                            np.float32))
TARGETS = np.array([[1, 2]], np.int32)
LOSS = 2.1202636  # MindSpore 2.10's loss for these inputs, lengths 3 and 2


@pytest.mark.parametrize("input_lengths, target_lengths", [
    ((3,), (2,)),
    (Tensor(np.array([3], np.int32)), (2,)),
    ((3,), Tensor(np.array([2], np.int64))),
])
def test_tuple_or_tensor_lengths(input_lengths, target_lengths):
    op = ops.CTCLossV2(blank=0, reduction="none", zero_infinity=False)
    loss, _ = op(Tensor(LOG_PROBS), Tensor(TARGETS), input_lengths, target_lengths)
    np.testing.assert_allclose(loss.asnumpy(), [LOSS], rtol=1e-6)
    total, _ = ops.ctc_loss(Tensor(LOG_PROBS), Tensor(TARGETS), input_lengths, target_lengths,
                            reduction="sum")
    np.testing.assert_allclose(total.asnumpy(), LOSS, rtol=1e-6)


def test_tuple_lengths_in_a_graph():
    class Net(nn.Cell):
        def construct(self, log_probs, targets):
            return ops.ctc_loss(log_probs, targets, (3,), (2,), reduction="none")[0]

    np.testing.assert_allclose(Net()(Tensor(LOG_PROBS), Tensor(TARGETS)).asnumpy(), [LOSS],
                               rtol=1e-6)


@pytest.mark.parametrize("input_lengths, target_lengths, error, message", [
    ((3,), (0.17,), TypeError,
     "argument[target_lengths] must be a type of {Int32, Int64}, but got Float32"),
    ((3,), (1, 2.5), TypeError, "but got Float32"),
    ((3.0,), (2,), TypeError,
     "argument[input_lengths] must be a type of {Int32, Int64}, but got Float32"),
    ((3,), (True,), TypeError, "but got Bool"),
    ((3,), Tensor(np.array([2.0], np.float32)), TypeError,
     "must be a type of {Tensor[Int32], Tensor[Int64]}, but got Tensor[Float32]"),
    ([3], [2], TypeError, "must be a tuple or a tensor with all Int elements"),
    (3, 2, TypeError, "must be a tuple or a tensor with all Int elements"),
    ((3,), (2, 1), ValueError, "the target_lengths.shape[0] must be equal to 1"),
])
def test_length_errors_as_mindspore(input_lengths, target_lengths, error, message):
    op = ops.CTCLossV2()
    with pytest.raises(error) as info:
        op(Tensor(LOG_PROBS), Tensor(TARGETS), input_lengths, target_lengths)
    assert message in str(info.value)
