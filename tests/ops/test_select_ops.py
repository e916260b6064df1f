"""MindSpore's spellings of the sorting, scatter, linear-algebra, rounding and bitwise
primitives (functional ops with positional arguments, primitive classes, Tensor methods) with
hand-written expected values, in PyNative and graph mode; and their argument errors. The
kernels, gradients and batching rules themselves are checked from tests/ops/kernel_cases_select.py.
"""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.testing import check_grads

from .nn_helpers import assert_both, both_ways

I32 = np.int32
DOC = np.array([[8, 2, 1], [5, 9, 3], [4, 6, 7]], np.float32)  # MindSpore's Sort example


def test_sort_example_and_spellings():
    values = np.array([[1, 2, 8], [3, 5, 9], [4, 6, 7]], np.float32)
    indices = np.array([[2, 1, 0], [2, 0, 1], [0, 1, 2]], I32)
    assert_both(lambda x: ops.Sort()(x), (DOC,), (values, indices))
    assert_both(lambda x: ops.sort(x, -1, False), (DOC,), (values, indices))
    assert_both(lambda x: x.sort(), (DOC,), (values, indices))
    down = np.array([[8, 9, 7], [5, 6, 3], [4, 2, 1]], np.float32), np.array(
        [[0, 1, 2], [1, 2, 1], [2, 0, 0]], I32)
    assert_both(lambda x: ops.Sort(axis=0, descending=True)(x), (DOC,), down)
    out = ops.Sort()(Tensor(DOC))[1]
    assert out.dtype == cellgraph.int32


def test_argsort_keeps_equal_elements_in_input_order():
    x = np.array([2.0, 1.0, 2.0, 1.0], np.float32)
    assert_both(lambda x: ops.argsort(x), (x,), np.array([1, 3, 0, 2]))
    assert_both(lambda x: ops.argsort(x, descending=True), (x,), np.array([0, 2, 1, 3]))
    assert_both(lambda x: x.argsort(0, True), (x,), np.array([0, 2, 1, 3]))


def test_cummax_example_and_cummin():
    x = np.array([[3, 4, 6, 10], [1, 6, 7, 9], [4, 3, 8, 7], [1, 3, 7, 9]], np.float32)
    expected = (np.array([[3, 4, 6, 10], [3, 6, 7, 10], [4, 6, 8, 10], [4, 6, 8, 10]]),
                np.array([[0, 0, 0, 0], [0, 1, 1, 0], [2, 1, 2, 0], [2, 1, 2, 0]]))
    assert_both(lambda x: ops.cummax(x, axis=0), (x,), expected)
    assert_both(lambda x: ops.Cummax(axis=0)(x), (x,), expected)
    assert_both(lambda x: x.cummin(1), (x[:2],), (np.array([[3, 3, 3, 3], [1, 1, 1, 1]]),
                                                   np.zeros((2, 4))))
    grad = cellgraph.grad(lambda x: ops.cummax(x, 0)[0].sum())(Tensor(x[:, :1]))
    np.testing.assert_allclose(grad.asnumpy(), [[2], [0], [2], [0]])


def test_argmin_flattens_without_axis_and_handles_unsigned():
    x = np.array([[3, 1, 1], [0, 5, 0]], np.uint8)
    assert_both(ops.argmin, (x,), np.array(3))
    assert_both(lambda x: ops.Argmin()(x), (x,), np.array([1, 0]))
    assert_both(lambda x: ops.Argmin(axis=0)(x), (x,), np.array([1, 0, 1]))


