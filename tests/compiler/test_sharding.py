"""The shard_operators pass on hand-written graphs: the per-rank graph of a sharded program
(golden text), one redistribution per kind of layout change, weights held as slices, the
derivative of the per-rank graph, and the errors for strategies it cannot run. The pass needs
no processes: it only rewrites the graph (tests/cellgraph/parallel/test_sharding.py runs the
result on 2 and 4)."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Parameter, Tensor
from cellgraph.compiler.compile_context import CompileContext
from cellgraph.compiler.ir import print_graph, verify
from cellgraph.compiler.ir_parser import parse_ir
from cellgraph.compiler.passes import expand_grad_pass, shard_operators_pass
from cellgraph.compiler.sharding import shard_operators
from cellgraph.primitives.errors import ArgumentValueError, UnsupportedError

COMM = "{group='hccl_world_group', rank_size=2}"


def with_weights(text: str, count: int):
    """The graph of `text`, its last `count` inputs the Parameters it reads (weights)."""
    graph = parse_ir(text)
    graph.weights = [Parameter(Tensor(np.zeros(p.aval.shape, np.float32)), name=p.hint)
                     for p in graph.params[len(graph.params) - count:]]
    return graph


def sharded(text: str, weights: int = 0, ranks: int = 2):
    graph = with_weights(text, weights)
    before = print_graph(graph)
    out = shard_operators(graph, ranks)
    verify(out)
    assert print_graph(graph) == before  # the pass leaves its input as it was
    return out


MEGATRON_MLP = """\
graph @mlp(%x: f32[4,8], %w1: f32[16,8], %b1: f32[16], %w2: f32[8,16], %b2: f32[8]) {
  %1 = matmul(%x, %w1) {transpose_b=True} <in_strategy=((1, 1), (2, 1))>
  %2 = bias_add(%1, %b1) {axis=1} <in_strategy=((1, 2), (2,))>
  %3 = relu(%2)
  %4 = matmul(%3, %w2) {transpose_b=True} <in_strategy=((1, 2), (1, 2))>
  %5 = bias_add(%4, %b2) {axis=1} <in_strategy=((1, 1), (1,))>
  return %5
}
"""

MEGATRON_MLP_RANK = f"""\
graph @mlp(%x: f32[4,8], %w1: f32[8,8], %b1: f32[8], %w2: f32[8,8], %b2: f32[8]) -> f32[4,8] {{
  %1 = shard_mirror(%x) {COMM}  : f32[4,8]
  %2 = matmul(%1, %w1) {{transpose_b=True}} <in_strategy=((1, 1), (2, 1))>  : f32[4,8]
  %3 = bias_add(%2, %b1) {{axis=1}} <in_strategy=((1, 2), (2,))>  : f32[4,8]
  %4 = relu(%3)  : f32[4,8]
  %5 = matmul(%4, %w2) {{transpose_b=True}} <in_strategy=((1, 2), (1, 2))>  : f32[4,8]
  %6 = shard_all_reduce(%5) {COMM}  : f32[4,8]
  %7 = bias_add(%6, %b2) {{axis=1}} <in_strategy=((1, 1), (1,))>  : f32[4,8]
  return %7
}}
"""


def test_megatron_mlp_per_rank_graph():
    """Column-parallel then row-parallel: each rank holds half of both weights and of the
    first bias; the only communication is one AllReduce after the second matmul (and, in the
    derivative, the mirror's AllReduce of x's cotangent)."""
    out = sharded(MEGATRON_MLP, weights=4)
    assert print_graph(out) == MEGATRON_MLP_RANK
    group = "hccl_world_group"
    assert out.weight_splits == [((0,), (2,), (group,)), ((0,), (2,), (group,)),
                                 ((1,), (2,), (group,)), None]


def test_the_per_rank_graph_prints_and_parses_back():
    assert print_graph(parse_ir(MEGATRON_MLP_RANK)) == MEGATRON_MLP_RANK


def test_differentiating_the_per_rank_graph_uses_the_moves_derivatives():
    text = """\
graph @f(%x: f32[4,8], %w1: f32[16,8], %w2: f32[8,16]) {
  %1, %2, %3, %4 = grad(%x, %w1, %w2) {graph=@loss, wrt=(0, 1, 2), has_sens=False}  : f32[], f32[4,8], f32[16,8], f32[8,16]
  return (%1, %2, %3, %4)
}

