"""`self.attr = value` in construct for a value known when compiling (a number, a list, NumPy
data), as MindSpore's graph mode runs it (JIT fallback): later reads in the graph see the value
and the attribute is set after every run. Expected values are MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_reads_after_the_assignment_see_it_and_the_object_keeps_it():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.data = 1

        def construct(self):
            self.data = 2
            a = self.data
            self.data = [3, 4]
            return a, self.data

    net = Net()
    assert net() == (2, [3, 4]) and net.data == [3, 4]
    assert net() == (2, [3, 4])


def test_a_counter_advances_every_call():
    class Counter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.count = 0
            self.last = Tensor([0.0])

        def construct(self, x):
            self.count = self.count + 1
            self.last = x * 2
            return x + self.count

    net = Counter()
    np.testing.assert_array_equal(net(Tensor([1.0])).asnumpy(), [2.0])
    assert net.count == 1
    np.testing.assert_array_equal(net(Tensor([1.0])).asnumpy(), [3.0])
    assert net.count == 2
    np.testing.assert_array_equal(net.last.asnumpy(), [2.0])


def test_a_tensor_replaces_a_constant_assigned_before():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.value = None

        def construct(self, x):
            self.value = 5
            self.value = x + self.value
            return self.value

    net = Net()
    np.testing.assert_array_equal(net(Tensor([1.0])).asnumpy(), [6.0])
    np.testing.assert_array_equal(net.value.asnumpy(), [6.0])


def test_a_parameters_attributes_are_not_set_in_a_graph():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.x = Parameter(Tensor(np.array([1, 2, 3])), name="x")

        def construct(self):
            self.x.name = "x2"
            return self.x

    with pytest.raises(ValueError, match="Do not support to set attribute for a parameter"):
        Net()()