def test_topk_example_and_spellings():
    x = np.array([[0.5368, 0.2447, 0.4302, 0.9673],
                  [0.4388, 0.6525, 0.4685, 0.1868],
                  [0.3563, 0.5152, 0.9675, 0.8230]], np.float32)
    expected = (np.array([[0.9673, 0.5368], [0.6525, 0.4685], [0.9675, 0.8230]], np.float32),
                np.array([[3, 0], [1, 2], [2, 3]], I32))
    assert_both(lambda x: ops.topk(x, 2, dim=1), (x,), expected)
    assert_both(lambda x: ops.TopK(sorted=True)(x, 2), (x,), expected)
    assert_both(lambda x: ops.top_k(x, 2), (x,), expected)
    assert_both(lambda x: x.topk(2), (x,), expected)
    smallest = (np.array([[0.3563, 0.2447, 0.4302, 0.1868]], np.float32),
                np.array([[2, 0, 0, 1]], I32))
    assert_both(lambda x: ops.topk(x, 1, 0, False), (x,), smallest)


def test_topk_with_a_tensor_k():
    x = Tensor(np.array([[1.0, 5.0, 3.0], [4.0, 0.5, 2.0]], np.float32))

    @cellgraph.jit
    def largest(x, k):
        return ops.topk(x, k, dim=1)

    values, indices = largest(x, Tensor([2]))
    np.testing.assert_array_equal(values.asnumpy(), [[5, 3], [4, 2]])
    np.testing.assert_array_equal(indices.asnumpy(), [[1, 2], [0, 2]])
    values, _ = largest(x, Tensor(0))  # the same graph: k is read at run time
    assert values.shape == (2, 0)
    # a Tensor whose value is known when the call is made gives a static size
    assert ops.topk(x, Tensor([1]))[0].shape == (2, 1)
    with pytest.raises(ValueError, match=r"in \[0, 3\], got 4"):
        largest(x, Tensor([4]))


def test_topk_with_a_tensor_k_joins_a_branch_and_differentiates():
    @cellgraph.jit
    def pick(x, k):
        if k == 0:
            return ops.zeros((0,), cellgraph.float32)
        return ops.topk(x, k)[0]

    x = Tensor(np.array([1.0, 5.0, 3.0], np.float32))
    assert pick(x, Tensor([0])).shape == (0,)
    np.testing.assert_array_equal(pick(x, Tensor([2])).asnumpy(), [5, 3])
    grad = cellgraph.grad(lambda x, k: (ops.topk(x, k)[0] ** 2).sum())
    np.testing.assert_allclose(grad(x, Tensor([2])).asnumpy(), [0, 10, 6])
    check_grads(lambda x, k: ops.topk(x, k, dim=0)[0] ** 3,
                (Tensor(np.array([[1.0, 5.0], [3.0, 2.0], [0.5, 7.0]])), Tensor([2])), order=2)


def test_searchsorted_bucketize_median():
    seq = np.array([[0, 1, 3, 5, 7], [2, 4, 6, 8, 10]], np.float32)
    values = np.array([[3, 6, 9], [3, 6, 9]], np.float32)
    assert_both(ops.searchsorted, (seq, values), np.array([[2, 4, 5], [1, 2, 4]]))
    assert_both(lambda s, v: ops.searchsorted(s, v, right=True, out_int32=True), (seq, values),
                np.array([[3, 4, 5], [1, 3, 4]]))
    assert_both(lambda s, v: ops.searchsorted(s, v, side="right"), (seq[0], values[:1]),
                np.array([[3, 4, 5]]))
    ints = np.array([[3, 6, 9], [3, 6, 9]], np.int64)
    assert_both(lambda x: ops.bucketize(x, [1.0, 3.0, 5.0, 7.0, 9.0], right=True), (ints,),
                np.array([[2, 3, 5], [2, 3, 5]]))
    assert_both(lambda x: ops.bucketize(x, [1.0, 3.0, 5.0, 7.0, 9.0]), (ints,),
                np.array([[1, 3, 4], [1, 3, 4]]))
    assert_both(lambda x: ops.Bucketize(boundaries=[1.0, 3.0, 5.0, 7.0, 9.0])(x), (ints,),
                np.array([[2, 3, 5], [2, 3, 5]]))
    x = np.array([[0.57, 0.11, 0.21], [0.38, 0.50, 0.57], [0.36, 0.16, 0.44]], np.float32)
    assert_both(lambda x: ops.median(x, axis=0), (x,),
                (np.array([0.38, 0.16, 0.44], np.float32), np.array([1, 2, 2])))
    assert_both(lambda x: x.median(1, True), (x,),
                (np.array([[0.21], [0.50], [0.36]], np.float32), np.array([[2], [1], [0]])))
    grad = cellgraph.grad(lambda x: ops.median(x, 0)[0].sum())(Tensor(x))
    np.testing.assert_allclose(grad.asnumpy(), [[0, 0, 0], [1, 0, 0], [0, 1, 1]])
    assert_both(ops.inv, (np.array([0.5, -4.0]),), np.array([2.0, -0.25]))
    assert_both(lambda x: ops.Inv()(x), (np.array([0.5, -4.0]),), np.array([2.0, -0.25]))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's notes on 1 / 0 and its cast
