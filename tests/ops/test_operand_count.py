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
    with pytest.raises(TypeError, match=r"expm1\(\) takes 0 positional arguments but 2 were"):
        x.expm1(1, 2)
    # a method MindSpore overloads lists its overloads, as MindSpore does
    with pytest.raises(TypeError) as info:
        x.less()
    assert str(info.value) == ('Failed calling less with "less()".\n'
                               'The valid calling should be:\n'
                               '"Tensor.less(other=<number>)"\n'
                               '"Tensor.less(other=<number,bool,Tensor>)"')

    @ms.jit
    def f(x):
        return x.add(1, 2, 3)

    with pytest.raises(TypeError, match=r'Failed calling add with "add\(int, int, int\)"'):
        f(x)


def test_an_unknown_keyword_names_the_overloads_it_fails():
    x = Tensor([1.0])

    @ms.jit
    def f(x):
        return x.max(a=1, b=2)

    with pytest.raises(TypeError) as info:
        f(x)
    text = str(info.value)
    assert text.startswith('Failed calling max with "max(a=int, b=int)".\n'
                           'The valid calling should be:\n"Tensor.max()"\n'
                           '"Tensor.max(dim=<int>, keepdim=<bool>)"\n'
                           '\tmatch failed because incorrect keyword name: a\n')

    @ms.jit
    def g(x):
        return x.clamp(min=1, max_value=10)

    with pytest.raises(TypeError) as info:
        g(x)
    assert str(info.value).count("match failed because incorrect keyword name: max_value") == 2
