"""ops.deepcopy, ops.is_nonzero, ops.column_stack, ops.isreal and Tensor.isreal /
Tensor.multinomial as MindSpore 2.10 gives them (values recorded from it)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import ops


def test_deepcopy_is_new_data_with_a_gradient_of_one():
    x = ms.Tensor(np.array([1.1, 2.5, -1.5], np.float32))
    y = ops.deepcopy(x)
    assert y is not x
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(ops.grad(lambda t: ops.deepcopy(t).sum())(x).asnumpy(), 1.0)
    batched = ops.vmap(ops.vmap(ops.deepcopy))(ms.Tensor(np.ones((2, 3, 2), np.float32)))
    assert batched.shape == (2, 3, 2)


def test_is_nonzero_is_a_bool_of_the_one_element():
    assert ops.is_nonzero(ms.Tensor([1.5])) is True
    assert ops.is_nonzero(ms.Tensor(0)) is False
    assert ops.is_nonzero(ms.Tensor([[[False]]])) is False

    class Net(ms.nn.Cell):
        def construct(self, x):
            return ops.is_nonzero(x)

    assert Net()(ms.Tensor([[3.5]]))
    assert not Net()(ms.Tensor([[[False]]]))


@pytest.mark.parametrize("x, message", [
    (ms.Tensor([1, 2]), "For is_nonzero, the numel of input must be 1, but got 2."),
    (ms.Tensor(np.zeros((0,))), "For is_nonzero, the numel of input must be 1, but got 0."),
])
def test_is_nonzero_wants_one_element(x, message):
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        ops.is_nonzero(x)


def test_column_stack_makes_columns_of_vectors_and_scalars():
    out = ops.column_stack([ms.Tensor([1, 2]), ms.Tensor([[3], [4]])])
    np.testing.assert_array_equal(out.asnumpy(), [[1, 3], [2, 4]])
    out = ops.column_stack((ms.Tensor(1.0), ms.Tensor(2.0)))
    np.testing.assert_array_equal(out.asnumpy(), [[1.0, 2.0]])
    with pytest.raises(TypeError, match="list or tuple of tensors"):
        ops.column_stack(ms.Tensor([1, 2]))
    with pytest.raises(ValueError, match="at least 1 tensor"):
        ops.column_stack([])


def test_isreal_of_real_and_complex_tensors():
    np.testing.assert_array_equal(ms.Tensor([1.0, 2.0]).isreal().asnumpy(), [True, True])
    np.testing.assert_array_equal(ops.isreal(ms.Tensor(np.array([1 + 0j, 1 + 1j]))).asnumpy(),
                                  [True, False])
    assert ops.isreal(ms.Tensor(np.ones((2, 3), np.int32))).dtype == ms.bool_


def test_multinomial_method_takes_mindspores_arguments_in_a_graph():
    class Net(ms.nn.Cell):
        def construct(self, x, num_samples, replacement=True, seed=None):
            return x.multinomial(num_samples, replacement, seed)

    out = Net()(ms.Tensor(np.array([[0.9, 0.2], [0.9, 0.2]], np.float32)), 6, True, 2)
    assert out.shape == (2, 6)
    assert set(np.unique(out.asnumpy())) <= {0, 1}
