"""Control flow in construct: folded on constants, real branches and loops on Tensors, and
differentiable at orders 1-3 (checked against finite differences)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.compiler.pipeline import compile_callable
from cellgraph.testing import check_grads


def t(*values):
    return Tensor(np.array(values if len(values) > 1 else values[0], np.float64))


def _node_names(fn, *args):
    graph = compile_callable(fn, args).graph
    return [n.callee.name for n in graph.nodes]


class IfSquareOrNeg(nn.Cell):
    def construct(self, x):
        if x > 0:
            y = x * x
        else:
            y = -x
        return y


class ElifChain(nn.Cell):
    def construct(self, x):
        if x > 1:
            if x > 2:
                y = ops.sin(x)
            else:
                y = ops.exp(x)
        elif x > -1:
            y = x * x * x
        else:
            y = ops.cos(x) * 2
        return y


class StaticFlag(nn.Cell):
    def __init__(self, flag):
        super().__init__()
        self.flag = flag

    def construct(self, x):
        if self.flag:
            return x * 2
        return x * 3


@pytest.mark.parametrize("x", [1.5, -0.7])
def test_if_on_tensor_takes_one_branch(x):
    net = IfSquareOrNeg()
    expected = x * x if x > 0 else -x
    np.testing.assert_allclose(net(t(x)).asnumpy(), expected)
    for order in (1, 2, 3):
        check_grads(net, (t(x),), order=order)


@pytest.mark.parametrize("x", [2.5, 1.5, 0.3, -2.0])
def test_if_elif_else_nested(x):
    net = ElifChain()
    ref = np.sin(x) if x > 2 else np.exp(x) if x > 1 else x ** 3 if x > -1 else 2 * np.cos(x)
    np.testing.assert_allclose(net(t(x)).asnumpy(), ref)
    for order in (1, 2, 3):
        check_grads(net, (t(x),), order=order)


def test_if_on_constant_is_folded():
    x = t(1.0, 2.0)
    assert "switch" not in _node_names(StaticFlag(True), x)
    np.testing.assert_allclose(StaticFlag(True)(x).asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(StaticFlag(False)(x).asnumpy(), [3.0, 6.0])


def test_generated_code_runs_one_branch():
    source = compile_callable(IfSquareOrNeg(), (t(1.0),)).module.source
    assert "if " in source and "else:" in source
    main = source.split("def construct(")[1]
    assert "k_mul" not in main and "k_neg" not in main  # each arm's work is in its own function


class ReturnInBranch(nn.Cell):
    def construct(self, x):
        if x > 1:
            return x * 3
        y = x + 1
        return y * y


@pytest.mark.parametrize("x", [3.0, 0.5])
def test_return_inside_branch(x):
    net = ReturnInBranch()
    np.testing.assert_allclose(net(t(x)).asnumpy(), 3 * x if x > 1 else (x + 1) ** 2)
    for order in (1, 2, 3):
        check_grads(net, (t(x),), order=order)


class ConditionalExpression(nn.Cell):
    def construct(self, x):
        y = ops.sqrt(x) if x > 0 else x * 0.0
        return y + (x if x < 3 else 3.0 * x)


def test_conditional_expression_on_tensor():
    net = ConditionalExpression()
    np.testing.assert_allclose(net(t(4.0)).asnumpy(), 2.0 + 12.0)
    np.testing.assert_allclose(net(t(-1.0)).asnumpy(), -1.0)
    check_grads(net, (t(4.0),), order=2)
    # only the taken side runs: sqrt's gradient at a negative x would be NaN
    assert np.isfinite(ms.grad(net)(t(-1.0)).asnumpy()).all()


class BoolOps(nn.Cell):
    def construct(self, x):
        if (x > 0) and (x < 2) or not (x > -5):
            return x * 10
        return x


def test_and_or_not_on_tensors():
    net = BoolOps()
    np.testing.assert_allclose(net(t(1.0)).asnumpy(), 10.0)
    np.testing.assert_allclose(net(t(3.0)).asnumpy(), 3.0)
    np.testing.assert_allclose(net(t(-6.0)).asnumpy(), -60.0)


class RangeLoop(nn.Cell):
    def construct(self, x, y):
        for i in range(3):
            x = x * y
        return x


def test_for_range_unrolled():
    x, y = t(1.5, -0.5), t(0.8, 1.2)
    np.testing.assert_allclose(RangeLoop()(x, y).asnumpy(), x.asnumpy() * y.asnumpy() ** 3)
    for order in (1, 2, 3):
        check_grads(RangeLoop(), (x, y), order=order)


class Scale(nn.Cell):
    def __init__(self, value):
        super().__init__()
        self.w = Parameter(Tensor(np.array([value], np.float64)), name="w")

    def construct(self, x):
        return ops.tanh(x * self.w)


class LoopOverCells(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([Scale(0.5), Scale(-1.5), Scale(2.0)])

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def test_loop_over_sub_cells():
    net, x = LoopOverCells(), t(0.3, -0.8)
    ref = x.asnumpy()
    for w in (0.5, -1.5, 2.0):
        ref = np.tanh(ref * w)
    np.testing.assert_allclose(net(x).asnumpy(), ref)
    for order in (1, 2, 3):
        check_grads(net, (x,), order=order)
    weights = ms.grad(net, grad_position=None, weights=net.trainable_params())(x)
    assert len(weights) == 3


class Doubling(nn.Cell):
    def construct(self, x):
        while x < 10:
            x = x * 2
        return x


class Squaring(nn.Cell):
    def construct(self, x):
        while x < 10:
            x = x * x
        return x


def test_while_doubling_value_and_gradient():
    net = Doubling()
    np.testing.assert_allclose(net(t(3.0)).asnumpy(), 12.0)
    np.testing.assert_allclose(net(t(0.7)).asnumpy(), 11.2)
    np.testing.assert_allclose(ms.grad(net)(t(3.0)).asnumpy(), 4.0)
    np.testing.assert_allclose(ms.grad(net)(t(0.7)).asnumpy(), 16.0)
    assert "while_loop" in _node_names(net, t(3.0))  # a real loop, not unrolled


@pytest.mark.parametrize("x, trips", [(1.5, 3), (2.0, 2), (11.0, 0)])
def test_while_trip_count_depends_on_input(x, trips):
    net = Squaring()
    power = 2 ** trips
    np.testing.assert_allclose(net(t(x)).asnumpy(), x ** power)
    np.testing.assert_allclose(ms.grad(net)(t(x)).asnumpy(), power * x ** (power - 1))
    for order in (1, 2, 3):
        check_grads(net, (t(x),), order=order, rtol=1e-4)


class WhileWithCounter(nn.Cell):
    def construct(self, x, w):
        i = 0
        while i < 3:
            x = ops.sin(x * w)
            i = i + 1
        return x


def test_while_on_python_counter_is_unrolled_and_differentiable():
    x, w = t(0.4, 0.9), t(1.3, -0.6)
    ref = x.asnumpy()
    for _ in range(3):
        ref = np.sin(ref * w.asnumpy())
    np.testing.assert_allclose(WhileWithCounter()(x, w).asnumpy(), ref)
    check_grads(WhileWithCounter(), (x, w), order=2)


class TensorCounterLoop(nn.Cell):
    def construct(self, x, n):
        i = 0
        while i < n:
            x = ops.sin(x) * 2
            i = i + 1
        return x


def test_while_with_tensor_bound_carries_python_counter():
    x, n = t(0.4, 1.1), Tensor(np.array(3, np.int64))
    ref = x.asnumpy()
    for _ in range(3):
        ref = np.sin(ref) * 2
    np.testing.assert_allclose(TensorCounterLoop()(x, n).asnumpy(), ref)
    check_grads(TensorCounterLoop(), (x, n), order=2)


class BranchInLoop(nn.Cell):
    def construct(self, x):
        for i in range(3):
            if x.sum() > 1:
                x = x * 0.5
            else:
                x = x * x + 1
        return x


def test_branch_inside_loop():
    x = t(0.3, 0.2)
    ref = x.asnumpy()
    for _ in range(3):
        ref = ref * 0.5 if ref.sum() > 1 else ref * ref + 1
    np.testing.assert_allclose(BranchInLoop()(x).asnumpy(), ref)
    for order in (1, 2, 3):
        check_grads(BranchInLoop(), (x,), order=order)


class RNN(nn.Cell):
    def __init__(self, rng):
        super().__init__()
        self.w = Parameter(Tensor(rng.normal(size=(3, 3)) * 0.5), name="w")
        self.u = Parameter(Tensor(rng.normal(size=(3, 2)) * 0.5), name="u")

    def construct(self, xs, h):
        for step in range(3):
            h = ops.tanh(ops.matmul(self.w, h) + ops.matmul(self.u, xs[step]))
        return h


def test_rnn_three_steps(rng):
    net = RNN(rng)
    xs, h = Tensor(rng.normal(size=(3, 2))), Tensor(rng.normal(size=(3,)))
    ref = h.asnumpy()
    for step in range(3):
        ref = np.tanh(net.w.asnumpy() @ ref + net.u.asnumpy() @ xs.asnumpy()[step])
    np.testing.assert_allclose(net(xs, h).asnumpy(), ref)
    for order in (1, 2, 3):
        check_grads(net, (xs, h), order=order)


class Closures(nn.Cell):
    def construct(self, x, y):
        def scaled(v):
            return v * y  # y is a free variable

        def make_power(k):
            return lambda v: v ** k

        cube = make_power(3)
        return scaled(x) + cube(x)


def test_closures_and_returned_closures():
    x, y = t(0.5, -1.2), t(2.0, 0.3)
    ref = x.asnumpy() * y.asnumpy() + x.asnumpy() ** 3
    np.testing.assert_allclose(Closures()(x, y).asnumpy(), ref)
    for order in (1, 2, 3):
        check_grads(Closures(), (x, y), order=order)


def apply(f, v):
    return f(v) * f(v + 1)


class HigherOrderHelper(nn.Cell):
    def construct(self, x):
        return apply(ops.sin, x) + apply(lambda v: v * v, x)


def test_higher_order_helper():
    x = t(0.3, 1.7)
    a = x.asnumpy()
    np.testing.assert_allclose(HigherOrderHelper()(x).asnumpy(),
                               np.sin(a) * np.sin(a + 1) + a * a * (a + 1) ** 2)
    for order in (1, 2, 3):
        check_grads(HigherOrderHelper(), (x,), order=order)


def helper_with_defaults(v, scale=2.0, *, shift=1.0):
    return v * scale + shift


class ListsAndDicts(nn.Cell):
    def construct(self, x):
        parts = []
        for i in range(3):
            parts.append(x * (i + 1))
        table = {"a": parts[0], "b": parts[-1]}
        total = table["a"] + table["b"] + helper_with_defaults(x, shift=0.5)
        assert len(parts) == 3, "three parts"
        for p in parts[1:]:
            total = total + p
        return total * min(2, 3) + isinstance(x, Tensor) * max(1.0, 0.5)


def test_lists_dicts_builtins():
    x = t(1.0, 2.0)
    a = x.asnumpy()
    ref = (a + 3 * a + 2 * a + 0.5 + 2 * a + 3 * a) * 2 + 1.0
    np.testing.assert_allclose(ListsAndDicts()(x).asnumpy(), ref)
    check_grads(ListsAndDicts(), (x,), order=2)


class PrintInGraph(nn.Cell):
    def construct(self, x):
        y = x * 2
        print("y is", y)
        return y


def test_print_runs_when_the_graph_runs(capsys):
    net = PrintInGraph()
    net(t(1.0, 2.0))
    net(t(3.0, 4.0))
    out = capsys.readouterr().out
    assert "y is [2. 4.]" in out and "y is [6. 8.]" in out


class ShapeChangingLoop(nn.Cell):
    def construct(self, x):
        while x.sum() < 10:
            x = ops.concat((x, x))
        return x


def test_loop_carried_shape_change_becomes_a_dynamic_dim():
    out = ShapeChangingLoop()(t(1.0, 2.0))
    np.testing.assert_allclose(out.asnumpy(), [1.0, 2.0] * 4)


class BranchTypesDiffer(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            y = x
        else:
            y = x.sum()
        return y


def test_branches_with_different_ranks_are_a_clear_error():
    with pytest.raises(ValueError, match="variable `y` is f64\\[2\\] in one branch of the "
                                         "Tensor `if` and f64\\[\\] in the other; their ranks "
                                         "differ"):
        BranchTypesDiffer()(t(1.0, 2.0))


class BreakUnderTensorIf(nn.Cell):
    def construct(self, x):
        for i in range(5):
            if x.sum() > 20:
                break
            x = x * 2
        return x


class ContinueUnderTensorIf(nn.Cell):
    def construct(self, x):
        for i in range(4):
            if x.sum() > 3:
                x = x + 1
                continue
            x = ops.sin(x) * 3
        return x


class BreakInTensorWhile(nn.Cell):
    def construct(self, x, n):
        i = 0
        while i < n:
            i = i + 1
            if x.sum() > 100:
                break
            x = x * x
        return x


def _reference_loops(x, n=5):
    a = x.copy()
    for _ in range(5):
        if a.sum() > 20:
            break
        a = a * 2
    b = x.copy()
    for _ in range(4):
        if b.sum() > 3:
            b = b + 1
            continue
        b = np.sin(b) * 3
    c, i = x.copy(), 0
    while i < n:
        i += 1
        if c.sum() > 100:
            break
        c = c * c
    return a, b, c


@pytest.mark.parametrize("v", [0.5, 3.0])
def test_break_and_continue_on_tensor_conditions(v):
    x, n = t(v, 1.0), Tensor(np.array(5, np.int64))
    ref_break, ref_continue, ref_while = _reference_loops(x.asnumpy())
    np.testing.assert_allclose(BreakUnderTensorIf()(x).asnumpy(), ref_break)
    np.testing.assert_allclose(ContinueUnderTensorIf()(x).asnumpy(), ref_continue)
    np.testing.assert_allclose(BreakInTensorWhile()(x, n).asnumpy(), ref_while)
    for order in (1, 2):
        check_grads(BreakUnderTensorIf(), (x,), order=order)
        check_grads(ContinueUnderTensorIf(), (x,), order=order)
        check_grads(BreakInTensorWhile(), (x, n), order=order, rtol=1e-4)


class StaticBreak(nn.Cell):
    def construct(self, x):
        for i in range(10):
            if i == 2:
                break
            x = x * 2
        return x


def test_break_on_python_condition_folds_away():
    x = t(1.0, 2.0)
    np.testing.assert_allclose(StaticBreak()(x).asnumpy(), [4.0, 8.0])
    assert _node_names(StaticBreak(), x) == ["mul"]  # x * 2 * 2, its factors folded: x * 4.0


class ReturnInLoopUnderTensorIf(nn.Cell):
    def construct(self, x):
        for i in range(3):
            if x.sum() > 2:
                return x
            x = x * 2
        return -x


def test_return_under_tensor_if_in_an_unrolled_loop_leaves_at_run_time():
    net = ReturnInLoopUnderTensorIf()
    np.testing.assert_allclose(net(t(1.0, 2.0)).asnumpy(), [1.0, 2.0])  # the first trip
    np.testing.assert_allclose(net(t(0.5, 0.5)).asnumpy(), [2.0, 2.0])  # the third trip
    np.testing.assert_allclose(net(t(0.1, 0.1)).asnumpy(), [-0.8, -0.8])  # never: after it


def test_nested_grad_operation_through_if():
    class Grad(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.grad = ops.GradOperation()

        def construct(self, x):
            return self.grad(self.net)(x)

    second = Grad(Grad(IfSquareOrNeg()))
    np.testing.assert_allclose(second(t(1.5)).asnumpy(), 2.0)
    np.testing.assert_allclose(second(t(-1.5)).asnumpy(), 0.0)


class IterationForms(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cells = nn.CellList([Scale(0.5), Scale(-1.0)])

    def construct(self, xs, ys, m):
        total = 0.0
        for i, (a, b) in enumerate(zip(xs, ys)):
            total = total + a * b * (i + 1)
        for row in m:  # a Tensor's first dimension, unrolled
            total = total + row.sum()
        for k, layer in enumerate(self.cells):
            total = layer(total) * (k + 2)
        return total


def test_enumerate_zip_tensor_rows_and_cell_list():
    xs, ys = (t(1.0), t(2.0), t(3.0)), (t(0.5), t(-1.0), t(2.0))
    m = t([[1.0, 2.0], [3.0, 4.0]])
    net = IterationForms()
    total = 0.5 * 1 - 2.0 * 2 + 6.0 * 3 + 10.0
    total = np.tanh(np.tanh(total * 0.5) * 2 * -1.0) * 3
    np.testing.assert_allclose(net(xs, ys, m).asnumpy(), total)
    check_grads(net, (xs, ys, m), order=2)


class RaiseOnConstant(nn.Cell):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode

    def construct(self, x):
        if self.mode not in ("double", "square"):
            raise ValueError(f"unknown mode {self.mode}")
        return x * 2 if self.mode == "double" else x * x


def test_raise_on_constant_runs_at_compile_time():
    np.testing.assert_allclose(RaiseOnConstant("square")(t(3.0)).asnumpy(), 9.0)
    with pytest.raises(ValueError, match="unknown mode cube"):
        RaiseOnConstant("cube")(t(3.0))


def _branchy(x):
    if x.sum() > 0:
        y = x * x
    else:
        y = -x
    return y


def _doubling(x):
    while x.sum() < 10:
        x = x * 2
    return x


def test_vmap_of_tensor_if_selects_per_example():
    xs = t([[1.0, 2.0], [-1.0, -3.0], [0.5, 0.1]])
    expected = np.stack([_branchy(x) for x in xs.asnumpy()])
    np.testing.assert_allclose(ms.vmap(_branchy)(xs).asnumpy(), expected)
    assert "loop fallback" not in ms.dump_ir(ms.vmap(_branchy), xs)


def test_vmap_of_tensor_if_with_unbatched_condition_keeps_the_switch():
    def scaled(flag, x):
        if flag > 0:
            return x * 2
        return x * 3

    xs = t([[1.0, 2.0], [3.0, 4.0]])
    vm = ms.vmap(scaled, in_axes=(None, 0))
    np.testing.assert_allclose(vm(t(1.0), xs).asnumpy(), xs.asnumpy() * 2)
    np.testing.assert_allclose(vm(t(-1.0), xs).asnumpy(), xs.asnumpy() * 3)
    assert "switch" in ms.dump_ir(vm, t(1.0), xs)


def test_vmap_of_while_runs_each_example_its_own_trip_count():
    xs = t([[1.0, 2.0], [3.0, 4.5], [0.1, 0.2]])
    expected = np.stack([_doubling(x) for x in xs.asnumpy()])
    np.testing.assert_allclose(ms.vmap(_doubling)(xs).asnumpy(), expected)
    per_example = ms.vmap(ms.grad(lambda x: _doubling(x).sum()))(xs)
    np.testing.assert_allclose(per_example.asnumpy(), [[4.0, 4.0], [2.0, 2.0], [64.0, 64.0]])


class UnusedBranchInputs(nn.Cell):
    def construct(self, x, y, z):
        if x.sum() > 0:
            a = x * 2
        else:
            a = x + y
        w = z
        while w.sum() < 10:
            w = w * 2
        return a + w


def test_branch_and_loop_inputs_nothing_reads_are_pruned():
    args = (t(1.0, 2.0), t(3.0, 4.0), t(0.5, 0.5))
    graph = compile_callable(ms.grad(UnusedBranchInputs()), args).graph
    (switch,) = [n for n in graph.nodes if n.callee.name == "switch"]
    assert len(switch.inputs) == 2 and len(switch.outputs) == 1  # condition + sens; d/dx only
    assert "while_loop" not in [n.callee.name for n in graph.nodes]  # no gradient flows there
    np.testing.assert_allclose(ms.grad(UnusedBranchInputs())(*args).asnumpy(), [2.0, 2.0])
    np.testing.assert_allclose(ms.grad(UnusedBranchInputs())(-args[0], *args[1:]).asnumpy(),
                               [1.0, 1.0])


class _NamesLikeGeneratedCode(nn.Cell):
    """Loop variables named like the generated code's own values and constants (v1, c0)."""

    def construct(self, x, n):
        i = x * 0
        v1 = x
        c0 = x + 1
        while i < n:
            v1 = v1 * 2.0 + i
            c0 = c0 + 0.5
            i = i + 1
        return v1 + c0


