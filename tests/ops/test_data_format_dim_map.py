"""`ops.DataFormatDimMap`: MindSpore 2.10's values for every index in [-4, 4) and beyond
(taken modulo 4), eagerly, compiled and under vmap; its format and dtype errors."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, jit, nn, ops
from cellgraph.ops import operations as P

X = np.array([-4, -3, -2, -1, 0, 1, 2, 3, 5, -7])
# MindSpore 2.10 CPU: P.DataFormatDimMap(src_format, dst_format)(Tensor(X))
EXPECTED = {
    ("NHWC", "NCHW"): [0, 3, 1, 2, 0, 3, 1, 2, 3, 3],
    ("NCHW", "NHWC"): [0, 2, 3, 1, 0, 2, 3, 1, 2, 2],
    ("NHWC", "NHWC"): [0, 1, 2, 3, 0, 1, 2, 3, 1, 1],
    ("NCHW", "NCHW"): [0, 1, 2, 3, 0, 1, 2, 3, 1, 1],
}


@pytest.mark.parametrize("formats", sorted(EXPECTED))
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_values_eager_and_compiled(formats, dtype):
    op = P.DataFormatDimMap(*formats)
    out = op(Tensor(X.astype(dtype)))
    assert out.dtype == Tensor(X.astype(dtype)).dtype
    np.testing.assert_array_equal(out.asnumpy(), np.array(EXPECTED[formats], dtype))

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = op

        def construct(self, x):
            return self.op(x)

    np.testing.assert_array_equal(Net()(Tensor(X.astype(dtype))).asnumpy(), EXPECTED[formats])


def test_default_formats_and_vmap():
    x = np.array([[1, 2], [3, 0]], np.int64)
    np.testing.assert_array_equal(ops.DataFormatDimMap()(Tensor(x)).asnumpy(), [[3, 1], [2, 0]])
    batched = ops.vmap(lambda v: P.DataFormatDimMap()(v), in_axes=0)(Tensor(x))

    @jit
    def one_by_one(xs):
        return ops.stack([P.DataFormatDimMap()(xs[i]) for i in range(xs.shape[0])])

    np.testing.assert_array_equal(batched.asnumpy(), one_by_one(Tensor(x)).asnumpy())


@pytest.mark.parametrize("fmt", ["HWNC", "NCH", 3])
def test_format_errors(fmt):
    with pytest.raises(ValueError, match=r"the 'src_format' must be str and must be in "
                                         r"'\['NHWC', 'NCHW'\]', but got"):
        P.DataFormatDimMap(src_format=fmt)
    with pytest.raises(ValueError, match="the 'dst_format' must be str"):
        P.DataFormatDimMap(dst_format=fmt)


@pytest.mark.parametrize("dtype", [np.float32, np.int16])
def test_dtype_errors(dtype):
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[Int32\], Tensor\[Int64\]\}, "
                                        r"but got Tensor\[(Float32|Int16)\]"):
        P.DataFormatDimMap()(Tensor(np.array([1, 2], dtype)))
