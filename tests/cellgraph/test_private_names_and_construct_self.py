"""Inside a Cell's methods `self.__x` is the attribute Python names `_Class__x` (private name
mangling), in graph mode as in Python; a construct without `self` is refused with MindSpore's
TypeError."""
import pytest

import cellgraph as ms
from cellgraph import nn


class AttrNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.__x = 1

    def construct(self):
        __y = self.__x + 1

        def inner():
            return self.__x * 10

        return self.__x, ms.Tensor(self.__x), __y, inner()


class Sub(AttrNet):
    def __init__(self):
        super().__init__()
        self.__x = 5  # Sub's own private attribute, _Sub__x

    def construct(self):
        return super().construct()[0], self.__x


def test_private_attributes():
    out = AttrNet()()
    assert out[0] == 1 and isinstance(out[1], ms.Tensor) and int(out[1]) == 1
    assert out[2] == 2 and out[3] == 10
    assert Sub()() == (1, 5)


def test_construct_without_self():
    class NoSelf(nn.Cell):
        def construct(x):
            return x

    with pytest.raises(TypeError, match="the method 'construct' must have parameter 'self'"):
        NoSelf()(ms.Tensor(1))


def test_unexpected_keyword_inside_a_graph_is_mindspores_runtime_error():
    class SubNet(nn.Cell):
        def construct(self, a=1, b=2):
            return a + b

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.subnet = SubNet()

        def construct(self, a, b):
            return self.subnet(aa=a, bb=b)

    for error in (RuntimeError, TypeError):  # MindSpore's type, and Python's
        with pytest.raises(error, match="Got an unexpected keyword argument 'aa'"):
            Net()(1, 2)
