"""A fill value known only when the graph runs (a `mutable` number): ops.full_like, ops.fill,
ops.full and the functions made of them (nan_to_num) broadcast it, with MindSpore 2.10's values
and dtypes for the same calls (recorded below; ops.full infers Int64 from a graph scalar, as
MindSpore's does)."""
import numpy as np

import cellgraph as ms
from cellgraph import jit, mint, mutable, ops

X = np.array([np.nan, np.inf, -np.inf, 3.14], np.float32)


def test_nan_to_num_with_graph_scalars():
    @jit
    def f(x, nan, posinf, neginf):
        return mint.nan_to_num(x, nan, posinf, neginf)

    out = f(ms.Tensor(X), mutable(1.0), mutable(2.0), mutable(3.0))
    np.testing.assert_allclose(out.asnumpy(), [1.0, 2.0, 3.0, 3.14], rtol=1e-6)


def test_fill_functions_with_a_graph_scalar():
    @jit
    def g(x, value):
        return ops.full_like(x, value), ops.fill(ms.float16, (2,), value), ops.full((2, 2), value)

    like, filled, full = g(ms.Tensor(X), mutable(2.5))
    assert like.dtype == ms.float32 and like.asnumpy().tolist() == [2.5] * 4
    assert filled.dtype == ms.float16 and filled.asnumpy().tolist() == [2.5, 2.5]
    assert full.dtype == ms.int64 and full.asnumpy().tolist() == [[2, 2], [2, 2]]
