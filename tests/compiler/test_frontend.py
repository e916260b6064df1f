"""The constructs `construct` may use, each compiled in GRAPH_MODE and checked against NumPy;
the same Cell run in PYNATIVE_MODE must give the same result."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops

TOL = {np.dtype(np.float32): {"rtol": 1e-6, "atol": 1e-6},
       np.dtype(np.float64): {"rtol": 1e-12, "atol": 1e-12}}

X = np.array([[0.5, 1.5, -1.0], [2.0, 0.1, 0.3]], np.float32)
Y = np.array([[1.0, 0.5, 2.0], [-1.0, 0.1, 3.0]], np.float32)
W = np.array([[0.2, -0.4], [1.0, 0.3], [-0.5, 0.7]], np.float32)
MODULE_CONSTANT = np.array([1.0, -1.0, 2.0], np.float32)


def assert_tree(got, expected, where="out"):
    """Same nesting, Tensors equal to NumPy arrays (dtype and values), other leaves equal."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)), f"{where}: got {type(got).__name__}, expected a " \
                                               f"{type(expected).__name__}"
        assert len(got) == len(expected), f"{where}: {len(got)} items, expected {len(expected)}"
        for i, (g, e) in enumerate(zip(got, expected)):
            assert_tree(g, e, f"{where}[{i}]")
    elif isinstance(expected, (np.ndarray, np.generic)):
        expected = np.asarray(expected)
        assert isinstance(got, Tensor), f"{where}: got {type(got).__name__}, expected a Tensor"
        assert got.asnumpy().dtype == expected.dtype, f"{where}: dtype {got.dtype}, expected " \
                                                      f"{expected.dtype}"
        assert got.shape == expected.shape, f"{where}: shape {got.shape} != {expected.shape}"
        np.testing.assert_allclose(got.asnumpy(), expected, err_msg=where,
                                   **TOL.get(expected.dtype, {"rtol": 0, "atol": 0}))
    else:
        assert got == expected and type(got) is type(expected), f"{where}: {got!r} != {expected!r}"


def check_both_modes(net, args, expected):
    """Compile `net` (GRAPH_MODE) and run it eagerly (PYNATIVE_MODE): both give `expected`."""
    tensors = tuple(Tensor(a) if isinstance(a, np.ndarray) else a for a in args)
    graph_text = ms.dump_ir(net, *tensors, stage="parse")
    assert graph_text.startswith("graph @construct(")
    ms.set_context(mode=ms.GRAPH_MODE)
    assert_tree(net(*tensors), expected, "graph")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        assert_tree(net(*tensors), expected, "pynative")
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)
    return graph_text


# ----- assignment -----------------------------------------------------------------------------

class Assignments(nn.Cell):
    def construct(self, x, y):
        a, b = x, y
        (c, d), e = (a, b), a + b
        f = g = c * 2
        first, *rest = (d, e, f)
        [h, k] = [rest[0], rest[1]]
        return a - b, c + d, e, f, g, first, h, k


def test_assignment_and_tuple_unpacking():
    check_both_modes(Assignments(), (X, Y),
                     (X - Y, X + Y, X + Y, X * 2, X * 2, Y, X + Y, X * 2))


class AugmentedAssignments(nn.Cell):
    def construct(self, x, y):
        s = x
        s += y
        s *= 2.0
        s -= x
        s /= 4
        p = y
        p **= 2
        acc = [x, y]
        acc[1] += x
        n = 3
        n += 2
        n //= 2
        return s, p, acc[1], n


def test_augmented_assignment():
    s = ((X + Y) * 2.0 - X) / 4
    check_both_modes(AugmentedAssignments(), (X, Y), (s, Y ** 2, Y + X, 2))


# ----- operators ------------------------------------------------------------------------------

class Arithmetic(nn.Cell):
    def construct(self, x, y, w):
        return (x + y, x - y, x * y, x / y, x ** 2, 2 ** y, x @ w, -x, +x, abs(y),
                1.5 * x - y / 2 + 1, (x + 1) * (y - 1) / (x * x + 1))


