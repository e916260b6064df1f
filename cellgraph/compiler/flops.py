"""The floating-point operations a compiled graph performs in its matrix products and
convolutions, what MindSpore's `flops_collection` counts for FlopsUtilizationCollector
(MatMul, BatchMatMul, Conv2D, forward and backward): a multiply and an add per term.

    matmul (..., M, K) x (..., K, N)          2 * (... * M * N) * K
    conv2d, and each of its two gradients     2 * |dout| * (C_in / group) * kh * kw

The gradients are counted where the compiled training step runs them, so a gradient nobody
needs (the input's, usually) costs nothing. Nodes inside branches and loop bodies count once.
"""
from __future__ import annotations

import math

from .ir import Graph, all_graphs


def _matmul(node) -> float:
    x = node.inputs[0].aval
    k = x.shape[-2] if node.params.get("transpose_a") else x.shape[-1]
    return 2.0 * math.prod(node.outputs[0].aval.shape) * k


def _per_output_term(dout_shape, w_shape) -> float:
    return 2.0 * math.prod(dout_shape) * math.prod(w_shape[1:])


FLOPS_RULES = {
    "matmul": _matmul,
    "conv2d": lambda n: _per_output_term(n.outputs[0].aval.shape, n.inputs[1].aval.shape),
    "conv2d_backprop_input": lambda n: _per_output_term(n.inputs[0].aval.shape,
                                                        n.inputs[1].aval.shape),
    "conv2d_backprop_filter": lambda n: _per_output_term(n.inputs[1].aval.shape,
                                                         n.outputs[0].aval.shape),
    "conv2d_grad": lambda n: 2 * _per_output_term(n.inputs[2].aval.shape,
                                                  n.inputs[1].aval.shape),
}


def graph_flops(graph: Graph) -> tuple[float, bool]:
    """(the flops of the counted operations in `graph` and the graphs inside it, whether a
    size known only at run time left one of them uncounted)."""
    total, dynamic = 0.0, False
    for g in all_graphs(graph):
        for node in g.nodes:
            rule = FLOPS_RULES.get(node.callee.name)
            if rule is None:
                continue
            shapes = [v.aval.shape for v in (*node.inputs, *node.outputs) if hasattr(v, "aval")]
            if any(d is None for shape in shapes for d in shape):
                dynamic = True
                continue
            total += rule(node)
    return total, dynamic
