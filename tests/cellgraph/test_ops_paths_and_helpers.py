"""Names over the ops layer: ops.is_tensor / ops.Tensor / F.make_range, the in-place scatter
functions, ops.operations' MindSpore submodules, auto_generate's Clone/Contiguous and
`*_impl` callables, numpy's corrcoef/interp/randint/searchsorted/unique, mint.linalg.inv,
nn.MatMul and the serialization type tables."""
import numpy as onp
import pytest

import cellgraph as ms
import cellgraph.numpy as mnp
from cellgraph import Parameter, Tensor, jit, mint, nn, ops
from cellgraph.testing import check_grads

RNG = onp.random.default_rng(3)


def test_is_tensor_tensor_class_and_make_range():
    assert ops.Tensor is ms.Tensor
    assert ops.is_tensor(Tensor(onp.ones(2))) and not ops.is_tensor(2.0)

    @jit
    def inside(x):
        return x * 2 if ops.is_tensor(x) else x

    onp.testing.assert_array_equal(inside(Tensor(onp.ones(2))).asnumpy(), [2.0, 2.0])
    F = ops.functional
    assert F.make_range(4) == (0, 1, 2, 3) and F.make_range(1, 8, 3) == (1, 4, 7)
    with pytest.raises(TypeError, match="make_range"):
        F.make_range(1.5)


def test_scatter_add_and_scatter_nd_add_update_the_parameter():
    p = Parameter(Tensor(onp.zeros((3, 2), onp.float32)), name="p")
    ops.scatter_add(p, Tensor(onp.array([0, 0, 2], onp.int32)),
                    Tensor(onp.ones((3, 2), onp.float32)))
    onp.testing.assert_array_equal(p.asnumpy(), [[2, 2], [0, 0], [1, 1]])
    out = ops.scatter_nd_add(p, Tensor(onp.array([[1, 1], [1, 1]], onp.int32)),
                             Tensor(onp.array([5.0, 1.0], onp.float32)))
    onp.testing.assert_array_equal(out.asnumpy(), [[2, 2], [0, 6], [1, 1]])
    onp.testing.assert_array_equal(p.asnumpy(), out.asnumpy())
    plain = Tensor(onp.zeros(2))   # a plain Tensor is updated in place, as in MindSpore
    ops.scatter_nd_add(plain, Tensor(onp.array([[0]])), Tensor(onp.ones(1)))
    onp.testing.assert_array_equal(plain.asnumpy(), [1, 0])


def test_operations_submodules():
    from cellgraph.ops.operations.array_ops import MaskedScatter, Range, ReverseSequence, Unstack
    from cellgraph.ops.operations.math_ops import Addcmul, Cdist, Eps, LinSpace, Logit, LpNorm
    from cellgraph.ops.operations.nn_ops import Conv2D, Softmax

    for cls in (MaskedScatter, Range, ReverseSequence, Unstack, Addcmul, Cdist, Eps, LinSpace,
                Logit, LpNorm, Conv2D, Softmax):
        assert getattr(ops, cls.__name__) is cls is getattr(ops.operations, cls.__name__)
    assert ops.operations.math_ops.ReduceStd is ops.ReduceStd


def test_auto_generate_clone_contiguous_and_impls():
    from cellgraph.ops.auto_generate import gen_ops_prim
    from cellgraph.ops.auto_generate import pyboost_inner_prim as inner

    x = Tensor(onp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], onp.float32))
    copy = gen_ops_prim.Clone()(x)
    assert copy is not x
    copy[0, 0] = 9.0
    assert x.asnumpy()[0, 0] == 1.0
    assert gen_ops_prim.Contiguous()(x) is x
    assert gen_ops_prim.clone_op(x).asnumpy().tolist() == x.asnumpy().tolist()
    from cellgraph.ops.auto_generate import contiguous  # the functional forms
    from cellgraph.ops.auto_generate import copy as copy_fn

    assert copy_fn(x) is not x and copy_fn(x).asnumpy().tolist() == x.asnumpy().tolist()
    assert contiguous(x).asnumpy().tolist() == x.asnumpy().tolist()
    check_grads(lambda t: gen_ops_prim.Clone()(t) * t, (Tensor(onp.ones(3)),), order=2)
    y = Tensor(onp.array([[0.0, 1.0, 0.0], [1.0, 0.0, 2.0]], onp.float32))
    onp.testing.assert_allclose(inner.cross_impl(x, y, 1).asnumpy(),
                                onp.cross(x.asnumpy(), y.asnumpy()))
    onp.testing.assert_array_equal(inner.triu_impl(x, 1).asnumpy(), onp.triu(x.asnumpy(), 1))
    values, inverse, counts = inner.unique_consecutive_impl(Tensor(onp.array([4, 4, 1])),
                                                            False, False, None)
    assert (values.asnumpy().tolist(), inverse.asnumpy().tolist(),
            counts.asnumpy().tolist()) == ([4, 1], [0, 0, 1], [2, 1])
    hot = inner.one_hot_ext_impl(Tensor(onp.array([0, 2])), -1)
    assert hot.dtype == ms.int64 and hot.asnumpy().tolist() == [[1, 0, 0], [0, 0, 1]]
    assert inner.one_hot_ext_impl(Tensor(onp.array([1])), 4).shape == (1, 4)


