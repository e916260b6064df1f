"""batch_dot, matrix_diag and the gathers of ops/function/ against NumPy, eagerly and inside a
graph, with derivatives against finite differences at orders 1 and 2."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, jit, nn, ops
from cellgraph.testing import check_grads

RNG = np.random.default_rng(7)
A = RNG.normal(size=(3, 4))
B = RNG.normal(size=(2, 4))


def both(fn, args, expected, rtol=1e-10):
    """fn on eager Tensors and compiled with jit both give `expected`."""
    tensors = tuple(Tensor(a) if isinstance(a, np.ndarray) else a for a in args)
    got = fn(*tensors)
    compiled = jit(fn)(*tensors)
    for out in (got, compiled):
        outs = out if isinstance(out, tuple) else (out,)
        refs = expected if isinstance(expected, tuple) else (expected,)
        for o, r in zip(outs, refs):
            np.testing.assert_allclose(o.asnumpy(), r, rtol=rtol, atol=1e-12)


def np_masked_scatter(x, mask, source):
    out = x.copy()
    out[mask] = source[:mask.sum()]
    return out


DIFFERENTIABLE = {
    "dense": (lambda x, w: ops.dense(x, w, Tensor(np.array([0.5, -1.0]))), (A, B),
              lambda x, w: x @ w.T + np.array([0.5, -1.0])),
    "inner": (ops.inner, (A, B), lambda x, y: np.inner(x, y)),
    "batch_dot": (lambda x, y: ops.batch_dot(x, y, (-1, -2)),
                  (RNG.normal(size=(2, 2, 3)), RNG.normal(size=(2, 3, 2))),
                  lambda x, y: np.einsum("bij,bjk->bik", x, y)),
    "cross": (lambda x, y: ops.cross(x, y, -1), (RNG.normal(size=(2, 3)),
                                                 RNG.normal(size=(2, 3))),
              lambda x, y: np.cross(x, y)),
    "block_diag": (ops.block_diag, (RNG.normal(size=(2, 2)), RNG.normal(size=(3,))),
                   lambda x, y: np.block([[x, np.zeros((2, 3))], [np.zeros((1, 2)), y]])),
    "diag_embed": (lambda x: ops.diag_embed(x, -1), (RNG.normal(size=(2, 3)),),
                   lambda x: np.stack([np.diag(r, -1) for r in x])),
    "addcmul": (lambda x, y, z: ops.addcmul(x, y, z, 0.5), (A, A[::-1].copy(), A.T.T.copy()),
                lambda x, y, z: x + 0.5 * y * z),
    "take": (lambda x: ops.take(x, Tensor(np.array([[0, -1], [5, 2]]))), (A,),
             lambda x: np.take(x, [[0, -1], [5, 2]])),
    "reverse_sequence": (lambda x: ops.ReverseSequence(1)(x, Tensor(np.array([1, 3, 4]))), (A,),
                         lambda x: np.stack([np.concatenate([r[:n][::-1], r[n:]])
                                             for r, n in zip(x, [1, 3, 4])])),
    "masked_scatter": (lambda x, s: ops.MaskedScatter()(x, Tensor(A > 0), s),
                       (A, RNG.normal(size=(12,))),
                       lambda x, s: np_masked_scatter(x, A > 0, s)),
    "reduce_std": (lambda x: ops.ReduceStd(1)(x), (A,),
                   lambda x: (x.std(1, ddof=1), x.mean(1))),
    "lp_norm": (lambda x: ops.LpNorm(axis=[0, 1], p=3)(x), (RNG.normal(size=(2, 3, 2)),),
                lambda x: (np.abs(x) ** 3).sum((0, 1)) ** (1 / 3)),
    "logit": (lambda x: ops.Logit(0.2)(x), (RNG.uniform(0.3, 0.7, size=(4,)),),
              lambda x: np.log(x / (1 - x))),
    "cdist": (ops.Cdist(2.0), (RNG.normal(size=(3, 2)), RNG.normal(size=(4, 2))),
              lambda x, y: np.sqrt(((x[:, None] - y[None]) ** 2).sum(-1))),
}


@pytest.mark.parametrize("name", list(DIFFERENTIABLE))
def test_compositions_match_numpy_and_differentiate_twice(name):
    fn, args, reference = DIFFERENTIABLE[name]
    both(fn, args, reference(*args))
    check_grads(fn, tuple(Tensor(a) for a in args), order=2, rtol=1e-4)


def test_batch_dot_shapes_follow_mindspore():
    ones = lambda *s: Tensor(np.ones(s, np.float32))
    assert ops.batch_dot(ones(6, 2, 3, 4), ones(6, 5, 4, 8)).shape == (6, 2, 3, 5, 8)
    assert ops.batch_dot(ones(2, 2, 4), ones(2, 5, 4, 5), 2).shape == (2, 2, 5, 5)
    out = ops.batch_dot(ones(2, 2), ones(2, 3, 2), (1, 2))
    np.testing.assert_array_equal(out.asnumpy(), np.full((2, 3), 2.0))
    assert ops.batch_dot(ones(3, 4), ones(3, 4)).shape == (3, 1)
    with pytest.raises(ValueError, match="batch axis"):
        ops.batch_dot(ones(2, 2), ones(2, 2), (0, 1))
    with pytest.raises(ValueError, match="batch sizes"):
        ops.batch_dot(ones(2, 2), ones(3, 2))


def test_matrix_diag_bands_alignments_and_gradient():
    x = np.array([[8.0, 9.0, 0.0], [1.0, 2.0, 3.0], [0.0, 4.0, 5.0]])
    both(lambda v: ops.matrix_diag(v, Tensor(np.array([-1, 1], np.int32)), 3, 3, 11.0,
                                   "LEFT_RIGHT"),
         (x,), np.array([[1.0, 8, 11], [4, 2, 9], [11, 5, 3]]))
    # RIGHT_LEFT: the superdiagonal sits at its row's right end, the subdiagonal at its left
    both(lambda v: ops.matrix_diag(v, (-1, 1)), (x,),
         np.array([[1.0, 9, 0], [0, 2, 0], [0, 4, 3]]))
    v = RNG.normal(size=(2, 3))
    both(lambda t: ops.matrix_diag(t, 1), (v,), np.stack([np.diag(r, 1) for r in v]))
    both(lambda t: ops.matrix_diag(t, 0, 3, 4), (v,),
         np.stack([np.eye(3, 4) * np.append(r, 0)[None, :4] for r in v]))
    check_grads(lambda t: ops.matrix_diag(t, (-1, 1), padding_value=2.0), (Tensor(x),), order=2)
    with pytest.raises(ValueError, match="align"):
        ops.matrix_diag(Tensor(v), align="UP")


def test_matrix_diag_part_and_set_diag_follow_mindspore():
    # the values MindSpore 2.10 gives for these calls
    x = np.arange(1.0, 13.0).reshape(3, 4)
    band = Tensor(np.array([-1, 1], np.int32))
    both(lambda t: ops.matrix_diag_part(t, band, 0.0), (x,),
         np.array([[2.0, 7, 12], [1, 6, 11], [5, 10, 0]]))
    both(lambda t: ops.matrix_diag_part(t, band, 0.0, "LEFT_RIGHT"), (x,),
         np.array([[2.0, 7, 12], [1, 6, 11], [0, 5, 10]]))
    both(lambda t: ops.matrix_diag_part(t, 1, 9.0), (x,), np.array([2.0, 7, 12]))
    rows = np.array([[10.0, 11, 12], [20, 21, 22]])
    both(lambda t, d: ops.matrix_set_diag(t, d, Tensor(np.array([0, 1]))), (x, rows),
         np.array([[20.0, 10, 3, 4], [5, 21, 11, 8], [9, 10, 22, 12]]))
    both(lambda t, d: ops.matrix_set_diag(t, d), (x, np.array([7.0, 8, 9])),
         np.array([[7.0, 2, 3, 4], [5, 8, 7, 8], [9, 10, 9, 12]]))
    check_grads(lambda t: ops.matrix_diag_part(t, (-1, 1), 0.0), (Tensor(x),), order=2)
    check_grads(lambda t, d: ops.matrix_set_diag(t, d, (0, 1)), (Tensor(x), Tensor(rows)),
                order=2)
    with pytest.raises(ValueError, match="diagonal"):
        ops.matrix_set_diag(Tensor(x), Tensor(rows))
    part = ops.MatrixDiagPartV3(align="LEFT_RIGHT")(Tensor(x), band, Tensor(0.0))
    np.testing.assert_array_equal(part.asnumpy(), [[2.0, 7, 12], [1, 6, 11], [0, 5, 10]])


def test_intopk_counts_ties_as_in():
    x1 = Tensor(np.array([[1, 8, 5, 2, 7], [4, 9, 1, 3, 5]], np.float32))
    both(lambda a, b: ops.intopk(a, b, 3), (x1, Tensor(np.array([1, 3], np.int32))),
         np.array([True, False]))
    tie = Tensor(np.array([[1.0, 1.0, 1.0, 0.0]], np.float32))
    assert ops.intopk(tie, Tensor(np.array([2], np.int32)), 1).asnumpy().tolist() == [True]
    assert ops.intopk(tie, Tensor(np.array([7], np.int32)), 4).asnumpy().tolist() == [False]


def test_windows_and_sizes():
    n = np.arange(5)
    np.testing.assert_allclose(ops.hann_window(5).asnumpy(), 0.5 - 0.5 * np.cos(2 * np.pi * n / 5),
                               rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(ops.hann_window(5, False, dtype=ms.float64).asnumpy(),
                               np.hanning(5))
    assert ops.size(Tensor(A)) == 12 and ops.rank(Tensor(A)) == 2 and ops.Rank()(Tensor(A)) == 2


def test_range_unstack_unique_consecutive():
    out = ops.Range()(Tensor(np.array(1, np.int32)), Tensor(np.array(10, np.int32)),
                      Tensor(np.array(4, np.int32)))
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [1, 5, 9]
    pieces = ops.Unstack(axis=1)(Tensor(A))
    assert len(pieces) == 4 and np.array_equal(pieces[2].asnumpy(), A[:, 2])
    values, idx, counts = ops.unique_consecutive(Tensor(np.array([1, 1, 2, 2, 3, 1, 1, 2])),
                                                 True, True)
    assert values.asnumpy().tolist() == [1, 2, 3, 1, 2]
    assert idx.asnumpy().tolist() == [0, 0, 1, 1, 2, 3, 3, 4]
    assert counts.asnumpy().tolist() == [2, 2, 1, 2, 1]
    rows = np.array([[1, 1], [1, 1], [2, 0], [1, 1]])
    values, counts = ops.unique_consecutive(Tensor(rows), return_counts=True, dim=0)
    assert values.asnumpy().tolist() == [[1, 1], [2, 0], [1, 1]]
    assert counts.asnumpy().tolist() == [2, 1, 1]


def test_in_a_cell_construct():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.std = ops.ReduceStd(axis=0, unbiased=False)
            self.reverse = ops.ReverseSequence(seq_dim=1)

        def construct(self, x, lengths):
            std, mean = self.std(x)
            return self.reverse(x, lengths) * std + mean + ops.size(x)

    lengths = np.array([2, 4, 1])
    got = Net()(Tensor(A), Tensor(lengths)).asnumpy()
    reversed_rows = np.stack([np.concatenate([r[:n][::-1], r[n:]]) for r, n in zip(A, lengths)])
    np.testing.assert_allclose(got, reversed_rows * A.std(0) + A.mean(0) + 12, rtol=1e-10)
