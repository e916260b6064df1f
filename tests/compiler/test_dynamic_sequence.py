"""Dynamic-length sequences and variable scalars in a graph (compiler/dynamic_sequence.py).

The expected values and messages are MindSpore 2.10's (CPU, graph mode), recorded from the same
programs."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor
from cellgraph.common import mutable
from cellgraph.ops import functional as F
from cellgraph.ops.auto_generate import SequenceConcat
from cellgraph.ops.operations import _sequence_ops as seq


def test_operations_on_a_dynamic_length_list_give_mindspores_values():
    @ms.jit
    def f():
        a = mutable([1, 2, 3, 4], True)
        c = a + [4, 5]
        return c, len(c), c[1], c[-1], c[1:3], a * 2, a.count(2), a.index(3)

    # MindSpore: ([1, 2, 3, 4, 4, 5], 6, 2, 5, [2, 3], [1, 2, 3, 4, 1, 2, 3, 4], 1, 2)
    out = f()
    assert out == ([1, 2, 3, 4, 4, 5], 6, 2, 5, [2, 3], [1, 2, 3, 4, 1, 2, 3, 4], 1, 2)
    assert all(type(v) is int for v in out[1:4] + out[6:])


def test_its_length_and_values_are_known_only_at_run_time():
    @ms.jit
    def f():
        a = mutable((1.5, 2.5), True)
        empty = mutable([], True)
        both = a + ()
        return (a, empty, isinstance(a, tuple), F.is_sequence_value_unknown(both),
                F.is_sequence_shape_unknown(both), F.isconstant(a), F.isconstant((1, 2)),
                isinstance(len(a), int), F.isconstant(len(a)))

    # MindSpore: ((1.5, 2.5), [], True, True, True, False, True, True, False)
    assert f() == ((1.5, 2.5), [], True, True, True, False, True, True, False)


def test_a_list_of_tensors_and_its_updates():
    @ms.jit
    def f():
        a = mutable([Tensor([1]), Tensor([3])], True)
        b = a + [Tensor([5])]
        b[0] = Tensor([7])
        b.append(Tensor([9]))
        return a, len(a), a[0], b, b.count(Tensor([5])), b.index(Tensor([9]))

    # MindSpore: ([Tensor([1]), Tensor([3])], 2, Tensor([1]), [Tensor([7]), Tensor([3]),
    # Tensor([5]), Tensor([9])], 1, 3)
    a, n, first, b, count, index = f()
    assert [t.asnumpy().tolist() for t in a] == [[1], [3]] and n == 2
    assert isinstance(first, Tensor) and first.asnumpy().tolist() == [1]
    assert [t.asnumpy().tolist() for t in b] == [[7], [3], [5], [9]]
    assert (count, index) == (1, 3)


def test_indexing_and_setting_items_at_run_time_positions():
    @ms.jit
    def f():
        a = mutable([1, 2, 3, 4], True)
        a.append(5)
        a[1] = 7
        constant = [1, 2]
        constant[mutable(1)] = 10
        return a, a[mutable(2)], constant, F.isconstant(constant[0])

    # MindSpore: ([1, 7, 3, 4, 5], 3, [1, 10], False)
    assert f() == ([1, 7, 3, 4, 5], 3, [1, 10], False)


def test_slices_and_ranges_with_run_time_bounds():
    @ms.jit
    def f():
        b = [1, 2, 3, 4, 5]
        start = mutable(1)
        return (b[start:], b[:mutable(-1)], b[::mutable(2)], range(mutable(3)),
                range(1, mutable(7), 2), F.is_sequence_shape_unknown(b[start:]))

    # MindSpore: ([2, 3, 4, 5], [1, 2, 3, 4], [1, 3, 5], (0, 1, 2), (1, 3, 5), True)
    assert f() == ([2, 3, 4, 5], [1, 2, 3, 4], [1, 3, 5], (0, 1, 2), (1, 3, 5), True)

    @ms.jit
    def assigned():
        a = [1, 2, 3, 4]
        a[mutable(1):3] = [7, 8, 9]
        return a, F.is_sequence_shape_unknown(a)

    # MindSpore's compiler gives a dynamic-length list (its CPU backend has no kernel for
    # SequenceSliceSetItem, so it cannot run it); here it runs, with Python's values
    assert assigned() == ([1, 7, 8, 9, 4], True)


def test_variable_scalars_are_numbers_not_tensors():
    @ms.jit
    def f():
        x = mutable(2)
        y = mutable(3)
        return (x / y, x % y, x & y, x + 1, x * 2.5, -x, x == 2, x // 3, x ** 2,
                isinstance(x, int), isinstance(x, Tensor), isinstance(x / y, float),
                F.isconstant(x), F.isconstant(2), F.isconstant(Tensor(2)))

    out = f()
    # MindSpore: (0.6666666865348816, 2, 2, 3, 5.0, -2, True, 0, 4, True, False, True, False,
    # True, True): its float scalars are float32 values
    assert out[0] == pytest.approx(0.6666666865348816, abs=1e-7)
    assert out[1:] == (2, 2, 3, 5.0, -2, True, 0, 4, True, False, True, False, True, True)
    assert [type(v) for v in out[:9]] == [float, int, int, int, float, int, bool, int, int]


def test_mindspores_errors():
    @ms.jit
    def add_of_types():
        return mutable([1, 2, 3, 4], True) + mutable([Tensor([1]), Tensor([2])], True)

    @ms.jit
    def add_of_shapes():
        return mutable([(1, 2), (3, 4)], True) + mutable([(1, 2, 3), (3, 4, 5)], True)

    @ms.jit
    def set_of_type():
        a = mutable([1, 2, 3, 4], True)
        a[0] = 1.0
        return a

    @ms.jit
    def slice_of_types():
        a = mutable([1, 2, 3, 4], True)
        a[0:2] = [2, 3, 4.0, 5]
        return a

    @ms.jit
    def origin_of_type():
        a = [1.0, 2.0, 3.0, 4.0]
        a[mutable(0):2] = [1, 2, 3, 4]
        return a

    @ms.jit
    def mapped():
        return map(lambda x, y: x + y, mutable((1, 2), True), mutable((4, 5), True))

    @ms.jit
    def indexed(m, index):
        return m[index]

    @ms.jit
    def ranged():
        return range(Tensor([3]), 10, 4)

    with pytest.raises(TypeError, match="For primitive SequenceAdd, the element of first input "
                                        "abstract 'AbstractScalar.Type: Int64.*is not same with "
                                        "the element of second input abstract 'AbstractTensor"):
        add_of_types()
    with pytest.raises(TypeError, match="is not same with the element of second input"):
        add_of_shapes()
    with pytest.raises(TypeError, match="For list_setitem, when the queue is dynamic length, the "
                                        "element within dynamic length sequence abstract"):
        set_of_type()
    with pytest.raises(ValueError, match="The element type do not match, can not convert to "
                                         "dynamic length sequence. The 0th element type is: int. "
                                         "The 2th element type is: float"):
        slice_of_types()
    with pytest.raises(TypeError, match="For SequenceSliceSetItem, the element within origin "
                                        "sequence abstract"):
        origin_of_type()
    with pytest.raises(RuntimeError, match="For 'map', the dynamic length input is unsupported "
                                           "in graph mode"):
        mapped()
    with pytest.raises(ValueError, match="For primitive:'TupleGetItem', cannot get item by "
                                         "index from an empty sequence."):
        indexed(mutable(()), mutable(1))
    with pytest.raises(TypeError, match="For 'make_range', the 0th input should be a int "
                                        "scalar but got AbstractTensor"):
        ranged()


def test_sequence_primitives_on_dynamic_length_sequences():
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.to_tensor = seq.ListToTensor()
            self.length = seq.sequence_len()

        def construct(self, x):
            a = mutable(x, True)
            return isinstance(self.to_tensor(a, ms.int32), Tensor), self.length(a)

    class Parts(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.concat = SequenceConcat(axis=1)
            self.stack = seq.SequenceStack(axis=1)
            self.unstack = seq.SequenceUnstack(axis=1)

        def construct(self, parts, x):
            return self.concat(parts), self.stack(parts), self.unstack(x)

    # (MindSpore's CPU backend has no ListToTensor kernel: its type is what it checks)
    assert Net()([1, 2, 3]) == (True, 3)
    assert seq.ListToTensor()([1, 2, 3], ms.int32).asnumpy().tolist() == [1, 2, 3]
    parts = mutable((Tensor([[1, 2], [2, 3]]), Tensor([[2, 3], [3, 4]])), True)
    joined, stacked, unstacked = Parts()(parts, Tensor(np.arange(6).reshape(2, 3)))
    assert joined.asnumpy().tolist() == [[1, 2, 2, 3], [2, 3, 3, 4]]
    assert stacked.asnumpy().tolist() == [[[1, 2], [2, 3]], [[2, 3], [3, 4]]]
    assert [t.asnumpy().tolist() for t in unstacked] == [[0, 3], [1, 4], [2, 5]]


def test_a_dynamic_length_list_stacks_along_any_axis():
    @ms.jit
    def f():
        tensors = mutable([Tensor([1, 2]), Tensor([3, 4]), Tensor([5, 6])], True)
        return seq.SequenceStack(axis=1)(tensors), seq.SequenceStack(axis=0)(tensors)

    # MindSpore 2.10 gives [1, 3] for the first (its graph-mode SequenceStack over a
    # dynamic-length list is wrong there); these are ops.stack's values, which it gives for the
    # same list passed in as a graph input (Parts above)
    across, down = f()
    assert across.asnumpy().tolist() == [[1, 3, 5], [2, 4, 6]]
    assert down.asnumpy().tolist() == [[1, 2], [3, 4], [5, 6]]


def test_mutable_checks_its_input_as_mindspore():
    looped = []
    looped.append(looped)
    with pytest.raises(TypeError, match="with no self-reference"):
        mutable(looped)
    with pytest.raises(TypeError, match="For 'mutable', the 'input_data' should be one of "
                                        r"\(bool, int, float, Tensor, tuple, list, dict\)"):
        mutable([1, np.array([[1, 2, 3]])])
    with pytest.raises(TypeError, match="For 'mutable', the second input should be bool, but "
                                        "got: list"):
        mutable([1], [1])

    @ms.jit
    def twice():
        x = mutable((1, 2, 3), True)
        return mutable(x, True), F.is_dynamic_sequence_element_unknown(mutable([], True)), \
            F.is_dynamic_sequence_element_unknown(x)

    @ms.jit
    def to_constant_length():
        return mutable(mutable((1, 2, 3), True))

    @ms.jit
    def of_a_constant_list():
        return F.is_dynamic_sequence_element_unknown([])

    @ms.jit
    def of_tensors():
        out = mutable((Tensor([1]), Tensor([2])))
        return F.is_sequence_value_unknown(out), F.is_sequence_shape_unknown(out)

    assert twice() == ((1, 2, 3), True, False)
    with pytest.raises(RuntimeError, match="For 'mutable', can not convert a dynamic length "
                                           "sequence to constant length."):
        to_constant_length()
    with pytest.raises(TypeError, match="should be variable length sequence"):
        of_a_constant_list()
    assert of_tensors() == (True, False)


def test_gradients_flow_through_a_dynamic_length_sequence_to_its_elements():
    class Net(ms.nn.Cell):
        def construct(self, a, b):
            x = mutable((a, b), True)
            return x[0] * x[1]

    a, b = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 5.0], np.float32))
    da, db = ms.ops.GradOperation(get_all=True)(Net())(a, b)
    assert da.asnumpy().tolist() == [3.0, 5.0] and db.asnumpy().tolist() == [1.0, 2.0]


def test_a_sequence_indexed_at_a_run_time_position():
    @ms.jit
    def pick(inputs, i):
        return inputs[mutable(i)], inputs[mutable(i)][1]

    @ms.jit
    def of_lists(inputs, index):
        return mutable(inputs[mutable(index)], True)[1]

    @ms.jit
    def of_anything(inputs):
        return mutable([mutable(inputs), inputs], True)

    # MindSpore: ((3, 4.5), 4.5), 5 and [[(1, 2), 2, 2.0], [(1, 2), 2, 2.0]]
    assert pick(((1, 2.5), (3, 4.5)), 1) == ((3, 4.5), 4.5)
    assert of_lists([[1, 2], [4, 5], [2, 2]], 1) == 5
    assert of_anything([(1, 2), 2, 2.]) == [[(1, 2), 2, 2.0], [(1, 2), 2, 2.0]]


def test_a_for_loop_over_a_dynamic_length_sequence_made_here():
    @ms.jit
    def total():
        out = 0
        for x in mutable([1, 2, 3], True):
            out = out + x
        return out

    @ms.jit
    def copied():
        y = mutable([], True)
        for i in mutable([1, 2, 3, 4], True):
            y.append(i)
        return y

    # MindSpore: 6 and [1, 2, 3, 4] (a loop over a sequence changed in the graph, which
    # MindSpore runs as a loop when the graph runs, is refused here: not built yet)
    assert total() == 6 and copied() == [1, 2, 3, 4]


def test_range_checks_its_arguments_as_mindspore():
    import sys

    class Net(ms.nn.Cell):
        def __init__(self, args):
            super().__init__()
            self.args = args

        def construct(self, x):
            out = x
            for _ in range(*self.args):
                out = out + 1
            return out

    cases = [((), RuntimeError, "For 'make_range', the input size should within [1, 3] but got0"),
             ((1, 2, 3, 4), RuntimeError, "the input size should within [1, 3] but got4"),
             ((1, 2, 0), RuntimeError, "For 'range', the argument 'step' could not be 0."),
             ((0, 0.02), TypeError, ("For 'make_range', the 1th input should be a int scalar "
                                     "but got AbstractScalar(Type: Float32, Value: 0.02, Shape: "
                                     "NoShape)")),
             ((3.0,), TypeError, ("the 0th input should be a int scalar but got AbstractScalar("
                                  "Type: Float32, Value: 3, Shape: NoShape)")),
             ((sys.maxsize - 1, sys.maxsize, 3), ValueError,
              "Integer overflow error occurred when traversing the range.")]
    for args, error, message in cases:  # MindSpore's errors and messages
        with pytest.raises(error) as info:
            Net(args)(Tensor([1]))
        assert message in str(info.value)
    assert [Net(args)(Tensor([1])).asnumpy().tolist() for args in (
        (1, -1, 3), (-1, 1, -3), (5,))] == [[1], [1], [6]]


def test_a_dynamic_length_sequence_made_outside_is_one_in_the_graph():
    """mutable(seq, True) outside a graph: the graph takes a dynamic-length sequence (its
    length and values unknown when it compiles), with numbers as variable scalars; elements of
    different types are MindSpore's ValueError at the call (MindSpore 2.10)."""
    from cellgraph.ops import functional as F

    @ms.jit
    def unknown(x):
        return F.is_sequence_value_unknown(x), F.is_sequence_shape_unknown(x), len(x)

    assert unknown(mutable((Tensor([1]), Tensor([2])), True)) == (True, True, 2)
    assert unknown(mutable((Tensor([1]), Tensor([2])), False)) == (True, False, 2)

    @ms.jit
    def total(x):
        return x[0] + x[-1], isinstance(x[0], int)

    assert total(mutable([1, 2, 5], True)) == (6, True)

    @ms.jit
    def same(x):
        return x

    with pytest.raises(ValueError, match="In graph mode, the element type of dynamic length "
                                         "array must be the same."):
        same(mutable([1, 2.2, 3], True))