def test_inv_of_integers_keeps_the_dtype():
    # MindSpore 2.10: Inv on int32 [0, 2, -1, 1, 3] gives [-2147483648, 0, -1, 1, 0] (int32),
    # on int64 [0, 3] gives [-9223372036854775808, 0] (int64)
    x = np.array([0, 2, -1, 1, 3], np.int32)
    for got in (ops.Inv()(Tensor(x)), ops.inv(Tensor(x))):
        assert got.dtype == cellgraph.int32
        np.testing.assert_array_equal(got.asnumpy(), [-2147483648, 0, -1, 1, 0])
    got = ops.Inv()(Tensor(np.array([0, 3], np.int64)))
    assert got.dtype == cellgraph.int64
    np.testing.assert_array_equal(got.asnumpy(), [np.iinfo(np.int64).min, 0])


def test_invert_is_the_bitwise_not():
    # MindSpore 2.10: ops.invert(int16 [8, -3, 0]) is [-9, 2, -1]; uint8 [5] gives [250]
    from cellgraph.ops import functional as F

    for invert in (ops.invert, F.invert):
        got = invert(Tensor(np.array([8, -3, 0], np.int16)))
        assert got.dtype == cellgraph.int16
        np.testing.assert_array_equal(got.asnumpy(), [-9, 2, -1])
    np.testing.assert_array_equal(ops.invert(Tensor(np.array([5], np.uint8))).asnumpy(), [250])


def test_unique_keeps_the_order_of_first_occurrence():
    # MindSpore 2.10's Unique, and ops.unique, which ravels its input
    x = np.array([8.0, -3.0, 0.0, 0.0, 10.0, 1.0, 21.0, -3.0, 11.0, 4.0, -2.0, 10.0, 8.0],
                 np.float32)
    assert_both(lambda x: ops.Unique()(x), (x,),
                (np.array([8, -3, 0, 10, 1, 21, 11, 4, -2], np.float32),
                 np.array([0, 1, 2, 2, 3, 4, 5, 1, 6, 7, 8, 3, 0])))
    values, index = ops.unique(Tensor(np.array([[3, 1], [3, 2]], np.int64)))
    np.testing.assert_array_equal(values.asnumpy(), [3, 1, 2])
    np.testing.assert_array_equal(index.asnumpy(), [[0, 1], [0, 2]])
    assert index.dtype == cellgraph.int64  # int32 for every other input dtype
    assert ops.unique(Tensor(np.array([3, 1], np.int8)))[1].dtype == cellgraph.int32
    # NumPy's unique (cellgraph.numpy, mint) stays sorted
    np.testing.assert_array_equal(cellgraph.numpy.unique(Tensor(x)).asnumpy(),
                                  np.unique(x))


def test_sort_gradient_follows_the_permutation():
    x = Tensor(np.array([3.0, 1.0, 2.0]))
    weights = Tensor(np.array([10.0, 20.0, 30.0]))
    grad = cellgraph.grad(lambda x: (ops.sort(x)[0] * weights).sum())(x)
    np.testing.assert_allclose(grad.asnumpy(), [30.0, 10.0, 20.0])
    top = cellgraph.grad(lambda x: (ops.topk(x, 2)[0] * weights[:2]).sum())(x)
    np.testing.assert_allclose(top.asnumpy(), [10.0, 0.0, 20.0])


