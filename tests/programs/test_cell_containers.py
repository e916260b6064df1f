"""Container Cells and parameter collections as networks assemble them: SequentialCell from an
OrderedDict and from a list with append/insert, CellList extended in a loop, CellDict keyed by
task names (a multi-head network choosing heads by a Python key in construct), ParameterTuple
of weights for GradOperation, Parameters kept in a tuple attribute, parameter names with
prefixes, trainable_params/get_parameters, and insert_child_to_cell."""
from collections import OrderedDict

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops


class MultiTask(nn.Cell):
    def __init__(self):
        super().__init__()
        self.trunk = nn.SequentialCell(OrderedDict([
            ("fc", nn.Dense(4, 8)),
            ("act", nn.ReLU()),
        ]))
        self.heads = nn.CellDict({"regress": nn.Dense(8, 1), "classify": nn.Dense(8, 3)})
        self.scales = (Parameter(Tensor(1.0, ms.float32), name="scale_r"),
                       Parameter(Tensor(1.0, ms.float32), name="scale_c"))

    def construct(self, x, task):
        features = self.trunk(x)
        out = self.heads[task](features)
        if task == "regress":
            return out * self.scales[0]
        return out * self.scales[1]


def test_container_structure_and_names():
    net = MultiTask()
    names = [p.name for p in net.trainable_params()]
    assert "trunk.fc.weight" in names
    assert "heads.regress.weight" in names and "heads.classify.bias" in names
    # a plain tuple of Parameters is no Cell's, as in MindSpore
    assert "scale_r" not in names and "scale_c" not in names
    assert len(net.heads) == 2 and "classify" in net.heads
    assert sorted(net.heads.keys()) == ["classify", "regress"]
    assert isinstance(net.trunk.fc, nn.Dense) and net.trunk[1] is net.trunk.act

    seq = nn.SequentialCell([nn.Dense(3, 5)])
    seq.append(nn.Tanh())
    seq.insert(1, nn.ReLU())
    assert [type(c).__name__ for c in seq] == ["Dense", "ReLU", "Tanh"]
    x = Tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    w, b = seq[0].weight.asnumpy(), seq[0].bias.asnumpy()
    np.testing.assert_allclose(seq(x).asnumpy(),
                               np.tanh(np.maximum(x.asnumpy() @ w.T + b, 0)), rtol=1e-6)


def test_celldict_heads_chosen_by_python_key_in_graph():
    net = MultiTask()
    x = Tensor(np.random.default_rng(0).normal(size=(5, 4)).astype(np.float32))
    assert net(x, "regress").shape == (5, 1)
    assert net(x, "classify").shape == (5, 3)
    features = np.maximum(x.asnumpy() @ net.trunk.fc.weight.asnumpy().T
                          + net.trunk.fc.bias.asnumpy(), 0)
    head = net.heads["classify"]
    np.testing.assert_allclose(net(x, "classify").asnumpy(),
                               features @ head.weight.asnumpy().T + head.bias.asnumpy(),
                               rtol=1e-5, atol=1e-6)
    with pytest.raises(KeyError):
        _ = net.heads["missing"]


def test_parameter_tuple_gradients_reach_only_the_chosen_head():
    net = MultiTask()
    x = Tensor(np.random.default_rng(1).normal(size=(5, 4)).astype(np.float32))
    weights = ParameterTuple(net.trainable_params())
    grad_op = ops.GradOperation(get_by_list=True)

    class Loss(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x):
            return (self.net(x, "regress") ** 2).mean()

    grads = grad_op(Loss(net), weights)(x)
    # the wrapping Cell prefixed the names (auto_prefix), in place
    assert weights[0].name == "net.trunk.fc.weight"
    by_name = dict(zip([w.name[len("net."):] for w in weights], grads))
    assert np.all(by_name["heads.classify.weight"].asnumpy() == 0)
    assert np.any(by_name["heads.regress.weight"].asnumpy() != 0)


def test_celllist_built_in_a_loop_and_inserted_children():
    class Stack(nn.Cell):
        def __init__(self, depth):
            super().__init__()
            self.blocks = nn.CellList()
            for _ in range(depth):
                self.blocks.append(nn.Dense(4, 4, weight_init="zeros", bias_init="ones"))
            self.insert_child_to_cell("out", nn.Dense(4, 2, weight_init="ones",
                                                      bias_init="zeros"))

        def construct(self, x):
            for block in self.blocks:
                x = x + block(x)
            return self.out(x)

    net = Stack(3)
    assert len(net.blocks) == 3 and "out.weight" in [p.name for p in net.get_parameters()]
    x = np.zeros((1, 4), np.float32)
    # each block adds one to every feature: 3 after three blocks, summed over 4 features
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), [[12.0, 12.0]])
    net.blocks.extend([nn.Dense(4, 4, weight_init="zeros", bias_init="ones")])
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), [[16.0, 16.0]])