graph @loss(%x: f32[4,8], %w1: f32[16,8], %w2: f32[8,16]) {
  %1 = matmul(%x, %w1) {transpose_b=True} <in_strategy=((1, 1), (2, 1))>
  %2 = matmul(%1, %w2) {transpose_b=True} <in_strategy=((1, 2), (1, 2))>
  %3 = reduce_sum(%2) {axis=(), keep_dims=False}
  return %3
}
"""
    out = sharded(text, weights=2)
    top = print_graph(out).split("\n\n")[0]
    # the gradient of the sharded w1 comes back split as w1 is held; outputs are whole
    assert "grad(%x, %w1, %w2)" in top and "-> (f32[], f32[4,8], f32[16,8], f32[8,16])" in top
    assert f"%5 = shard_all_gather(%3) {COMM[:-1]}".replace("{", "{axis=0, ") in top
    expanded = print_graph(expand_grad_pass(out))
    # forward: one AllReduce; backward: the AllReduce of x's partial cotangent (the mirror's)
    assert expanded.count("shard_all_reduce(") == 2 and "grad(" not in expanded


@pytest.mark.parametrize("strategy, moves", [
    # a reduction over the split axis: partial sums, all-reduced
    ("((2, 1),)", ["shard_all_reduce"]),
    # over the other axis: the result stays split and is gathered whole at the output
    ("((1, 2),)", ["shard_all_gather"]),
])
def test_a_reduction_over_a_split_axis_is_all_reduced(strategy, moves):
    text = f"""\
graph @f(%x: f32[4,6]) {{
  %1 = reduce_sum(%x) {{axis=(0,), keep_dims=False}} <in_strategy={strategy}>
  return %1
}}
"""
    out = print_graph(sharded(text))
    assert "shard_slice(%x)" in out  # the whole input, each rank's slice (no communication)
    assert [m for m in ("shard_all_reduce", "shard_all_gather") if m + "(" in out] == moves


def test_a_mean_over_a_split_axis_counts_each_rank_once():
    text = """\
graph @f(%x: f32[4,6]) {
  %1 = reduce_mean(%x) {axis=(), keep_dims=False} <in_strategy=((2, 1),)>
  return %1
}
"""
    out = print_graph(sharded(text))
    assert "mul(%2, 0.5)" in out and "shard_all_reduce(%3)" in out


def test_a_layout_change_between_strategies_is_an_all_to_all():
    text = """\
graph @f(%x: f32[4,6]) {
  %1 = relu(%x) <in_strategy=((2, 1),)>
  %2 = exp(%1) <in_strategy=((1, 2),)>
  return %2
}
"""
    out = print_graph(sharded(text))
    assert ("shard_all_to_all(%2) {split_axis=1, concat_axis=0, group='hccl_world_group', "
            "rank_size=2}  : f32[4,3]") in out
    assert "shard_all_gather(%4) {axis=1," in out


def test_a_partial_sum_read_split_is_reduce_scattered():
    text = """\
graph @f(%x: f32[4,8], %w: f32[6,8]) {
  %1 = matmul(%x, %w) {transpose_b=True} <in_strategy=((1, 2), (1, 2)), out_strategy=((2, 1),)>
  return %1
}
"""
    out = print_graph(sharded(text))
    assert "shard_reduce_scatter(%3) {axis=0," in out and "shard_all_gather(%4) {axis=0," in out


def test_optimizer_states_take_the_layout_of_what_is_written_into_them():
    """A weight update `w - lr * m` with m = 0.9 m + g: m (read first by a plain mul) ends
    up held split like w, in a second round of the pass."""
    text = """\
graph @step(%x: f32[4,8], %w: f32[16,8], %m: f32[16,8]) {
  %1, %2 = grad(%x, %w) {graph=@loss, wrt=(1,), has_sens=False}  : f32[], f32[16,8]
  %3 = mul(%m, 0.9)
  %4 = add(%3, %2)
  %5 = mul(%4, 0.1)
  %6 = sub(%w, %5)
  return (%1, %4, %6)
}

