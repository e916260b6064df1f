"""ops.composite in graph mode: HyperMap, Map, MultitypeFuncGraph, Partial, constexpr,
jit_class and mutable inside construct, and gradients through them."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.ops import composite as C
from cellgraph.ops import functional as F
from cellgraph.testing import check_grads

add = C.MultitypeFuncGraph("add")


@add.register("Tensor", "Tensor")
def _add_tensors(x, y):
    return x + y


@add.register("Number", "Tensor")
def _add_number(x, y):
    return y * 2.0 + x


@add.register("Tensor", "Number")
def _add_tensor_number(x, y):
    if x.sum() > 0:  # a Tensor condition: must become a graph branch
        return x + y
    return x - y


scale_grad = C.MultitypeFuncGraph("scale_grad")


@scale_grad.register("Number", "Tensor")
def _scale(scale, grad):
    return grad * scale


def _t(*shape, seed=0):
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


class HyperMapNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.hyper_map = C.HyperMap()

    def construct(self, a, b, c):
        return self.hyper_map(add, (a, (b, c)), (c, (a, 1.0)))


def test_hypermap_nested_dispatch_in_graph_and_pynative():
    a, b, c = _t(3), _t(3, seed=1), _t(3, seed=2)
    net = HyperMapNet()
    out = net(a, b, c)
    cv = c.asnumpy()
    expected_b = cv + 1.0 if cv.sum() > 0 else cv - 1.0
    np.testing.assert_allclose(out[0].asnumpy(), a.asnumpy() + c.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(out[1][0].asnumpy(), b.asnumpy() + a.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(out[1][1].asnumpy(), expected_b, rtol=1e-6)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        eager = net(a, b, c)
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_allclose(eager[1][1].asnumpy(), expected_b, rtol=1e-6)


def test_multitype_prefers_specific_match_and_reports_missing():
    np.testing.assert_allclose(add(1.0, Tensor([1.0, 2.0])).asnumpy(), [3.0, 5.0])
    with pytest.raises(TypeError, match="no implementation registered"):
        add("a", "b")


class ScaleGrads(nn.Cell):
    """The optimizer idiom: hyper_map(partial(fn, const), grads)."""

    def __init__(self):
        super().__init__()
        self.map = C.HyperMap()
        self.one_level = C.Map()

    def construct(self, g1, g2):
        scaled = self.map(F.partial(scale_grad, 0.5), (g1, g2))
        return self.one_level(ops.partial(ops.mul, 2.0), scaled)


def test_partial_and_map_with_gradients():
    g1, g2 = _t(2, 3), _t(4, seed=3)
    out = ScaleGrads()(g1, g2)
    np.testing.assert_allclose(out[0].asnumpy(), g1.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(out[1].asnumpy(), g2.asnumpy(), rtol=1e-6)

    def f(x):
        ys = C.HyperMap()(ops.Partial()(add, 1.0), (x, x * x))
        return (ys[0] * ys[1]).sum()

    check_grads(f, (np.random.default_rng(0).standard_normal(3),), order=2)


def test_map_does_not_enter_nested_sequences():
    t = Tensor([1.0])
    assert C.Map()(len, ((t, t), (t,))) == (2, 1)  # the elements are whole tuples
    out = C.HyperMap()(lambda x: x * 2, ((Tensor([1.0]),),))
    np.testing.assert_allclose(out[0][0].asnumpy(), [2.0])


@ops.constexpr
def _half_width(shape):
    return shape[-1] // 2


class ConstexprNet(nn.Cell):
    def construct(self, x):
        return x[:, :_half_width(x.shape)]


def test_constexpr_runs_at_compile_time_and_rejects_graph_values():
    x = _t(2, 6)
    np.testing.assert_allclose(ConstexprNet()(x).asnumpy(), x.asnumpy()[:, :3])

    class Bad(nn.Cell):
        def construct(self, x):
            return _half_width(x)

    with pytest.raises(TypeError, match="compile-time constants"):
        Bad()(x)


@ms.jit_class
class Affine:
    def __init__(self, scale):
        self.scale = scale
        self.shift = scale * 2.0

    def apply(self, x):
        if x.sum() > 0:
            return x * self.scale + self.shift
        return x

    def __call__(self, x):
        return self.apply(x) - self.shift


class JitClassNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = ms.Parameter(Tensor(np.float32(3.0)), name="weight")

    def construct(self, x):
        affine = Affine(self.weight)
        return affine(x)


def test_jit_class_built_and_called_in_construct_with_grads():
    x = Tensor(np.array([1.0, 2.0], np.float32))
    net = JitClassNet()
    np.testing.assert_allclose(net(x).asnumpy(), [3.0, 6.0])
    grads = ms.grad(net, grad_position=None, weights=net.trainable_params())(x)
    np.testing.assert_allclose(grads[0].asnumpy(), 3.0)  # d/dw sum(w x + 2w - 2w) = sum(x)
    x_neg = Tensor(np.array([-1.0, -2.0], np.float32))
    np.testing.assert_allclose(net(x_neg).asnumpy(), [-7.0, -8.0])


def test_jit_class_rejects_cells_and_non_classes():
    with pytest.raises(TypeError, match="nn.Cell"):
        ms.jit_class(nn.Dense)
    with pytest.raises(TypeError, match="expected a class"):
        ms.jit_class(lambda: 0)


class ScaleBy(nn.Cell):
    def construct(self, x, k):
        return x * k


def test_mutable_scalar_is_a_graph_input():
    net = ScaleBy()
    x = Tensor(np.ones(3, np.float32))
    first = net(x, ms.mutable(2.0))
    second = net(x, ms.mutable(5.0))
    np.testing.assert_allclose(first.asnumpy(), 2.0)
    np.testing.assert_allclose(second.asnumpy(), 5.0)
    assert len(net._graph_cache) == 1 if hasattr(net._graph_cache, "__len__") else True
    dk = ms.grad(net, grad_position=1)(x, ms.mutable(2.0))
    assert dk == 3.0 and isinstance(dk, float)  # a number's gradient is a number
    pair = ms.mutable((1, Tensor([1.0])))  # MindSpore's mutable numbers: numbers to Python
    assert isinstance(pair, tuple) and pair[0] == 1 and isinstance(pair[0], int)
    assert repr(ms.mutable(True)) == "True" and ms.mutable(2.5) * 2 == 5.0
    with pytest.raises(TypeError):
        ms.mutable(1, dynamic_len=True)


def test_a_mutable_bool_is_a_bool_to_python():
    # MindSpore 2.10: isinstance(mutable(True), bool), bools from its bitwise operators
    flag = ms.mutable(True)
    assert isinstance(flag, bool) and flag and str(flag) == "True"
    assert ms.mutable(True) & False is False
    assert ms.mutable(False) | True is True
    assert ms.mutable(False) ^ False is False

    @ms.jit
    def pick(flag, x):
        return x if flag else -x

    x = Tensor([1.5])
    assert pick(ms.mutable(True), x).asnumpy().tolist() == [1.5]
    assert pick(ms.mutable(False), x).asnumpy().tolist() == [-1.5]


def test_clip_by_global_norm():
    a, b = np.array([3.0, 0.0], np.float32), np.array([[4.0]], np.float32)
    out = C.clip_by_global_norm((Tensor(a), Tensor(b)), 1.0)
    np.testing.assert_allclose(out[0].asnumpy(), a / 5, rtol=1e-6)
    np.testing.assert_allclose(out[1].asnumpy(), b / 5, rtol=1e-6)
    out = ops.clip_by_global_norm((Tensor(a),), 10.0)
    np.testing.assert_allclose(out[0].asnumpy(), a, rtol=1e-6)


def test_multitype_mindspore_type_names():
    scalar_add = C.MultitypeFuncGraph("scalar_add")

    @scalar_add.register("Int64", "Int64")
    def _ints(x, y):
        return F.scalar_add(x, y)

    @scalar_add.register(ms.float32, ms.float32)
    def _floats(x, y):
        return F.scalar_mul(x, y)

    assert scalar_add(2, 3) == 5 and scalar_add(2.0, 3.0) == 6.0

    @ms.jit
    def both(x):
        return x * F.partial(scalar_add, 1)(2) + F.partial(scalar_add, 1.5)(2.0)

    np.testing.assert_allclose(both(Tensor(np.ones(2, np.float32))).asnumpy(), 6.0)


def test_forward_value_and_grad():
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    x = Tensor(np.array([[1.0, 2.0]], np.float32))
    loss, (input_grads, weight_grads) = nn.ForwardValueAndGrad(
        net, net.trainable_params(), get_all=True, get_by_list=True)(x)
    np.testing.assert_allclose(loss.asnumpy(), [[3.0]])
    np.testing.assert_allclose(input_grads[0].asnumpy(), [[1.0, 1.0]])
    np.testing.assert_allclose(weight_grads[0].asnumpy(), [[1.0, 2.0]])
    _, sens_grad = nn.ForwardValueAndGrad(net, sens_param=True)(x, Tensor(np.array([[2.0]],
                                                                                   np.float32)))
    np.testing.assert_allclose(sens_grad.asnumpy(), [[2.0, 2.0]])


def test_constexpr_is_reached_from_the_top_level_package():
    """`mindspore.constexpr` is `ops.constexpr`; a loop it runs is a compile-time constant."""
    @ms.constexpr
    def mean_of_evens(n):
        return sum(i for i in range(n) if i % 2 == 0) // n

    @ms.jit
    def widen(x):
        return ops.broadcast_to(x, (mean_of_evens(1000),))

    assert ms.constexpr is ops.constexpr
    np.testing.assert_array_equal(widen(Tensor([1])).asnumpy(), np.ones(249, np.int64))


def test_primexpr_folds_constants_and_compiles_graph_values():
    """ops.primitive._primexpr: on constants the function runs while the graph is built; on
    a graph value it compiles into the graph (where ops.constexpr refuses it)."""
    from cellgraph.ops.primitive import _primexpr

    @_primexpr
    def scaled_last(shape, x=None):
        return shape[-1] * 2 if x is None else x * shape[-1]

    @ms.jit
    def f(t):
        return scaled_last(t.shape), scaled_last(t.shape, t)

    const, traced = f(_t(2, 3))
    assert const == 6
    np.testing.assert_allclose(traced.asnumpy(), _t(2, 3).asnumpy() * 3)
    as_class = _primexpr(get_instance=False)(lambda n: n + 1)
    assert as_class()(2) == 3


def test_multitype_registered_by_type_objects():
    """MultitypeFuncGraph overloads registered with mstype.number and mstype.tensor_type."""
    from cellgraph import dtype as mstype

    add = C.MultitypeFuncGraph("add_by_type")

    @add.register(mstype.number, mstype.number)
    def _numbers(x, y):
        return x + y + 100

    @add.register(mstype.tensor_type, mstype.tensor_type)
    def _tensors(x, y):
        return ops.add(x, y)

    @ms.jit
    def f(a, b):
        return add(a, b), add(1, 2.5)

    tensors, numbers = f(_t(2, 2), _t(2, 2))
    np.testing.assert_allclose(tensors.asnumpy(), _t(2, 2).asnumpy() * 2)
    assert numbers == 103.5
    assert repr(mstype.number) == "cellgraph.number"


def test_mutable_dynamic_length_checks_as_mindspore():
    """mutable(seq, True): the first input must be a list or tuple; in a graph the elements
    are of one type (Tensors of one dtype, any shapes), outside one anything goes."""
    with pytest.raises(TypeError, match="For 'mutable', when the variable_len is True, the "
                                        "first input should be list or tuple, but got: Tensor"):
        ms.mutable(Tensor([1, 2]), True)
    assert len(ms.mutable((1, 2.0), True)) == 2

    @ms.jit
    def mixed():
        return ms.mutable((1, Tensor([1, 2, 3]), 2.0), True)

    @ms.jit
    def of_dtypes():
        return ms.mutable([Tensor([1]), Tensor([1.0])], True)

    @ms.jit
    def of_shapes():
        return ms.mutable([Tensor([1]), Tensor([1, 2])], True)

    with pytest.raises(ValueError, match="The element type do not match, can not convert to "
                                         "dynamic length sequence. The 0th element type is: "
                                         "int. The 1th element type is: Tensor"):
        mixed()
    with pytest.raises(TypeError, match="The 0th element is: Tensor\\[Int64\\]"):
        of_dtypes()
    assert [t.shape for t in of_shapes()] == [(1,), (2,)]


def test_mutable_counts_and_checks_its_inputs_as_mindspore():
    """Inside a graph mutable is MindSpore's operator: another number of inputs is its
    RuntimeError, and an element it cannot take is named; outside one the call binds as
    Python's (MindSpore 2.10's messages)."""
    import inspect

    assert str(inspect.signature(ms.mutable)) == "(input_data, dynamic_len=False)"
    with pytest.raises(TypeError, match="^mutable\\(\\) missing 1 required positional argument: "
                                        "'input_data'$"):
        ms.mutable()

    @ms.jit
    def none():
        return ms.mutable()

    @ms.jit
    def three():
        return ms.mutable([1], True, True)

    @ms.jit
    def array_inside():
        return ms.mutable([1, np.array([[1, 2, 3]])])

    for f, n in ((none, 0), (three, 3)):
        with pytest.raises(RuntimeError, match=f"For 'mutable', the number of inputs should be "
                                               f"1 or 2, but got {n}"):
            f()
    with pytest.raises(TypeError, match="For 'mutable', the 'input_data' should be one of "
                                        "\\(bool, int, float, Tensor, tuple, list, dict\\) or "
                                        "their nested structures, but got ndarray"):
        array_inside()


def test_core_decorator_records_the_flags_as_mindspore():
    from cellgraph import jit
    from cellgraph.ops.composite.base import core

    def plain(x):
        return x

    assert core(plain, predict=True) is plain
    assert plain._func_graph_flags == {"core": True, "predict": True}

    @core(loop_can_uroll=True)
    def doubled(xs):
        return tuple(x * 2 for x in xs)

    assert doubled._func_graph_flags == {"core": True, "loop_can_uroll": True}

    @jit
    def run(x):
        return doubled((x, x + 1))

    out = run(Tensor(np.array([1.0], np.float32)))
    assert [float(o.asnumpy()[0]) for o in out] == [2.0, 4.0]


_pick = C.MultitypeFuncGraph("pick")


@_pick.register("Tensor", "Tuple")
def _pick_by_sign(x, y):
    if x > 0:
        return y[0]
    return y[1]


class _HyperMapOverPairs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.hyper_map = C.HyperMap(_pick)

    def construct(self, x, y, z):
        return self.hyper_map((x, y), ((z, x), (y, z)))


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_hyper_map_hands_a_registered_sequence_to_the_function(mode):
    # an element that is a tuple where the MultitypeFuncGraph registers "Tuple" is its argument,
    # not mapped over; MindSpore 2.10's values (forward and C.GradOperation(get_all=True))
    ms.set_context(mode=mode)
    x, y, z = (Tensor(v, ms.int32) for v in (2, -3, 0))
    assert [int(v) for v in _HyperMapOverPairs()(x, y, z)] == [0, 0]
    grads = C.GradOperation(get_all=True)(_HyperMapOverPairs())(x, y, z)
    assert [int(g) for g in grads] == [0, 0, 2]


def _returns_zero():
    return 0


@ops.constexpr(check=False)
def _describe(a, b=None):
    return f"{a}|{b}"


def test_constexpr_gets_none_for_functions_in_a_graph():
    """MindSpore parses Python functions, methods and Python's builtins into graphs and passes
    None for them to a constexpr function; classes and other callables pass as they are
    (MindSpore 2.10's strings, its module names aside)."""
    import math

    class Holder:
        def method(self):
            return 1

    @ms.jit
    def functions():
        return _describe(_returns_zero, len), _describe(lambda v: v, Holder().method)

    @ms.jit
    def others():
        return _describe(math.sqrt, np.add), _describe((1, 2), 3)

    assert functions() == ("None|None", "None|None")
    assert others() == ("<built-in function sqrt>|<ufunc 'add'>", "(1, 2)|3")
    # outside a graph the function is passed as it is
    assert _describe(_returns_zero) == f"{_returns_zero}|None"


def test_partial_binds_keyword_arguments_in_both_modes():
    x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))

    @ms.jit
    def by_keyword(x, axis):
        return ops.Partial()(ops.ReduceSum(keep_dims=True), axis=axis)(x=x)

    eager = ops.Partial()(ops.ReduceSum(keep_dims=True), axis=(-1,))(x)
    np.testing.assert_array_equal(eager.asnumpy(), x.asnumpy().sum(-1, keepdims=True))
    np.testing.assert_array_equal(by_keyword(x, (-1,)).asnumpy(), eager.asnumpy())


def test_mutable_numbers_are_numbers_that_graphs_take_as_variable_scalars():
    """MindSpore 2.10: mutable(2) is an int (its _Int) outside graphs; a graph takes it as an
    input whose value it is not specialised on, and numbers it computes from it come back as
    numbers."""
    class Scalars(nn.Cell):
        def construct(self, x, n, k):
            return x * k, n * k, ops.zeros((n, 2)), ops.zeros(n * 2)

    net = Scalars()
    x = Tensor(np.ones(3, np.float32))
    scaled, product, zeros, flat = net(x, ms.mutable(3), ms.mutable(2.5))
    np.testing.assert_allclose(scaled.asnumpy(), 2.5)
    assert product == 7.5 and isinstance(product, float)
    assert zeros.shape == (3, 2) and flat.shape == (6,)
    scaled, product, zeros, flat = net(x, ms.mutable(3), ms.mutable(4.0))
    assert product == 12.0 and scaled.asnumpy().tolist() == [4.0] * 3
    n = ms.mutable(5)
    assert isinstance(n, int) and n + 1 == 6 and repr(n) == "5" and n.__ms_origin_object__ == 5
    assert isinstance(ms.mutable((1, 2.5))[1], float)