def test_arithmetic_and_unary_operators():
    expected = (X + Y, X - Y, X * Y, X / Y, X ** 2, 2 ** Y, X @ W, -X, X, np.abs(Y),
                1.5 * X - Y / 2 + 1, (X + 1) * (Y - 1) / (X * X + 1))
    check_both_modes(Arithmetic(), (X, Y, W), expected)


class Comparisons(nn.Cell):
    def __init__(self):
        super().__init__()
        self.n = 4
        self.name = "net"

    def construct(self, x, y):
        mask = (x > y) & (x <= 1.0) | ~(y == x)
        flags = (0 < self.n < 5, self.n >= 4 and self.n != 3, not self.n, self.n or 7,
                 self.name == "net", self.name is None, "e" in self.name)
        return x < y, x >= y, x != y, x == x, mask, flags  # noqa: PLR0124


def test_comparison_and_boolean_operators():
    mask = (X > Y) & (X <= 1.0) | ~(Y == X)
    flags = (True, True, False, 4, True, False, True)
    check_both_modes(Comparisons(), (X, Y), (X < Y, X >= Y, X != Y, np.ones_like(X, bool), mask,
                                            flags))


# ----- calls ----------------------------------------------------------------------------------

class PrimitiveCalls(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.matmul_t = ops.MatMul(transpose_b=True)
        self.reduce_sum = ops.ReduceSum(keep_dims=True)
        self.exp = ops.Exp()

    def construct(self, x, y, w):
        return (self.matmul(x, w), self.matmul_t(x, y), self.reduce_sum(x, 1), self.exp(y),
                ops.exp(x), ops.reduce_mean(x, axis=0), ops.concat((x, y), 1),
                ops.maximum(x, y), ops.softmax(y, axis=-1), ops.select(x > 0, x, y),
                ops.cast(x, ms.int32))


def test_primitive_instances_and_functional_ops():
    e = np.exp(Y - Y.max(-1, keepdims=True))
    expected = (X @ W, X @ Y.T, X.sum(1, keepdims=True), np.exp(Y), np.exp(X), X.mean(0),
                np.concatenate([X, Y], 1), np.maximum(X, Y), e / e.sum(-1, keepdims=True),
                np.where(X > 0, X, Y), X.astype(np.int32))
    check_both_modes(PrimitiveCalls(), (X, Y, W), expected)


class Scale(nn.Cell):
    def __init__(self, factor):
        super().__init__()
        self.w = Parameter(Tensor(np.full((3,), factor, np.float32)), name="w")

    def construct(self, x, shift=0.0):
        return x * self.w + shift


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.first = Scale(0.5)
        self.second = Scale(3.0)

    def construct(self, x):
        a = self.first(x)
        b = self.second(a, shift=1.0)
        return self.first(b), b


def test_sub_cells_with_parameters_and_keyword_arguments():
    b = X * 0.5 * 3.0 + 1.0
    check_both_modes(Outer(), (X,), (b * 0.5, b))


def scale_add(x, y, scale=2.0, *, shift=0.0):
    return x * scale + y + shift


def count_calls(*values, **options):
    return len(values) + len(options)


class Helpers(nn.Cell):
    def power(self, x, n=2):
        return x ** n

    def construct(self, x, y):
        def offset(v, by=1.0):
            return v + by

        twice = lambda v: v * 2
        return (scale_add(x, y), scale_add(x, y, 3.0), scale_add(x, y, shift=1.0),
                scale_add(y=y, x=x, scale=0.5), self.power(x), self.power(x, n=3),
                offset(x), offset(x, by=-2.0), twice(y), count_calls(x, y, z=x))


def test_helper_functions_methods_defaults_and_keywords():
    expected = (X * 2 + Y, X * 3 + Y, X * 2 + Y + 1, X * 0.5 + Y, X ** 2, X ** 3, X + 1,
                X - 2, Y * 2, 3)
    check_both_modes(Helpers(), (X, Y), expected)


class TensorMethods(nn.Cell):
    def construct(self, x):
        rows = x.shape[0]
        return (x.sum(), x.sum(axis=1), x.mean(0), x.reshape(3, 2), x.transpose(), x.T,
                x.expand_dims(0).squeeze(0), x.astype(ms.float64), x.max(axis=1), x.abs(),
                x.exp(), rows, x.ndim, len(x), x.size)


def test_tensor_methods_and_properties():
    expected = (X.sum(), X.sum(1), X.mean(0), X.reshape(3, 2), X.T, X.T, X, X.astype(np.float64),
                X.max(1), np.abs(X), np.exp(X), 2, 2, 2, 6)
    check_both_modes(TensorMethods(), (X,), expected)


# ----- literals, indexing, attributes, constants ------------------------------------------------

class Literals(nn.Cell):
    def construct(self, x, y):
        pair = (x, y)
        items = [x, y]
        items.append(x + y)
        merged = (*items, y * 2) + pair[:1]
        squares = [v * v for v in pair]
        table = {"a": x, "b": y}
        return merged[3], len(merged), merged[-1], items[2], squares[1], table["b"], (), [x]


def test_tuple_list_and_dict_literals():
    check_both_modes(Literals(), (X, Y), (Y * 2, 5, X, X + Y, Y * Y, Y, (), [X]))


def test_dict_has_key_in_a_graph_as_mindspore_has_it():
    @ms.jit
    def has(x):
        table = {"a": 1, "b": x, "cd": 3}
        return table.has_key("a"), table.has_key("c")

    assert has(Tensor(2)) == (True, False)


def test_a_comprehension_takes_one_for_as_in_mindspore():
    # MindSpore 2.10: one `for` (with any number of `if`s); two are its parse-time TypeError
    @ms.jit
    def one():
        return [x for x in (1, 2, 3) if x > 1 if x < 3], {x: x * x for x in (1, 2)}

    assert one() == ([2], {1: 1, 2: 4})

    @ms.jit
    def nested_list():
        return [y for x in ((1, 2), (3, 4)) for y in x]

    @ms.jit
    def nested_generator():
        return tuple(y for x in ((1, 2), (3, 4)) for y in x)

    @ms.jit
    def nested_dict():
        return {y: 1 for x in ((1, 2), (3, 4)) for y in x}

    for fn, kinds in ((nested_list, "ListComp"), (nested_generator, "ListComp"),
                      (nested_dict, "DictComp")):
        with pytest.raises(TypeError, match=f"The 'generators' supports 1 'comprehension' in "
                                            f"{kinds}/GeneratorExp, but got 2 comprehensions."):
            fn()


A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


class Indexing(nn.Cell):
    def construct(self, a, rows):
        i = 1
        return (a[0], a[-1, 2], a[1, :, 1:3], a[:, ::2], a[..., -1], a[None, 0], a[0, ..., None],
                a[::-1, i], a[:, 1:, ::-2], a[rows], a[:, rows], a[0][1][2], a[(0, 1)])


def test_indexing_and_slicing():
    rows = np.array([1, 0, 1], np.int64)
    expected = (A[0], A[-1, 2], A[1, :, 1:3], A[:, ::2], A[..., -1], A[None, 0], A[0, ..., None],
                A[::-1, 1], A[:, 1:, ::-2], A[rows], A[:, rows], np.asarray(A[0][1][2]), A[0, 1])
    check_both_modes(Indexing(), (A, rows), expected)


class Attributes(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(W), name="weight")
        self.frozen = Parameter(Tensor(np.array([0.5], np.float32)), name="frozen",
                                requires_grad=False)
        self.bias = Tensor(np.array([1.0, -1.0], np.float32))  # a Tensor constant
        self.scale = 0.25
        self.axes = (0, 1)
        self.mode = "sum"
        self.layer = Scale(2.0)
        self.matmul = ops.MatMul()

    def construct(self, x):
        out = self.matmul(self.layer(x), self.weight) * self.frozen + self.bias
        total = ops.reduce_sum(out, self.axes) if self.mode == "sum" else out
        return out * self.scale, total


def test_reads_of_self_attributes():
    out = (X * 2.0) @ W * 0.5 + np.array([1.0, -1.0], np.float32)
    check_both_modes(Attributes(), (X,), (out * 0.25, out.sum()))


class Constants(nn.Cell):
    def construct(self, x):
        table = np.array([[1.0], [2.0]], np.float32)
        return (x + 1, x * 0.5, x + MODULE_CONSTANT, x * table, Tensor([2.0, 3.0, 4.0]) * x,
                3, 2.5, True, None, "text", (1, (2.0, False)))


def test_constants():
    expected = (X + 1, X * 0.5, X + MODULE_CONSTANT, X * np.array([[1.0], [2.0]], np.float32),
                np.array([2.0, 3.0, 4.0], np.float32) * X, 3, 2.5, True, None, "text",
                (1, (2.0, False)))
    check_both_modes(Constants(), (X,), expected)


class NestedReturn(nn.Cell):
    def construct(self, x, y):
        return x, (y, (x * y, [x - y])), ((),)


class SingleReturn(nn.Cell):
    def construct(self, x):
        return ops.tanh(x)


def test_returns_of_tensors_and_nested_tuples():
    check_both_modes(NestedReturn(), (X, Y), (X, (Y, (X * Y, [X - Y])), ((),)))
    check_both_modes(SingleReturn(), (X,), np.tanh(X))


# ----- loops and constant conditions ----------------------------------------------------------

class Loops(nn.Cell):
    def __init__(self):
        super().__init__()
        self.n = 3
        self.layers = (Scale(2.0), Scale(-1.0))

    def construct(self, x, y):
        s = x * 0
        for i in range(self.n):
            s = s + x * i
        for v in (x, y):
            s = s + v
        for layer in self.layers:
            s = layer(s)
        for i, v in enumerate((x, y)):
            s = s + v * i
        for a, b in zip((x, y), (y, x)):
            s = s + a * b
        for i in range(1, 10, 2):
            if i > 5:
                break
            if i == 3:
                continue
            s = s - i
        for row in x:
            s = s + row
        k = 0
        while k < 3:
            k += 1
        return s, k


def test_for_loops_over_ranges_tuples_and_cells():
    s = X * 0 + X * 0 + X * 1 + X * 2 + X + Y
    s = (s * 2.0) * -1.0
    s = s + X * 0 + Y * 1
    s = s + X * Y + Y * X
    s = s - 1 - 5
    s = s + X[0] + X[1]
    check_both_modes(Loops(), (X, Y), (s, 3))


class ConstantIf(nn.Cell):
    def __init__(self, use_bias, mode):
        super().__init__()
        self.use_bias = use_bias
        self.mode = mode

    def construct(self, x, bias=None):
        if self.use_bias:
            x = x + 1
        else:
            x = x - 1
        if self.mode == "square" and x.shape[0] == 2:
            x = x * x
        elif self.mode == "neg":
            return -x
        if bias is None:
            return x
        return x + bias


@pytest.mark.parametrize("use_bias, mode, expected", [
    (True, "square", (X + 1) * (X + 1)), (False, "square", (X - 1) * (X - 1)),
    (True, "neg", -(X + 1)), (False, "other", X - 1),
])
def test_if_on_python_constants_is_folded(use_bias, mode, expected):
    text = check_both_modes(ConstantIf(use_bias, mode), (X,), expected)
    assert "switch" not in text and "select" not in text
    nodes = [line for line in text.splitlines() if line.startswith("  %")]
    assert len(nodes) == 1 + (mode in ("square", "neg")), text


# ----- lambdas --------------------------------------------------------------------------------

LAMBDAS = {
    "square": lambda v: v * v,
    "shifted": lambda v, by=2.0: (
        v + by),
}
minus_one = lambda v: v - 1; times_ten = lambda v: v * 10
nested = lambda v: (lambda v: v * 2)(v) + 100  # noqa: PLC3002


@pytest.mark.parametrize("fn, expected", [
    (LAMBDAS["square"], X * X), (LAMBDAS["shifted"], X + 2.0), (minus_one, X - 1),
    (times_ten, X * 10), (nested, X * 2 + 100),
], ids=["in-a-dict", "multi-line", "first-on-a-line", "second-on-a-line", "nested"])
def test_lambdas_anywhere_in_the_source(fn, expected):
    assert_tree(ms.jit(fn)(Tensor(X)), expected, "graph")
    assert_tree(fn(Tensor(X)), expected, "pynative")


# ----- `with` on a jit_class object ------------------------------------------------------------

@ms.jit_class
class _Doubling:
    """A context manager as MindSpore's statements tutorial writes one."""

    def __init__(self, k):
        self.num = ms.Tensor(np.array([k], np.int64))

    def __enter__(self):
        return self.num * 2

    def __exit__(self, exc_type, exc_value, traceback):
        return self.num * 4


def test_with_binds_enter_and_runs_the_body():
    class Net(nn.Cell):
        @ms.jit
        def construct(self):
            res = 1
            obj = _Doubling(2)
            with obj as sample:
                res += sample
            return res, obj.num

    out1, out2 = Net()()
    assert out1.asnumpy().tolist() == [5] and out2.asnumpy().tolist() == [2]  # MindSpore's


def test_with_several_items_and_a_return_inside():
    class Net(nn.Cell):
        def construct(self, x):
            with _Doubling(3) as a, _Doubling(5) as b:
                if x.shape[0] > 1:
                    return x * a
                y = x * b
            with _Doubling(1):
                y = y + 1
            return y

    np.testing.assert_allclose(Net()(Tensor(np.float32([1.5]))).asnumpy(), [16.0])
    np.testing.assert_allclose(Net()(Tensor(np.float32([1.0, 2.0]))).asnumpy(), [6.0, 12.0])


def test_a_method_gets_its_object_only_through_a_parameter_named_self():
    """MindSpore's graph mode passes the object to `self.func(a, b)` only when func's first
    parameter is `self` (its error-analysis tutorial defines `def func(x, y)` on a Cell);
    the values are MindSpore's."""

    class Net(nn.Cell):
        def func(x, y):
            return ops.div(x, y)

        def func3(x, y, z=2.0):
            return x * 100 + y * 10 + z

        def func_self(self, x):
            return x + 1

        def construct(self, x, y):
            return self.func(x, y), self.func3(x, y), self.func_self(x)

    out = Net()(Tensor(np.float32(3.0)), Tensor(np.float32(2.0)))
    assert [float(v.asnumpy()) for v in out] == [1.5, 322.0, 4.0]


class _BareRaise(nn.Cell):
    def construct(self, x):
        if x == 1:
            raise  # noqa: PLE0704 - the statement under test
        return x


def test_a_bare_raise_with_no_exception_is_pythons_runtime_error():
    with pytest.raises(RuntimeError, match="No active exception to reraise"):
        _BareRaise()(1)


class _IteratesAScalarParameter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.float32(5)), name="p")

    def construct(self, x):
        for a in self.p:
            x = x + a
        return x


def test_iterating_a_0d_tensor_is_mindspores_type_error():
    """In a graph (a graph value or a constant Tensor) and outside one, in MindSpore's words;
    len() of one, and one-element conversions of a longer one, likewise."""
    @ms.jit
    def over(x):
        for a in x:
            x = x + a
        return x

    for call in (lambda: over(Tensor(1.0)), lambda: _IteratesAScalarParameter()(Tensor(1.0))):
        with pytest.raises(TypeError, match="Cannot iterate over a scalar tensor."):
            call()
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        list(Tensor(1.0))
    with pytest.raises(TypeError, match="Not support len of a 0-D tensor"):
        len(Tensor(1.0))

    @ms.jit
    def to_float():
        return float(Tensor([1, 2, 3]))

    with pytest.raises(ValueError, match="Only one element tensors can be converted"):
        to_float()


def test_an_index_error_of_python_values_in_a_graph_is_an_index_error():
    """A list's pop or item read out of range while compiling raises IndexError (caught by
    `except IndexError`), as MindSpore's graphs raise it."""
    @ms.jit
    def pops():
        x = [1, 2, 3, 4]
        return x.pop(4)

    with pytest.raises(IndexError, match="pop index out of range"):
        pops()