def test_sequence_concat_joins_a_dynamic_length_sequence_along_any_axis():
    parts = mutable((Tensor([[1, 2], [2, 3]]), Tensor([[2, 3], [3, 4]])), True)

    @ms.jit
    def joined(x):
        return SequenceConcat(axis=0)(x), SequenceConcat(axis=-1)(x)

    rows, columns = joined(parts)
    assert rows.asnumpy().tolist() == [[1, 2], [2, 3], [2, 3], [3, 4]]
    assert columns.asnumpy().tolist() == [[1, 2, 2, 3], [2, 3, 3, 4]]


def test_concat_and_stack_of_a_dynamic_length_tuple_and_its_gradient():
    """ops.concat and ops.stack take a dynamic-length tuple of Tensors; the gradient with
    respect to one is a list of the elements' gradients (MindSpore 2.10's, a list for a tuple
    too, ones for an int one's)."""
    ms.set_context(mode=ms.GRAPH_MODE)

    class Join(ms.nn.Cell):
        def construct(self, x):
            return ms.ops.concat(x), ms.ops.stack(x, 1), ms.ops.concat(x, -1)

    class Loss(ms.nn.Cell):
        def construct(self, x):
            return (ms.ops.concat(x) ** 2).sum()

    parts = mutable((Tensor([[1.0, 2.0]]), Tensor([[3.0, 4.0]])), dynamic_len=True)
    rows, stacked, columns = Join()(parts)
    np.testing.assert_array_equal(rows.asnumpy(), [[1, 2], [3, 4]])
    np.testing.assert_array_equal(stacked.asnumpy(), [[[1, 2], [3, 4]]])
    np.testing.assert_array_equal(columns.asnumpy(), [[1, 2, 3, 4]])
    grads = ms.ops.GradOperation()(Loss())(parts)
    assert isinstance(grads, list) and len(grads) == 2
    np.testing.assert_array_equal(grads[0].asnumpy(), [[2, 4]])
    np.testing.assert_array_equal(grads[1].asnumpy(), [[6, 8]])
    ints = mutable((Tensor([1]), Tensor([2]), Tensor([3])), dynamic_len=True)

    class Concat(ms.nn.Cell):
        def construct(self, x):
            return ms.ops.concat(x)

    grads = ms.ops.GradOperation()(Concat())(ints)
    assert [g.asnumpy().tolist() for g in grads] == [[1], [1], [1]]