def test_gather_nd_and_scatters():
    x = np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]], np.float32)
    idx = np.array([[0, 0], [1, 1]], I32)
    assert_both(lambda x, i: ops.gather_nd(x, i), (x, idx), np.array([-0.1, 0.5], np.float32))
    assert_both(lambda x, i: ops.GatherNd()(x, i), (x, idx), np.array([-0.1, 0.5], np.float32))
    upd = np.array([1.0, 2.0], np.float32)
    assert_both(lambda x, i, u: ops.tensor_scatter_update(x, i, u), (x, idx, upd),
                np.array([[1.0, 0.3, 3.6], [0.4, 2.0, -3.2]], np.float32))
    twice = np.array([[0, 0], [0, 0]], I32)
    assert_both(lambda x, i, u: ops.TensorScatterAdd()(x, i, u), (x, twice, upd),
                np.array([[2.9, 0.3, 3.6], [0.4, 0.5, -3.2]], np.float32))
    assert_both(lambda x, i, u: ops.tensor_scatter_sub(x, i, u), (x, twice, upd),
                np.array([[-3.1, 0.3, 3.6], [0.4, 0.5, -3.2]], np.float32))
    rows = np.array([[4], [3], [1], [7]], I32)
    assert_both(lambda i, u: ops.scatter_nd(i, u, (8,)), (rows, np.arange(9, 13, dtype=I32)),
                np.array([0, 11, 0, 10, 9, 0, 0, 12]))
    assert_both(lambda i, u: ops.ScatterNd()(i, u, (8,)), (rows, np.ones(4, np.float32)),
                np.array([0, 1, 0, 1, 1, 0, 0, 1], np.float32))


def test_tensor_scatter_elements():
    x = np.array([[1, 2, 3, 4, 5]], np.float32)
    idx = np.array([[2, 4]], I32)
    upd = np.array([[8, 8]], np.float32)
    assert_both(lambda x, i, u: ops.tensor_scatter_elements(x, i, u, 1, "none"), (x, idx, upd),
                np.array([[1, 2, 8, 4, 8]], np.float32))
    assert_both(lambda x, i, u: ops.TensorScatterElements(axis=1, reduction="add")(x, i, u),
                (x, idx, upd), np.array([[1, 2, 11, 4, 13]], np.float32))
    assert_both(lambda x, i, u: ops.scatter(x, 1, i, u), (x, idx, upd),
                np.array([[1, 2, 8, 4, 8]], np.float32))


def test_tensor_scatter_reductions():
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    idx = np.array([[0, 1], [0, 1], [1, 0]], I32)
    upd = np.array([5.0, 0.5, 2.0], np.float32)
    assert_both(lambda x, i, u: ops.TensorScatterMax()(x, i, u), (x, idx, upd), [[1, 5], [3, 4]])
    assert_both(ops.tensor_scatter_min, (x, idx, upd), [[1, 0.5], [2, 4]])
    assert_both(ops.tensor_scatter_mul, (x, idx, upd), [[1, 5], [6, 4]])
    assert_both(lambda x, i, u: ops.TensorScatterDiv()(x, i, u), (x, idx, upd),
                [[1, 0.8], [1.5, 4]])


