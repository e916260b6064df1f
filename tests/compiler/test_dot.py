"""The Graphviz export: one box per Apply, one cluster per graph."""
import numpy as np

import cellgraph
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.compiler.dot import to_dot
from cellgraph.inspect_ir import graph_at_stage


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.z = Parameter(Tensor(np.array([2.0], np.float32)), name="z")

    def construct(self, x):
        return ops.exp(x * self.z) + 1.0


X = Tensor(np.ones((2, 2), np.float32))


def test_nested_graph_is_its_own_cluster():
    dot = to_dot(graph_at_stage(cellgraph.grad(Net()), X, stage="parse"))
    lines = dot.splitlines()
    assert [ln for ln in lines if "label=\"@" in ln] == [
        '    label="@grad_construct";', '    label="@construct";']
    assert ('    g0_n1 [label="%1, %2 = grad\\n{graph=@construct, wrt=(0,), has_sens=False}'
            '\\nf32[2,2], f32[2,2]", shape=box];') in lines
    assert '    g1_c1 [label="1.0", shape=plaintext];' in lines
    assert [ln for ln in lines if ln.startswith("    g1_") and "->" in ln] == [
        "    g1_p0 -> g1_n1;", "    g1_p1 -> g1_n1;", "    g1_n1 -> g1_n2;",
        "    g1_n2 -> g1_n3;", "    g1_c1 -> g1_n3;", "    g1_n3 -> g1_return;"]


def test_one_box_per_apply_after_optimisation():
    graph = graph_at_stage(cellgraph.grad(Net()), X, stage="optimize")
    boxes = [ln for ln in to_dot(graph).splitlines() if "shape=box" in ln]
    assert len(boxes) == len(graph.nodes)
