"""The optimiser's named passes: each runs alone on a hand-written graph as its docstring
shows, leaves its input as it was, is listed in the pipeline and dumps by its name."""
import re

import numpy as np
import pytest

import cellgraph
from cellgraph import nn, ops
from cellgraph.compiler import passes
from cellgraph.compiler.ir import print_graph, verify
from cellgraph.compiler.ir_parser import parse_ir
from cellgraph.compiler.pipeline import PASS_STAGES, PASSES, STAGES
from cellgraph.inspect_ir import dump_ir, graph_at_stage
from cellgraph.primitives.errors import ArgumentError
from tests.golden.programs import PROGRAMS
from tests.golden.regenerate import program_context

SWITCH_WITH_AN_UNREAD_INPUT = """\
graph @f(%p: bool[], %x: f32[], %y: f32[]) {
  %1 = switch(%p, %x, %y) {then_graph=@t, else_graph=@e}
  return %1
}

graph @t(%x: f32[], %y: f32[]) {
  %1 = neg(%x)
  return %1
}

graph @e(%x: f32[], %y: f32[]) {
  return %x
}
"""

EXAMPLES = [
    (passes.simplify_pass, """\
graph @f(%x: f32[2]) {
  %1 = mul(%x, 1.0)
  %2 = mul(%x, 1.0)
  %3 = add(%1, %2)
  return %3
}
""", """\
graph @f(%x: f32[2]) -> f32[2] {
  %1 = mul(%x, 2)  : f32[2]
  return %1
}
"""),
    (passes.dce_pass, """\
graph @f(%x: f32[2]) {
  %1 = exp(%x)
  %2, %3 = gelu_and_slope(%x)
  return %2
}
""", """\
graph @f(%x: f32[2]) -> f32[2] {
  %1 = gelu(%x)  : f32[2]
  return %1
}
"""),
    (passes.prune_unused_inputs_pass, SWITCH_WITH_AN_UNREAD_INPUT, """\
graph @f(%p: bool[], %x: f32[], %y: f32[]) -> f32[] {
  %1 = switch(%p, %x) {then_graph=@t, else_graph=@e}  : f32[]
  return %1
}

graph @t(%x: f32[]) -> f32[] {
  %1 = neg(%x)  : f32[]
  return %1
}

graph @e(%x: f32[]) -> f32[] {
  return %x
}
"""),
    (passes.optimize_pass, """\
graph @f(%x: f32[2], %y: f32[2]) {
  %1 = ones_like(%x)
  %2 = mul(%1, %y)
  %3 = exp(%x)
  return %2
}
""", """\
graph @f(%x: f32[2], %y: f32[2]) -> f32[2] {
  return %y
}
"""),
]


@pytest.mark.parametrize("compiler_pass, text, expected", EXAMPLES,
                         ids=[e[0].__name__ for e in EXAMPLES])
def test_each_pass_runs_alone_on_a_hand_written_graph(compiler_pass, text, expected):
    graph = parse_ir(text)
    before = print_graph(graph)
    out = compiler_pass(graph)
    verify(out)
    assert print_graph(out) == expected
    assert print_graph(graph) == before


def test_the_pipeline_lists_its_passes_and_stages():
    assert [p.name for p in PASSES] == ["shard_operators", "expand_grad", "optimize"]
    assert [part.name for part in OPTIMIZE.parts] == ["simplify", "dce", "prune_unused_inputs",
                                                       "overlap_collectives"]
    assert STAGES == ("parse", "shard_operators", "expand_grad", "optimize", "codegen")
    assert PASS_STAGES == ("simplify", "dce", "prune_unused_inputs", "overlap_collectives")


GRAD_PROGRAMS = [p for p in PROGRAMS if "expand_grad" in p.stages]
OPTIMIZE = next(p for p in PASSES if p.name == "optimize")


@pytest.mark.parametrize("program", GRAD_PROGRAMS, ids=[p.name for p in GRAD_PROGRAMS])
def test_no_pass_changes_the_graph_it_is_given(program):
    with program_context(program):
        fn, args = program.build()
        graph = graph_at_stage(fn, *args, stage="expand_grad")
    before = print_graph(graph)
    for compiler_pass in PASSES[2:] + OPTIMIZE.parts:
        verify(compiler_pass.run(graph))
        assert print_graph(graph) == before, compiler_pass.name


@pytest.mark.parametrize("program", GRAD_PROGRAMS, ids=[p.name for p in GRAD_PROGRAMS])
def test_a_pass_stage_dumps_that_pass_alone_on_what_optimize_is_given(program):
    with program_context(program):
        fn, args = program.build()
        expanded = graph_at_stage(fn, *args, stage="expand_grad")
        for part in OPTIMIZE.parts:
            assert dump_ir(fn, *args, stage=part.name) == print_graph(part.run(expanded))
        assert dump_ir(fn, *args, stage="optimize") == print_graph(OPTIMIZE.run(expanded))


class BranchNet(nn.Cell):
    def construct(self, x, y):
        if x.sum() > 0:
            z = ops.sin(x) * x
        else:
            z = y * 2.0
        return ops.reduce_sum(z * 1.0)


def _graph_block(text: str, suffix: str) -> list[str]:
    """The node lines of the graph whose name ends with `suffix`, in printed IR."""
    block = re.search(rf"graph @\w+{suffix}\(.*?\n}}", text, re.DOTALL).group(0)
    return [line.strip() for line in block.splitlines()[1:] if " = " in line]


def test_each_pass_stage_shows_that_pass_on_a_gradient_with_a_branch():
    one = cellgraph.Tensor(np.ones((2,), np.float32))
    grad = cellgraph.grad(BranchNet())
    expanded = dump_ir(grad, one, one, stage="expand_grad")
    assert "ones_like(" in expanded and "zeros_like(" in expanded
    simplified = dump_ir(grad, one, one, stage="simplify")  # folded, the dead nodes still there
    assert "ones_like(" not in simplified and "zeros_like(" not in simplified
    assert "mul(%3, 1.0)" not in simplified and "reduce_sum(%3)" in simplified
    dead = dump_ir(grad, one, one, stage="dce")  # nothing folded, the unread nodes gone
    assert [line.split(" = ")[1].split("(")[0]
            for line in _graph_block(dead, "_else_bprop")] == ["mul", "zeros_like"]
    assert "ones_like(" in dead
    pruned = dump_ir(grad, one, one, stage="prune_unused_inputs")  # the unread bprop result
    assert "%13 = switch(%2, %x, %y, %9)" in pruned  # one output where there were two
    assert "%13, %14 = switch" in expanded
    optimized = dump_ir(grad, one, one, stage="optimize")
    assert "switch(%2, %x, const([1., 1.]: f32[2]))" in optimized
    np.testing.assert_allclose(grad(one, one).asnumpy(), np.sin(1.0) + np.cos(1.0), rtol=1e-6)


def test_an_unknown_stage_names_every_stage():
    with pytest.raises(ArgumentError, match="parse, shard_operators, expand_grad, optimize, codegen, simplify, "
                                            "dce, prune_unused_inputs"):
        dump_ir(lambda x: x, cellgraph.Tensor(np.ones(2, np.float32)), stage="fold")
