"""ops.ctc_greedy_decoder and ops.CTCGreedyDecoder against MindSpore 2.10 (values and errors
recorded from it)."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, ops
from cellgraph.ops import operations as P


def _scores():
    x = np.random.default_rng(0).normal(size=(4, 3, 5)).astype(np.float32)
    x[:, 1, 4] = 5  # batch entry 1: blanks only
    x[1, 0, :] = 0
    x[1, 0, 2] = 3
    x[0, 0, :] = 0
    x[0, 0, 2] = 3  # class 2 twice in a row
    return x


LENGTHS = np.array([4, 2, 3], np.int32)


def test_decoded_as_mindspore():
    indices, values, shape, log_probability = P.CTCGreedyDecoder()(Tensor(_scores()),
                                                                   Tensor(LENGTHS))
    assert indices.asnumpy().tolist() == [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1]]
    assert values.asnumpy().tolist() == [2, 3, 2, 1, 1]
    assert shape.asnumpy().tolist() == [3, 3]
    assert str(values.dtype) == "Int64"
    np.testing.assert_array_equal(log_probability.asnumpy(),
                                  np.array([[-8.501103401184082], [-10.0],
                                            [-1.7754448652267456]], np.float32))
    indices, values, shape, _ = ops.ctc_greedy_decoder(Tensor(_scores()), Tensor(LENGTHS),
                                                       merge_repeated=False)
    assert indices.asnumpy().tolist() == [[0, 0], [0, 1], [0, 2], [0, 3], [2, 0], [2, 1]]
    assert values.asnumpy().tolist() == [2, 2, 3, 2, 1, 1]
    assert shape.asnumpy().tolist() == [3, 4]


@pytest.mark.parametrize("inputs, lengths, error, message", [
    (_scores()[0], np.array([1, 1, 1], np.int32), ValueError, "inputs's dim must be 3, but got: 2"),
    (_scores(), np.array([1, 1], np.int32), ValueError,
     "inputs batch_size must be the same with sequence_length batch_size"),
    (_scores(), np.array([1, 1, 1], np.int64), TypeError, r"Tensor\[Int64\]"),
    (_scores().astype(np.float16), np.array([1, 1, 1], np.int32), TypeError,
     r"Tensor\[Float16\]"),
    (_scores(), np.array([5, 1, 1], np.int32), RuntimeError,
     r"sequence_length\[0\] 5 should be less than 4"),
])
def test_errors_as_mindspore(inputs, lengths, error, message):
    with pytest.raises(error, match=message):
        P.CTCGreedyDecoder()(Tensor(inputs), Tensor(lengths))


def test_merge_repeated_must_be_a_bool():
    with pytest.raises(TypeError, match="the type of 'merge_repeated' should be 'bool'"):
        P.CTCGreedyDecoder(merge_repeated=1)
