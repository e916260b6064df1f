"""The gradient APIs' MindSpore semantics: what GradOperation, grad, value_and_grad and get_grad
return (shapes of the result, order, Python numbers, has_aux, sens), inside construct and from
Python, and the errors they raise for impossible or wrongly typed arguments."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops
from cellgraph.primitives.errors import GradPositionError

f32 = cellgraph.float32


def T(*values):
    return Tensor(np.array(values, np.float32))


class Affine(nn.Cell):
    """w * x + b * y with w = 6, b = 2."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(T(6.0), name="w")
        self.b = Parameter(T(2.0), name="b")

    def construct(self, x, y):
        return self.w * x + self.b * y


class XYZ(nn.Cell):
    def construct(self, x, y, z):
        return x * y * z


def fn_xyz(x, y, z):
    return x * y * z


X, Y, Z = T(1, 2), T(-2, 3), T(0, 3)


def values(result):
    """Nested tuples of Tensors -> nested tuples of lists, for comparisons."""
    if isinstance(result, tuple):
        return tuple(values(r) for r in result)
    if isinstance(result, (str, int)):
        return result
    return result.asnumpy().tolist()


class InGraph(nn.Cell):
    """Calls a gradient function inside construct, to check that the result shape is the same
    in a graph as from Python."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def construct(self, *args):
        return self.make()(*args)


def both(make, *args):
    """The result from Python and from inside a graph, after checking they agree."""
    outside = make()(*args)
    inside = InGraph(make)(*args)
    assert values(outside) == values(inside)
    return outside


# ----- GradOperation --------------------------------------------------------------------------

def test_grad_operation_default_is_the_first_input_bare():
    net = Affine()
    out = both(lambda: ops.GradOperation()(net), T(10), T(20))
    assert isinstance(out, Tensor) and values(out) == [6.0]


def test_grad_operation_get_all_is_a_tuple_over_inputs():
    net = Affine()
    assert values(both(lambda: ops.GradOperation(get_all=True)(net), T(10), T(20))) == (
        [6.0], [2.0])


def test_grad_operation_get_by_list_with_a_parameter_tuple_or_one_parameter():
    net = Affine()
    params = ParameterTuple(net.trainable_params())
    by_tuple = both(lambda: ops.GradOperation(get_by_list=True)(net, params), T(10), T(20))
    assert values(by_tuple) == ([10.0], [20.0])
    single = both(lambda: ops.GradOperation(get_by_list=True)(net, net.w), T(10), T(20))
    assert isinstance(single, Tensor) and values(single) == [10.0]


def test_grad_operation_get_all_and_get_by_list():
    net = Affine()
    params = ParameterTuple(net.trainable_params())
    op = ops.GradOperation(get_all=True, get_by_list=True)
    assert values(both(lambda: op(net, params), T(10), T(20))) == (([6.0], [2.0]),
                                                                   ([10.0], [20.0]))
    assert values(both(lambda: op(net, net.b), T(10), T(20))) == (([6.0], [2.0]), [20.0])
    assert values(both(lambda: op(net, None), T(10), T(20))) == (([6.0], [2.0]), ())


class NoInputs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(T(6.0), name="w")

    def construct(self):
        return self.w * 3.0


def test_grad_operation_without_inputs_or_weights_returns_empty_tuples():
    net = NoInputs()
    assert ops.GradOperation()(net)() == ()
    assert ops.GradOperation(get_all=True)(net)() == ()
    result = ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())()
    assert values(result) == ((), ([3.0],))


def test_grad_operation_sens_param_scales_the_output():
    net = Affine()
    out = ops.GradOperation(get_all=True, sens_param=True)(net)(T(10), T(20), T(0.5))
    assert values(out) == ([3.0], [1.0])


# ----- grad -----------------------------------------------------------------------------------

def test_grad_position_tuple_in_the_requested_order():
    assert values(both(lambda: cellgraph.grad(XYZ(), grad_position=(1, 2)), X, Y, Z)) == (
        [0.0, 6.0], [-2.0, 6.0])
    assert values(both(lambda: cellgraph.grad(XYZ(), grad_position=(2, 0)), X, Y, Z)) == (
        [-2.0, 6.0], [-0.0, 9.0])
    bare = both(lambda: cellgraph.grad(fn_xyz, grad_position=1), X, Y, Z)
    assert isinstance(bare, Tensor) and values(bare) == [0.0, 6.0]
    one = cellgraph.grad(fn_xyz, grad_position=(1,))(X, Y, Z)  # bare, as MindSpore 2.10 gives
    assert isinstance(one, Tensor) and values(one) == [0.0, 6.0]


def test_grad_with_weights_in_every_form():
    net = Affine()
    x, y = T(10), T(20)
    for weights in (net.trainable_params(), list(net.trainable_params()),
                    ParameterTuple(net.trainable_params()), tuple(net.trainable_params())):
        assert values(cellgraph.grad(net, None, weights)(x, y)) == ([10.0], [20.0])
        assert values(cellgraph.grad(net, 0, weights)(x, y)) == ([6.0], ([10.0], [20.0]))
        assert values(cellgraph.grad(net, (0, 1), weights)(x, y)) == (([6.0], [2.0]),
                                                                       ([10.0], [20.0]))
    single = cellgraph.grad(net, None, net.w)(x, y)
    assert isinstance(single, Tensor) and values(single) == [10.0]
    assert values(cellgraph.grad(net, 1, net.b)(x, y)) == ([2.0], [20.0])
    assert cellgraph.grad(XYZ(), None, XYZ().trainable_params())(X, Y, Z) == ()


def test_grad_of_a_weight_the_function_never_reads_is_zero():
    net = Affine()
    other = Parameter(T(1.0, 2.0, 3.0), name="other")
    gw, go = cellgraph.grad(net, None, [net.w, other])(T(10), T(20))
    assert values(gw) == [10.0] and values(go) == [0.0, 0.0, 0.0]


def test_sens_param_one_x_call_form():
    """1.x: grad(net, grad_position, sens_param=True)(*inputs, sens)."""
    class TwoOut(nn.Cell):
        def construct(self, x, y, z):
            return x ** 2 + y ** 2 + z ** 2, x * y * z

    x = Tensor(np.array([[1, 2], [3, 4]], np.float32))
    y = Tensor(np.array([[-2, 3], [-1, 2]], np.float32))
    z = Tensor(np.array([[0, 3], [5, -1]], np.float32))
    v = Tensor(np.array([[-1, 3], [2, 1]], np.float32))
    out = both(lambda: cellgraph.grad(TwoOut(), grad_position=(1, 2), sens_param=True),
               x, y, z, (v, v))
    assert values(out) == ([[4.0, 36.0], [26.0, 0.0]], [[2.0, 36.0], [14.0, 6.0]])


def two_outputs(x, y):
    return x * y, x + y


def test_sens_fits_an_output_whose_size_is_known_only_at_run_time():
    # x[unique(index)] has (None, 3) rows in the graph; a (2, 3) sens fits it (MindSpore's
    # gradient for these values)
    class Read(nn.Cell):
        def __init__(self):
            super().__init__()
            self.index = Tensor([1, 1, 1, 2])

        def construct(self, x):
            return x[ops.unique(self.index)[0]]

    class Grad(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net, self.grad = net, ops.GradOperation(sens_param=True)

        def construct(self, x, sens):
            return self.grad(self.net)(x, sens)

    x = Tensor(np.arange(9, dtype=np.float32).reshape(3, 3))
    sens = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) + 1)
    np.testing.assert_array_equal(Grad(Read())(x, sens).asnumpy(),
                                  [[0, 0, 0], [1, 2, 3], [4, 5, 6]])
    with pytest.raises(TypeError, match="sens"):
        Grad(Read())(x, Tensor(np.ones((2, 4), np.float32)))


def test_without_sens_every_output_is_seeded_with_ones():
    out = cellgraph.grad(two_outputs, (0, 1))(T(3), T(5))
    assert values(out) == ([6.0], [4.0])  # d(xy + x + y): y + 1, x + 1


def test_with_sens_a_tuple_output_takes_a_tuple_of_sens():
    grad_fn = cellgraph.grad(two_outputs, (0, 1), sens_param=True)
    assert values(grad_fn(T(3), T(5), (T(1), T(0)))) == ([5.0], [3.0])
    assert values(grad_fn(T(3), T(5), (T(0), T(2)))) == ([2.0], [2.0])


class _Sum(nn.Cell):
    def construct(self, x, y):
        return x + y


class _GradAllWithSens(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net, self.grad = net, ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, x, y, sens):
        return self.grad(self.net)(x, y, sens)


def test_a_python_number_is_the_sens_of_a_scalar_output():
    """As MindSpore: a number for a 0-d output is a 0-d sens of the output's dtype, and a
    number for an output that is itself a number (no Tensor input) passes no gradient."""
    grads = _GradAllWithSens(_Sum())(Tensor(3.0), Tensor(4.0), 2.0)
    assert [g.asnumpy().tolist() for g in grads] == [2.0, 2.0]
    assert grads[0].dtype == cellgraph.float32
    assert _GradAllWithSens(_Sum())(3, 4, 7) == ()


def aux_fn(x, y, z):
    return x * ops.exp(y) * ops.pow(z, 2), z


def test_has_aux_outputs_get_no_gradient_and_come_back_as_a_tuple():
    x, y, z = T(3, 3), T(0, 0), T(5, 5)
    gradient, aux = both(lambda: cellgraph.grad(aux_fn, (1, 2), None, True), x, y, z)
    assert values(gradient) == ([75.0, 75.0], [30.0, 30.0])
    assert isinstance(aux, tuple) and values(aux) == ([5.0, 5.0],)


def test_return_ids_pairs_gradients_with_positions_and_parameter_names():
    net = Affine()
    x, y = T(10), T(20)
    assert values(cellgraph.grad(net, 0, return_ids=True)(x, y)) == (0, [6.0])
    assert values(cellgraph.grad(net, (0, 1), return_ids=True)(x, y)) == ((0, [6.0]),
                                                                          (1, [2.0]))
    assert values(cellgraph.grad(net, 0, net.w, return_ids=True)(x, y)) == ((0, [6.0]),
                                                                           ("w", [10.0]))
    assert values(cellgraph.grad(net, 0, net.trainable_params(), return_ids=True)(x, y)) == (
        (0, [6.0]), (("w", [10.0]), ("b", [20.0])))


def test_python_numbers_get_no_gradient_and_are_skipped():
    def add(x, y):
        return x * y

    # MindSpore 2.10: (), [3. 3.] and [4.]: the one Tensor input's gradient comes back bare
    assert cellgraph.grad(add, (0, 1))(2.0, 3) == ()
    out = cellgraph.grad(add, (0, 1))(T(1, 2), 3.0)
    assert not isinstance(out, tuple) and out.asnumpy().tolist() == [3.0, 3.0]
    assert cellgraph.grad(add, (0, 1))(4, T(2)).asnumpy().tolist() == [4.0]


def test_a_tuple_input_gets_no_gradient():
    def loss(pair, w):
        a, b = pair
        return ops.reduce_sum(ops.tanh(a) * w + ops.square(b))

    a, b, w = T(0.5, -1.0), T(2.0, 3.0), T(1.5, 2.0)
    # as MindSpore 2.10's: a tuple input gets no gradient, so w's comes back alone and bare
    # ([0.46211717 -0.7615942]); with position 0 only, ()
    gw = cellgraph.grad(loss, (0, 1))((a, b), w)
    np.testing.assert_allclose(gw.asnumpy(), np.tanh(a.asnumpy()), rtol=1e-6)
    assert cellgraph.grad(loss, 0)((a, b), w) == ()
    pair_sum = cellgraph.grad(lambda pair, w: loss((pair[0] * 1, pair[1]), w), 1)
    np.testing.assert_allclose(pair_sum((a, b), w).asnumpy(), np.tanh(a.asnumpy()), rtol=1e-6)


# ----- value_and_grad and get_grad ------------------------------------------------------------

def test_value_and_grad():
    net = Affine()
    value, grads = cellgraph.value_and_grad(net, (0, 1), net.trainable_params())(T(10), T(20))
    assert values(value) == [100.0]
    assert values(grads) == (([6.0], [2.0]), ([10.0], [20.0]))
    value, gradient = both(lambda: cellgraph.value_and_grad(aux_fn, (1, 2), None, True),
                           T(3, 3), T(0, 0), T(5, 5))
    assert values(value) == ([75.0, 75.0], [5.0, 5.0])  # the whole output, aux included
    assert values(gradient) == ([75.0, 75.0], [30.0, 30.0])


class WithOutputs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(T(2.0, 2.0), name="w")

    def construct(self, x, y):
        return x * y * self.w, x, self.w


class GetGradNet(nn.Cell):
    def __init__(self, net, identifier):
        super().__init__()
        self.net = net
        self.weights = net.trainable_params()
        self.identifier = identifier

    def construct(self, x, y):
        res = cellgraph.grad(self.net, 0, self.weights, return_ids=True)(x, y)
        return cellgraph.get_grad(res, self.identifier)


def test_get_grad_by_position_and_by_parameter():
    x, y = T(1, 2), T(3, 3)
    net = WithOutputs()
    np.testing.assert_allclose(GetGradNet(net, 0)(x, y).asnumpy(), [7, 7])
    np.testing.assert_allclose(GetGradNet(net, net.w)(x, y).asnumpy(), [4, 7])
    res = cellgraph.grad(XYZ(), (1, 2), return_ids=True)(X, Y, Z)
    assert values(cellgraph.get_grad(res, 2)) == [-2.0, 6.0]
    with pytest.raises(RuntimeError, match="can not find the gradient for position or "
                                           "Parameter 0"):  # MindSpore's RuntimeError
        cellgraph.get_grad(res, 0)
    with pytest.raises(TypeError, match="got str 'x'"):
        cellgraph.get_grad(res, "x")


# ----- errors ---------------------------------------------------------------------------------

def test_both_none_is_a_value_error():
    with pytest.raises(ValueError, match="`grad_position` and `weights` cannot both be None"):
        cellgraph.grad(XYZ(), grad_position=None, weights=None)


@pytest.mark.parametrize("position, message", [
    (-1, r"entries must be >= 0, got -1"),
    ((0, 0), r"\(0, 0\) repeats a position"),
    ((), r"should not be empty when grad by position"),
])
def test_bad_positions_are_value_errors(position, message):
    with pytest.raises(ValueError, match=message):
        cellgraph.grad(XYZ(), grad_position=position)


def test_empty_positions_are_a_runtime_error_as_in_mindspore():
    class Weighted(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = cellgraph.Parameter(cellgraph.Tensor([6.0]), name="w")

        def construct(self, x, y):
            return self.w * x + y

    net = Weighted()
    for weights in (net.trainable_params(), None):
        with pytest.raises(RuntimeError, match="should not be empty when grad by position"):
            cellgraph.grad(net, grad_position=(), weights=weights)(X, Y)


def test_position_out_of_range_names_the_call_and_the_line():
    with pytest.raises(ValueError, match="grad_position 3 is out of range for a call with 3 "
                                         "inputs") as info:
        cellgraph.grad(XYZ(), grad_position=(0, 3))(X, Y, Z)
    assert isinstance(info.value, GradPositionError) and isinstance(info.value, IndexError)
    assert "test_grad_api.py" in str(info.value)
    # MindSpore 2.10 raises RuntimeError ("Position index 3 is exceed input size") for a Cell
    # and for a function, with grad and value_and_grad alike

    def product(x, y, z):
        return (x * y * z).sum()

    for call in (lambda: cellgraph.grad(XYZ(), grad_position=(0, 3))(X, Y, Z),
                 lambda: cellgraph.grad(product, 5)(X, Y, Z),
                 lambda: cellgraph.value_and_grad(product, 3)(X, Y, Z)):
        with pytest.raises(RuntimeError, match="out of range for a call with 3 inputs"):
            call()


class BadPositionInGraph(nn.Cell):
    def construct(self, x):
        return cellgraph.grad(fn_xyz, grad_position=4)(x, x, x)


def test_errors_inside_construct_point_at_the_users_line():
    with pytest.raises(ValueError) as info:
        BadPositionInGraph()(X)
    text = str(info.value)
    assert "grad_position 4 is out of range" in text
    assert "return cellgraph.grad(fn_xyz, grad_position=4)(x, x, x)" in text


@pytest.mark.parametrize("call, message", [
    (lambda: cellgraph.grad(XYZ(), grad_position="0"), (r"must be an int, a tuple of ints or "
                                                       r"None, got str '0'")),
    (lambda: cellgraph.grad(XYZ(), grad_position=(0, 1.5)), (r"entries must be ints, got "
                                                            r"float 1.5")),
    (lambda: cellgraph.grad(XYZ(), weights=5), r"`weights` must be a Parameter.*got int 5"),
    (lambda: cellgraph.grad(XYZ(), weights=[T(1)]), r"must hold Parameters, got Tensor"),
    (lambda: cellgraph.grad(5), (r"the first argument must be a 'Function' or 'Cell', but got "
                                r"int 5")),
    (lambda: cellgraph.grad(XYZ(), has_aux="yes"), (r"the 'has_aux' should be bool, but got "
                                                   r"str 'yes'")),
    (lambda: cellgraph.grad(XYZ(), return_ids=1), (r"the 'return_ids' should be bool, but got "
                                                  r"int 1")),
    (lambda: ops.GradOperation(get_all=1), (r"For 'GradOperation', the 'get_all' should be "
                                           r"bool, but got int 1")),
    (lambda: ops.GradOperation()(), r"requires a forward network or function as an input"),
    (lambda: ops.GradOperation(get_by_list=True)(XYZ(), "w"), r"got str 'w'"),
])
def test_wrongly_typed_arguments_are_type_errors(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_sens_errors_say_what_was_passed():
    grad_fn = cellgraph.grad(two_outputs, (0, 1), sens_param=True)
    with pytest.raises(TypeError, match=r"2 tensors \(f32\[1\], f32\[1\]\), got Tensor f32\[1\]"):
        grad_fn(T(3), T(5), T(1))
    with pytest.raises(TypeError, match=r"sens 1 has shape \(2,\), but output 1"):
        grad_fn(T(3), T(5), (T(1), T(1, 2)))
    with pytest.raises(TypeError, match="needs the sens value as the last argument"):
        cellgraph.grad(two_outputs, 0, sens_param=True)()


def test_has_aux_needs_several_outputs():
    with pytest.raises(ValueError, match="has_aux=True needs `fn` to return a tuple of at least "
                                         "two outputs, got a single Tensor"):
        cellgraph.grad(fn_xyz, 0, has_aux=True)(X, Y, Z)


@pytest.mark.parametrize("mode", [cellgraph.PYNATIVE_MODE, cellgraph.GRAPH_MODE])
def test_grad_of_a_python_constant_is_zeros_as_in_mindspore(mode):
    # MindSpore 2.10 (both modes): grad of `return 3.0` is zeros of the input's shape, and
    # value_and_grad gives (3.0, zeros); the derivative of a constant is zero
    cellgraph.set_context(mode=mode)

    def constant(x):
        return 3.0

    def two(x, y):
        return 2

    x = Tensor(np.ones((2, 3), np.float32))
    g = cellgraph.grad(constant)(x)
    assert g.shape == (2, 3) and g.dtype == cellgraph.float32
    np.testing.assert_array_equal(g.asnumpy(), np.zeros((2, 3), np.float32))
    value, g = cellgraph.value_and_grad(constant)(x)
    assert value == 3.0
    np.testing.assert_array_equal(g.asnumpy(), np.zeros((2, 3), np.float32))
    gx, gy = cellgraph.grad(two, grad_position=(0, 1))(x, x)
    np.testing.assert_array_equal(gx.asnumpy() + gy.asnumpy(), np.zeros((2, 3), np.float32))


def test_a_tuple_of_numbers_input_gets_no_gradient_as_in_mindspore():
    # MindSpore 2.10: GradOperation(get_all=True) and grad over positions leave out an input
    # that is a tuple of ints (a shape), as they leave out a Python number
    def f(x, shape, y, n):
        return x * y * n

    x = cellgraph.Tensor(np.array([1., 2.], np.float32))
    y = cellgraph.Tensor(np.array([3., 4.], np.float32))
    for grads in (cellgraph.ops.GradOperation(get_all=True)(f)(x, (3, 4), y, 2),
                  cellgraph.grad(f, grad_position=(0, 1, 2))(x, (3, 4), y, 2),
                  cellgraph.jit(cellgraph.ops.GradOperation(get_all=True)(f))(x, (3, 4), y, 2)):
        assert len(grads) == 2
        np.testing.assert_allclose(grads[0].asnumpy(), [6., 8.])
        np.testing.assert_allclose(grads[1].asnumpy(), [2., 4.])
    assert cellgraph.grad(f, grad_position=1)(x, (3, 4), y, 2) == ()


class _ScaledProduct(nn.Cell):
    def construct(self, x, y, z=1.0):
        return x * y * 2 * z


@pytest.mark.parametrize("mode", [cellgraph.GRAPH_MODE, cellgraph.PYNATIVE_MODE])
def test_grad_operation_get_all_differentiates_keyword_inputs(mode):
    # MindSpore 2.10: get_all gives the keyword inputs' gradients after the positional ones;
    # without get_all, the first input's alone
    cellgraph.set_context(mode=mode)
    net = _ScaledProduct()
    x = Tensor(np.array([1.0, 2.0], np.float32))
    y = Tensor(np.array([3.0, 4.0], np.float32))
    gx, gy = ops.GradOperation(get_all=True)(net)(x, y=y)
    np.testing.assert_allclose(gx.asnumpy(), [6.0, 8.0])
    np.testing.assert_allclose(gy.asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(ops.GradOperation()(net)(x, y=y).asnumpy(), [6.0, 8.0])
    (gx, gy), weights = ops.GradOperation(get_all=True, get_by_list=True)(
        net, net.trainable_params())(x, y=y)
    assert weights == () and gy.shape == (2,)
    grads = ops.GradOperation(get_all=True)(net)(x, y, z=Tensor(np.array([2.0, 2.0], np.float32)))
    np.testing.assert_allclose([g.asnumpy() for g in grads],
                               [[12.0, 16.0], [4.0, 8.0], [6.0, 16.0]])


def test_grad_operation_leaves_out_tuple_inputs():
    """MindSpore 2.10: GradOperation(get_all=True, get_by_list=True)(net)((x, y)) is ((), ()),
    and with get_all alone (), the tuple input getting no gradient; a Tensor after it does."""
    class Cube(nn.Cell):
        def construct(self, pair):
            return pair[0] * pair[0] * pair[0]

    class Product(nn.Cell):
        def construct(self, pair, z):
            return pair[0] * pair[1] * z

    x, y = T(1.0), T(2.0)
    assert ops.GradOperation(get_all=True, get_by_list=True)(Cube())((x, y)) == ((), ())
    assert ops.GradOperation(get_all=True)(Cube())((x, y)) == ()
    grads = ops.GradOperation(get_all=True)(Product())((x, y), y)
    assert len(grads) == 1 and grads[0].asnumpy().tolist() == [2.0]


class _NotEqual(nn.Cell):
    def construct(self, x, y):
        return x != y


class _GradAllWithSens(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad = ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, *args):
        return self.grad(self.net)(*args)


def test_a_python_bool_is_the_sens_of_a_bool_scalar_output():
    # MindSpore 2.10: (0, 0) for sens True and for sens False
    for sens in (True, False):
        grads = _GradAllWithSens(_NotEqual())(cellgraph.mutable(3), cellgraph.mutable(4), sens)
        assert [int(g) for g in grads] == [0, 0]


class _KeywordOnly(nn.Cell):
    def construct(self, *, a, b):
        return a * b * 2


class _PositionalAndKeywords(nn.Cell):
    def construct(self, x, *, a, b):
        return x * a * b


class _GradOf(nn.Cell):
    def __init__(self, net, grad_op):
        super().__init__()
        self.net, self.grad_op = net, grad_op

    def construct(self, *args, **kwargs):
        return self.grad_op(self.net)(*args, **kwargs)


def test_grad_operation_takes_keyword_inputs_after_the_positional_ones():
    # MindSpore 2.10: [6, 6] (first input a), [6, 6] (first input x), and with get_all the
    # gradients of x, a and b
    a, b, x = T(2.0, 2.0), T(3.0, 3.0), T(5.0, 5.0)
    np.testing.assert_allclose(_GradOf(_KeywordOnly(), ops.GradOperation())(a=a, b=b).asnumpy(),
                               [6.0, 6.0])
    np.testing.assert_allclose(
        _GradOf(_PositionalAndKeywords(), ops.GradOperation())(x, a=a, b=b).asnumpy(), [6, 6])
    grads = _GradOf(_PositionalAndKeywords(), ops.GradOperation(get_all=True))(x, a=a, b=b)
    assert [g.asnumpy().tolist() for g in grads] == [[6, 6], [15, 15], [10, 10]]
    # with sens_param, a keyword `sens` is the sensitivity (MindSpore's)
    with_sens = ops.GradOperation(get_all=True, sens_param=True)
    grads = _GradOf(_PositionalAndKeywords(), with_sens)(x, a=a, b=b, sens=T(2.0, 2.0))
    assert [g.asnumpy().tolist() for g in grads] == [[12, 12], [30, 30], [20, 20]]


def test_gradient_of_a_bool_input_is_cast_to_bool():
    """MindSpore 2.10: the gradient of `x + y` for a bool y is the sensitivity cast to bool."""
    import numpy as _np

    import cellgraph as _cg
    from cellgraph.ops import composite as _C

    x = _cg.Tensor(_np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], _np.float32))
    y = _cg.Tensor(_np.array([[True, True, True], [False, False, False]]))
    sens = _cg.Tensor(_np.array([[1.0, 2.5, 0.0], [0.0, 3.0, -4.0]], _np.float32))
    grad = _C.GradOperation(get_all=True, sens_param=True)
    gx, gy = _cg.jit(lambda a, b, s: grad(lambda u, v: u + v)(a, b, s))(x, y, sens)
    assert gy.dtype == _cg.bool_ and gx.dtype == _cg.float32
    _np.testing.assert_array_equal(gy.asnumpy(), [[True, True, False], [False, True, True]])
    _, gy = _C.GradOperation(get_all=True)(lambda u, v: u * v)(x, y)
    assert gy.asnumpy().all()  # x cast to bool: every x is nonzero
