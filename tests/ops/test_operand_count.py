"""A primitive called with more or fewer operands than it takes raises MindSpore's TypeError,
eagerly and inside a graph (where the message also names the user's line)."""
import numpy as np
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


def _graph_error(fn, *args):
    with pytest.raises(TypeError) as info:
        ms.jit(fn)(*args)
    return str(info.value)


def test_invalid_types_are_underlined_from_the_first_argument_that_failed():
    # MindSpore 2.10's messages for the same calls
    x = Tensor(np.ones((2, 3), np.float32))
    text = _graph_error(lambda t: t.max(1, [1]), x)
    assert ('"Tensor.max(dim=<int>, keepdim=<bool>)"\n'
            '    match failed because invalid types: (int, list<int>)\n'
            + " " * 46 + "~" * 11 + "\n") in text
    text = _graph_error(lambda t, y: t.add(y, 1), x, x)
    assert ("    match failed because invalid types: (Tensor, int)\n"
            + " " * 41 + "~" * 13 + "\n") in text
    text = _graph_error(lambda t: t.roll(shifts=2, dims=1.1), x)
    assert text.startswith('Failed calling roll with "roll(shifts=int, dims=float)".\n'
                           'The valid calling should be:\n'
                           '"Tensor.roll(shifts=<int,Tuple,List>, dims=<int,Tuple,None,List>)"\n'
                           '    match failed because invalid types: (shifts=int, dims=float)\n'
                           + " " * 41 + "~" * 24)


def test_the_one_calling_that_fits_the_count_gives_its_own_error():
    x = Tensor(np.ones((2, 3), np.float32))
    assert _graph_error(lambda t: t.max(0, 1, initial=None), x).startswith(
        "max(): argument 'keepdims' (position 2) must be bool, not int.")
    assert _graph_error(lambda t: t.max(0, True, initial=[1]), x).startswith(
        "max(): argument 'initial' must be Number but got list of Any")


def test_sizes_given_one_by_one_must_be_ints():
    x = Tensor(np.ones((1,), np.float32))
    assert _graph_error(lambda t: t.reshape(1, 1.1), x).startswith(
        "reshape(): argument 'shape' (position 2) must be tuple of int, not float.")
    assert _graph_error(lambda t: t.reshape("a"), x).startswith(
        "reshape(): argument 'shape' (position 1) must be tuple of int, not string.")
    with pytest.raises(TypeError, match=r"reshape\(\): argument 'shape'\(position 0\) should be "
                                        r"tuple of int, but unpack failed at pos 1 \(got float\)"):
        x.reshape(1, 1.1)


def test_transpose_axes_must_be_ints():
    # MindSpore 2.10's TypeErrors: axes one by one in a graph, or a tuple of them anywhere
    x = Tensor(np.ones((2, 3, 4), np.float32))
    assert _graph_error(lambda t: t.transpose(1.0, 0, 2), x).startswith(
        "transpose(): argument 'axes' (position 1) must be tuple of int, not float.")
    assert _graph_error(lambda t: t.transpose(0, 1, "a"), x).startswith(
        "transpose(): argument 'axes' (position 3) must be tuple of int, not string.")
    assert _graph_error(lambda t: t.transpose(True, 0, 2), x).startswith(
        "transpose(): argument 'axes' (position 1) must be tuple of int, not bool.")
    assert _graph_error(lambda t: t.transpose([1.0, 0, 2]), x).startswith(
        'Failed calling Transpose with "Transpose()(input=Tensor, dims=tuple<float, int, int>)".')
    with pytest.raises(TypeError, match=r'Failed calling Transpose with "Transpose\(\)\(input='
                                        r'Tensor, dims=Tuple<int, float, int>\)"'):
        ms.ops.transpose(x, (0, 1.0, 2))
    # None, as no axes, reverses them
    assert x.transpose(None).shape == (4, 3, 2)
    assert ms.jit(lambda t: t.transpose(None))(x).shape == (4, 3, 2)


def test_a_tensor_method_called_on_the_class_with_no_tensor():
    # MindSpore 2.10: Python's descriptor TypeError
    assert _graph_error(lambda a, b: Tensor.add(a, b), [1], [2]).startswith(
        "descriptor 'add' for 'TensorPy' objects doesn't apply to a 'list' object")
