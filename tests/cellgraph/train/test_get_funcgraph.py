"""train.serialization._get_funcgraph: a Cell compiled for its inputs, as a graph."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import nn, ops
from cellgraph.compiler.ir import Graph, print_graph
from cellgraph.train.serialization import _get_funcgraph


class _MatMulRelu(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.ones((3, 2), np.float32)), name="w")

    def construct(self, x):
        return ops.relu(ops.matmul(x, self.w))


def test_returns_the_optimised_graph():
    graph = _get_funcgraph(_MatMulRelu(), ms.Tensor(np.ones((4, 3), np.float32)))
    assert isinstance(graph, Graph) and graph
    text = print_graph(graph)
    assert "matmul" in text and "relu" in text and "f32[4,2]" in text


def test_compile_errors_reach_the_caller():
    with pytest.raises(ValueError):
        _get_funcgraph(_MatMulRelu(), ms.Tensor(np.ones((4, 5), np.float32)))


def test_only_cells():
    with pytest.raises(ValueError, match="only support Cell"):
        _get_funcgraph(lambda x: x, ms.Tensor(np.ones(2, np.float32)))
