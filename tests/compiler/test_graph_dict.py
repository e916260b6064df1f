"""A graph's dicts: keys, views and `dict.fromkeys`, as MindSpore 2.10's graph mode has them
(the expected values and errors are its own for the same programs)."""
from __future__ import annotations

import pytest

import cellgraph as ms
from cellgraph import Tensor


def helper():
    return 1


def test_the_keys_a_graph_takes():
    @ms.jit
    def f(x):
        d = {"a": 0, 2: 1, 2.5: 2, True: 3, None: 4, ms.float32: 5, (1, ("b", 2)): 6,
             x.shape: 7}
        d[(3, 4)] = 8
        return tuple(d.values()), d[2], d[2.5], d[True], d[(1, ("b", 2))], d[(2,)], d[(3, 4)]

    assert f(Tensor([5, 6])) == ((0, 1, 2, 3, 4, 5, 6, 7, 8), 1, 2, 3, 6, 7, 8)

    @ms.jit
    def constant_tensor_key():
        return tuple({Tensor([1]): 10}.values())

    assert constant_tensor_key() == (10,)


@pytest.mark.parametrize("build, words", [
    (lambda x: {[1, 2]: 3}, ("key only supports string, number, type, none, constant tensor "
                             "and tuple, but got \\[1, 2\\]")),
    (lambda x: {x: 10}, ("key only supports string, number, type, none, constant tensor and "
                         "tuple, but got a variable Tensor")),
    (lambda x: {k: 1 for k in (x, 2)}, "key only supports"),
    (lambda x: {int: 1}, "key only supports .* but got class 'int'"),
    (lambda x: {helper: 1}, "key only supports"),
    (lambda x: {(1, (2, x)): 1}, "key should not be tuple that contains variables"),
])
def test_keys_mindspore_refuses(build, words):
    # MindSpore 2.10: RuntimeError "make_dict evaluator key ..."
    @ms.jit
    def f(x):
        return tuple(build(x).values())

    with pytest.raises(RuntimeError, match="make_dict evaluator " + words):
        f(Tensor([1, 2]))


def test_setting_an_item_checks_its_key():
    @ms.jit
    def variable_key(x):
        d = {"a": 1}
        d[x] = 2
        return d

    with pytest.raises(RuntimeError, match="dict_setitem evaluator key only supports"):
        variable_key(Tensor(1))

    @ms.jit
    def list_key():
        d = {"a": 1}
        d[[1]] = 2
        return d

    with pytest.raises(TypeError, match="unhashable type: 'list'"):
        list_key()


def test_keys_and_values_are_tuples_and_items_a_list():
    @ms.jit
    def views(x):
        d = {"a": 1, "b": x}
        return d.keys(), d.values()

    @ms.jit
    def items(x):
        d = {"a": 1, "b": x}
        return d.items()

    @ms.jit
    def indexed(x):
        d = {"a": 1, "b": x}
        return d.keys()[0], d.values()[1], len(d.keys()), d.items()[0]

    keys, values = views(Tensor([7]))
    assert keys == ("a", "b") and values[0] == 1 and values[1].asnumpy().tolist() == [7]
    assert isinstance(values, tuple)
    pairs = items(Tensor([7]))
    assert isinstance(pairs, list) and pairs[0] == ("a", 1) and pairs[1][0] == "b"
    first_key, second_value, count, first_item = indexed(Tensor([7]))
    assert (first_key, count, first_item) == ("a", 2, ("a", 1))
    assert second_value.asnumpy().tolist() == [7]


def test_fromkeys_reads_sequences_dicts_and_strings():
    @ms.jit
    def f():
        d = {"a": 1, "b": 2}
        return (d.fromkeys(("x", "y"), 0), d.fromkeys(["z"]), d.fromkeys(d, 3),
                d.fromkeys("pq", 4), d.fromkeys(d.keys(), 5))

    assert f() == ({"x": 0, "y": 0}, {"z": None}, {"a": 3, "b": 3}, {"p": 4, "q": 4},
                   {"a": 5, "b": 5})


@pytest.mark.parametrize("keys, error, words", [
    (123, RuntimeError, "Int64 object is not iterable"),
    (1.5, RuntimeError, "Float32 object is not iterable"),
    (None, RuntimeError, "None object is not iterable"),
    (Tensor([1, 2]), RuntimeError, r"Tensor\[Int64\] object is not iterable"),
    ([[1], 2], RuntimeError, r"make_dict evaluator key only supports .* but got \[1\]"),
])
def test_fromkeys_refuses_what_mindspore_refuses(keys, error, words):
    @ms.jit
    def f():
        return {"a": 1}.fromkeys(keys, 111)

    with pytest.raises(error, match=words):
        f()


def test_fromkeys_refuses_a_variable_key():
    @ms.jit
    def f(x):
        return {"a": 1}.fromkeys((x, 1), 1)

    with pytest.raises(TypeError, match="dict.fromkeys can not has variable key input"):
        f(Tensor(1))
