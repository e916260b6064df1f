"""What MindSpore's graph mode checks and accepts in a Cell (recorded from MindSpore 2.10 CPU,
GRAPH_MODE): the names of the Parameters in a Cell's tuple and list attributes, Tensors made
by an initializer read in construct, dtype names and shape entries given to Tensor methods."""
from __future__ import annotations

import copy

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn
from cellgraph.common import initializer as init


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _param(value, name=None):
    return Parameter(Tensor(np.array([value], np.float32)), name=name)


def test_sequence_parameters_with_one_name_are_refused_when_set():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.param_tuple = (_param(1.0, "name_a"), _param(2.0))
            self.param_list = [_param(3.0, "name_a"), _param(4.0)]

        def construct(self, x):
            return self.param_tuple[0] + self.param_list[0] + x

    # MindSpore: ValueError from Cell.__setattr__, before any call
    with pytest.raises(ValueError, match="its name 'name_a' already exists. Please set a unique "
                                         "name for the parameter."):
        Net()


def test_sequence_parameters_distinct_or_shared_are_accepted():
    shared = _param(1.0, "w")

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.first = (shared, _param(2.0, "b"))
            self.again = [shared]  # the same Parameter object: its name is checked once
            self.a = _param(5.0, "name_a")  # plain attributes: MindSpore allows equal names
            self.b = _param(6.0, "name_a")

        def construct(self, x):
            return self.first[0] + self.first[1] + self.again[0] + self.a + self.b + x

    net = Net()
    np.testing.assert_allclose(net(Tensor(np.array([10.0], np.float32))).asnumpy(), [25.0])
    clone = copy.deepcopy(net)
    clone.again = [clone.first[0]]  # the copy's own Parameter under its own name
    np.testing.assert_allclose(clone(Tensor(np.array([0.0], np.float32))).asnumpy(), [15.0])


def test_initializer_tensor_read_in_construct_is_a_constant():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.t1 = init.initializer("one", [1, 3], ms.float32)
            self.t2 = init.initializer("one", [2, 3], ms.float32)

        def construct(self):
            return self.t1.expand_as(self.t2) + 1

    net = Net()
    np.testing.assert_array_equal(net().asnumpy(), np.full((2, 3), 2.0, np.float32))
    assert net.t1.has_init  # the graph read its values; the Tensor itself stays as it was


def test_unknown_dtype_name_and_float_shape_entries_are_type_errors():
    value = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))

    class AsType(nn.Cell):
        def construct(self):
            return value.astype("float88")

    class Reshape(nn.Cell):
        def construct(self):
            return value.reshape((1, 2, 3.5))

    with pytest.raises(TypeError, match="float88"):
        AsType()()
    with pytest.raises(TypeError, match=r"shape=Tuple<int, int, float>"):
        Reshape()()
    with pytest.raises(TypeError):
        value.reshape(2, 3.0)  # never truncated to an int
    assert value.reshape(np.int64(6)).shape == (6,)


def test_truth_of_a_tensor_needs_one_element():
    @ms.jit
    def constant_and():
        x = Tensor([0, 1])
        y = Tensor([1, 2])
        return x and y

    @ms.jit
    def constant_if():
        x = Tensor([0, 1])
        if x:
            return 1
        return 2

    for fn in (constant_and, constant_if):  # MindSpore: ValueError when the graph is compiled
        with pytest.raises(ValueError, match=r"Only tensor which shape is \(\) or \(1,\) can be "
                                             r"converted to bool, but got tensor shape is \(2\)"):
            fn()
    # outside a graph (MindSpore's TensorItem): one element of any shape
    assert bool(Tensor([[1]])) and not bool(Tensor(0))
    for t in (Tensor([0, 1]), Tensor(np.zeros((0,), np.float32))):
        with pytest.raises(ValueError, match="The tensor should have only one element, but got"):
            bool(t)


def test_a_function_reads_parameters_of_distinct_names():
    param_a = Parameter(Tensor(np.array([1.0], np.float32)), name="name_a")
    param_b = Parameter(Tensor(np.array([2.0], np.float32)), name="name_a")

    @ms.jit
    def both():
        return param_a + param_b

    @ms.jit
    def one_twice(x):
        return param_a + x + param_a

    # MindSpore: RuntimeError when the function is compiled
    with pytest.raises(RuntimeError, match="its name 'name_a' already exists. Please set a "
                                           "unique name for the parameter."):
        both()
    np.testing.assert_allclose(one_twice(Tensor(np.array([1.0], np.float32))).asnumpy(), [3.0])


def test_python_operator_errors_on_constants_are_type_errors():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.const_x = [10]
            self.const_y = [11]

        def construct(self):
            return self.const_x & self.const_y

    class Text(nn.Cell):
        def construct(self):
            return "a" - 1

    # MindSpore: Python's TypeError and message, from its interpreted fallback
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for &: 'list' and 'list'"):
        Net()()
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for -: 'str' and 'int'"):
        Text()()


def test_a_constant_tensor_in_an_f_string():
    @ms.jit
    def constants():
        a = Tensor(np.array([[1.5, 2.0], [3.0, 4.25]], np.float32))
        return f"a: {a}, b: {Tensor(True)}, c: {Tensor([1.0, 2.0])}, d: {Tensor(2)!r}"

    @ms.jit
    def argument(x):
        return f"x: {x}"

    # MindSpore 2.10's strings: a constant is written as its repr without commas; an input
    # Tensor as print writes its values
    assert constants() == (
        "a: Tensor(shape=[2, 2], dtype=Float32, value=\n[[ 1.50000000e+00  2.00000000e+00]\n"
        " [ 3.00000000e+00  4.25000000e+00]]), b: Tensor(shape=[], dtype=Bool, value=True), "
        "c: Tensor(shape=[2], dtype=Float32, value=[ 1.00000000e+00  2.00000000e+00]), "
        "d: Tensor(shape=[], dtype=Int64, value=2)")
    assert argument(Tensor(np.array([1, 2]))) == "x: [1 2]"
