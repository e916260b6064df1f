"""MindSpore's view operation classes (TransposeView, TransposeExtView, SelectView): the values
MindSpore 2.10 gives, with its operand order; eagerly and in a graph."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph.ops import operations as P

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize("graph", [False, True])
def test_view_classes_give_mindspore_values(graph):
    def run(x):
        return (P.TransposeView()(x, (1, 0, 2)), P.TransposeExtView()(x, 0, 2),
                P.SelectView()(x, 1, 2), P.SelectView()(x, 0, 1), P.SelectView()(x, -1, -1))

    fn = cg.jit(run) if graph else run
    perm, swapped, sel, sel0, last = (t.asnumpy() for t in fn(cg.Tensor(X)))
    np.testing.assert_array_equal(perm, X.transpose(1, 0, 2))
    np.testing.assert_array_equal(swapped, X.swapaxes(0, 2))
    # SelectView(input, index, dim): MindSpore gives [[1, 5, 9], [13, 17, 21]] here
    np.testing.assert_array_equal(sel, [[1, 5, 9], [13, 17, 21]])
    np.testing.assert_array_equal(sel0, X[:, 0, :])
    np.testing.assert_array_equal(last, X[..., -1])


def test_select_view_gradient_reaches_the_selected_slice():
    grad = cg.grad(lambda x: P.SelectView()(x, 1, 2).sum())(cg.Tensor(X))
    expected = np.zeros_like(X)
    expected[..., 1] = 1
    np.testing.assert_array_equal(grad.asnumpy(), expected)