def test_linalg_hand_values():
    a = np.array([[4.0, 7.0], [2.0, 6.0]])
    assert_both(ops.inverse, (a,), np.array([[0.6, -0.7], [-0.2, 0.4]]))
    assert_both(lambda a: ops.MatrixInverse(adjoint=True)(a), (a,),
                np.array([[0.6, -0.2], [-0.7, 0.4]]))
    assert_both(ops.det, (a,), np.array(10.0))
    assert_both(lambda a: a.det(), (a,), np.array(10.0))
    assert_both(ops.logdet, (a,), np.log(10.0))
    assert_both(lambda a, b: ops.matrix_solve(a, b), (a, np.array([[11.0], [8.0]])),
                np.array([[1.0], [1.0]]))
    spd = np.array([[4.0, 2.0], [2.0, 10.0]])
    assert_both(ops.cholesky, (spd,), np.array([[2.0, 0.0], [1.0, 3.0]]))
    assert_both(lambda a: ops.Cholesky(upper=True)(a), (spd,), np.array([[2.0, 1.0], [0.0, 3.0]]))


def test_svd_reconstructs_and_orders_singular_values():
    a = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    s, u, v = (t.asnumpy() for t in ops.svd(Tensor(a)))
    np.testing.assert_allclose((u * s) @ v.T, a, atol=1e-12)
    np.testing.assert_allclose(u.T @ u, np.eye(2), atol=1e-12)
    # the singular values of a are the square roots of the eigenvalues of a^T a = [[35, 44],
    # [44, 56]]: (91 +- sqrt(91^2 - 4 * 24)) / 2
    root = np.sqrt(91.0 ** 2 - 96.0)
    expected = np.sqrt([(91.0 + root) / 2, (91.0 - root) / 2])
    assert_both(lambda a: ops.svd(a, compute_uv=False), (a,), expected, rtol=1e-12)
    assert_both(lambda a: ops.Svd(compute_uv=False)(a), (a,), expected, rtol=1e-12)
    full = ops.svd(Tensor(a), full_matrices=True)
    assert full[1].shape == (3, 3) and full[2].shape == (2, 2)
    # (the gradient with full_matrices=True: tests/ops/test_svd_full_matrices_grad.py)
    with pytest.raises(RuntimeError, match="full_matrices is True"):
        cellgraph.grad(lambda a: ops.svd(a, full_matrices=True)[1].sum())(Tensor(a[:, :1].T))


def test_qr_reconstructs():
    a = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    q, r = (t.asnumpy() for t in ops.qr(Tensor(a)))
    np.testing.assert_allclose(q @ r, a, atol=1e-12)
    np.testing.assert_allclose(q.T @ q, np.eye(2), atol=1e-12)
    np.testing.assert_allclose(np.tril(r, -1), 0)
    full_q, full_r = ops.Qr(full_matrices=True)(Tensor(a))
    assert full_q.shape == (3, 3) and full_r.shape == (3, 2)
    with pytest.raises(cellgraph.primitives.errors.CompileError, match="rows >= columns"):
        cellgraph.grad(lambda a: ops.qr(a)[1].sum())(Tensor(a.T))


def test_cholesky_vmap_matches_per_example_loop():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 3, 3))
    spd = a @ np.swapaxes(a, -1, -2) + 3 * np.eye(3)
    batched = cellgraph.vmap(ops.cholesky)(Tensor(spd)).asnumpy()
    for k in range(4):
        np.testing.assert_allclose(batched[k], np.linalg.cholesky(spd[k]), rtol=1e-12)


def test_rounding_and_bitwise():
    x = np.array([-1.5, -0.5, 0.5, 1.5, 2.7], np.float32)
    assert_both(ops.floor, (x,), np.array([-2, -1, 0, 1, 2], np.float32))
    assert_both(lambda x: ops.Ceil()(x), (x,), np.array([-1, -0.0, 1, 2, 3], np.float32))
    assert_both(lambda x: x.round(), (x,), np.array([-2, -0.0, 0, 2, 3], np.float32))
    assert_both(lambda x: ops.round(x, decimals=1), (np.array([1.26, -0.04]),), [1.3, -0.0])
    a, b = np.array([7, -7], I32), np.array([2, 2], I32)
    assert_both(ops.floor_div, (a, b), np.array([3, -4]))
    assert_both(lambda a, b: ops.FloorMod()(a, b), (a, b), np.array([1, 1]))
    assert_both(lambda a, b: ops.RightShift()(a, b), (np.array([8, 5], I32), b), [2, 1])
    assert_both(ops.bitwise_xor, (np.array([12], I32), np.array([10], I32)), [6])
    assert_both(ops.log10, (np.array([1000.0, 0.01]),), [3.0, -2.0])
    assert_both(ops.log2, (np.array([8.0, 0.5]),), [3.0, -1.0])
    assert_both(ops.erfc, (np.array([0.0]),), [1.0])


