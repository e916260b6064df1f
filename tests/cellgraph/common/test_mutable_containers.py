"""mutable() tuples, lists and dicts: gradients of their structure (MindSpore's, checked against
MindSpore 2.10's tests/st/compiler/mutable), the marks they carry, and const_arg inputs made
variable by mutable inside a graph."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Parameter, Tensor, mutable, nn
from cellgraph.ops import GradOperation
from cellgraph.ops import operations as P


class _MatMulNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = P.MatMul()
        self.z = Parameter(Tensor(np.array([1.0], np.float32)), name="z")

    def construct(self, t):
        return self.matmul(t[0][0] * self.z, t[1])


class _GradFirst(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net, self.grad_op = net, GradOperation()

    def construct(self, t):
        return self.grad_op(self.net)(t)


X = np.array([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], np.float32)
Y = np.array([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], np.float32)
DX = np.array([[1.41, 1.6, 6.6], [1.41, 1.6, 6.6]], np.float32)
DY = np.array([[1.7, 1.7, 1.7], [1.9, 1.9, 1.9], [1.5, 1.5, 1.5]], np.float32)


@pytest.mark.parametrize("inner", [tuple, list])
def test_gradient_of_a_nested_mutable_sequence_has_its_structure(inner):
    t = mutable((inner([Tensor(X), Tensor(X)]), Tensor(Y)))
    for grads in (_GradFirst(_MatMulNet())(t), cg.grad(_MatMulNet())(t)):
        assert isinstance(grads, tuple) and len(grads) == 2 and len(grads[0]) == 2
        np.testing.assert_allclose(grads[0][0].asnumpy(), DX, rtol=1e-6)
        np.testing.assert_array_equal(grads[0][1].asnumpy(), np.zeros_like(X))
        np.testing.assert_allclose(grads[1].asnumpy(), DY, rtol=1e-6)


def test_a_plain_tuple_of_tensors_gets_no_gradient():
    assert _GradFirst(_MatMulNet())(((Tensor(X), Tensor(X)), Tensor(Y))) == ()


def test_gradient_of_a_mutable_dict_is_a_dict_of_its_keys():
    class Net(nn.Cell):
        def construct(self, x, t):
            return P.MatMul()(x, t["a"])

    class Grad(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net, self.grad_op = net, GradOperation(get_all=True)

        def construct(self, x, t):
            return self.grad_op(self.net)(x, t)

    dx, dt = Grad(Net())(Tensor(X), mutable({"a": Tensor(Y), "b": Tensor(Y)}))
    np.testing.assert_allclose(dx.asnumpy(), DX, rtol=1e-6)
    assert isinstance(dt, dict) and sorted(dt) == ["a", "b"]
    np.testing.assert_allclose(dt["a"].asnumpy(), DY, rtol=1e-6)
    np.testing.assert_array_equal(dt["b"].asnumpy(), np.zeros_like(Y))


def test_mutable_sequences_made_in_a_graph_are_differentiated():
    class Grad(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net, self.grad_op = net, GradOperation()

        def construct(self):
            return self.grad_op(self.net)(mutable(((Tensor(X), Tensor(X)), Tensor(Y))))

    grads = Grad(_MatMulNet())()
    np.testing.assert_allclose(grads[1].asnumpy(), DY, rtol=1e-6)


def test_mutable_of_a_const_arg_input_in_a_graph_is_differentiated():
    class Net(nn.Cell):
        def construct(self, x, y):
            return P.MatMul()(x, y)

    class Grad(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net, self.grad_op = net, GradOperation()

        def construct(self, x):
            return self.grad_op(self.net)(mutable(x), Tensor(Y))

    out = Grad(Net())(Tensor(X, const_arg=True))
    np.testing.assert_allclose(out.asnumpy(), DX, rtol=1e-6)


def test_marks_and_python_behaviour_of_mutable_containers():
    source = (Tensor(X), 2)
    t = mutable(source)
    assert isinstance(t, tuple) and t.__ms_mutable__ and t.__ms_origin_object__ is source
    assert not t.__ms_dynamic_len__
    d = mutable({"a": Tensor(X)})
    assert isinstance(d, dict) and d.__ms_mutable__ and list(d) == ["a"]
    listed = mutable([Tensor(X)])
    assert isinstance(listed, list) and listed.__ms_mutable__


def test_operation_classes_are_primitives_with_names():
    from cellgraph.ops import Primitive

    assert isinstance(P.Add(), Primitive) and issubclass(P.ReduceSum, Primitive)
    assert not isinstance(1, Primitive)
    assert (P.Add().name, P.Conv2D(2, 3).name) == ("Add", "Conv2D")

    @cg.jit
    def check():
        return isinstance(P.Add(), (Primitive, int)) and isinstance(P.Add(), P.Add)

    assert check()


def test_sparse_tensor_module_and_row_tensor_inner():
    from cellgraph.common.sparse_tensor import RowTensor, RowTensorInner, SparseTensor

    indices, values = Tensor(np.array([0, 2], np.int32)), Tensor(np.ones((2, 3), np.float32))
    inner = RowTensorInner(indices, values, (4, 3))
    assert not isinstance(inner, RowTensor)
    assert isinstance(RowTensor(indices, values, (4, 3)), RowTensorInner)
    np.testing.assert_array_equal(inner.to_dense().asnumpy()[[0, 2]], np.ones((2, 3)))
    with pytest.warns(DeprecationWarning):
        coo = SparseTensor(Tensor(np.array([[0, 1]], np.int32)), Tensor(np.array([5.0])), (2, 2))
    assert coo.to_dense().asnumpy()[0, 1] == 5
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="COOTensor"):
        SparseTensor([[0, 1]], Tensor(np.array([5.0])), (2, 2))


def test_a_tensor_given_to_mutable_is_marked_as_mindspore_marks_it():
    # MindSpore 2.10: mutable(x) is x, with x.__ms_origin_object__ is x and __ms_mutable__ True
    x = Tensor(np.ones(2, np.float32))
    assert not hasattr(x, "__ms_origin_object__") and not x.__ms_mutable__
    assert mutable(x) is x
    assert x.__ms_origin_object__ is x and x.__ms_mutable__
    assert not hasattr(Tensor(np.ones(1)), "__ms_origin_object__")