def test_loop_variables_named_like_generated_values():
    out = _NamesLikeGeneratedCode()(Tensor(np.float32(1.5)), Tensor(np.float32(3.0)))
    np.testing.assert_allclose(out.asnumpy(), 16.0 + 4.0)


class _SwitchLayer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = (nn.ReLU(), nn.Softmax(), lambda x: x * 2)
        self.cells = nn.CellList([nn.Dense(2, 2, weight_init="ones", bias_init="zeros"),
                                  nn.Dense(2, 2, weight_init="zeros", bias_init="ones")])
        self.values = (Tensor(np.float32(1.0)), Tensor(np.float32(5.0)))

    def construct(self, x, i, j):
        return self.layers[i](x) + self.cells[j](x) + self.values[j]


def test_sequences_indexed_by_a_tensor():
    net = _SwitchLayer()
    x = np.array([[-1.0, 2.0]], np.float32)
    softmax = np.exp(x) / np.exp(x).sum()
    firsts = (np.maximum(x, 0), softmax, 2 * x)
    seconds = (x @ np.ones((2, 2)) + 1.0, np.ones((1, 2)) + 5.0)
    for i, first in enumerate(firsts):
        for j, second in enumerate(seconds):
            out = net(Tensor(x), Tensor(np.int32(i)), Tensor(np.int32(j)))
            np.testing.assert_allclose(out.asnumpy(), first + second, rtol=1e-5)
    grad = ms.grad(net)(Tensor(x), Tensor(np.int32(2)), Tensor(np.int32(0)))
    np.testing.assert_allclose(grad.asnumpy(), [[4.0, 4.0]])  # only the chosen items count


