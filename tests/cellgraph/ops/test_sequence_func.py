"""ops.functional's operations on a graph's tuples, lists and dicts (ops/function/sequence_func.py)
and ops.composite's tail and zip_operation, and `ops` holding them as MindSpore's ops does. Expected values and errors are MindSpore 2.10's,
run in a compiled construct (in PyNative MindSpore runs most of them the same way; its `tail` and
`zip_operation` return None there)."""
import re

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.ops import functional as F

# (name, arguments, MindSpore 2.10's result in a compiled construct)
RESULTS = [
    ("tuple_getitem", ((1, 2, 3), 1), 2), ("tuple_getitem", ((1, 2, 3), -1), 3),
    ("tuple_getitem", ([1, 2, 3], 1), 2), ("list_getitem", ((1, 2, 3), 1), 2),
    ("tuple_setitem", ((1, 2, 3), 1, 9), (1, 9, 3)),
    ("tuple_setitem", ((1, 2, 3), -1, "x"), (1, 2, "x")),
    ("list_setitem", ([1, 2, 3], 1, 9), [1, 9, 3]),
    ("tuple_equal", ((1, 2), (1, 2)), True), ("tuple_equal", ((1, 2), (1, 3)), False),
    ("tuple_equal", ((1, 2), [1, 2]), True), ("tuple_equal", ((1, 2), (1, 2.0)), False),
    ("list_equal", ([1, 2], [1, 2, 3]), False), ("list_len", ([1, 2, 3],), 3),
    ("list_len", ((1, 2),), 2), ("tuple_reversed", ((1, 2, 3),), (3, 2, 1)),
    ("tuple_reversed", ((),), ()), ("tuple_reversed", ((1, (2, 3)),), ((2, 3), 1)),
    ("make_list", (1, 2), [1, 2]), ("make_list", (), []),
    ("make_dict", (("a", "b"), (1, 2)), {"a": 1, "b": 2}), ("make_dict", (["a"], [1]), {"a": 1}),
    ("dict_getitem", ({"a": 1}, "a"), 1), ("dict_setitem", ({"a": 1}, "a", 2), {"a": 2}),
    ("dict_setitem", ({"a": 1}, "b", 3), {"a": 1, "b": 3}),
    ("in_dict", ("a", {"a": 1}), True), ("in_dict", (1, {"a": 1}), False),
    ("not_in_dict", ("b", {"a": 1}), True),
    ("make_slice", (1, 5, 2), slice(1, 5, 2)), ("make_slice", (None, 3, None), slice(None, 3)),
    ("make_range", (1, 5), (1, 2, 3, 4)), ("make_range", (5, 1, -2), (5, 3)),
    ("tail", ((1, 2, 3),), (2, 3)), ("tail", ([1, 2, 3],), [2, 3]), ("tail", ((1,),), ()),
    ("tail", ((),), ()),
    ("zip_operation", ((1, 2), (3, 4)), ((1, 3), (2, 4))),
    ("zip_operation", ((1, 2, 3), (4, 5)), ((1, 4), (2, 5))),
    ("zip_operation", ([1, 2], [3, 4]), ((1, 3), (2, 4))),
    ("zip_operation", ((1, 2),), ((1,), (2,))),
    ("shape_mul", ((2, 3, 4),), 24), ("shape_mul", ((),), 1), ("shape_mul", ((2, -1),), -2),
    ("reduced_shape", ((2, 3, 4), (1,)), (2, 1, 4)), ("reduced_shape", ((2, 3, 4), ()), (1, 1, 1)),
    ("reduced_shape", ((2, 3, 4), (0, 2)), (1, 3, 1)),
    ("reduced_shape", ((2, 3, 4), -1), (2, 3, 1)),
    ("broadcast_gradient_args", ((2, 3), (3,)), ((), (0,))),
    ("broadcast_gradient_args", ((4, 1, 3), (5, 1)), ((1,), (0, 2))),
    ("broadcast_gradient_args", ((1,), (2, 2)), ((0, 1), ())),
    ("broadcast_gradient_args", ((2, 3), (2, 3)), ((), ())),
    ("broadcast_gradient_args", ((), (3,)), ((0,), ())),
    ("broadcast_gradient_args", ((-1, 3), (3,)), ((), (0,))),
]

