"""What MindSpore's graph mode computes on the host through its fallback, inside a graph:
`x.asnumpy()` (the values, with no gradient), `Tensor(value, dtype)` over a graph value, and
`int(x)`/`float(x)` of a one-element graph value. Expected values are MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops, tensor


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)


def test_tensor_of_asnumpy_values():
    class Net(nn.Cell):
        def construct(self, x, y):
            y1 = tensor(x.asnumpy() + y.asnumpy(), dtype=ms.float32)
            return ops.Abs()(y1)

    out = Net()(Tensor([-1, 1], ms.int32), Tensor([-2, 3], ms.int32))
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), [3.0, 4.0])


def test_clamp_by_bounds_read_through_asnumpy():
    @ms.jit
    def func(x, lo, hi):
        return x.clamp(lo, Tensor(hi.asnumpy())), x.clamp(2, max=int(hi.asnumpy()))

    a, b = func(Tensor([1, 2, 3, 4, 5]), Tensor(2), Tensor(4))
    np.testing.assert_array_equal(a.asnumpy(), [2, 2, 3, 4, 4])
    np.testing.assert_array_equal(b.asnumpy(), [2, 2, 3, 4, 4])


def test_asnumpy_values_carry_no_gradient():
    def f(x):
        return (x * x).sum() + (x.asnumpy() * x).sum()

    grad = ms.grad(ms.jit(f))(Tensor(np.array([1.0, 2.0], np.float32)))
    np.testing.assert_allclose(grad.asnumpy(), [3.0, 6.0])  # 2x + x, the host copy constant


def test_int_of_a_tensor_with_more_than_one_element_raises():
    @ms.jit
    def f(x):
        return int(x)

    with pytest.raises(ValueError, match="only one element tensors"):
        f(Tensor([1, 2]))


def test_asnumpy_in_a_graph_is_a_numpy_array_to_isinstance():
    """MindSpore's python_builtin_functions tutorial: `isinstance(w.asnumpy(), np.ndarray)` in
    a jit function is True (and the value is not a Tensor); its values compute as before."""

    @ms.jit
    def kinds(w):
        a = w.asnumpy()
        return isinstance(a, np.ndarray), isinstance(a, ms.Tensor), isinstance(w, np.ndarray), \
            isinstance(a, (int, np.ndarray)), a * 2

    is_array, is_tensor, w_is_array, in_tuple, doubled = kinds(ms.Tensor(np.array([-1, 2, 4])))
    assert (is_array, is_tensor, w_is_array, in_tuple) == (True, False, False, True)
    assert doubled.asnumpy().tolist() == [-2, 4, 8]


def test_int_and_float_of_a_one_element_numpy_array():
    # MindSpore 2.10 (NumPy 1's rule, whichever NumPy runs): any one-element array converts
    @ms.jit
    def convert():
        return (int(np.array([[2.7]])), float(np.array([3])), int(np.array(4.5)),
                float(np.array([True])))

    out = convert()
    assert out == (2, 3.0, 4, 1.0)
    assert [type(v) for v in out] == [int, float, int, float]

    def refusal(array):
        @ms.jit
        def refuse():
            return int(array)
        return refuse

    for array in (np.array([1, 2]), np.array([])):
        with pytest.raises(TypeError, match="only length-1 arrays can be converted to Python "
                                            "scalars"):
            refusal(array)()