class _SetItems(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="p")

    def construct(self, x, v):
        y = x * 1.0
        y[0] = v
        y[:, 2] = 7.0
        y[1, [0, 1]] = v[:2] * 10
        self.p[1, 1] = 5.0
        return y


def test_item_assignment_makes_a_new_tensor():
    net = _SetItems()
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    v = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    np.testing.assert_allclose(net(x, v).asnumpy(), [[1, 2, 7], [10, 20, 7]])
    np.testing.assert_allclose(net.p.asnumpy(), [[0, 0, 0], [0, 5, 0]])
    dx, dv = ms.grad(net, grad_position=(0, 1))(x, v)
    np.testing.assert_allclose(dx.asnumpy(), 0.0)  # every element was overwritten
    np.testing.assert_allclose(dv.asnumpy(), [11.0, 11.0, 0.0])
    check_grads(lambda a: _set_corner(a), (np.arange(4.0).reshape(2, 2),), order=2)


def _set_corner(a):
    b = a * a
    b[0, 0] = a[1, 1] * 3.0
    return b


# ----- Parameter updates under a Tensor `if` ---------------------------------------------------

class CountPositive(nn.Cell):
    """Assigns in one branch, in both, and reads a value assigned before the `if`."""

    def __init__(self):
        super().__init__()
        self.count = Parameter(Tensor(np.array(0.0)), name="count", requires_grad=False)
        self.total = Parameter(Tensor(np.array(0.0)), name="total", requires_grad=False)
        self.calls = Parameter(Tensor(np.array(0.0)), name="calls", requires_grad=False)

    def construct(self, x):
        ops.assign(self.calls, self.calls + 1)
        if x > 0:
            ops.assign(self.count, self.count + 1)
            ops.assign(self.total, self.total + x * self.calls)
        else:
            ops.assign(self.total, self.total - 1)
        return self.total * 1


