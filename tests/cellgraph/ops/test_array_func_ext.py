"""The `_ext` array functions with MindSpore's primitive checks: repeat_interleave_ext (mint's
repeat_interleave and the RepeatInterleaveInt/RepeatInterleaveTensor classes), its values and
its errors as MindSpore 2.10's graph mode raises them."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import mint, nn
from cellgraph.ops.auto_generate.gen_ops_prim import RepeatInterleaveInt, RepeatInterleaveTensor
from cellgraph.ops.function.array_func.ext import repeat_interleave_ext

X = np.arange(12, dtype=np.float32).reshape(4, 3)


@pytest.mark.parametrize("repeats, dim, expected", [
    (2, 0, np.repeat(X, 2, 0)),
    (3, None, np.repeat(X.reshape(-1), 3)),
    ([1, 0, 2, 1], 0, np.repeat(X, [1, 0, 2, 1], 0)),
    ([2], 1, np.repeat(X, 2, 1)),
    (cg.Tensor([0, 1, 2], cg.int32), -1, np.repeat(X, [0, 1, 2], 1)),
    (cg.Tensor(np.ones(12, np.int64)), None, X.reshape(-1)),
])
def test_values(repeats, dim, expected):
    out = mint.repeat_interleave(cg.Tensor(X), repeats, dim)
    np.testing.assert_array_equal(out.asnumpy(), expected)
    # output_size, the result's length along dim, is checked against the counts (PyTorch's)
    out = mint.repeat_interleave(cg.Tensor(X), repeats, dim, output_size=expected.shape[
        0 if dim is None else dim])
    np.testing.assert_array_equal(out.asnumpy(), expected)
    with pytest.raises(RuntimeError, match="'output_size' must be the length"):
        mint.repeat_interleave(cg.Tensor(X), repeats, dim, output_size=100)


class _Net(nn.Cell):
    def __init__(self, op):
        super().__init__()
        self.op = op

    def construct(self, x, repeats, dim):
        return self.op(x, repeats, dim)


@pytest.mark.parametrize("op, repeats, dim, error, message", [
    (RepeatInterleaveTensor(), [2, 3, 4], 0, RuntimeError,
     "For 'RepeatInterleaveTensor', 'repeats' must have the same size as input along dim."),
    (RepeatInterleaveTensor(), [2, 3], None, RuntimeError,
     "For 'RepeatInterleaveTensor', 'repeats' must have the same size as input along dim."),
    (RepeatInterleaveTensor(), [2, 3, 4, 5], 2, ValueError,
     r"For primitive\[RepeatInterleaveTensor\], the dim must be in \[-2,1\], but got 2."),
    (RepeatInterleaveTensor(), [1, -1, 1, 1], 0, RuntimeError,
     "For 'RepeatInterleaveTensor', 'repeats' can not be negative."),
    (RepeatInterleaveInt(), -1, 0, RuntimeError,
     "For 'RepeatInterleaveInt', 'repeats' can not be negative."),
    (RepeatInterleaveInt(), 2, -3, ValueError,
     r"For primitive\[RepeatInterleaveInt\], the dim must be in \[-2,1\], but got -3."),
])
def test_graph_errors_as_mindspore(op, repeats, dim, error, message):
    cg.set_context(mode=cg.GRAPH_MODE)
    with pytest.raises(error, match=message):
        _Net(op)(cg.Tensor(X), repeats, dim)


def test_tensor_counts_checked_by_rank_and_dtype():
    with pytest.raises(RuntimeError, match="'repeats' must be 0-dim or 1-dim tensor"):
        repeat_interleave_ext(cg.Tensor(X), cg.Tensor([[1, 2]], cg.int32), 0)
    with pytest.raises(TypeError, match="'repeats' must be int32 or int64"):
        repeat_interleave_ext(cg.Tensor(X), cg.Tensor([1.0, 2.0, 1.0], cg.float32), 1)
