"""Operations whose operands must agree in dtype or shape, refused as MindSpore 2.10 refuses
them (its exception types and messages) instead of promoted or broadcast."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, ops


def test_nextafter_takes_one_dtype():
    with pytest.raises(TypeError, match="input type must be same"):
        ops.NextAfter()(Tensor(np.float32(1.0)), Tensor(np.float64(2.0)))
    with pytest.raises(TypeError, match="input type must be same"):
        ops.nextafter(Tensor(np.float32(1.0)), Tensor(np.int32(2)))
    out = ops.nextafter(Tensor(np.float32(1.0)), Tensor(np.float32(2.0)))
    assert out.asnumpy() == np.nextafter(np.float32(1.0), np.float32(2.0))


def test_grid_samplers_take_one_dtype():
    with pytest.raises(TypeError, match=r"For primitive\[GridSampler3D\], the input type must "
                                        r"be same"):
        ops.GridSampler3D()(Tensor(np.ones((2, 3, 3, 3, 3), np.float32)),
                            Tensor(np.ones((2, 3, 3, 3, 3), np.int32)))
    with pytest.raises(TypeError, match="Input grid must have the same data type with input x"):
        ops.grid_sample(Tensor(np.ones((2, 3, 3, 3), np.float32)),
                        Tensor(np.ones((2, 3, 3, 2), np.float64)))


def test_hsigmoid_grad_checks_its_operands():
    hsigmoid_grad = ops.auto_generate.HSigmoidGrad()
    with pytest.raises(ValueError, match=r"The 0th dim of x\(4\) and dout\(3\) not equal"):
        hsigmoid_grad(Tensor(np.ones(3, np.float32)), Tensor(np.ones(4, np.float32)))
    with pytest.raises(ValueError, match=r"Rank of x\(1\) and dout\(2\) not equal"):
        hsigmoid_grad(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones(3, np.float32)))
    with pytest.raises(RuntimeError, match="grad type must be same as input type"):
        hsigmoid_grad(Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float16)))
    out = hsigmoid_grad(Tensor(np.ones(3, np.float32)), Tensor(np.array([-4, 0, 2], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [0.0, 1 / 6, 1 / 6], rtol=1e-6)


def test_functional_matmul_refuses_inner_sizes_with_a_runtime_error():
    # MindSpore 2.10: ops.matmul, Tensor.matmul, `@` and mindspore.numpy.matmul (MatMulExt)
    # raise RuntimeError; the MatMul primitive class raises ValueError
    import cellgraph.numpy as mnp

    x, y = Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 3), np.float32))
    for call in (ops.matmul, lambda a, b: a @ b, lambda a, b: a.matmul(b), mnp.matmul):
        for error in (RuntimeError, ValueError):
            with pytest.raises(error, match="3"):
                call(x, y)
    with pytest.raises(ValueError) as info:
        ops.MatMul()(x, y)
    assert not isinstance(info.value, RuntimeError)
