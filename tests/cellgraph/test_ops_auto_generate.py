"""ops.auto_generate: MindSpore's generated-operator modules over cellgraph's operations."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops


def test_gen_ops_prim_classes_and_instances():
    from cellgraph.ops.auto_generate import gen_ops_prim
    from cellgraph.ops.auto_generate.gen_ops_prim import Add, MatMulExt, MaxDim, SumExt

    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(Add()(Tensor(a), Tensor(a)).asnumpy(), 2 * a)
    np.testing.assert_allclose(gen_ops_prim.add_op(Tensor(a), 1.0).asnumpy(), a + 1)
    np.testing.assert_allclose(MatMulExt()(Tensor(a), Tensor(a.T)).asnumpy(), a @ a.T)
    np.testing.assert_allclose(gen_ops_prim.matmul_ext_op(Tensor(a), Tensor(a.T)).asnumpy(),
                               a @ a.T)
    np.testing.assert_allclose(SumExt()(Tensor(a), 1).asnumpy(), a.sum(1))
    values, index = MaxDim()(Tensor(a), 0)
    np.testing.assert_allclose(values.asnumpy(), a.max(0))
    np.testing.assert_array_equal(index.asnumpy(), [1, 1, 1])
    with pytest.raises(AttributeError):
        _ = gen_ops_prim.no_such_thing_op


def test_ones_like_ext_and_zeros_like_ext_take_a_dtype_by_position():
    from cellgraph.ops.auto_generate import OnesLikeExt, ZerosLikeExt

    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    ones = OnesLikeExt()(x)
    assert ones.dtype == cellgraph.float32 and ones.asnumpy().tolist() == [[1.0] * 3] * 2
    assert OnesLikeExt()(x, cellgraph.int32).dtype == cellgraph.int32
    zeros = ZerosLikeExt()(x, None)
    assert zeros.dtype == cellgraph.float32 and not zeros.asnumpy().any()

    @cellgraph.jit
    def both(x):
        return OnesLikeExt()(x, cellgraph.int32) + ZerosLikeExt()(x, dtype=cellgraph.int32)

    assert both(x).asnumpy().tolist() == [[1] * 3] * 2


def test_gen_ops_def_and_pyboost_inner_prim_run_in_graphs():
    from cellgraph.ops.auto_generate import gen_ops_def, pyboost_inner_prim

    a = np.array([[1.0, 3.0, 2.0], [0.5, -1.0, 4.0]], np.float32)

    @cellgraph.jit
    def f(x):
        probs = pyboost_inner_prim.softmax_impl(x, (-1,))
        index, values = pyboost_inner_prim.argmax_with_value_impl(x, 1, False)
        return gen_ops_def.exp(x), probs, index, values

    exp, probs, index, values = f(Tensor(a))
    np.testing.assert_allclose(exp.asnumpy(), np.exp(a), rtol=1e-6)
    e = np.exp(a - a.max(1, keepdims=True))
    np.testing.assert_allclose(probs.asnumpy(), e / e.sum(1, keepdims=True), rtol=1e-6)
    np.testing.assert_array_equal(index.asnumpy(), [1, 2])
    np.testing.assert_allclose(values.asnumpy(), [3.0, 4.0])
    stacked = pyboost_inner_prim.stack_ext_impl([Tensor(a), Tensor(a)], 0)
    assert stacked.shape == (2, 2, 3)


def test_gen_ops_def_ext_functions_and_classes_as_mindspore():
    # MindSpore 2.10's values; add_ext and sub_ext take alpha by position, and gen_ops_def
    # also holds the primitive classes (Reciprocal)
    from cellgraph.ops.auto_generate.gen_ops_def import (
        Reciprocal,
        add_ext,
        argsort_ext,
        bmm_ext,
        leaky_relu_ext,
        sub_ext,
        sum_ext,
    )

    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = Tensor(np.ones((2, 3), np.float32))
    assert add_ext(x, y, 2).asnumpy().tolist() == [[2, 3, 4], [5, 6, 7]]
    assert sub_ext(x, y, 3).asnumpy().tolist() == [[-3, -2, -1], [0, 1, 2]]
    assert bmm_ext(x.reshape(1, 2, 3), y.reshape(1, 3, 2)).asnumpy().tolist() == [
        [[3, 3], [12, 12]]]
    np.testing.assert_allclose(Reciprocal()(x + 1).asnumpy(),
                               [[1.0, 0.5, 0.33333334], [0.25, 0.2, 0.16666667]])
    assert sum_ext(x, 1).asnumpy().tolist() == [3, 12]
    assert leaky_relu_ext(x - 3, 0.5).asnumpy().tolist() == [[-1.5, -1, -0.5], [0, 1, 2]]
    assert argsort_ext(-x).asnumpy().tolist() == [[2, 1, 0], [2, 1, 0]]

    class Add(cellgraph.nn.Cell):
        def construct(self, a, b, alpha):
            return add_ext(a, b, alpha)

    assert Add()(x, y, 2.0).asnumpy().tolist() == [[2, 3, 4], [5, 6, 7]]


def test_auto_generate_package_holds_both():
    from cellgraph.ops import auto_generate

    assert auto_generate.MaxPoolWithIndices is ops.MaxPoolWithIndices
    assert auto_generate.gen_ops_prim.MaxPoolWithMask is ops.MaxPoolWithMask
    assert ops.operations.MaxPoolWithIndices is ops.MaxPoolWithIndices


def test_the_package_answers_for_the_instances():
    """`ops.auto_generate.<name>_op`, as MindSpore's tests call them."""
    from cellgraph.ops import auto_generate

    assert type(auto_generate.tracev2_grad_op).__name__ == "TraceV2Grad"
    assert type(auto_generate.lstsq_v2_grad_op).__name__ == "LstsqV2Grad"
    with pytest.raises(AttributeError):
        _ = auto_generate.no_such_thing
