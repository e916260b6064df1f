"""A primitive called with more or fewer operands than it takes raises MindSpore's TypeError,
eagerly and inside a graph (where the message also names the user's line)."""
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.ops import operations as P


def test_too_many_operands():
    with pytest.raises(TypeError, match=r"For Operator\[Abs\], the number of inputs should be "
                                        r"less than or equal to 1, but got 2"):
        P.Abs()(Tensor([1]), Tensor([2]))

    class Net(nn.Cell):
        def construct(self, x, y):
            return P.Abs()(x, y)

    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(TypeError, match="less than or equal to 1, but got 2") as info:
        Net()(Tensor([1]), Tensor([2]))
    assert "return P.Abs()(x, y)" in str(info.value)


def test_too_few_operands():
    with pytest.raises(TypeError, match=r"For Operator\[Add\], the number of inputs should be "
                                        r"greater than or equal to 2, but got 1"):
        P.Add()(Tensor([1]))


def test_a_method_given_too_many_or_too_few_arguments():
    x = Tensor([1.0])
    with pytest.raises(TypeError, match=r"abs\(\) takes 0 positional arguments but 1 was given"):
        x.abs(1)
    with pytest.raises(TypeError, match=r"less\(\) missing 1 required positional argument"):
        x.less()

    @ms.jit
    def f(x):
        return x.add(1, 2, 3)

    with pytest.raises(TypeError, match=r"add\(\) takes 1 positional argument but 3 were given"):
        f(x)
