"""ops.Assert: a condition checked where it runs; when False, MindSpore's message and the first
`summarize` elements of each Tensor are printed and RuntimeError("assert failed") raised.
Expected text is MindSpore 2.10's (CPU)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops

A = Tensor(np.array([-1, 0, 1, 2, 3]).astype(np.int32))
B = Tensor(np.array([[1, 2, 3], [4, 5, 6]]).astype(np.float32))


class Checked(nn.Cell):
    def __init__(self):
        super().__init__()
        self.check = ops.Assert(4)

    def construct(self, x):
        self.check(x.sum() > 0, [x])
        return (x * x).sum()


def test_true_condition_gives_zero():
    out = ops.Assert(3)(True, [A, B])
    assert out.dtype == cg.int32 and out.asnumpy().tolist() == [0]
    assert ops.Assert()(Tensor(True), (A,)).asnumpy().tolist() == [0]


def test_false_condition_prints_and_raises(capsys):
    with pytest.raises(RuntimeError, match="assert failed"):
        ops.Assert(2)(False, [A, B])
    assert capsys.readouterr().out == ("For 'Assert' condition is false.\n"
                                       "input data: [-1 0]\ninput data: [1 2]\n")
    with pytest.raises(RuntimeError, match="assert failed"):
        ops.Assert()(Tensor(False), [Tensor(np.array([0.5, 1e-07, 2.0, 3.0]))])
    assert "input data: [0.5 1e-07 2]" in capsys.readouterr().out


def test_argument_errors():
    with pytest.raises(ValueError, match=r"the 'condition\[0\]' must be int and must = 1, but got '2'"):
        ops.Assert(2)(Tensor([True, True]), [A])
    with pytest.raises(TypeError, match="the type of 'summarize' should be 'int', but got type 'float'"):
        ops.Assert(2.0)
    with pytest.raises(TypeError, match=r"the type of 'condition' must be in \[cellgraph.bool\], but got Int64"):
        ops.Assert()(1, [A])
    with pytest.raises(TypeError, match="'input_data' must be a tuple or list"):
        ops.Assert()(True, A)


@pytest.mark.parametrize("mode", [cg.PYNATIVE_MODE, cg.GRAPH_MODE])
def test_in_a_network_under_grad(mode, capsys):
    cg.set_context(mode=mode)
    try:
        grad = ops.grad(Checked())(Tensor(np.array([1.0, 2.0])))
        np.testing.assert_array_equal(grad.asnumpy(), [2, 4])
        with pytest.raises(RuntimeError, match="assert failed"):
            Checked()(Tensor(np.array([-1.0, -2, -3, -4, -5])))
    finally:
        cg.set_context(mode=cg.PYNATIVE_MODE)
    assert capsys.readouterr().out.endswith("input data: [-1 -2 -3 -4]\n")