def test_parameter_updates_under_a_tensor_if_leave_as_switch_outputs():
    net = CountPositive()
    outs = [float(net(t(v)).asnumpy()) for v in (2.0, -1.0, 3.0)]
    # calls 1: total 0 + 2*1 = 2; calls 2: 2 - 1 = 1; calls 3: 1 + 3*3 = 10
    assert outs == [2.0, 1.0, 10.0]
    assert float(net.count.asnumpy()) == 2.0 and float(net.calls.asnumpy()) == 3.0
    assert "switch" in _node_names(net, t(1.0))


def test_nested_tensor_ifs_carry_updates_out():
    class Nested(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = Parameter(Tensor(np.array(0.0)), name="p", requires_grad=False)

        def construct(self, x):
            if x > 0:
                if x > 10:
                    ops.assign(self.p, self.p + 100)
                else:
                    ops.assign(self.p, self.p + 1)
            return x

    net = Nested()
    for v in (5.0, 20.0, -3.0):
        net(t(v))
    assert float(net.p.asnumpy()) == 101.0


def test_updates_under_a_tensor_while_are_carried():
    class Loop(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = Parameter(Tensor(np.array(0.0)), name="p", requires_grad=False)

        def construct(self, x):
            while x > 0:
                ops.assign(self.p, self.p + 1)
                x = x - 1
            return x

    net = Loop()
    net(t(3.0))
    assert float(net.p.asnumpy()) == 3.0


WHILE_ELSE = "while x > y:\n        y += x\n        break\n    else:\n        y = x + 6\n"
FOR_ELSE = "for _ in range(2):\n        y += x\n    else:\n        y = x + 6\n"


@pytest.mark.parametrize("loop", [WHILE_ELSE, FOR_ELSE])
def test_loop_else_is_refused_as_mindspore_refuses_it(tmp_path, loop):
    """MindSpore's parser refuses `while ... else` and `for ... else` (RuntimeError)."""
    source = f"def f(x, y):\n    {loop}    return y\n"
    path = tmp_path / "loop_else.py"
    path.write_text(source)
    namespace = {}
    exec(compile(source, str(path), "exec"), namespace)  # noqa: S102 - the test's own source
    kind = "while" if loop.startswith("while") else "for"
    with pytest.raises(RuntimeError, match=rf"The '{kind}\.\.\.else\.\.\.' statement is not "
                                           r"supported now\."):
        ms.jit(namespace["f"])(Tensor([0], ms.int32), Tensor([2], ms.int32))
