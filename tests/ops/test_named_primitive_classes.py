"""Primitive classes MindSpore's ops.operations has (older names: Pack, Unpack, GatherV2,
FastGelu, Gelu; classes of functional ops: Gcd, IsClose, NanToNum, MatrixPower, LuUnpack,
CumulativeLogsumexp, LogSpace, HammingWindow, IndexFill, IndexPut, DiagPart, LowerBound,
TrilIndices, InvertPermutation, ChannelShuffle, GLU, AdaptiveMaxPool2D, MultiMarginLoss,
MultilabelMarginLoss, Bernoulli, Multinomial, ...): MindSpore 2.10's values."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor
from cellgraph.ops import operations as P

X = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32)

CASES = {
    "Pack": (lambda: P.Pack(1)((Tensor(X), Tensor(X))), np.stack([X, X], 1)),
    "GatherV2": (lambda: P.GatherV2()(Tensor(X), Tensor(np.array([1, 0])), 1),
                 [[-2.0, 1.0], [5.0, 4.0]]),
    "Gcd": (lambda: P.Gcd()(Tensor(np.array([12, 18])), Tensor(np.array([8, 12]))), [4, 6]),
    "GLU": (lambda: P.GLU(-1)(Tensor(np.ones((2, 4), np.float32))), np.full((2, 2), 0.7310586)),
    "MatrixBandPart": (lambda: P.MatrixBandPart()(Tensor(np.ones((3, 3), np.float32)), 1, 0),
                       [[1, 0, 0], [1, 1, 0], [0, 1, 1]]),
    "IndexFill": (lambda: P.IndexFill()(Tensor(X), 1, Tensor(np.array([0], np.int32)),
                                        Tensor(9.0, cg.float32)),
                  [[9.0, -2.0, 3.0], [9.0, 5.0, -6.0]]),
    "IndexPut": (lambda: P.IndexPut(0)(Tensor(X), Tensor(np.array([7.0], np.float32)),
                                       (Tensor(np.array([0], np.int32)),
                                        Tensor(np.array([1], np.int32)))),
                 [[1.0, 7.0, 3.0], [4.0, 5.0, -6.0]]),
    "DiagPart": (lambda: P.DiagPart()(Tensor(np.eye(2, dtype=np.float32) * 3)), [3.0, 3.0]),
    "LowerBound": (lambda: P.LowerBound()(Tensor(np.array([[1, 2, 3], [1, 2, 3]])),
                                          Tensor(np.array([[2], [3]]))), [[1], [2]]),
    "UpperBound": (lambda: P.UpperBound()(Tensor(np.array([[1, 2, 3], [1, 2, 3]])),
                                          Tensor(np.array([[2], [3]]))), [[2], [3]]),
    "CumulativeLogsumexp": (lambda: P.CumulativeLogsumexp()(Tensor(X), Tensor(1)),
                            [[1.0, 1.0485873, 3.1328452], [4.0, 5.3132615, 5.313274]]),
    "LogSpace": (lambda: P.LogSpace(3, 2)(Tensor(0.0, cg.float32), Tensor(2.0, cg.float32)),
                 [1.0, 2.0, 4.0]),
    "HammingWindow": (lambda: P.HammingWindow()(Tensor(np.array([4]))), [0.08, 0.54, 1.0, 0.54]),
    "MatrixPower": (lambda: P.MatrixPower(2)(Tensor(np.eye(2, dtype=np.float32) * 2)),
                    [[4.0, 0.0], [0.0, 4.0]]),
    "Polar": (lambda: P.Polar()(Tensor(np.array([1.0], np.float32)),
                                Tensor(np.array([0.5], np.float32))), [0.87758255 + 0.47942555j]),
    "MulNoNan": (lambda: P.MulNoNan()(Tensor(np.array([np.inf, 1.0], np.float32)),
                                      Tensor(np.array([0.0, 2.0], np.float32))), [0.0, 2.0]),
    "NanToNum": (lambda: P.NanToNum()(Tensor(np.array([np.nan, np.inf], np.float32))),
                 [0.0, 3.4028235e38]),
    "TrilIndices": (lambda: P.TrilIndices(3, 3)(), [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]),
    "MatrixTriangularSolve": (lambda: P.MatrixTriangularSolve()(
        Tensor(np.array([[2.0, 9.0], [1.0, 4.0]], np.float32)),
        Tensor(np.array([[2.0], [5.0]], np.float32))), [[1.0], [1.0]]),
    "Bincount": (lambda: P.Bincount()(Tensor(np.array([0, 1, 1], np.int32)), Tensor(3, cg.int32),
                                      Tensor(np.ones(3, np.float32))), [1.0, 2.0, 0.0]),
    "NuclearNorm": (lambda: P.NuclearNorm()(Tensor(X)), 11.653784),
    "MultiMarginLoss": (lambda: P.MultiMarginLoss()(Tensor(X), Tensor(np.array([0, 1])), None),
                        0.5),
    "Gelu": (lambda: P.Gelu()(Tensor(X)), [[0.841192, -0.04540229, 2.9963627],
                                           [3.9999299, 4.9999995, -0.0]]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_as_mindspore(name):
    call, want = CASES[name]
    np.testing.assert_allclose(call().asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_tuples_and_several_outputs():
    assert P.InvertPermutation()((3, 0, 1, 2)) == (1, 2, 3, 0)
    assert len(P.Unpack(0)(Tensor(X))) == 2
    out, argmax = P.AdaptiveMaxPool2D((1, 1))(Tensor(np.arange(16.0).reshape(1, 1, 4, 4)))
    assert float(out.asnumpy().ravel()[0]) == 15.0 and argmax.shape == (1, 1, 1, 1)
    perm, lower, upper = P.LuUnpack()(Tensor(np.array([[2.0, 1.0], [0.5, 3.0]])),
                                      Tensor(np.array([2, 2], np.int32)))
    np.testing.assert_array_equal((perm @ lower @ upper).asnumpy(), [[1, 3.5], [2, 1]])
    loss, is_target = P.MultilabelMarginLoss()(Tensor(X), Tensor(
        np.array([[2, 0, -1], [1, -1, 0]], np.int32)))
    assert loss.shape == ()
    np.testing.assert_array_equal(is_target.asnumpy(), [[1, 0, 1], [0, 1, 0]])
    np.testing.assert_array_equal(P.Bernoulli()(Tensor(np.zeros(3, np.float32)),
                                                Tensor(np.ones(3, np.float32))).asnumpy(), 1.0)
    np.testing.assert_array_equal(P.Multinomial()(Tensor(np.array([[0.0, 1.0]], np.float32)), 2)
                                  .asnumpy(), [[1, 1]])
    assert repr(P.Pack(1)) == "Pack(axis=1)"