def test_results_sized_by_the_values():
    x = np.array([[1.0, 0.0], [-2.0, 3.0]], np.float32)
    assert_both(ops.nonzero, (x,), np.array([[0, 0], [1, 0], [1, 1]]))
    assert_both(lambda x: ops.nonzero(x, as_tuple=True), (x,), (np.array([0, 1, 1]),
                                                               np.array([0, 0, 1])))
    mask = np.array([False, True])
    assert_both(lambda x, m: ops.masked_select(x, m), (x, mask), np.array([0.0, 3.0]))
    assert_both(lambda x, m: x.masked_select(m), (x, mask), np.array([0.0, 3.0]))
    assert_both(lambda x: ops.Unique()(x), (np.array([1, 5, 2, 5], I32),),
                (np.array([1, 5, 2]), np.array([0, 1, 2, 1])))
    grad = cellgraph.grad(lambda x: (ops.masked_select(x, Tensor(mask)) * 3.0).sum())
    np.testing.assert_allclose(grad(Tensor(x)).asnumpy(), [[0, 3], [0, 3]])
    ids = np.array([2, 4, 1, 0, 0, 10])
    assert_both(ops.bincount, (ids,), np.array([2, 1, 1, 0, 1, 0, 0, 0, 0, 0, 1]))
    assert_both(lambda i, w: i.bincount(w, 12), (ids, np.arange(6.0)),
                np.array([7.0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 5, 0]))
    mean = cellgraph.grad(lambda x: ops.masked_select(x, Tensor(mask)).mean())
    np.testing.assert_allclose(mean(Tensor(x)).asnumpy(), [[0, 0.5], [0, 0.5]])
    assert_both(lambda x: ops.cast(ops.nonzero(x), cellgraph.float32).sum(0), (x,), [2, 1])


class _TopKCell(nn.Cell):
    def __init__(self):
        super().__init__()
        self.topk = ops.TopK()
        self.sort = ops.Sort(descending=True)

    def construct(self, x):
        values, _ = self.topk(x, 2)
        ordered, order = self.sort(x)
        return values.sum() + ordered[0], order


def test_primitive_classes_inside_construct():
    out, order = _TopKCell()(Tensor(np.array([1.0, 5.0, 3.0], np.float32)))
    assert float(out.asnumpy()) == 13.0
    np.testing.assert_array_equal(order.asnumpy(), [1, 2, 0])


@pytest.mark.parametrize("fn, args, error, message", [
    (lambda x: ops.topk(x, 4), [np.zeros(3)], ShapeError, "TopK: expected k in [0, 3]"),
    (lambda x: ops.topk(x, 1.5), [np.zeros(3)], DTypeError, "topk: expected an int `k`"),
    (lambda x: ops.sort(x, descending=1), [np.zeros(3)], DTypeError, "expected a bool"),
    (lambda x: ops.sort(x), [np.zeros(3, bool)], DTypeError, "Sort: expected a real numeric tensor"),
    (lambda x: ops.sort(x, 2), [np.zeros((2, 2))], ShapeError, "axis 2 is out of range"),
    (lambda x: ops.gather_nd(x, np.zeros((2, 3), I32)), [np.zeros((2, 2))], ShapeError,
     "GatherNd: indices address 3 axes"),
    (lambda x: ops.tensor_scatter_update(x, np.zeros((2, 1), I32), np.zeros((3,))),
     [np.zeros((2, 2))], ShapeError, "expected updates of shape (2, 2)"),
    (lambda x: ops.tensor_scatter_elements(x, np.zeros((1, 1), I32), np.zeros((1, 1)), 0,
                                           "mul"),
     [np.zeros((2, 2))], ArgumentValueError, "expected reduction in ('none', 'add')"),
    (ops.inverse, [np.zeros((2, 3))], ShapeError, "expected square matrices"),
    (ops.det, [np.zeros((2, 2), I32)], DTypeError, "MatrixDeterminant: expected a float32 or float64 input, got Int32"),
    (lambda a, b: ops.bitwise_and(a, b), [np.zeros(2), np.zeros(2)], DTypeError,
     "BitwiseAnd: expected integer or bool tensors"),
])
def test_argument_errors(fn, args, error, message):
    with pytest.raises(error) as info:
        fn(*[Tensor(a) for a in args])
    assert message in str(info.value)