def test_numpy_statistics_and_search():
    x = RNG.normal(size=(3, 6))
    onp.testing.assert_allclose(mnp.corrcoef(Tensor(x)).asnumpy(), onp.corrcoef(x), rtol=1e-10)
    onp.testing.assert_allclose(mnp.corrcoef(Tensor(x[0]), Tensor(x[1])).asnumpy(),
                                onp.corrcoef(x[0], x[1]), rtol=1e-10)
    onp.testing.assert_allclose(mnp.corrcoef(Tensor(x), rowvar=False).asnumpy(),
                                onp.corrcoef(x, rowvar=False), rtol=1e-10)
    check_grads(lambda t: mnp.corrcoef(t), (Tensor(x),), order=2, rtol=1e-4)
    xp, fp = onp.array([0.0, 1.0, 3.0]), onp.array([1.0, 3.0, 2.0])
    at = onp.array([-1.0, 0.5, 2.0, 3.0, 4.0])
    onp.testing.assert_allclose(mnp.interp(Tensor(at), Tensor(xp), Tensor(fp)).asnumpy(),
                                onp.interp(at, xp, fp))
    onp.testing.assert_allclose(jit(lambda a, b, c: mnp.interp(a, b, c, -5.0, 9.0))(
        Tensor(at), Tensor(xp), Tensor(fp)).asnumpy(), onp.interp(at, xp, fp, -5.0, 9.0))
    check_grads(lambda a, c: mnp.interp(a, Tensor(xp), c), (Tensor(at[1:3]), Tensor(fp)),
                order=2)
    draws = mnp.randint(3, 10, (200,)).asnumpy()
    assert draws.dtype == onp.int32 and draws.min() >= 3 and draws.max() < 10
    assert mnp.randint(4).shape == (1,) and 0 <= int(mnp.randint(4).asnumpy()[0]) < 4
    a = onp.array([1, 2, 2, 3])
    for side in ("left", "right"):
        onp.testing.assert_array_equal(mnp.searchsorted(Tensor(a), Tensor(onp.array([2, 5])),
                                                        side).asnumpy(),
                                       onp.searchsorted(a, [2, 5], side))
    values, inverse = mnp.unique(Tensor(onp.array([[3, 1], [1, 2]])), return_inverse=True)
    assert values.asnumpy().tolist() == [1, 2, 3]
    assert inverse.asnumpy().reshape(-1).tolist() == [2, 0, 0, 1]


def test_mint_inv_nn_matmul_and_serialization_tables():
    m = onp.array([[2.0, 1.0], [1.0, 3.0]])
    onp.testing.assert_allclose(mint.linalg.inv(Tensor(m)).asnumpy(), onp.linalg.inv(m))
    a, b = RNG.normal(size=(2, 4, 3)), RNG.normal(size=(5, 4))
    net = nn.MatMul(transpose_x1=True, transpose_x2=True)
    onp.testing.assert_allclose(net(Tensor(a), Tensor(b)).asnumpy(),
                                a.swapaxes(-1, -2) @ b.T, rtol=1e-10)
    onp.testing.assert_allclose(nn.MatMul()(Tensor(b[0]), Tensor(b.T)).asnumpy(), b[0] @ b.T)
    from cellgraph.train.serialization import tensor_to_ms_type, tensor_to_np_type

    assert tensor_to_ms_type["Float32"] is ms.float32 and tensor_to_ms_type["Bool"] is ms.bool_
    assert tensor_to_np_type["UInt8"] is onp.uint8 and tensor_to_np_type["Bool"] is onp.bool_


def test_conjugate_transpose_and_concat_offset_v1_as_mindspore():
    # MindSpore 2.10's values (ops.operations.array_ops)
    from cellgraph.ops.operations.array_ops import ConcatOffsetV1, ConjugateTranspose

    x = onp.array([[1 + 2j, 3j], [4, 5 - 1j]], onp.complex64)
    onp.testing.assert_array_equal(ConjugateTranspose()(Tensor(x), (1, 0)).asnumpy(),
                                  [[1 - 2j, 4], [-3j, 5 + 1j]])
    real = onp.array([[1, 3], [4, 5]], onp.float32)
    onp.testing.assert_array_equal(ConjugateTranspose()(Tensor(real), (1, 0)).asnumpy(), real.T)
    shapes = [Tensor(onp.array(s, onp.int32)) for s in ([1, 2, 3], [1, 5, 3], [1, 4, 3])]
    offsets = ConcatOffsetV1()(Tensor(onp.int32(1)), tuple(shapes))
    assert [o.asnumpy().tolist() for o in offsets] == [[0, 0, 0], [0, 2, 0], [0, 7, 0]]
    offsets = ConcatOffsetV1()(Tensor(onp.int32(-1)), tuple(shapes[:2]))
    assert [o.asnumpy().tolist() for o in offsets] == [[0, 0, 0], [0, 0, 3]]