graph @loss(%x: f32[4,8], %w: f32[16,8]) {
  %1 = matmul(%x, %w) {transpose_b=True} <in_strategy=((1, 1), (2, 1))>
  %2 = reduce_sum(%1) {axis=(), keep_dims=False}
  return %2
}
"""
    graph = with_weights(text, 2)
    graph.updates = list(reversed(graph.weights))  # %4 -> m, %6 -> w
    out = shard_operators(graph, 2)
    verify(out)
    assert [s and s[0] for s in out.weight_splits] == [(0,), (0,)]
    assert "shard_all_gather" not in print_graph(out).split("\n\n")[0].split("return")[0]


def test_strategies_have_no_effect_on_one_rank_or_outside_semi_auto():
    graph = with_weights(MEGATRON_MLP, 4)
    assert shard_operators_pass(graph, CompileContext(shard_ranks=1)) is graph
    assert print_graph(shard_operators_pass(graph, CompileContext(shard_ranks=2))) == \
        MEGATRON_MLP_RANK


@pytest.mark.parametrize("strategy, error, message", [
    ("((2, 2), (1, 1))", UnsupportedError, "device matrix of two axes over 4 ranks"),
    ("((1, 1), (4, 1))", UnsupportedError, r"into one slice per rank \(2\)"),
    ("((1, 2), (1, 1))", UnsupportedError, "contracted dimension must be split alike"),
    ("((2, 1), (2, 1))", UnsupportedError, "device matrix of two axes"),
    ("((1, 1),)", ArgumentValueError, "gives 1 inputs' splits, the operation has 2"),
    ("((1, 1, 1), (1, 1))", ArgumentValueError, r"gives 3 dimensions for a tensor of shape"),
    ("((1, 1), (3, 1))", ArgumentValueError, "does not split into 3"),
    ("((1, 1), ((2,), (1,)))", UnsupportedError, "splits the tensors of a tuple input one by"),
])
def test_strategies_it_cannot_run_name_the_operation_strategy_and_line(strategy, error,
                                                                      message):
    text = f"""\
graph @f(%x: f32[4,8], %w: f32[16,8]) {{
  %1 = matmul(%x, %w) {{transpose_b=True}} <in_strategy={strategy}>   # net.py:7  y = mm(x, w)
  return %1
}}
"""
    with pytest.raises(error, match=message) as caught:
        sharded(text)
    text = str(caught.value)
    assert "MatMul: in_strategy" in text and "net.py" in text and "y = mm(x, w)" in text


def test_a_softmax_over_its_split_axis_is_refused():
    text = """\
graph @f(%x: f32[4,6]) {
  %1 = softmax(%x) {axis=1} <in_strategy=((1, 2),)>
  return %1
}
"""
    with pytest.raises(UnsupportedError, match=r"Softmax: .*softmax axis \[1\] cannot be split"):
        sharded(text)


def test_heads_split_through_reshape_and_transpose():
    """[B*S, D] split on D, reshaped to [B, S, H, d] (split on H) and transposed to
    [B, H, S, d] (split on H): no communication until the output."""
    text = """\