def test_random_permutations_follow_the_seed():
    cellgraph.set_seed(5)
    first = ops.randperm(7).asnumpy()
    cellgraph.set_seed(5)
    np.testing.assert_array_equal(ops.randperm(7).asnumpy(), first)
    np.testing.assert_array_equal(np.sort(first), np.arange(7))
    assert ops.randperm(3, dtype=cellgraph.int32).dtype == cellgraph.int32
    rows = np.arange(12.0).reshape(6, 2)
    shuffled = cellgraph.jit(lambda x: ops.shuffle(x))(Tensor(rows)).asnumpy()
    np.testing.assert_array_equal(shuffled[np.argsort(shuffled[:, 0])], rows)
    padded = ops.Randperm(max_length=5, pad=-1)(Tensor(np.array([3], I32))).asnumpy()
    np.testing.assert_array_equal(np.sort(padded[:3]), [0, 1, 2])
    np.testing.assert_array_equal(padded[3:], [-1, -1])
    grad = cellgraph.grad(lambda x: (ops.shuffle(x) * 2.0).sum())(Tensor(rows))
    np.testing.assert_allclose(grad.asnumpy(), np.full((6, 2), 2.0))


def test_gamma_family_spellings():
    x = np.array([1.0, 2.0, 4.0])
    assert_both(lambda x: ops.Lgamma()(x), (x,), np.log([1.0, 1.0, 6.0]), atol=1e-14)
    assert_both(lambda x: x.digamma(), (x,), np.array([0.0, 1.0, 1.5 + 1 / 3]) - 0.5772156649015329)
    assert_both(lambda x: ops.Polygamma()(1, x), (x[:1],), np.array([np.pi ** 2 / 6]))
    assert_both(ops.erfinv, (np.array([0.0, 0.5204998778130465]),), np.array([0.0, 0.5]))
    grad2 = cellgraph.grad(cellgraph.grad(lambda x: ops.lgamma(x).sum()))(Tensor(x[:1]))
    np.testing.assert_allclose(grad2.asnumpy(), [np.pi ** 2 / 6])
    with pytest.raises(DTypeError, match="Polygamma: expected an int order"):
        ops.polygamma(1.5, Tensor(x))


def test_cholesky_solve_reads_one_triangle_of_the_factor():
    # MindSpore 2.10's result; the factor's other triangle (7s) is not read
    b = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    factor = np.array([[2.0, 7, 7], [1, 3, 7], [1, 1, 2]])
    expected = np.array([[-0.19444444, 0.0], [-0.02777778, 0.0], [0.91666667, 1.0]])
    assert_both(ops.cholesky_solve, (b, factor), expected)
    assert_both(lambda x, u: ops.cholesky_solve(x, u, upper=True), (b, factor.T), expected)
    np.testing.assert_allclose(
        ops.CholeskySolve()(Tensor(b, cellgraph.float32), Tensor(factor, cellgraph.float32))
        .asnumpy(), expected, rtol=1e-5)
    check_grads(ops.cholesky_solve, (Tensor(b), Tensor(np.tril(factor))), order=2)
    with pytest.raises(TypeError, match="float32 or float64"):
        ops.cholesky_solve(Tensor(np.ones((3, 2), I32)), Tensor(np.eye(3, dtype=I32)))


