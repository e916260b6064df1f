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


def test_batch_norm_takes_its_operands_by_keyword():
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.random((4, 3, 2, 2)).astype(np.float32))
    mean = ms.Tensor(rng.random(3).astype(np.float32))
    var = ms.Tensor(rng.random(3).astype(np.float32) + 0.5)

    @ms.jit
    def func(x, mean, var):
        return ops.BatchNorm()(input_x=x, scale=mean, bias=var, mean=mean, variance=var)

    got = func(x, mean, var)[0].asnumpy()
    want = ops.BatchNorm()(x, mean, var, mean, var)[0].asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-6)