# (name, arguments, MindSpore 2.10's exception type, the start of its message)
ERRORS = [
    ("tuple_getitem", ((1, 2, 3), 5), IndexError,
     "TupleGetItem evaluator index should be in range[-3, 3), but got 5."),
    ("tuple_getitem", ((1, 2, 3), 1.0), IndexError,
     "TupleGetItem evaluator index should be an int64 number"),
    ("list_getitem", ([1, 2, 3], 3), IndexError,
     "list_getitem evaluator index should be in range[-3, 3), but got 3."),
    ("list_setitem", ([1, 2, 3], 5, 0), IndexError,
     "list_setitem evaluator the index: 5 to set out of range: [-3,2]."),
    ("tuple_setitem", ((1, 2, 3), 3, 0), IndexError,
     "tuple_setitem evaluator the index: 3 to set out of range: [-3,2]."),
    ("tuple_equal", ((1,), 1), TypeError,
     "For primitive 'tuple_equal', the input must be a list or tuple"),
    ("tuple_reversed", ([1, 2],), TypeError, "For 'tuple_reversed', input[0] should be Tuple"),
    ("make_dict", (("a", "b"), (1,)), RuntimeError,
     "make_dict evaluator keys' size is not equal with values' size"),
    ("dict_getitem", ({"a": 1}, "b"), ValueError, "The key b does not exist in the dict:{'a': 1}"),
    ("dict_setitem", ((1,), "a", 1), TypeError, "For 'dict_setitem', input[0] should be Dictionary"),
    ("in_dict", ("a", (1,)), TypeError, "For 'in_dict', input[1] should be Dictionary"),
    ("make_slice", (1,), RuntimeError, "For 'make_slice', the number of input should be 3, but got 1"),
    ("tail", (3,), RuntimeError, "'Tail' arg0 must be tuple or list"),
    ("zip_operation", (), RuntimeError,
     "The zip operator must have at least 1 argument, but the size of arguments is 0."),
    ("zip_operation", ((1, 2), 3), TypeError, ""),  # MindSpore: Python's "'int' object is not ..."
    ("shape_mul", ([2, 3],), TypeError, "For 'shape_mul', input[0] should be Tuple"),
    ("shape_mul", ((2, 3.0),), RuntimeError, "Cast failed, original value: 3.0"),
    ("broadcast_gradient_args", ((2, 3), (4,)), RuntimeError,
     "Not compatible shape input for BroadcastGradientArgs."),
    ("reduced_shape", ((2, 3), 2), RuntimeError,
     ("For primitive[reduced_shape], input_x's rank is 2, while the 'axis' value should be in "
      "the range [-2, 2), but got 2")),
]


def _compiled(fn, args):
    class Net(nn.Cell):
        def construct(self):
            return fn(*args)

    return Net()()


@pytest.mark.parametrize(("name", "args", "expected"), RESULTS)
def test_results_eagerly_and_compiled(name, args, expected):
    fn = getattr(ops, name)  # F's, but tail and zip_operation are ops.composite's only
    assert getattr(F, name, fn) is fn
    for result in (fn(*args), _compiled(fn, args)):
        assert result == expected and type(result) is type(expected)


@pytest.mark.parametrize(("name", "args", "kind", "message"), ERRORS)
def test_errors_eagerly_and_compiled(name, args, kind, message):
    fn = getattr(ops, name)
    with pytest.raises(kind) as eager:
        fn(*args)
    assert str(eager.value).startswith(message)
    with pytest.raises(kind, match=re.escape(message) if message else None):
        _compiled(fn, args)


def test_tensors_in_sequences_compare_by_type_and_value_and_pass_through():
    t = Tensor(1)
    assert F.tuple_equal((t,), (Tensor(1),)) and F.list_equal([t], [Tensor(1)])
    assert not F.tuple_equal((t,), (Tensor(2),))
    assert not F.tuple_equal((t,), (Tensor(1.0),))
    made = F.make_dict(("a",), (t,))
    assert made["a"] is t

    class Net(nn.Cell):
        def construct(self, x):
            pair = F.make_list(x, F.tuple_getitem((x, 2), 1))
            return F.tuple_equal((x,), (x,)), pair[0] * pair[1], ops.zip_operation((x,), (1,))

    same, doubled, zipped = Net()(Tensor(np.array([1.0, 2.0], np.float32)))
    assert same is True
    np.testing.assert_allclose(doubled.asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(zipped[0][0].asnumpy(), [1.0, 2.0])
    assert zipped[0][1] == 1


def test_shape_and_reshape_primitive_instances():
    x = Tensor(np.ones((2, 3), np.float32))
    assert isinstance(F.shape_, ops.Shape) and isinstance(F.reshape_, ops.Reshape)
    assert ops.shape_ is F.shape_ and ops.reshape_ is F.reshape_
    assert F.shape_(x) == (2, 3)
    assert F.reshape_(x, (3, 2)).shape == (3, 2)

    class Net(nn.Cell):
        def construct(self, x):
            return F.reshape_(x, (F.shape_mul(F.shape_(x)),)), F.reduced_shape(F.shape_(x), 1)

    flat, reduced = Net()(Tensor(np.ones((2, 3), np.float32)))
    assert flat.shape == (6,) and reduced == (2, 1)
    assert ms.ops.reshape_(x, (6,)).shape == (6,)
