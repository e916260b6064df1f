"""`ops.atleast_*d`, `dstack`, `row_stack`, `hsplit`/`vsplit`/`dsplit`, `reverse`,
`sequence_mask`; `quantile`, `nanquantile` (NumPy's linear interpolation), `nanmedian`, `trapz`,
`dist`, `vecdot` (MindSpore 2.10's values); `gather_elements` keeps NaNs where they are."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from tests.ops.test_fft_with_size import _numeric_grad

A = np.arange(6.0).reshape(2, 3)


def test_raising_ranks_as_numpy():
    arrays = [np.float64(3), np.arange(3.0), A, np.zeros((2, 1, 2, 1))]
    for op, ref in ((ops.atleast_1d, np.atleast_1d), (ops.atleast_2d, np.atleast_2d),
                    (ops.atleast_3d, np.atleast_3d)):
        got = op([Tensor(a) for a in arrays])
        assert [t.shape for t in got] == [r.shape for r in ref(*arrays)]
        assert op(Tensor(arrays[1])).shape == ref(arrays[1]).shape
    with pytest.raises(TypeError, match="each element of 'inputs' must be a tensor"):
        ops.atleast_2d([Tensor(A), [1.0, 2.0]])


def test_stacking_and_splitting_as_numpy():
    b = np.arange(3.0)
    np.testing.assert_array_equal(ops.dstack([Tensor(b), Tensor(b + 1)]).asnumpy(),
                                  np.dstack([b, b + 1]))
    np.testing.assert_array_equal(ops.dstack([Tensor(A), Tensor(A)]).asnumpy(), np.dstack([A, A]))
    np.testing.assert_array_equal(ops.row_stack([Tensor(b), Tensor(A)]).asnumpy(),
                                  np.vstack([b, A]))
    for op, ref, x in ((ops.hsplit, np.hsplit, A), (ops.vsplit, np.vsplit, A),
                       (ops.dsplit, np.dsplit, np.arange(12.0).reshape(1, 2, 6))):
        for sections in (1, [1]):
            got = [t.asnumpy() for t in op(Tensor(x), sections)]
            for g, w in zip(got, ref(x, sections), strict=True):
                np.testing.assert_array_equal(g, w)
    with pytest.raises(ValueError, match="dsplit expect `x` is a Tensor with at least 3"):
        ops.dsplit(Tensor(A), 2)
    with pytest.raises(TypeError, match="'tensors' can not be empty"):
        ops.dstack([])
    np.testing.assert_array_equal(ops.reverse(Tensor(A), [1]).asnumpy(), A[:, ::-1])


class Mask(nn.Cell):
    def construct(self, lengths):
        return ops.sequence_mask(lengths)


def test_sequence_mask():
    lengths = np.array([[1, 3], [2, 0]])
    np.testing.assert_array_equal(ops.sequence_mask(Tensor(lengths), 4).asnumpy(),
                                  np.arange(4) < lengths[..., None])
    # without maxlen the largest length sets it, in a compiled Cell too
    np.testing.assert_array_equal(Mask()(Tensor(np.array([2, 1]))).asnumpy(),
                                  [[True, True], [True, False]])
    with pytest.raises(TypeError, match="int32 or int64"):
        ops.sequence_mask(Tensor(np.array([1.0])), 2)


Q = np.array([[0.5, np.nan, -1.0, 2.0, 3.0], [1.0, 2.0, 4.0, -3.0, 0.0]])


@pytest.mark.parametrize("q", [0.3, np.array([0.1, 0.5, 0.9])])
@pytest.mark.parametrize("axis, keepdims", [(None, False), (None, True), (0, False), (1, True),
                                            (-1, False)])
def test_quantiles_as_numpy(q, axis, keepdims):
    qt = Tensor(q) if isinstance(q, np.ndarray) else q
    got = ops.quantile(Tensor(Q), qt, axis, keepdims).asnumpy()
    np.testing.assert_allclose(got, np.quantile(Q, q, axis=axis, keepdims=keepdims))
    got = ops.nanquantile(Tensor(Q), qt, axis, keepdims).asnumpy()
    np.testing.assert_allclose(got, np.nanquantile(Q, q, axis=axis, keepdims=keepdims))


def test_quantile_gradient_matches_finite_differences():
    x = Q[1:].copy()
    op = lambda v: ops.quantile(v, 0.3, 1)
    np.testing.assert_allclose(ops.grad(op)(Tensor(x)).asnumpy(), _numeric_grad(op, x),
                               atol=1e-7)


def test_statistics_as_mindspore():
    a = Tensor(Q.astype(np.float32))
    values, indices = ops.nanmedian(a, 1)
    np.testing.assert_array_equal(values.asnumpy(), [0.5, 1.0])
    np.testing.assert_array_equal(indices.asnumpy(), [0, 0])
    y = Tensor(np.array([[1.0, 2.0, 4.0], [0.0, 1.0, 3.0]], np.float32))
    np.testing.assert_allclose(ops.trapz(y, Tensor(np.array([0.0, 1.0, 3.0], np.float32)))
                               .asnumpy(), [7.5, 4.5])
    np.testing.assert_allclose(ops.trapz(y, dx=0.5, dim=0).asnumpy(), [0.25, 0.75, 1.75])
    np.testing.assert_allclose(ops.dist(y, y * 2, 3).asnumpy(), 4.6570096, rtol=1e-6)
    np.testing.assert_allclose(ops.vecdot(y, y, axis=0).asnumpy(), [1.0, 5.0, 25.0])
    with pytest.raises(TypeError, match="the input `dx` must be float"):
        ops.trapz(y, dx=1)
    with pytest.raises(ValueError, match="the input q must be in the range"):
        ops.quantile(a, 1.5)


def test_gather_elements_keeps_nans_and_infinities_in_place():
    x = Tensor(np.array([[1.0, np.inf, 3.0, np.nan], [4.0, 5.0, 6.0, 7.0]]))
    out = ops.gather_elements(x, 1, Tensor(np.array([[0, 2], [3, 1]])))
    np.testing.assert_array_equal(out.asnumpy(), [[1.0, 3.0], [7.0, 5.0]])
    with pytest.raises(RuntimeError, match=r"For 'GatherD', the value of 'index' must be in "
                                           r"\[-4, 4\), but got: 5"):  # MindSpore 2.10's error
        ops.gather_elements(x, 1, Tensor(np.array([[5]])))


def test_masked_fill_broadcasts_input_and_mask_together():
    out = ops.masked_fill(Tensor(np.array([[1.0, 2.0]], np.float32)),
                          Tensor(np.array([[False], [True]])), 0.5)
    np.testing.assert_array_equal(out.asnumpy(), [[1, 2], [0.5, 0.5]])


def test_sum_takes_tensors_only():
    with pytest.raises(TypeError, match="For 'sum', the input must be a Tensor"):
        ops.sum(1)
