"""The scan fusion pass (compiler/loop_fusion.py) on its own: which scans become `fused_scan`
nodes and what their programs hold. No compiled kernel runs here (that is
tests/runtime/test_fused_loops.py, which needs numba)."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.compiler import loop_fusion
from cellgraph.compiler.ir import all_graphs, print_graph
from cellgraph.compiler.pipeline import compile_callable


def _scans(fn, *args):
    graph = compile_callable(fn, args).graph
    programs = []

    def runner(program):
        programs.append(program)
        return lambda *a: None

    before = print_graph(graph)
    fused, count = loop_fusion.fuse_scans(graph, runner)
    assert print_graph(graph) == before  # the pass works on a copy
    nodes = [n for g in all_graphs(fused) for n in g.nodes]
    return nodes, count, programs


def _x(shape, seed=0):
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def sin_loop(x, w, n):
    i = 0
    while i < n:
        x = ops.sin(x) * w + 0.5 * x
        i = i + 1
    return x.sum()


def test_the_walk_back_over_a_while_tape_becomes_one_fused_scan():
    n = Tensor(np.array(3, np.int64))
    nodes, count, (program,) = _scans(ms.grad(sin_loop, grad_position=(0, 1)),
                                      _x((16,)), _x((16,), 1), n)
    assert count == 1
    names = [node.callee.name for node in nodes]
    assert "fused_scan" in names and "scan" not in names
    assert program.reverse and program.n_carry == 2 and program.n_xs == 2
    assert program.shape == (16,)
    assert {op[0] for op in program.ops} == {"mul", "add"}
    assert program.dtypes == ("float32", "float32")
    inputs, _, _, ops_, _, ndim, _, _ = program.structure()
    assert inputs == (("float32", 1, ()),) * 5 and ndim == 1  # no sizes in the structure
    assert ("c", 0.5) in [operand for op in ops_ for operand in op[1]]


def test_bodies_with_reductions_or_transcendentals_are_left_alone():
    def reduces(x, w):
        n = Tensor(np.int32(0))
        while n < 3:
            x = x * w + 0.25
            n = n + 1
        return ops.sum(x)

    # dw sums over the rows that w was broadcast along: a reduction in the body
    nodes, count, _ = _scans(ms.grad(reduces, grad_position=(0, 1)), _x((4, 8)), _x((8,)))
    assert count == 0 and "scan" in [node.callee.name for node in nodes]

    def matmul_loop(x, w):
        n = Tensor(np.int32(0))
        while n < 3:
            x = ops.matmul(x, w) * 0.5
            n = n + 1
        return ops.sum(x)

    nodes, count, _ = _scans(ms.grad(matmul_loop), _x((4, 4)), _x((4, 4), 1))
    assert count == 0 and "scan" in [node.callee.name for node in nodes]

    def tanh_loop(x):
        n = Tensor(np.int32(0))
        while n < 3:
            x = ops.tanh(x) * 0.5
            n = n + 1
        return ops.sum(x)

    # tanh itself runs forward; its derivative reads the tape, arithmetic only
    _, count, (program,) = _scans(ms.grad(tanh_loop), _x((8,)))
    assert count == 1 and "tanh" not in {op[0] for op in program.ops}


def test_programs_hold_no_user_strings():
    def a_user_loop(value_named_by_user, other_user_value, count_by_user):
        i = 0
        while i < count_by_user:
            value_named_by_user = ops.sin(value_named_by_user) * other_user_value
            i = i + 1
        return value_named_by_user.sum()

    _, _, (program,) = _scans(ms.grad(a_user_loop), _x((8,)), _x((8,), 1),
                              Tensor(np.array(2, np.int64)))
    text = repr(program.structure()) + repr(program)
    assert "user" not in text
