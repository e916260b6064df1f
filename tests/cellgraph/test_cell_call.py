"""Calling a Cell in graph mode: keyword arguments bind like Python's, Parameter.value() reads
the Parameter."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn


class Affine(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bias = Parameter(Tensor(np.array([0.5])), name="bias")

    def construct(self, x, scale=2.0, *extra):
        out = x * scale + self.bias.value()
        for e in extra:
            out = out + e
        return out


def test_keyword_arguments_bind_to_construct_parameters():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor(np.array([1.0, 2.0]))
    net = Affine()
    np.testing.assert_allclose(net(x, scale=3.0).asnumpy(), [3.5, 6.5])
    np.testing.assert_allclose(net(x=x).asnumpy(), [2.5, 4.5])
    np.testing.assert_allclose(net(x, 3.0).asnumpy(), [3.5, 6.5])
    np.testing.assert_allclose(net(x, 1.0, x, x).asnumpy(), [3.5, 6.5])


class Shifted(nn.Cell):
    def construct(self, x, *, scale=2.0, shift=None):
        y = x * scale
        if shift is not None:
            y = y + shift
        return y


def test_keyword_only_arguments_of_construct_and_jit_functions():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor(np.array([1.0, 2.0]))
    net = Shifted()
    np.testing.assert_allclose(net(x).asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(net(x, scale=3.0).asnumpy(), [3.0, 6.0])
    np.testing.assert_allclose(net(x, shift=x).asnumpy(), [3.0, 6.0])  # a Tensor input
    np.testing.assert_allclose(net(x, shift=x, scale=0.5).asnumpy(), [1.5, 3.0])
    np.testing.assert_allclose(net(x).asnumpy(), [2.0, 4.0])  # no graph served stale

    @ms.jit
    def offset(x, *extra, k=1.0):
        return x + k + sum(extra)

    np.testing.assert_allclose(offset(x).asnumpy(), [2.0, 3.0])
    np.testing.assert_allclose(offset(x, k=5.0).asnumpy(), [6.0, 7.0])
    np.testing.assert_allclose(offset(x, x, k=0.0).asnumpy(), [2.0, 4.0])
    with pytest.raises(TypeError, match="Shifted.construct"):
        net(x, 2.0)  # keyword-only stays keyword-only


def test_an_unknown_keyword_is_an_argument_error():
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(TypeError, match="Affine.construct"):
        Affine()(Tensor(np.array([1.0])), shift=1.0)


def test_parameter_value_reads_the_current_value():
    net = Affine()
    net.bias.set_data(np.array([-1.0]))
    np.testing.assert_allclose(net(Tensor(np.array([1.0]))).asnumpy(), [1.0])
    np.testing.assert_allclose(net.bias.value().asnumpy(), [-1.0])


def test_recompute_sets_the_recompute_scope_of_the_cell_and_those_below():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.pool = nn.MaxPool2d(kernel_size=2, stride=2)

        def construct(self, x):
            return self.pool(x)

    net = Net()
    assert net.pool.get_scope() is None
    net.pool.recompute(mp_comm_recompute=True)
    assert (net.pool.get_scope(), net.get_scope()) == ("recompute_", None)
    net.recompute()
    assert (net.pool.get_scope(), net.get_scope()) == ("recompute_", "recompute_")


class Doubled(nn.Cell):
    def construct(self, x):
        return x * 2


def test_repeated_call_short_path_sees_mode_signature_and_keyword_changes():
    """A Cell called again with the same Tensors takes the short path of the last call; a
    switch to PyNative, a set_inputs signature, keyword arguments and a construct with
    keyword-only parameters put in its place all leave it."""
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor(np.array([1.0, 2.0], np.float32))
    net = Doubled()
    for _ in range(2):
        np.testing.assert_allclose(net(x).asnumpy(), [2.0, 4.0])
    calls = []
    type(net).construct = lambda self, x: calls.append(1) or x * 3
    try:
        ms.set_context(mode=ms.PYNATIVE_MODE)
        np.testing.assert_allclose(net(x).asnumpy(), [3.0, 6.0])
        assert calls == [1]  # run eagerly, as Python
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)
        type(net).construct = Doubled.__dict__["construct"]
    np.testing.assert_allclose(net(x).asnumpy(), [2.0, 4.0])
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))
    with pytest.raises(ValueError, match="set_inputs"):  # a rank 1 input for rank 2
        net(x)
    shifted = Shifted()
    np.testing.assert_allclose(shifted(x).asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(shifted(x).asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(shifted(x, scale=3.0).asnumpy(), [3.0, 6.0])
    np.testing.assert_allclose(shifted(x).asnumpy(), [2.0, 4.0])


def test_set_inputs_takes_unknown_sizes_and_any_rank_as_mindspore_shows_them():
    """MindSpore 2.10: an unknown size shows as -1, Tensor(shape=None, dtype=...) is a Tensor
    of any rank, shown as [-2]; calls of any shape (or rank) and the declared dtype fit."""
    import cellgraph as ms

    some, anyrank = ms.Tensor(shape=[None, 3], dtype=ms.float32), ms.Tensor(
        shape=None, dtype=ms.float32)
    assert some.shape == (-1, 3) and anyrank.shape == (-2,)
    assert ms.Tensor(shape=[-2], dtype=ms.float32).shape == (-2,)
    assert repr(anyrank).startswith("Tensor(shape=[-2], dtype=Float32")

    class Square(nn.Cell):
        def construct(self, x):
            return x * x

    net = Square()
    net.set_inputs(anyrank)
    assert net(Tensor(np.ones((2, 3), np.float32))).shape == (2, 3)
    assert net(Tensor(np.ones(4, np.float32))).shape == (4,)
    with pytest.raises(TypeError, match="set_inputs"):
        net(Tensor(np.ones(4, np.int32)))
    with pytest.raises(ValueError, match="-2"):
        ms.Tensor(shape=[-2, 3], dtype=ms.float32)


_SET_INPUTS = "For set_inputs and tuple(list) in set_inputs, "
_SET_INPUTS_TYPE = ("For set_inputs or tuple(list) in set_inputs, the 1th type should be "
                    "Tensor[Float32], but got Tensor[Float16]!")


@pytest.mark.parametrize("declared, shape, dtype, error, message", [
    # MindSpore 2.10's errors, word for word; a 0-d Tensor fits sizes all unknown
    ([None], (), np.float32, None, None),
    ([None, None], (), np.float32, None, None),
    ([None], (2, 2), np.float32, ValueError, _SET_INPUTS + "the dims of 1th input must be the "
     "same as expected, but got expected: 1, and input: 2!"),
    ([None, 3], (2, 2), np.float32, ValueError, _SET_INPUTS + "the shape of 1th input must be "
     "the same as expected, but got expected: 3, and input: 2!"),
    ([None], (2,), np.float16, TypeError, _SET_INPUTS_TYPE),
    ([None], (), np.float16, TypeError, _SET_INPUTS_TYPE),
])
def test_set_inputs_errors_are_those_of_mindspore(declared, shape, dtype, error, message):
    import cellgraph as ms

    class ReluAdd(nn.Cell):
        def construct(self, x):
            return x + ms.ops.relu(x)

    net = ReluAdd()
    net.set_inputs(ms.Tensor(shape=declared, dtype=ms.float32))
    x = Tensor(np.full(shape, -1.0, dtype))
    if error is None:
        assert net(x).shape == shape
        return
    with pytest.raises(error) as info:
        net(x)
    assert str(info.value) == message


def test_set_inputs_with_a_tensor_of_unknown_rank():
    """`Tensor(dtype=...)` (and `Tensor(shape=None, dtype=...)`) is MindSpore's input signature
    of unknown rank, shape (-2,): any rank fits it, the dtype must match."""
    ms.set_context(mode=ms.GRAPH_MODE)
    signature = Tensor(shape=None, dtype=ms.float32)
    assert signature.shape == (-2,) and repr(signature) == "Tensor(shape=[-2], dtype=Float32, value=\n)"
    assert Tensor(dtype=ms.int32).shape == (-2,)

    class Tripled(nn.Cell):
        def construct(self, x):
            return x * 3

    net = Tripled()
    net.set_inputs(signature)
    np.testing.assert_allclose(net(Tensor(np.ones((2, 3), np.float32))).asnumpy(),
                               np.full((2, 3), 3.0))
    np.testing.assert_allclose(net(Tensor(np.ones((4,), np.float32))).asnumpy(), np.full(4, 3.0))
    with pytest.raises(TypeError, match="set_inputs"):
        net(Tensor(np.ones((4,), np.int32)))


def test_a_cell_without_construct_raises_attribute_error_as_mindspore():
    """MindSpore 2.10, both modes: AttributeError "For 'Cell', the method 'construct' is not
    defined." """
    class NoConstruct(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.relu = ms.nn.ReLU()

    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        with pytest.raises(AttributeError, match="For 'Cell', the method 'construct' is not "
                                                 "defined."):
            NoConstruct()(ms.Tensor(np.ones(2, np.float32)))
    ms.set_context(mode=ms.GRAPH_MODE)


def test_a_construct_method_set_on_the_instance_is_the_one_called():
    """MindSpore's test framework picks a Cell's construct per case with
    `setattr(net, "construct", net.construct2_c0)`; MindSpore then runs that method in both
    modes."""
    class Picks(nn.Cell):
        def construct(self, *inputs):
            raise NotImplementedError

        def construct2_c0(self, x1, x2):
            return ms.ops.matmul(x1, x2)

    net = Picks()
    net.construct = net.construct2_c0
    x1, x2 = Tensor(np.ones((1, 3), np.float32)), Tensor(np.ones((3, 4), np.float32))
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        np.testing.assert_allclose(net(x1, x2).asnumpy(), np.full((1, 4), 3.0))
    ms.set_context(mode=ms.GRAPH_MODE)