graph @f(%x: f32[6,8], %w: f32[8,8]) {
  %1 = matmul(%x, %w) {transpose_b=True} <in_strategy=((1, 1), (2, 1))>
  %2 = reshape(%1) {shape=(2, 3, 4, 2)}
  %3 = transpose(%2) {perm=(0, 2, 1, 3)}
  %4 = matmul(%3, %3) {transpose_b=True} <in_strategy=((1, 2, 1, 1), (1, 2, 1, 1))>
  return %4
}
"""
    out = print_graph(sharded(text, weights=1))
    assert "%3 = reshape(%2) {shape=(2, 3, 2, 2)}  : f32[2,3,2,2]" in out
    assert "%4 = transpose(%3) {perm=(0, 2, 1, 3)}  : f32[2,2,3,2]" in out
    assert "%6 = shard_all_gather(%5) {axis=1," in out and "shard_all_to_all" not in out


def test_a_training_step_holds_weights_and_optimizer_states_as_slices():
    """TrainOneStepCell with Momentum over a column-parallel Dense: the weight, its bias and
    their momenta are held split (the momenta after a second round of the pass), and the
    update needs no communication."""
    from cellgraph import nn
    from cellgraph.inspect_ir import graph_at_stage

    dense = nn.Dense(4, 6)
    dense.matmul.shard(((1, 1), (2, 1)))
    dense.bias_add.shard(((1, 2), (2,)))
    net = nn.SequentialCell([dense, nn.ReLU()])
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    x, y = Tensor(np.ones((2, 4), np.float32)), Tensor(np.ones((2, 6), np.float32))
    graph = graph_at_stage(step, x, y, stage="parse")
    out = shard_operators(graph, 2)
    verify(out)
    splits = {w.name: s and s[0][0] for w, s in zip(out.weights, out.weight_splits)}
    assert splits == {"0.weight": 0, "0.bias": 0, "moments.0.weight": 0, "moments.0.bias": 0,
                      "learning_rate": None, "global_step": None, "momentum": None}
    top, loss = print_graph(out).split("\n\n")
    assert "%moments_0_weight: f32[3,4]" in top
    assert "shard_all" not in top  # the update runs on the slices, with no communication
    # the loss follows the split output: this rank's slice of the label, a partial mean
    assert "shard_slice(%label) {axis=1," in loss and "%9 = mul(%8, 0.5)" in loss
    assert "%10 = shard_all_reduce(%9)" in loss


@pytest.mark.parametrize("node, strategy, local, out", [
    # a LayerNorm split along the batch: gamma and beta whole (mirrored), statistics split
    (("%1, %2, %3 = layer_norm(%x, %g, %b) {begin_norm_axis=1, begin_params_axis=1, "
     "epsilon=1e-07}"), "((2, 1), (1,), (1,))", "f32[2,6], f32[2,1], f32[2,1]", 0),
    # a Gather of rows of a table split along its columns: the rows come out split there
    ("%1 = gather(%x, %i) {axis=0}", "((1, 2), (1,))", "f32[3,3]", 1),
    # the indices split: the gathered rows come out split along the indices' axis
    ("%1 = gather(%x, %i) {axis=0}", "((1, 1), (2,))", "f32[2,6]", 0),
    # a sum over the other axis, keeping it: the split axis stays where it was
    ("%1 = reduce_sum(%x) {axis=(1,), keep_dims=True}", "((2, 1),)", "f32[2,1]", 0),
    ("%1 = reduce_sum(%x) {axis=(0,), keep_dims=False}", "((1, 2),)", "f32[3]", 0),
    ("%1 = gelu(%x)", "((1, 2),)", "f32[4,3]", 1),
    ("%1 = transpose(%x) {perm=(1, 0)}", "((2, 1),)", "f32[6,2]", 1),
])
def test_operator_rules(node, strategy, local, out):
    inputs = "%x: f32[4,6], %g: f32[6], %b: f32[6], %i: i32[3]" if "layer_norm" in node else \
        "%x: f32[4,6], %i: i32[4]" if "gather" in node else "%x: f32[4,6]"
    if "gather" in node and "(2,)" not in strategy:
        inputs = "%x: f32[4,6], %i: i32[3]"
    returned = "%1" if "layer_norm" not in node else "(%1, %2, %3)"
    text = f"graph @f({inputs}) {{\n  {node} <in_strategy={strategy}>\n  return {returned}\n}}\n"
    printed = print_graph(sharded(text))
    line = next(row for row in printed.splitlines() if "<in_strategy" in row)
    assert line.endswith(f": {local}"), line
    gathers = [row for row in printed.splitlines() if "shard_all_gather(" in row]
    assert gathers and f"{{axis={out}," in gathers[0]  # gathered whole at the output


def test_an_embedding_split_along_its_features():
    """nn.Embedding's gather (MindSpore's attribute) with the table split along the
    embedding size: each rank looks up its columns, the reshape keeps them split."""
    from cellgraph import nn
    from cellgraph.inspect_ir import graph_at_stage

    embedding = nn.Embedding(10, 6)
    embedding.gather.shard(((1, 2), (1,)))
    ids = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.int32))
    out = shard_operators(graph_at_stage(embedding, ids, stage="parse"), 2)
    verify(out)
    printed = print_graph(out)
    assert "%embedding_table: f32[10,3]" in printed
    # the ids are read whole, with no mirror (integers have no gradient)
    assert "%2 = gather(%embedding_table, %1) {axis=0} <in_strategy=((1, 2), (1,))>  : " \
        "f32[6,3]" in printed
    assert "%3 = reshape(%2) {shape=(2, 3, 3)}  : f32[2,3,3]" in printed
    assert "shard_all_gather(%3) {axis=2," in printed


def test_a_vocabulary_split_looks_up_masked_and_sums_the_ranks():
    """A table split along the gathered axis: each rank looks up the ids in its rows (the
    others read row 0 and are zeroed), and the partial results are all-reduced."""
    text = """\