def test_masked_select_grad_with_a_sens_of_known_size_as_mindspore():
    """The sens of masked_select has a size known to the caller while the selection's size is
    known only at run time: the gradient still goes back to the selected positions (MindSpore
    2.10's values)."""
    import cellgraph as cg

    class Net(cg.nn.Cell):
        def construct(self, x, mask):
            return cg.ops.masked_select(x, mask)

    x = cg.Tensor(np.arange(16, dtype=np.float32).reshape(4, 4))
    mask = cg.Tensor(np.array([[1, 0, 1, 0]] * 4, bool))
    grad = cg.ops.GradOperation(sens_param=True)(Net())(
        x, mask, cg.Tensor(np.arange(8, dtype=np.float32)))
    np.testing.assert_array_equal(grad.asnumpy(), [[0, 0, 1, 0], [2, 0, 3, 0], [4, 0, 5, 0],
                                                   [6, 0, 7, 0]])


def test_cholesky_inverse_as_mindspore():
    # MindSpore 2.10 (its documented example, and upper=True on the same factor read whole)
    u = np.array([[2, 0, 0], [4, 1, 0], [-1, 1, 2]], np.float32)
    np.testing.assert_allclose(ops.cholesky_inverse(Tensor(u)).asnumpy(),
                               [[5.8125, -2.625, 0.625], [-2.625, 1.25, -0.25],
                                [0.625, -0.25, 0.25]], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ops.CholeskyInverse(upper=True)(Tensor(u)).asnumpy(),
                               [[0.25, -1.0, 0.625], [-1.0, 5.0, -3.0], [0.625, -3.0, 2.0625]],
                               rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="input x must be batch squares, but got batch 2 x 3"):
        ops.cholesky_inverse(Tensor(np.ones((2, 3), np.float32)))
    factor = Tensor(np.array([[1.5, 0.0], [0.3, 1.2]]))
    check_grads(lambda f: ops.cholesky_inverse(f), (factor,), order=2)


def test_running_extrema_carry_a_nan_on():
    # MindSpore 2.10: a NaN wins and stays, indexed by the latest NaN
    x = Tensor(np.array([1, np.nan, np.nan, 2, 0, 5], np.float32))
    for op in (ops.cummax, ops.cummin):
        values, index = op(x, 0)
        np.testing.assert_array_equal(values.asnumpy(), [1, np.nan, np.nan, np.nan, np.nan, np.nan])
        np.testing.assert_array_equal(index.asnumpy(), [0, 1, 2, 2, 2, 2])
    x = Tensor(np.array([[3, 1, 3, 3], [np.nan, 0, 1, 7]], np.float32))
    np.testing.assert_array_equal(ops.cummax(x, 1)[1].asnumpy(), [[0, 0, 2, 3], [0, 0, 0, 0]])
    np.testing.assert_array_equal(ops.cummin(x, 0)[1].asnumpy(), [[0, 0, 0, 0], [1, 1, 1, 0]])
    x = Tensor(np.array([4, np.inf, 1.5, -np.inf, 0, np.nan, 1], np.float16))
    np.testing.assert_array_equal(ops.cummin(x, 0)[1].asnumpy(), [0, 0, 2, 3, 3, 5, 5])


def test_median_of_a_scalar_is_itself_at_index_zero():
    # MindSpore 2.10: ops.median(Tensor(2.5)) is (2.5, 0), the index int64
    for got in both_ways(lambda s: ops.median(s), np.array(2.5, np.float32)):
        value, index = got
        assert (float(value), int(index), index.dtype) == (2.5, 0, np.int64)
    with pytest.raises(ValueError):
        ops.median(Tensor(np.float32(2.5)), axis=1)
