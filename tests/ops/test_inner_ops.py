"""ops.operations.inner_ops: NoRepeatNGram against what MindSpore 2.10 CPU gives."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from cellgraph.ops import operations as P

SEQ = np.array([[[1, 2, 1, 2, 5, 1, 2], [9, 3, 9, 5, 4, 1, 5]]], np.int32)
LOG_PROBS = np.arange(20, dtype=np.float32).reshape(1, 2, 10)
# MindSpore 2.10: the tokens set to -max of the dtype, per beam, for each ngram_size
BANNED = {1: ([1, 2, 5], [1, 3, 4, 5, 9]), 2: ([1, 5], [4]), 3: ([1, 5], []), 6: ([], [])}


@pytest.mark.parametrize("ngram_size", sorted(BANNED))
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_no_repeat_ngram_matches_mindspore(ngram_size, dtype):
    probs = LOG_PROBS.astype(dtype)
    expected = probs.copy()
    for beam, tokens in enumerate(BANNED[ngram_size]):
        expected[0, beam, tokens] = -np.finfo(dtype).max
    op = P.NoRepeatNGram(ngram_size)
    for got in (op(Tensor(SEQ), Tensor(probs)), cellgraph.jit(op)(Tensor(SEQ), Tensor(probs))):
        assert got.dtype == Tensor(probs).dtype
        np.testing.assert_array_equal(got.asnumpy(), expected)


def test_no_repeat_ngram_under_vmap_is_per_example():
    seqs, probs = np.tile(SEQ, (3, 1, 1, 1)), np.tile(LOG_PROBS, (3, 1, 1, 1))
    seqs[1, 0, 0, -1] = 5  # a different last token in one example
    op = P.NoRepeatNGram(2)
    batched = ops.vmap(op, (0, 0), 0)(Tensor(seqs), Tensor(probs)).asnumpy()
    for i in range(3):
        np.testing.assert_array_equal(batched[i],
                                      op(Tensor(seqs[i]), Tensor(probs[i])).asnumpy())


def test_no_repeat_ngram_errors():
    with pytest.raises(TypeError, match="should be 'int'"):
        P.NoRepeatNGram(2.0)
    with pytest.raises(ValueError, match="must >= 1"):
        P.NoRepeatNGram(0)
    with pytest.raises(ValueError, match="less than or equal to state_seq shape"):
        P.NoRepeatNGram(8)(Tensor(SEQ), Tensor(LOG_PROBS))
    with pytest.raises(RuntimeError, match="ngram_size is illegal"):
        P.NoRepeatNGram(7)(Tensor(SEQ), Tensor(LOG_PROBS))
    with pytest.raises(TypeError, match="Tensor\\[Int32\\]"):
        P.NoRepeatNGram(2)(Tensor(SEQ.astype(np.int64)), Tensor(LOG_PROBS))
    with pytest.raises(ValueError, match="rank of state_seq must be equal to 3"):
        P.NoRepeatNGram(2)(Tensor(SEQ[0]), Tensor(LOG_PROBS[0]))
    with pytest.raises(ValueError, match="shape\\[1\\] must be equal"):
        P.NoRepeatNGram(2)(Tensor(SEQ), Tensor(LOG_PROBS[:, :1]))
    with pytest.raises(ValueError):  # an id outside [0, vocab), found while running
        P.NoRepeatNGram(2)(Tensor(SEQ * 2), Tensor(LOG_PROBS))


def test_copy_with_slice_writes_the_source_into_the_destination():
    """MindSpore 2.10: CopyWithSlice()(x, y) writes y into x in place; a different shape or
    dtype is a RuntimeError."""
    from cellgraph.ops.operations._inner_ops import CopyWithSlice

    a = Tensor(np.arange(12, dtype=np.float32).reshape(2, 2, 3))
    dest = Tensor(np.zeros((2, 3, 2), np.float32))
    assert CopyWithSlice()(dest, ops.transpose(a, (0, 2, 1))) is dest
    np.testing.assert_array_equal(dest.asnumpy(), a.asnumpy().transpose(0, 2, 1))
    for source in (np.ones(3, np.float32), np.ones((2, 3, 2), np.int32)):
        with pytest.raises(RuntimeError):
            CopyWithSlice()(dest, Tensor(source))
