"""In-place operations on Tensors (not Parameters) inside a graph, as MindSpore defines them: the
Tensor is rebound, so every later read of it (through any name or container that holds it, in
the function or in one it was passed to) sees the new value, reads before the update keep the
old one, a Tensor `if` or loop carries the update out, and a Tensor passed to the graph is
written back after the run. The expected values are MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.ops import operations as P


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)


def i32(v):
    return Tensor(v, ms.int32)


def test_aliases_see_the_update_and_earlier_reads_do_not():
    class Net(nn.Cell):
        def construct(self, x, y):
            before = x - y
            alias, pair = x, (x, y)
            P.AssignAdd()(x, y)
            return x, alias, pair[0], before

    x = i32(2)
    out = Net()(x, i32(3))
    assert [int(v) for v in out] == [5, 5, 5, -1]
    assert int(x) == 5  # the argument is written back, as MindSpore does


def test_an_intermediate_value_is_rebound_without_write_back():
    class Net(nn.Cell):
        def construct(self, x, y):
            z = x - y
            P.AssignAdd()(z, y)
            w = z + y
            P.AssignSub()(z, x)
            return w, z

    x = i32(2)
    w, z = Net()(x, i32(3))
    assert (int(w), int(z), int(x)) == (5, 0, 2)


def test_an_update_inside_a_called_method_and_tensor_ifs():
    class Net(nn.Cell):
        def add_func(self, x1, y1):
            if x1 != y1:
                P.AssignAdd()(x1, y1)
            else:
                x1 = y1 - x1  # rebinding the name updates nothing
            return x1

        def construct(self, x, y):
            if x < y:
                self.add_func(x, y)
            return x, P.Sub()(x, y)

    out = Net()(i32(2), i32(3))
    assert (int(out[0]), int(out[1])) == (5, 2)
    out = Net()(i32(4), i32(3))
    assert (int(out[0]), int(out[1])) == (4, 1)


def test_each_branch_updates_its_own_tensor():
    class Net(nn.Cell):
        def construct(self, x, y):
            if x > y:
                P.AssignAdd()(x, y)
            else:
                P.AssignSub()(y, x)
            return x, y

    assert [int(v) for v in Net()(i32(2), i32(3))] == [2, 1]
    assert [int(v) for v in Net()(i32(5), i32(3))] == [8, 3]


def test_an_update_in_a_tensor_while_is_carried():
    @ms.jit
    def count(x, n):
        i = Tensor(0, ms.int32)
        while i < n:
            x.add_(2)
            i = i + 1
        return x

    x = i32(1)
    assert int(count(x, i32(3))) == 7
    assert int(x) == 7


def test_parameters_and_tensors_together():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.param = Parameter(Tensor(1, ms.int32), name="param")

        def construct(self, x, y):
            P.AssignAdd()(x, y)
            if x * 2 > y:
                P.AssignAdd()(x, y - self.param)
            P.AssignSub()(y, x)
            return y

    assert int(Net()(i32(2), i32(3))) == -4


def test_assign_casts_to_the_tensors_dtype():
    class Net(nn.Cell):
        def construct(self, x, y):
            P.Assign()(y, 2)
            P.AssignAdd()(x, y)
            return x, y

    x, y = Net()(Tensor(2, ms.float32), i32(3))
    assert (x.dtype, float(x), y.dtype, int(y)) == (ms.float32, 4.0, ms.int32, 2)


def test_in_place_methods_return_their_input_rebound():
    @ms.jit
    def f(x, y):
        w = x.add_(y, alpha=2)
        x.mul_(2).sub_(1)
        return w, x

    w, x = f(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([1.0, 1.0], np.float32)))
    np.testing.assert_allclose(w.asnumpy(), [5.0, 7.0])
    np.testing.assert_allclose(x.asnumpy(), [5.0, 7.0])


def test_inplace_index_add_updates_its_input():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = P.InplaceIndexAdd(axis=0)

        def construct(self, x, indices, updates):
            self.op(x, indices, updates)
            return x

    x = Tensor(np.array([[1, 2], [3, 4], [5, 6]], np.int32))
    out = Net()(x, i32([0, 1]), Tensor(np.array([[1, 2], [7, 8]], np.int32)))
    np.testing.assert_array_equal(out.asnumpy(), [[2, 4], [10, 12], [5, 6]])
    np.testing.assert_array_equal(x.asnumpy(), [[2, 4], [10, 12], [5, 6]])


def test_a_constant_tensor_cannot_be_updated_inside_a_graph():
    const = Tensor(np.ones(2, np.float32))

    @ms.jit
    def f(y):
        ops.assign(const, y)
        return y

    with pytest.raises(TypeError, match="constant of the graph"):
        f(Tensor(np.zeros(2, np.float32)))


def test_the_gradient_through_an_in_place_update_counts_the_result_once():
    """MindSpore 2.10: grad of `x.add_(y); return x` with respect to x is 1 (the value written
    back to the input carries no sensitivity), for ints and floats alike."""
    import cellgraph as ms
    from cellgraph import nn

    class Net(nn.Cell):
        def construct(self, x, y):
            x.add_(y)
            return x

    assert ms.grad(Net())(ms.tensor(2.0), ms.tensor(3.0)).asnumpy() == 1.0
    assert ms.grad(Net())(ms.tensor(2, dtype=ms.int32), ms.tensor(3, dtype=ms.int32)) == 1