def test_a_for_loop_over_a_range_known_at_run_time_and_weak_scalars():
    """`for i in range(1, n)` with a mutable n runs as a Tensor loop (MindSpore 2.10's values,
    its gradient too), and a mutable number in arithmetic with a Tensor takes the Tensor's
    dtype, as a Python number does."""
    @ms.jit
    def scaled(n, v):
        return n * 3 * v, n * v

    tripled, once = scaled(mutable(2), Tensor([1], ms.int32))
    assert tripled.dtype == ms.int32 and tripled.asnumpy().tolist() == [6]
    assert once.dtype == ms.int32 and once.asnumpy().tolist() == [2]

    @ms.jit
    def product(n, v):
        for i in range(1, n):
            v = i * v
        return v

    assert product(mutable(4), Tensor([1], ms.int32)).asnumpy().tolist() == [6]
    assert product(mutable(6), Tensor([1], ms.int32)).asnumpy().tolist() == [120]

    def fori_loop(lower, upper, body, value):
        upper = mutable(upper)
        for i in range(lower, upper):
            value = body(i, value)
        return value

    @ms.jit
    def run(x):
        return fori_loop(1, 100, lambda i, v: i * 3 * v * v, x)

    assert run(Tensor([1], ms.int32)).asnumpy().tolist() == [0]  # MindSpore's (int32 wraps)
    grads = ms.ops.GradOperation(get_all=True)(run)(Tensor([1], ms.int32))
    assert grads[0].asnumpy().tolist() == [0]


def test_a_list_a_tensor_loop_appends_to_becomes_dynamic_length():
    """MindSpore broadens a list that a Tensor `while` makes longer into a dynamic-length
    list: its items after the loop are MindSpore 2.10's."""
    @ms.jit
    def tensors(x):
        out = []
        while x < 3:
            out.append(x * 2)
            x = x + 1
        return out

    got = tensors(Tensor(0))
    assert [int(v.asnumpy()) for v in got] == [0, 2, 4]

    @ms.jit
    def numbers(x):
        n = [1, 2]
        while x < 3:
            n.append(5)
            x = x + 1
        return n

    assert numbers(Tensor(0)) == [1, 2, 5, 5, 5]

    @ms.jit
    def grown_tuple(x):
        out = (x,)
        while x < 3:
            out = out + (x,)
            x = x + 1
        return out

    assert [int(v.asnumpy()) for v in grown_tuple(Tensor(0))] == [0, 0, 1, 2]

    @ms.jit
    def mutable_list():
        items = mutable([10], True)
        i = 0
        j = Tensor([1])
        while j < 10:
            items.append(i)
            j = j + 2
            i = i + 1
        return items

    assert mutable_list() == [10, 0, 1, 2, 3, 4]
