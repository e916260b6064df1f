"""`Symbol`: a dimension of unknown size in Tensor(shape=...), with MindSpore 2.10's checks,
messages and `to_dict` (values recorded from MindSpore)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Symbol, Tensor, nn, ops


def test_symbol_is_an_unknown_size():
    s1 = Symbol(divisor=2)
    assert Tensor(shape=[1, 9, s1], dtype=ms.float32).shape == (1, 9, -1)

    class Net(nn.Cell):
        def construct(self, x):
            return ops.abs(x)

    net = Net()
    net.set_inputs(Tensor(shape=(None, s1), dtype=ms.float32))
    assert net(Tensor(np.ones((2, 4), np.float32))).shape == (2, 4)


def test_to_dict_as_mindspore():
    assert Symbol().to_dict() == {}
    assert Symbol(divisor=8, remainder=1).to_dict() == {"divisor": 8, "remainder": 1}
    assert Symbol(max=32, min=4).to_dict() == {"max": 32, "min": 4}
    assert Symbol(min=2, divisor=2).to_dict() == {"divisor": 2}
    unique = Symbol(unique=True)
    assert unique.to_dict() == {"id": id(unique)}
    assert str(Symbol(divisor=2)) == "{'divisor': 2}"


@pytest.mark.parametrize("kwargs, error, message", [
    ({"max": 1.0}, TypeError, ("For 'Symbol', the argument 'max' must be int, but got "
                              "<class 'float'>")),
    ({"unique": 1}, TypeError, ("For 'Symbol', the argument 'unique' must be bool, but got "
                               "<class 'int'>")),
    ({"min": 0}, ValueError, "For 'Symbol', the 'min' value should be positive, but got 0"),
    ({"divisor": 0}, ValueError, ("For 'Symbol', the 'divisor' value should be positive, but "
                                 "got 0")),
    ({"divisor": 2, "remainder": 2}, ValueError,
     "For 'Symbol', the 'remainder' value should be in the range '[0, 2)', but got 2"),
])
def test_checks_as_mindspore(kwargs, error, message):
    with pytest.raises(error) as info:
        Symbol(**kwargs)
    assert str(info.value) == message
