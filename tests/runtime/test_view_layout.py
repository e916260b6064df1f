"""What MindSpore's PyNative makes as views report their layout (is_contiguous, stride,
storage_offset); the values below are MindSpore 2.10's on CPU for a float32 Tensor of shape
(2, 3, 4)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, mint, ops
from cellgraph.primitives.strides import contiguous_strides, is_contiguous

X = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
T = X.transpose(1, 0, 2)

# (what, result, is_contiguous, stride, storage_offset), MindSpore 2.10's
CASES = [
    ("x", lambda: X, True, [12, 4, 1], 0),
    ("transpose", lambda: ops.transpose(X, (1, 0, 2)), False, [4, 12, 1], 0),
    ("transpose + 1", lambda: ops.transpose(X, (1, 0, 2)) + 1, True, [8, 4, 1], 0),
    ("permute", lambda: X.permute(2, 0, 1), False, [1, 12, 4], 0),
    ("mint.transpose", lambda: mint.transpose(X, 0, 2), False, [1, 4, 12], 0),
    ("x.T", lambda: X.T, False, [1, 4, 12], 0),
    ("x.mT", lambda: X.mT, False, [12, 1, 4], 0),
    ("movedim", lambda: ops.movedim(X, 0, 2), False, [4, 1, 12], 0),
    ("t()", lambda: X[0].t(), False, [1, 4], 0),
    ("narrow axis 0", lambda: X.narrow(0, 1, 1), True, [12, 4, 1], 12),
    ("narrow axis 1", lambda: X.narrow(1, 1, 2), False, [12, 4, 1], 4),
    ("mint.narrow", lambda: mint.narrow(X, 1, 1, 2), False, [12, 4, 1], 4),
    ("x[0]", lambda: X[0], True, [4, 1], 0),
    ("x[1]", lambda: X[1], True, [4, 1], 12),
    ("x[:, 1]", lambda: X[:, 1], False, [12, 1], 4),
    ("x[..., ::2]", lambda: X[..., ::2], False, [12, 4, 2], 0),
    ("x[0:2:2]", lambda: X[0:2:2], True, [24, 4, 1], 0),
    ("x[None]", lambda: X[None], True, [24, 12, 4, 1], 0),
    ("x[:, None]", lambda: X[:, None], True, [12, 12, 4, 1], 0),
    ("negative step: a copy", lambda: X[-1, 1:, ::-1], True, [4, 1], 0),
    ("a list index: a copy", lambda: X[[0, 1]], True, [12, 4, 1], 0),
    ("a mask: a copy", lambda: X[X > 3], True, [1], 0),
    ("x[1:1]", lambda: X[1:1], True, [12, 4, 1], 0),
    ("x[:, :, 1:3][0]", lambda: X[:, :, 1:3][0], False, [4, 1], 1),
    ("reshape", lambda: X.reshape(6, 4), True, [4, 1], 0),
    ("reshape of a view", lambda: X[1].reshape(12), True, [1], 12),
    ("reshape of a transpose: a copy", lambda: T.reshape(12, 2), True, [2, 1], 0),
    ("flatten of a transpose", lambda: T.flatten(), True, [1], 0),
    ("unsqueeze", lambda: X.unsqueeze(0), True, [24, 12, 4, 1], 0),
    ("transpose unsqueezed", lambda: T.unsqueeze(1), False, [4, 24, 12, 1], 0),
    ("transpose unsqueezed at the end", lambda: T.unsqueeze(3), False, [4, 12, 1, 1], 0),
    ("squeeze", lambda: X[0:1].squeeze(0), True, [4, 1], 0),
    ("broadcast_to", lambda: ops.broadcast_to(X[0:1], (3, 3, 4)), False, [0, 4, 1], 0),
    ("broadcast a transpose", lambda: ops.broadcast_to(T[:, 0:1], (3, 5, 4)), False,
     [4, 0, 1], 0),
    ("split", lambda: ops.split(X, 2, axis=2)[1], False, [12, 4, 1], 2),
    ("chunk", lambda: ops.chunk(X, 2, axis=1)[1], False, [12, 4, 1], 8),
    ("split of a transpose", lambda: ops.split(T, 1, axis=0)[1], False, [4, 12, 1], 4),
    ("unbind", lambda: ops.unbind(X, 1)[1], False, [12, 1], 4),
    ("mint.select", lambda: mint.select(X, 1, 1), False, [12, 1], 4),
    ("ops.slice", lambda: ops.slice(X, (0, 1, 0), (2, 2, 4)), False, [12, 4, 1], 4),
    ("strided_slice", lambda: ops.strided_slice(X, (0, 1, 0), (2, 3, 4), (1, 1, 2)), False,
     [12, 4, 2], 4),
    ("transpose of a narrow", lambda: X.narrow(2, 1, 3).transpose(2, 0, 1), False,
     [1, 12, 4], 1),
    ("transposed back", lambda: T.transpose(1, 0, 2), True, [12, 4, 1], 0),
    ("Tensor(view)", lambda: Tensor(T), False, [4, 12, 1], 0),
    ("Tensor(view) cast", lambda: Tensor(T, ms.float16), True, [8, 4, 1], 0),
    ("astype", lambda: T.astype(ms.float16), True, [8, 4, 1], 0),
    ("copy", lambda: T.copy(), True, [8, 4, 1], 0),
    ("contiguous", lambda: T.contiguous(), True, [8, 4, 1], 0),
]


@pytest.mark.parametrize("what, make, contiguous, stride, offset", CASES,
                         ids=[c[0] for c in CASES])
def test_layout_as_mindspore_reports_it(what, make, contiguous, stride, offset):
    y = make()
    assert (y.is_contiguous(), y.stride(), y.storage_offset()) == (contiguous, stride, offset)


def test_views_hold_their_values():
    np.testing.assert_array_equal(X.narrow(1, 1, 2).asnumpy(), X.asnumpy()[:, 1:3])
    np.testing.assert_array_equal(T.contiguous().asnumpy(), X.asnumpy().transpose(1, 0, 2))
    assert X.contiguous() is X
    assert T.contiguous() is not T
    assert T.stride(0) == 4 and T.stride(-1) == 1


def test_graph_results_are_contiguous():
    @ms.jit
    def f(x):
        return ops.transpose(x, (1, 0, 2))

    y = f(X)
    assert y.is_contiguous() and y.stride() == [8, 4, 1]


def test_contiguity_rule():
    assert contiguous_strides((2, 0, 4)) == (4, 4, 1)
    assert is_contiguous((1, 3, 4), (99, 4, 1))  # an axis of size 1 may step anyhow
    assert is_contiguous((2, 0, 4), (1, 1, 1))  # so may an empty tensor's
    assert not is_contiguous((3, 2), (1, 3))
