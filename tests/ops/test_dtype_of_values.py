"""ops.dtype (F.dtype) on what is not a Tensor, as MindSpore 2.10: inside a graph a Python
number has a dtype (int64, float32, bool), a tuple is a TypeError; eagerly every non-Tensor is
a TypeError. nn.L1Regularizer checks its weights through it."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class _Dtype(nn.Cell):
    def construct(self, x):
        return ops.dtype(x)


def test_numbers_have_dtypes_in_a_graph():
    assert _Dtype()(2) == ms.int64
    assert _Dtype()(2.5) == ms.float32
    assert _Dtype()(Tensor(np.ones(2, np.float16))) == ms.float16
    with pytest.raises(TypeError, match=r"must be a Tensor, CSRTensor or COOTensor, but got "):
        _Dtype()((1, 2, 3, 4))


@pytest.mark.parametrize("value", [2, (1, 2)])
def test_eagerly_only_tensors_have_dtypes(value):
    with pytest.raises(TypeError, match=r"For Primitive\[Dtype\], the input argument\[input_x\] "
                                        r"must be a Tensor, CSRTensor or COOTensor, but got "
                                        rf"<class '{type(value).__name__}'>"):
        ops.dtype(value)
    assert ops.dtype(Tensor(np.ones(2, np.int32))) == ms.int32


def test_l1_regularizer_refuses_a_tuple_of_weights():
    with pytest.raises(TypeError, match="must be a Tensor, CSRTensor or COOTensor"):
        nn.L1Regularizer(0.5)((1, 2, 3, 4))
    out = nn.L1Regularizer(0.5)(Tensor(np.array([1.0, -2.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), 1.5)
