"""Nested arguments and results keep their structure through a graph: a namedtuple stays an
instance of its class (its fields readable inside construct and on the result), as in
MindSpore."""
from collections import namedtuple
from typing import NamedTuple

import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.compiler.pytree import flatten, unflatten


class Batch(NamedTuple):
    image: Tensor
    label: Tensor


def test_flatten_keeps_a_namedtuples_class():
    value = (Batch(1, [2, 3]), {"k": Batch(4, 5)})
    leaves, tree = flatten(value, lambda v: isinstance(v, int))
    assert leaves == [1, 2, 3, 4, 5]
    rebuilt = unflatten(tree, [10, 20, 30, 40, 50])
    assert rebuilt == (Batch(10, [20, 30]), {"k": Batch(40, 50)})
    assert type(rebuilt[0]) is Batch and type(rebuilt[1]["k"]) is Batch


def test_namedtuple_fields_inside_construct_and_on_the_result():
    class Net(nn.Cell):
        def construct(self, batch):
            return batch.image * 2, batch._replace(label=batch.image)

    batch = Batch(Tensor(np.ones(2, np.float32)), Tensor(np.zeros(2, np.float32)))
    doubled, replaced = Net()(batch)
    np.testing.assert_allclose(doubled.asnumpy(), [2.0, 2.0])
    assert type(replaced) is Batch
    np.testing.assert_allclose(replaced.label.asnumpy(), [1.0, 1.0])


def test_a_namedtuple_made_in_a_graph_is_returned_as_one():
    @ms.jit
    def top(x):
        point = namedtuple("top", "values, indices")
        return point(x + 1, 2)

    result = top(Tensor(1.0))
    assert result.indices == 2
    assert result.values.asnumpy() == 2.0
