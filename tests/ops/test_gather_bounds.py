"""An index out of range in Gather raises MindSpore's RuntimeError words (its tests match them),
naming the range and the first index outside it."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import ops


def test_out_of_range_index_is_named_as_mindspore_does():
    table = ms.Tensor(np.arange(7).astype(np.float32))
    with pytest.raises(RuntimeError, match=r"For 'Gather', the 'input_indices' should be in the "
                                           r"range \[0, 7\), but got 100"):
        table.gather(ms.Tensor(np.array([0, 100, 4], np.int64)), 0)
    with pytest.raises(RuntimeError, match=r"range \[0, 3\), but got 100"):
        ops.Gather()(ms.Tensor(np.ones((3, 4), np.float32)), ms.Tensor(np.array([0, 100])), 0)
    assert table.gather(ms.Tensor(np.array([-1, 2])), 0).asnumpy().tolist() == [6.0, 2.0]


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_out_of_range_indices_raise_mindspores_runtime_error(mode):
    """Gather (ops.gather, Tensor indexing by a Tensor, nn.Embedding) and GatherD
    (gather_elements) raise RuntimeError, as MindSpore 2.10's CPU kernels do, not IndexError."""
    ms.set_context(mode=mode)

    class Index(ms.nn.Cell):
        def construct(self, x, i):
            return x[i]

    x = ms.Tensor(np.ones((5, 3), np.float32))
    cases = [(lambda: Index()(x, ms.Tensor(np.array([1, 9], np.int32))),
              "For 'Gather', the 'input_indices' should be in the range [0, 5), but got 9"),
             (lambda: ms.nn.Embedding(4, 2)(ms.Tensor(np.array([1, 4], np.int32))),
              "For 'Gather', the 'input_indices' should be in the range [0, 4), but got 4"),
             (lambda: ops.gather_elements(x, 1, ms.Tensor(np.full((5, 3), 5, np.int64))),
              "For 'GatherD', the value of 'index' must be in [-3, 3), but got: 5")]
    for run, message in cases:
        with pytest.raises(RuntimeError) as info:
            run()
        assert type(info.value).__name__ == "RuntimeError" and message in str(info.value)
        assert not isinstance(info.value, IndexError)
    assert ops.gather_elements(x, 1, ms.Tensor(np.full((5, 1), -3, np.int64))).shape == (5, 1)
    ms.set_context(mode=ms.GRAPH_MODE)


def test_an_axis_out_of_range_is_named_as_mindspore_does():
    x, index = ms.Tensor(np.ones((3, 2), np.float32)), ms.Tensor(np.array([0], np.int32))
    for axis, call in ((2, lambda: ops.gather(x, index, 2)), (-3, lambda: ops.Gather()(x, index, -3)),
                       (5, lambda: x.gather(index, 5))):
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value).startswith(f"For primitive[Gather], the axis must be in [-2,2], "
                                          f"but got {axis}.")


def test_embedding_lookup_zeroes_rows_outside_the_shard():
    # MindSpore 2.10's values for the same inputs
    table = ms.Tensor(np.arange(8).reshape(4, 2).astype(np.float32))
    got = ops.EmbeddingLookup()(table, ms.Tensor(np.array([[5, 2], [8, 5]], np.int32)), 4)
    assert got.asnumpy().tolist() == [[[2.0, 3.0], [0.0, 0.0]], [[0.0, 0.0], [2.0, 3.0]]]
    got = ops.EmbeddingLookup()(table, ms.Tensor(np.array([0, 3, -1, 4], np.int32)), 0)
    assert got.asnumpy().tolist() == [[0.0, 1.0], [6.0, 7.0], [0.0, 0.0], [0.0, 0.0]]


def test_fill_diagonal_as_mindspore():
    # MindSpore 2.10's values: NumPy's fill_diagonal, wrapping every columns + 1 rows on request
    tall = ms.Tensor(np.zeros((7, 3), np.float32))
    wrapped = [[5, 0, 0], [0, 5, 0], [0, 0, 5], [0, 0, 0], [5, 0, 0], [0, 5, 0], [0, 0, 5]]
    assert ops.FillDiagonal(5.0, True)(tall).asnumpy().tolist() == wrapped
    assert ops.FillDiagonal(5.0)(tall).asnumpy().tolist() == wrapped[:3] + [[0, 0, 0]] * 4
    cube = ops.FillDiagonal(2.0)(ms.Tensor(np.zeros((3, 3, 3), np.int32)))
    assert str(cube.dtype) == "Int32" and cube.asnumpy().sum() == 6 and cube[1, 1, 1] == 2
