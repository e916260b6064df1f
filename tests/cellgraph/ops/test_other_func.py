"""F.switch_layer and F.mixed_precision_cast, as MindSpore 2.10's."""
import numpy as np
import pytest

from cellgraph import Parameter, ParameterTuple, Tensor, mutable, nn, ops
from cellgraph.common import dtype as mstype
from cellgraph.ops import functional as F


class _Scale(nn.Cell):
    def __init__(self, value, name):
        super().__init__()
        self.z = Parameter(Tensor(np.full([4, 3], value, np.float32)), name=name)

    def construct(self, x):
        return x * self.z


class _Switch(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = (_Scale(0.5, "a"), _Scale(2.0, "b"))
        self.z3 = Parameter(Tensor(np.full([4, 3], 3.0, np.float32)), name="z3")

    def construct(self, index, x):
        return F.switch_layer(index, self.layers)(x) * self.z3


def test_switch_layer_picks_at_run_time_and_differentiates_the_branch_taken():
    net, x = _Switch(), Tensor(np.ones([4, 3], np.float32))
    np.testing.assert_allclose(net(Tensor(0, mstype.int32), x).asnumpy(), np.full([4, 3], 1.5))
    np.testing.assert_allclose(net(Tensor(1, mstype.int32), x).asnumpy(), np.full([4, 3], 6.0))
    # the layers' Parameters (a tuple of Cells is not a Cell's child, as in MindSpore)
    params = ParameterTuple([net.layers[0].z, net.layers[1].z, net.z3])
    grads = ops.GradOperation(get_by_list=True)(net, params)(Tensor(1, mstype.int32), x)
    by_value = {float(p.asnumpy()[0, 0]): g.asnumpy() for p, g in zip(params, grads)}
    np.testing.assert_allclose(by_value[0.5], 0)  # the layer not taken
    np.testing.assert_allclose(by_value[2.0], 3.0)  # x * z3
    np.testing.assert_allclose(by_value[3.0], 2.0)  # x * z of the layer taken
    grad_x = ops.GradOperation(get_all=True)(net)(Tensor(0, mstype.int32), x)[1]
    np.testing.assert_allclose(grad_x.asnumpy(), np.full([4, 3], 1.5))


def test_switch_layer_eagerly_and_its_spellings():
    layers = (_Scale(0.5, "a"), _Scale(2.0, "b"))
    x = Tensor(np.ones([4, 3], np.float32))
    np.testing.assert_allclose(ops.switch_layer(Tensor(1, mstype.int32), layers)(x).asnumpy(),
                               np.full([4, 3], 2.0))
    with pytest.raises(TypeError, match="'layers' must be a non-empty tuple"):
        F.switch_layer(Tensor(0, mstype.int32), ())


def test_mixed_precision_cast_casts_float_tensors_in_tuples_and_lists():
    # MindSpore 2.10: (f16, i32, (f16, 3.0), {'a': f32}) for this input; int dst casts too
    x = Tensor(np.ones([2], np.float32))
    i = Tensor(np.ones([2], np.int32))
    d = Tensor(np.ones([2], np.float64))
    out = F.mixed_precision_cast(mstype.float16, (x, i, [d, 3.0], {"a": x}))
    assert isinstance(out, tuple) and isinstance(out[2], tuple)
    assert out[0].dtype == mstype.float16 and out[1].dtype == mstype.int32
    assert out[2][0].dtype == mstype.float16 and out[2][1] == 3.0
    assert out[3]["a"].dtype == mstype.float32
    assert ops.mixed_precision_cast(mstype.float32, d).dtype == mstype.float32
    assert F.mixed_precision_cast(mstype.int32, x).dtype == mstype.int32
    assert F.mixed_precision_cast(mstype.float16, 2.0) == 2.0


def test_is_floating_point_as_mindspore():
    # MindSpore 2.10: True for float16/bfloat16/float32/float64, False for ints, bool, complex
    cases = [(np.float32, True), (np.float16, True), (np.float64, True), (np.int64, False),
             (np.bool_, False), (np.complex128, False)]
    for np_type, expected in cases:
        assert ops.is_floating_point(Tensor(np.ones(2, np_type))) is expected

    class Check(nn.Cell):
        def construct(self, x):
            return ops.is_floating_point(x)

    assert Check()(Tensor(np.ones(3, np.float32))) is True
    assert Check()(Tensor(np.ones(3, np.int32))) is False
    with pytest.raises(AttributeError):
        ops.is_floating_point(1.0)


class _TupleDiv(nn.Cell):
    def construct(self, x, y):
        return F.tuple_div(x, y)


def test_tuple_div_divides_exactly_or_raises_mindsporess_runtime_errors():
    # MindSpore 2.10: (4, 2), and these RuntimeErrors while the graph is built
    assert _TupleDiv()((8, 14), (2, 7)) == (4, 2)
    assert F.tuple_div((8, 14), (2, 7)) == (4, 2)
    cases = [
        ((8, 14, 20), (2, 2), ("The size of inputs of 'tuple_div' operator must be the same, but "
                               "the size of divisor tuple is 2, the size of dividend tuple is 3.")),
        ((8, 14, 20), (2, 2, 2.0), ("The data type of inputs of 'tuple_div' operator should be an "
                                    "int64 number, but got a Float32 number 2.")),
        ((8, 14, 20), (2, 2, 0), "The divisor value should not be 0!"),
        ((8, 14), (2, 3), ("The inputs of 'tuple_div' operator should be divisible, but they are "
                           "not divisible now, the dividend is 14, the divisor is 3."))]
    for x, y, message in cases:
        with pytest.raises(RuntimeError) as info:
            _TupleDiv()(x, y)
        assert message in str(info.value)


class _TypeOf(nn.Cell):
    def construct(self, x):
        return F.typeof(x, x)


def test_typeof_gives_the_graph_type_and_takes_one_argument():
    # MindSpore 2.10: Tensor[Int32], Int64, Float32, Bool; Tuple, List, String, None
    assert F.typeof(Tensor(np.int32(2))) == mstype.TensorType(mstype.int32)
    assert (F.typeof(1), F.typeof(1.0), F.typeof(True)) == (mstype.int64, mstype.float32,
                                                            mstype.bool_)
    assert F.typeof((1, 2)) == mstype.tuple_ and F.typeof([1]) == mstype.list_
    assert F.typeof("a") == mstype.string and F.typeof(None) == mstype.type_none
    with pytest.raises(RuntimeError, match="The Typeof operator must requires 1 argument, but "
                                           "the size of arguments is 2."):
        _TypeOf()(Tensor(np.array([2, 3], np.int32)))


class _ScalarMath(nn.Cell):
    def construct(self, x, y):
        return F.scalar_uadd(x), F.scalar_log(y), F.scalar_max(x, y), F.scalar_min(x, y)


def test_scalar_uadd_log_max_min_on_numbers_and_variable_scalars():
    # MindSpore 2.10: F.scalar_log(2.0) 0.6931471805599453, F.scalar_log(1) 0.0
    assert F.scalar_uadd(3) == 3 and F.scalar_log(1) == 0.0
    assert F.scalar_log(2.0) == pytest.approx(0.6931471805599453)
    assert _ScalarMath()(3, 8) == (3, pytest.approx(np.log(8)), 8, 3)
    out = _ScalarMath()(mutable(3), mutable(8))
    assert out[0] == 3 and out[2] == 8 and out[3] == 3
    assert out[1] == pytest.approx(np.log(8), rel=1e-6)


# MindSpore 2.10's results in a compiled construct (and in PyNative, where it runs them)
VALUE_RESULTS = [
    ("hastype", (1, mstype.int64), True), ("hastype", (1.0, mstype.float32), True),
    ("hastype", (Tensor(1), mstype.tensor_type), True), ("hastype", (Tensor(1), mstype.int64), False),
    ("hastype", ((1, 2), mstype.tuple_), True), ("hastype", (1, mstype.number), True),
    ("bool_eq", (True, False), False), ("bool_and", (True, False), False),
    ("bool_or", (True, False), True), ("bool_not", (False,), True),
    ("is_", (None, None), True), ("is_", (1, 1), True), ("is_", (Tensor(1), None), False),
    ("is_", (mstype.int32, mstype.int32), True), ("is_not", (None, None), False),
    ("is_not", (1, None), True), ("string_eq", ("a", "b"), False),
    ("string_concat", ("ab", "cd"), "abcd"),
    ("scalar_mod", (-7, 3), 2), ("scalar_mod", (7.5, 2), 1.5), ("scalar_floordiv", (-7, 2), -4),
    ("scalar_floordiv", (7.5, 2), 3.0), ("scalar_div", (6, 3), 2.0), ("scalar_eq", (1, 1.0), True),
    ("scalar_cast", (True, mstype.float64), 1.0), ("scalar_cast", (3, mstype.bool_), True),
]

VALUE_ERRORS = [
    ("hastype", (1, type(mstype.int64)), TypeError,
     "For 'hastype', input[1] should be Type, but got TypeType."),
    ("bool_and", (1, 0), RuntimeError,
     "The inputs of BoolAnd operator should be two booleans, but got param0: 1, param1: 0."),
    ("bool_or", (True, 1), RuntimeError,
     "The inputs of BoolOr operator should be two booleans, but got param0: true, param1: 1."),
    ("bool_not", (0,), RuntimeError, "Cast failed, original value: 0, type: Int64Imm"),
    ("is_", (1, 1.0), RuntimeError,
     "For syntax like 'a is b', b supports Int, Bool, String, None and Type, but got 1"),
    ("string_concat", ("a", 1), RuntimeError, "The expected is String, not Int64"),
    ("string_eq", ("a", 1), RuntimeError, "The expected is String, not Int64"),
    ("scalar_div", (1, 0), ValueError, "The divisor could not be zero. But the divisor is zero now."),
    ("scalar_floordiv", (7, 0), ValueError, "The divisor could not be zero."),
    ("scalar_mod", (7, 0), ValueError, "Cannot perform modulo operation on zero."),
    ("scalar_log", (0,), ValueError, "math domain error"),  # MindSpore's PyNative error
]


def _in_construct(fn, args):
    class Net(nn.Cell):
        def construct(self):
            return fn(*args)

    return Net()()


@pytest.mark.parametrize(("name", "args", "expected"), VALUE_RESULTS)
def test_value_operations_eagerly_and_compiled(name, args, expected):
    fn = getattr(F, name)
    assert getattr(ops, name) is fn
    for result in (fn(*args), _in_construct(fn, args)):
        assert result == expected and type(result) is type(expected)


@pytest.mark.parametrize(("name", "args", "kind", "message"), VALUE_ERRORS)
def test_value_operation_errors_eagerly_and_compiled(name, args, kind, message):
    fn = getattr(F, name)
    for run in (lambda: fn(*args), lambda: _in_construct(fn, args)):
        with pytest.raises(kind) as raised:
            run()
        assert message in str(raised.value)


def test_scalar_to_array_and_back():
    """MindSpore 2.10's CPU build has no kernel for ScalarToArray or array_to_scalar; these
    do what they say: a number as a 0-d Tensor of a Tensor's dtype for it, and back."""
    t = F.scalar_to_array(2.5)
    assert t.shape == () and t.dtype == mstype.float32 and float(t.asnumpy()) == 2.5
    assert ops.scalar_to_array(2).dtype == mstype.int64
    assert F.array_to_scalar(Tensor(3)) == 3 and type(F.array_to_scalar(Tensor(3))) is int
    with pytest.raises(TypeError, match="ScalarToArray"):
        F.scalar_to_array("a")
    with pytest.raises(TypeError, match="0-d Tensor"):
        F.array_to_scalar(Tensor(np.ones(2)))

    class Net(nn.Cell):
        def construct(self, x):
            return F.scalar_add(F.array_to_scalar(x), 1)

    assert Net()(Tensor(4)) == 5
