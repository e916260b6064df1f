# ruff: noqa: SIM103, C417  (the builtins and the branch are what is under test)
"""range, map, zip, enumerate and filter in a graph give what MindSpore 2.10's graph mode gives
(the expected values are its output for the same program): tuples (map over lists, and filter,
give lists), with the functions they are given traced like any call."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph.primitives.errors import CompileError


def add(x, y):
    return x + y


def is_odd(x):
    if x % 2:
        return True
    return False


def test_the_sequences_they_give():
    rows = ms.Tensor(np.array([[1, 2], [3, 4], [5, 6]]))

    @ms.jit
    def f(t):
        return (map(add, (1, 2, 3), (4, 5, 6)), map(add, [1, 2, 3], [5, 6, 7]),
                zip((1, 2, 3), (4, 5, 6)), (range(0, 6, 2), range(3)),
                enumerate((100, 200, 300, 400), 3), enumerate(rows),
                filter(is_odd, (1, 2, 3, 4, 5)), filter(is_odd, [6, 7, 8, 9, 10]),
                map(lambda a: a * 2, (t, t + 1)))

    out = f(ms.Tensor(np.array([1.0, 2.0], np.float32)))
    assert out[:5] == ((5, 7, 9), [6, 8, 10], ((1, 4), (2, 5), (3, 6)), ((0, 2, 4), (0, 1, 2)),
                       ((3, 100), (4, 200), (5, 300), (6, 400)))
    assert [(i, r.asnumpy().tolist()) for i, r in out[5]] == [(0, [1, 2]), (1, [3, 4]),
                                                              (2, [5, 6])]
    assert out[6:8] == ([1, 3, 5], [7, 9])
    assert isinstance(out[8], tuple)
    assert [v.asnumpy().tolist() for v in out[8]] == [[2.0, 4.0], [4.0, 6.0]]


def test_a_traced_function_may_branch_on_a_tensor():
    @ms.jit
    def f(t):
        return map(lambda v: v * 2 if v.sum() > 0 else -v, (t, -t))

    a, b = f(ms.Tensor(np.array([1.0, 2.0], np.float32)))
    assert a.asnumpy().tolist() == [2.0, 4.0] and b.asnumpy().tolist() == [1.0, 2.0]


def test_range_takes_int_scalars_and_stays_a_graph_constant():
    @ms.jit
    def tensor_range(n):
        return range(n)

    @ms.jit
    def huge(x):
        return x + len(range(10 ** 9))

    # MindSpore: "For 'make_range', the 0th input should be a int scalar but got
    # AbstractTensor(shape: (), ...)" (a TypeError); a variable int is taken (see
    # tests/compiler/test_dynamic_sequence.py)
    with pytest.raises(TypeError, match="For 'make_range', the 0th input should be a int "
                                        "scalar but got AbstractTensor"):
        tensor_range(ms.Tensor(3))
    with pytest.raises(CompileError, match="range.. of 1000000000 elements"):
        huge(ms.Tensor(1.0))


def test_enumerate_checks_its_arguments_as_mindspore():
    """enumerate of a number, or with a `start` that is not an int, is MindSpore's TypeError;
    a dict or a str enumerates its keys or characters."""
    @ms.jit
    def of_number():
        return tuple(i for i, _ in enumerate(2023))

    @ms.jit
    def with_float_start(x):
        return enumerate((x, x), start=1.2)

    @ms.jit
    def of_dict_and_str():
        return tuple(i for i, _ in enumerate({"a": 1, "b": 2})), tuple(enumerate("ab", 1))

    with pytest.raises(TypeError, match=r"For 'enumerate', the 'first input' should be tuple "
                                        r"or list or tensor, but got <class 'int'>\."):
        of_number()
    with pytest.raises(TypeError, match=r"For 'enumerate', the 'start' should be a const int "
                                        r"number, but got 1\.2\."):
        with_float_start(ms.Tensor([1]))
    assert of_dict_and_str() == ((0, 1), ((1, "a"), (2, "b")))


def test_index_and_count_compare_as_mindspore():
    """A list's or tuple's index and count in a graph (MindSpore 2.10's outputs): values of
    different types never match; Tensors match by value, at run time when computed there."""
    T = ms.Tensor

    @ms.jit
    def constants():
        return ([1, 2, 3].index(2, 1, 3), (1, True, 1.0).count(1),
                [1, (1, 2), [3]].count((1, 2)), ["a", "b"].index("b"),
                [T([1]), T([2]), T([3])].index(T([3])),
                ["a", ("M", "B"), 20, 4, T(1), [1, 2], T(1)].count(T(1)))

    @ms.jit
    def computed(aa, bb):
        x = [30, {"k": 1}, aa + bb, bb]
        y = [30, aa + bb, bb, T(10)]
        return x.count(30), y.count(T(10)), [T([1]), bb, T([3])].index(bb)

    @ms.jit
    def tensor_not_in_ints():
        return [1, 2, 3, 4].index(T(1))

    @ms.jit
    def not_in_at_run_time(t):
        return [T(1), T(2)].index(t)

    assert constants() == (1, 1, 1, 1, 2, 2)
    counts = computed(T(20), T(10))
    assert [int(v) for v in counts] == [2, 2, 1]
    with pytest.raises(ValueError, match=r"is not in \[1, 2, 3, 4\]"):
        tensor_not_in_ints()
    with pytest.raises(ValueError, match="the value is not in the list"):
        not_in_at_run_time(T(5))
    assert int(not_in_at_run_time(T(2))) == 1


def test_an_unused_index_is_not_checked():
    """A run-time `index` whose value nothing uses is dropped with its check, as MindSpore 2.10
    runs no kernel for it: (True, False) there for a value not in the list; a used one checks
    (MindSpore: 12 for T([3]), ValueError for T([0]))."""
    from cellgraph.ops import functional as F

    T = ms.Tensor

    @ms.jit
    def unused(x):
        ret = [T([1]), T([2]), T([3])].index(x)
        return isinstance(ret, int), F.isconstant(ret)

    @ms.jit
    def used(x):
        return [T([1]), T([2]), T([3])].index(x) + 10

    assert unused(T([0])) == (True, False)
    assert int(used(T([3]))) == 12
    with pytest.raises(ValueError, match="the value is not in the list"):
        used(T([0]))


def test_all_and_any_of_a_tensor_and_isinstance_checks():
    """all/any of a Tensor in a graph go over its rows (MindSpore 2.10's values); a row of
    several elements has no truth value; isinstance's second argument must be types."""
    from cellgraph import nn

    @ms.jit
    def truths(t):
        x = ms.Tensor(np.array([0, 1, 2, 3]))
        y = ms.Tensor(np.array([1, 1]))
        return all(x), all(y), any(x), all(t), any(t), any(ms.Tensor(np.zeros((0,))))

    @ms.jit
    def of_matrix(t):
        return all(t)

    class ListOfTypes(nn.Cell):
        def construct(self):
            return isinstance((1, 2), [tuple, int])

    out = truths(ms.Tensor(np.array([[1], [0]])))
    assert [bool(v) for v in out] == [False, True, True, False, True, False]
    with pytest.raises(ValueError, match="The tensor should have only one element, but got 2"):
        of_matrix(ms.Tensor(np.ones((2, 2))))
    with pytest.raises(TypeError, match=r"isinstance\(\) arg 2 must be a type or tuple of "
                                        r"types\."):
        ListOfTypes()()


def test_max_and_min_over_tensors():
    """MindSpore's python_builtin_functions tutorial: max/min of a 1-D Tensor is its largest
    (smallest) element; of several Tensors (or a Tensor and numbers) the one chosen at run time."""

    @ms.jit
    def constants():
        return max(ms.tensor([1, 2, 3])), min(ms.tensor([3, 1, 2]))

    @ms.jit
    def arguments(x, y):
        return max(x), min(x), max(y, x[0]), min(y, x[1], 5), max((y, x[2]))

    a, b = constants()
    assert (a.asnumpy(), b.asnumpy()) == (3, 1) and a.shape == ()
    x = ms.Tensor(np.array([3.0, 7.0, 1.0], np.float32))
    out = arguments(x, ms.Tensor(np.float32(4.0)))
    assert [float(v.asnumpy()) for v in out] == [7.0, 1.0, 4.0, 4.0, 4.0]
    assert out[0].dtype == ms.float32


def test_max_of_tensors_of_several_elements_is_ambiguous():
    @ms.jit
    def pairwise(x):
        return max(x, ms.tensor([2.0, 2.0, 2.0]))

    @ms.jit
    def of_a_matrix(x):
        return min(x)

    x = ms.Tensor(np.array([3.0, 7.0, 1.0], np.float32))
    with pytest.raises(ValueError, match="truth value of an array"):
        pairwise(x)
    with pytest.raises(ValueError, match="truth value of an array"):
        of_a_matrix(ms.Tensor(np.ones((2, 2), np.float32)))


def test_a_graph_returns_numpy_scalars_as_python_scalars_and_classes_as_they_are():
    @ms.jit
    def func():
        return tuple(np.array([1, 2])), [np.float64(2.5)], type(ms.tensor([1])), float

    values, floats, tensor_class, float_class = func()
    assert values == (1, 2) and type(values[0]) is int
    assert floats == [2.5] and type(floats[0]) is float
    assert tensor_class is ms.Tensor and float_class is float


def test_map_without_a_sequence_is_mindspores_type_error():
    @ms.jit
    def f(x):
        return map(abs)

    with pytest.raises(TypeError, match=r"^The Map operator must have at least two arguments\. "
                                        r"But the size of arguments is 1\."):
        f(ms.Tensor(np.ones(2, np.float32)))


def _lt_tensors(x, y):
    return (1, x) < (1, y)


def _le_lists(x, y):
    return [1, x] <= [1, y]


def _ge_tensors(x, y):
    return (1, x) >= (1, y)


def _lt_nested(x, y):
    return ((1, 2), x + 2) < ((2, 3), y + 2)


def _lt_scalar_then_tensor(x, y):
    return (1, 2) < (1, x)


def _lt_tensor_before_nested(x, y):
    return (x + 2, (x, x + 1)) < (y + 2, (y, y - 1))


@pytest.mark.parametrize("fn, message", [
    (_lt_tensors, ("For primitive 'tuple_lt', the input element must be scalar, but got "
                   "Tensor(shape=[1], dtype=Int64) and Tensor(shape=[1], dtype=Int64)")),
    (_le_lists, "For primitive 'list_le', the input element must be scalar"),
    (_ge_tensors, "For primitive tupel_equal, the input element must be scalar"),
    (_lt_nested, ("For op 'tuple_lt' input must be [int32, int64, float32, float64, bool], "
                  "but got (1, 2)")),
    (_lt_scalar_then_tensor, ("For primitive 'tuple_lt', the input element must be scalar, "
                              "but got 2 and Tensor")),
    (_lt_tensor_before_nested, "For primitive 'tuple_lt', the input element must be scalar"),
])
def test_ordering_sequences_of_tensors_or_sequences_is_mindspores_type_error(fn, message):
    # MindSpore 2.10 orders tuples and lists of scalars only (its messages, `tupel` included)
    with pytest.raises(TypeError) as info:
        ms.jit(fn)(ms.Tensor([1]), ms.Tensor([3]))
    assert str(info.value).startswith(message)


def test_ordering_sequences_of_scalars_still_folds():
    @ms.jit
    def f(x):
        return (1, 2) < (1, 3), [2, 1] >= [2, 1], x

    lt, ge, _ = f(ms.Tensor([1]))
    assert lt is True and ge is True

    @ms.jit
    def decided_before_the_tensors(x, y):
        m, n = (1, (x, x + 1)), (2, (y, y - 1))
        return m < n, m <= n, m > n, m >= n

    # MindSpore 2.10: the first pair decides; the Tensors after it are never compared
    assert decided_before_the_tensors(ms.Tensor([1]), ms.Tensor([3])) == (True, True, False, False)


def test_ordering_sequences_holding_sequences_of_tensors_is_pythons_comparison():
    # MindSpore 2.10 runs these as Python does (the results are its, for the same programs)
    @ms.jit
    def nested(x, y):
        m, n = ((x, x + 1), x + 2), ((y, y - 1), y + 2)
        return m < n, m <= n, m > n, m >= n

    assert [bool(r) for r in nested(ms.Tensor([1]), ms.Tensor([3]))] == [True, True, False, False]
    assert [bool(r) for r in nested(ms.Tensor([3]), ms.Tensor([3]))] == [False, False, True, True]

    @ms.jit
    def same_object_is_equal(x):
        return ((x, 2), 3) < ((x, 3), 3)

    assert same_object_is_equal(ms.Tensor([1])) is True

    @ms.jit
    def list_against_tuple(x, y):
        return ([x, 1], x + 1) < ((y, 2), y - 1)

    with pytest.raises(TypeError) as info:
        list_against_tuple(ms.Tensor([1]), ms.Tensor([3]))
    assert "'<' not supported between instances of 'list' and 'tuple'" in str(info.value)


class _Map(ms.nn.Cell):
    def __init__(self, scalars=False):
        super().__init__()
        self.scalars = scalars

    def construct(self, x, y):
        if self.scalars:
            return map(add, 3, 4)
        return map(add, x, y)


@pytest.mark.parametrize("x, y, message", [
    ([1, 2], [1, 2, 3], "For 'Map', the length of lists must be the same. "),
    ((1, 2), (1, 2, 3), "For 'Map', the length of tuples must be the same. "),
    ([1], (1,), ("The types of arguments in Map must be consistent, but the types of "
                 "arguments are inconsistent.")),
    ([ms.Tensor(1.0)], ms.Tensor([1.0]), "The types of arguments in Map must be consistent")])
def test_map_refuses_what_mindspores_map_refuses(x, y, message):
    # MindSpore 2.10: RuntimeError, not Python's shortest-wins map
    with pytest.raises(RuntimeError) as info:
        _Map()(x, y)
    assert str(info.value).startswith(message)


def test_map_over_numbers_and_over_numpy_arrays():
    with pytest.raises(RuntimeError, match="Map can only be applied to list, tuple, but got "
                                           "Int64."):
        _Map(scalars=True)(1, 2)
    assert _Map()([1, 2], [3, 4]) == [4, 6]

    @ms.jit
    def fallback():  # NumPy arrays take Python's map, as MindSpore's fallback does
        return tuple(map(add, np.array([1, 2, 3, 4]), ms.Tensor([1, 1, 1, 1])))

    assert [int(v) for v in fallback()] == [2, 3, 4, 5]


def test_list_pop_refuses_what_mindspores_graphs_refuse():
    # MindSpore 2.10: IndexError / TypeError with these words
    def pop_with(*args, start=(1, 2)):
        @ms.jit
        def f():
            x = list(start)
            return x.pop(*args), x
        return f()

    assert pop_with() == (2, [1]) and pop_with(0) == (1, [2]) and pop_with(-2) == (1, [2])
    for args, start in (((4,), (1, 2)), ((-5,), (1, 2)), ((), ())):
        with pytest.raises(IndexError, match="The pop index out of range."):
            pop_with(*args, start=start)
    for index, words in ((1.0, "FP32Imm type value: 1"), ("a", "StringImm type value: a"),
                         (True, "BoolImm type value: true")):
        with pytest.raises(TypeError, match=f"Integer argument expected, but got {words}"):
            pop_with(index)


def test_max_min_refuse_what_mindspores_graphs_refuse():
    # MindSpore 2.10's errors for these calls in a graph
    calls = [
        (lambda: max(()), ValueError, "max() arg is an empty sequence."),
        (lambda: min(ms.Tensor(1)), TypeError, "Cannot iterate over a scalar tensor."),
        (lambda: max(((ms.Tensor(10.0), ms.Tensor(30.0)),)), TypeError,
         "max() cannot support tensor in list or tuple nested now."),
        (lambda: min([[ms.Tensor(1.0)], [ms.Tensor(2.0)]]), TypeError,
         "min() cannot support tensor in list or tuple nested now."),
        (lambda: max([ms.Tensor([1, 2]), ms.Tensor([3, 4])], [ms.Tensor([5, 6])]), ValueError,
         "The truth value of an array with more than one element is ambiguous.")]
    for call, error, message in calls:
        with pytest.raises(error) as info:
            ms.jit(call)()
        assert str(info.value).startswith(message)
    assert ms.jit(lambda: max((1, 2), (1, 3)))() == (1, 3)


def test_list_insert_refuses_what_mindspores_graphs_refuse(monkeypatch):
    # MindSpore 2.10: a TypeError for an index that is not an int, in words that depend on the
    # jit_syntax_level (LAX inserts in place, through ListInplaceInsert)
    def insert_at(index):
        @ms.jit
        def f():
            x = [1, 2, 3]
            x.insert(index, 9)
            x.insert(7, 8)
            x.insert(-9, 7)
            return x
        return f()

    monkeypatch.delenv("MS_DEV_JIT_SYNTAX_LEVEL", raising=False)
    assert insert_at(1) == [7, 1, 9, 2, 3, 8]
    cases = ((1.0, "FP32Imm", "1"), (2.5, "FP32Imm", "2.5"), (True, "BoolImm", "true"),
             ("s", "StringImm", "s"), (None, "None", "None"), ((1,), "ValueTuple", r"\(1\)"),
             ([1], "ValueList", r"\[1\]"))
    for index, kind, _ in cases:
        with pytest.raises(TypeError, match=f"The second input to ListInplaceInsert must be "
                                            f"int scalar but got {kind}"):
            insert_at(index)
    for level in ("0", "1"):
        monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", level)
        assert insert_at(-1) == [7, 1, 2, 9, 3, 8]
        for index, kind, shown in cases:
            with pytest.raises(TypeError, match=f"Integer argument expected, but got {kind} "
                                                f"type value: {shown}"):
                insert_at(index)
