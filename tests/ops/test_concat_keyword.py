"""ops.Concat's operand is named `tensors`, as in MindSpore: `Concat(axis)(tensors=...)` works
in both modes, with a constant or a mutable axis."""
import numpy as np

import cellgraph as ms
from cellgraph import ops


def test_concat_takes_tensors_by_keyword():
    x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))

    @ms.jit
    def func(t, axis):
        return ops.Concat(axis=axis)(tensors=t)

    want = np.concatenate([x.asnumpy(), x.asnumpy()], axis=1)
    np.testing.assert_array_equal(func((x, x), 1).asnumpy(), want)
    np.testing.assert_array_equal(func((x, x), ms.mutable(1)).asnumpy(), want)
    np.testing.assert_array_equal(ops.Concat(1)(tensors=(x, x)).asnumpy(), want)
