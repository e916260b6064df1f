"""The elementwise fusion pass (compiler/fusion.py) on its own: which nodes form a run, where
the fused node goes, what its program holds. No compiled kernel runs here (that is
tests/runtime/test_fused_kernels.py, which needs numba)."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.compiler import fusion
from cellgraph.compiler.ir import all_graphs, print_graph
from cellgraph.compiler.pipeline import compile_callable


def _fused(fn, *args, min_nodes=fusion.MIN_NODES):
    graph = compile_callable(fn, args).graph
    programs = []

    def runner(program):
        programs.append(program)
        return lambda *a: None

    fused, count = fusion.fuse_elementwise(graph, runner, min_nodes)
    return graph, fused, count, programs


def _x(shape=(4, 8), dtype=np.float32):
    return Tensor(np.arange(np.prod(shape), dtype=dtype).reshape(shape) / 10)


def test_a_run_becomes_one_node_and_the_input_graph_is_unchanged():
    def f(x, y):
        return (x * y + 1) * (x - 0.5)

    graph, fused, count, (program,) = _fused(f, _x(), _x())
    before = print_graph(graph)
    assert count == 1
    assert [n.callee.name for n in fused.nodes] == ["fused_elementwise"]
    assert [op[0] for op in program.ops] == ["mul", "add", "sub", "mul"]
    assert program.inputs == (("float32", (4, 8)), ("float32", (4, 8)))
    assert program.outputs == (3,) and program.shape == (4, 8)
    assert print_graph(graph) == before  # pure: the pass worked on a copy
    assert fused.outputs[0] is fused.nodes[0].outputs[0]


def test_runs_stay_open_across_nodes_that_do_not_read_them():
    def f(x, y):
        a = x * 2 + y
        t = ops.tanh(y)  # reads no value of the run: the run goes on after it
        b = a * t - 1
        return ops.exp(b) * 3 + b * b

    _, fused, count, programs = _fused(f, _x(), _x())
    names = [n.callee.name for n in fused.nodes]
    assert names == ["tanh", "fused_elementwise", "exp", "fused_elementwise"]
    assert count == 2
    assert [op[0] for op in programs[0].ops] == ["mul", "add", "mul", "sub"]
    # the first run's result leaves it for exp and for the second run
    assert programs[0].outputs == (3,)


def test_short_runs_other_shapes_and_other_dtypes_are_left_alone():
    def short(x):
        return x * 2 + 1

    _, fused, count, _ = _fused(short, _x())
    assert count == 0 and [n.callee.name for n in fused.nodes] == ["mul", "add"]

    def ints(i):
        return (i * 2 + 1) * i - 3

    _, _, count, _ = _fused(ints, Tensor(np.arange(4, dtype=np.int32)))
    assert count == 0  # integer arithmetic is not fused

    def shapes(x, v):
        a = (x * 2 + 1) * x  # (4, 8)
        b = (v * 3 + 2) * v  # (8,): a run of its own, open beside the first
        return a * b - 1  # reads b: the (8,) run closes before it

    _, fused, count, programs = _fused(shapes, _x(), _x((8,)))
    assert count == 2
    assert [p.shape for p in programs] == [(8,), (4, 8)]
    assert [len(p.ops) for p in programs] == [3, 5]
    assert programs[1].inputs[-1] == ("float32", (8,))


def test_broadcast_inputs_and_numbers_in_the_program_structure():
    def f(x, bias, row):
        return (x + bias) * row - 2.5

    _, _, _, (program,) = _fused(f, _x(), _x((8,)), _x((1, 8)))
    inputs, ops_, outputs, ndim = program.structure()
    assert outputs == (2,)
    assert ndim == 2
    assert inputs == (("float32", 2, ()), ("float32", 1, ()), ("float32", 2, (0,)))
    assert ops_[-1] == ("sub", (("t", 1), ("c", 2.5)), "float32")


def test_loop_bodies_and_gradients_are_fused_too():
    def f(x, w):
        n = Tensor(np.int32(0))
        while n < 3:
            x = ops.sin(x) * w + 0.5 * x - x * x * 0.01
            n = n + 1
        return ops.sum(x)

    graph = compile_callable(ms.grad(f), (_x((16,)), _x((16,)))).graph
    fused, count = fusion.fuse_elementwise(graph, lambda p: (lambda *a: None))
    assert count >= 2
    inner = [n for g in all_graphs(fused)[1:] for n in g.nodes
             if n.callee.name == "fused_elementwise"]
    assert inner  # inside the loops' graphs


def test_programs_hold_no_user_strings():
    def a_user_function_name(value_named_by_user):
        return (value_named_by_user * 3 + 1) / 2

    _, _, _, (program,) = _fused(a_user_function_name, _x())
    text = repr(program.structure()) + repr(program)
    assert "user" not in text