graph @f(%i: i32[3], %t: f32[10,6]) {
  %1 = gather(%t, %i) {axis=0} <in_strategy=((2, 1), (1,))>
  return %1
}
"""
    printed = print_graph(sharded(text, weights=1))
    assert "%t: f32[5,6]" in printed and "shard_rank() {group=" in printed
    assert "%5 = greater_equal(%4, 0)" in printed and "%6 = less(%4, 5)" in printed
    assert "%10 = gather(%t, %9) {axis=0}  : f32[3,6]" in printed
    assert "%14 = shard_all_reduce(%13)" in printed


def test_an_empty_strategy_leaves_the_operator_to_the_pass():
    text = """\
graph @f(%x: f32[4,6]) {
  %1 = relu(%x) <in_strategy=((2, 1),)>
  %2 = exp(%1) <in_strategy=()>
  return %2
}
"""
    printed = print_graph(sharded(text))
    assert "%3 = exp(%2) <in_strategy=()>  : f32[2,6]" in printed  # stays split, as it came


MEGATRON_DP_MP = """\
graph @mlp(%x: f32[4,8], %w1: f32[16,8], %b1: f32[16], %w2: f32[8,16], %b2: f32[8]) {
  %1 = matmul(%x, %w1) {transpose_b=True} <in_strategy=((2, 1), (2, 1))>
  %2 = bias_add(%1, %b1) {axis=1} <in_strategy=((2, 2), (2,))>
  %3 = relu(%2)
  %4 = matmul(%3, %w2) {transpose_b=True} <in_strategy=((2, 2), (1, 2))>
  return %4
}
"""
AXIS0 = "group='shard_device_axis_2x2_0', rank_size=2"
AXIS1 = "group='shard_device_axis_2x2_1', rank_size=2"


def test_a_device_matrix_of_two_axes_data_by_model_parallel():
    """Megatron with data parallelism on 4 ranks, a device matrix (dp, mp) = (2, 2), rank
    (i0, i1) = 2 * i0 + i1: the batch split along axis 0, the features along axis 1. Weights
    are held as 1/mp slices, copies along dp (mirrored there: their gradients are summed over
    the data-parallel group); the row-parallel matmul's partial sums are all-reduced within
    the model-parallel group; the output is gathered along both axes."""
    out = sharded(MEGATRON_DP_MP, weights=4, ranks=4)
    text = print_graph(out)
    assert f"%1 = shard_slice(%x) {{axis=0, {AXIS0}}}  : f32[2,8]" in text
    assert f"shard_mirror(%w1) {{{AXIS0}}}  : f32[8,8]" in text
    assert f"shard_mirror(%1) {{{AXIS1}}}  : f32[2,8]" in text
    assert "matmul(%3, %2) {transpose_b=True} <in_strategy=((2, 1), (2, 1))>  : f32[2,8]" in text
    assert f"%10 = shard_all_reduce(%9) {{{AXIS1}}}  : f32[2,8]" in text
    assert f"%11 = shard_all_gather(%10) {{axis=0, {AXIS0}}}  : f32[4,8]" in text
    matrix, groups = (2, 2), ("shard_device_axis_2x2_0", "shard_device_axis_2x2_1")
    assert out.weight_splits == [((None, 0), matrix, groups), ((None, 0), matrix, groups),
                                 ((None, 1), matrix, groups), None]
    grads = expand_grad_pass(out)  # differentiated like any graph
    verify(grads)


@pytest.mark.parametrize("text, local, moves", [
    # one dimension split along both axes (4 = 2 x 2): block 2 * i0 + i1 of 4
    # then a split of both dimensions: an AllToAll within the model-parallel group
    ("%1 = gelu(%x) <in_strategy=((4, 1),)>\n  %2 = relu(%1) <in_strategy=((2, 2),)>",
     "f32[4,3]", ["shard_slice(%x) {axis=0, " + AXIS0, "shard_slice(%1) {axis=0, " + AXIS1,
                  "shard_all_to_all(%3) {split_axis=1, concat_axis=0, " + AXIS1,
                  "shard_all_gather(%5) {axis=1, " + AXIS1,
                  "shard_all_gather(%6) {axis=0, " + AXIS0]),
    # a batch matmul split on its batch and heads: ((2, 2, 1, 1), (2, 2, 1, 1))
    ("%1 = matmul(%a, %b) {transpose_b=True} <in_strategy=((2, 2, 1, 1), (2, 2, 1, 1))>",
     "f32[2,3,4,4]", ["shard_slice(%a) {axis=0, " + AXIS0, "shard_slice(%1) {axis=1, " + AXIS1]),
])
def test_two_axis_layouts_move_along_each_axis(text, local, moves):
    inputs = "%x: f32[8,6]" if "gelu" in text else "%a: f32[4,6,4,2], %b: f32[4,6,4,2]"
    last = "%2" if "%2" in text else "%1"
    out = print_graph(sharded(f"graph @f({inputs}) {{\n  {text}\n  return {last}\n}}\n",
                              ranks=4))
    line = next(row for row in out.splitlines() if row.lstrip().startswith(f"{last} ") or (
        "<in_strategy" in row and last == "%1"))
    assert line.endswith(f": {local}") or any(
        r.endswith(f": {local}") for r in out.splitlines() if "<in_strategy" in r), out
    for move in moves:
        assert move in out, (move, out)


@pytest.mark.parametrize("strategy, message", [
    ("((2, 2), (2, 2))", r"splits 3 dimensions of the operation; cellgraph's device"),
    ("((1, 4), (2, 1))", "split into 2 here and into 4 in another input"),
    ("((4, 1), (1, 2))", r"splits into \(4, 2\), which is not this graph's device matrix"),
])
def test_two_axis_strategies_it_cannot_run_name_the_operation(strategy, message):
    text = f"""\
