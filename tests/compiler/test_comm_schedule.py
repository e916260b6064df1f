"""overlap_collectives (compiler/comm_schedule.py): each all_reduce split into a start, moved up
to where its inputs are computed but never above an earlier effect, and a done where it was."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, communication, nn
from cellgraph.compiler import passes
from cellgraph.compiler.compile_context import CompileContext
from cellgraph.compiler.ir import print_graph, verify
from cellgraph.compiler.ir_parser import parse_ir

TWO_BUCKETS_AND_A_BARRIER = """\
graph @f(%x: f32[2], %w: f32[2]) {
  %1 = mul(%x, %w)
  %2 = sin(%x)
  %3 = all_reduce(%1) {op='sum', group='hccl_world_group'}
  barrier() {group='hccl_world_group'}
  %4 = cos(%2)
  %5, %6 = all_reduce(%2, %4) {op='sum', group='hccl_world_group'}
  return (%3, %5, %6)
}
"""

SCHEDULED = """\
graph @f(%x: f32[2], %w: f32[2]) -> (f32[2], f32[2], f32[2]) {
  %1 = mul(%x, %w)  : f32[2]
  %2, %3 = all_reduce_start(%1) {op='sum', group='hccl_world_group', covers=(((2,), 'float32'), ((2,), 'float32'), ((2,), 'float32'))}  : i64[], f32[2]
  %4 = sin(%x)  : f32[2]
  %5 = all_reduce_done(%2, %3) {op='sum', group='hccl_world_group'}  : f32[2]
  barrier() {group='hccl_world_group'}
  %6 = cos(%4)  : f32[2]
  %7, %8, %9 = all_reduce_start(%4, %6) {op='sum', group='hccl_world_group', covers=()}  : i64[], f32[2], f32[2]
  %10, %11 = all_reduce_done(%7, %8, %9) {op='sum', group='hccl_world_group'}  : f32[2], f32[2]
  return (%5, %10, %11)
}
"""


def test_a_start_moves_up_to_its_inputs_but_not_above_an_effect():
    """The first start goes right after mul (above sin); the second stays below the barrier,
    which every rank must meet before it, though sin made one of its inputs earlier. The first
    checks that the ranks agree on both starts' shapes (covers), the second checks nothing."""
    graph = parse_ir(TWO_BUCKETS_AND_A_BARRIER)
    before = print_graph(graph)
    out = passes.overlap_collectives_pass(graph)
    verify(out)
    assert print_graph(out) == SCHEDULED
    assert print_graph(graph) == before  # the pass works on a copy
    assert print_graph(parse_ir(print_graph(out))) == SCHEDULED  # the text parses back


def test_a_done_moves_down_to_the_first_reader_of_its_results():
    """sin reads neither the all_reduce nor has effects: it runs while the transfer does."""
    graph = parse_ir("""\
graph @f(%x: f32[3]) {
  %1 = mul(%x, 2)
  %2 = all_reduce(%1) {op='sum', group='hccl_world_group'}
  %3 = sin(%x)
  %4 = add(%2, %3)
  return %4
}
""")
    calls = [n.callee.name for n in passes.overlap_collectives_pass(graph).nodes]
    assert calls == ["mul", "all_reduce_start", "sin", "all_reduce_done", "add"]


def test_overlap_is_off_for_graphs_differentiated_again_and_when_asked(monkeypatch):
    graph = parse_ir(TWO_BUCKETS_AND_A_BARRIER)
    text = print_graph(graph)
    again = CompileContext(differentiable=True)
    assert print_graph(passes.overlap_collectives_pass(graph, again)) == text
    monkeypatch.setenv("CELLGRAPH_COMM_OVERLAP", "0")
    ctx = CompileContext.from_settings()
    assert not ctx.overlap_collectives
    assert print_graph(passes.overlap_collectives_pass(graph, ctx)) == text
    assert print_graph(passes.optimize_pass(graph, ctx)).count("all_reduce(") == 2
    monkeypatch.setenv("CELLGRAPH_COMM_OVERLAP", "1")
    assert CompileContext.from_settings().overlap_collectives


@pytest.fixture
def world_of_one():
    pytest.importorskip("torch.distributed")
    communication.init()
    yield
    communication.release()
    ms.reset_auto_parallel_context()


def test_gradient_buckets_start_while_backward_runs(world_of_one):
    """The reducer issues the last layers' bucket first; each start lands right after the
    matmul that computes its weight gradient, before the earlier layers' backward."""
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 comm_fusion={"allreduce": {"mode": "size", "config": 0}})
    # tanh, not relu: whatever the random initial weights, every parameter gets a gradient
    net = nn.SequentialCell(nn.Dense(8, 6), nn.Tanh(), nn.Dense(6, 4), nn.Tanh(),
                            nn.Dense(4, 2))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.SGD(net.trainable_params(), 0.1))
    x, y = Tensor(np.ones((3, 8), np.float32)), Tensor(np.ones((3, 2), np.float32))
    lines = ms.dump_ir(step, x, y).splitlines()
    calls = [line.split("= ", 1)[1].split("(", 1)[0] for line in lines if " = " in line]
    starts = [i for i, c in enumerate(calls) if c == "all_reduce_start"]
    dones = [i for i, c in enumerate(calls) if c == "all_reduce_done"]
    assert len(starts) == len(dones) == 6  # a bucket per parameter
    assert max(starts) < min(dones)  # every start is issued before the first wait
    last_backward_matmul = max(i for i, c in enumerate(calls[:min(dones)]) if c == "matmul")
    assert min(starts) < last_backward_matmul  # the first bucket overlaps backward
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    step(x, y)
    assert all(np.any(p.asnumpy() != b) for p, b in zip(net.trainable_params(), before))