graph @f(%x: f32[8,8], %w: f32[8,8]) {{
  %1 = relu(%x) <in_strategy=((2, 2),)>
  %2 = matmul(%1, %w) <in_strategy={strategy}>   # net.py:3  y = mm(x, w)
  return %2
}}
"""
    with pytest.raises(UnsupportedError, match=message) as caught:
        sharded(text, ranks=4)
    assert "MatMul: in_strategy" in str(caught.value) and "net.py" in str(caught.value)


def test_a_layout_of_two_axes_names_the_device_matrix():
    """`Layout((2, 2), ("dp", "mp"))`: `layout("dp", "None")` and `layout("mp", "None")` are
    the split counts ((2, 1), (2, 1)), the batch along dp and the output features along mp."""
    from cellgraph import nn, ops
    from cellgraph.inspect_ir import graph_at_stage
    from cellgraph.parallel import Layout

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.ones((8, 4), np.float32)), name="w")
            layout = Layout((2, 2), ("dp", "mp"))
            self.matmul = ops.MatMul(transpose_b=True).shard(
                (layout("dp", "None"), layout("mp", "None")))

        def construct(self, x):
            return self.matmul(x, self.w)

    graph = graph_at_stage(Net(), Tensor(np.ones((4, 4), np.float32)), stage="parse")
    out = shard_operators(graph, 4)
    verify(out)
    text = print_graph(out)
    assert "<in_strategy=((2, 1), (2, 1))>  : f32[2,4]" in text
    assert out.weight_splits[0][:2] == ((None, 0), (2, 2))


HALF_MIRROR = """\
graph @f(%x: f16[4,8], %w: f16[16,8]) {
  %1 = matmul(%x, %w) {transpose_b=True} <in_strategy=((1, 1), (2, 1))>
  return %1
}
"""


def test_half_precision_mirrors_reduce_gradients_in_float32(monkeypatch):
    """gradient_fp32_sync (MindSpore's default True): a float16 input read whole by a split
    operator is mirrored in float32, so its gradient's all-reduce runs in float32; off, in
    float16."""
    from cellgraph.compiler import sharding

    printed = print_graph(sharded(HALF_MIRROR))
    assert "%2 = cast(%x) {dtype=Float32}  : f32[4,8]" in printed
    assert f"%3 = shard_mirror(%2) {COMM}  : f32[4,8]" in printed
    assert "%4 = cast(%3) {dtype=Float16}  : f16[4,8]" in printed
    monkeypatch.setattr(sharding.SETTINGS, "gradient_fp32_sync", False)
    printed = print_graph(sharded(HALF_MIRROR))
    assert f"%2 = shard_mirror(%x) {COMM}  : f16[4,8]" in printed and "cast" not in printed
