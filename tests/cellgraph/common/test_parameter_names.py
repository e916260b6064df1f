"""A Parameter made without a name, as MindSpore 2.10 names it: `Parameter#N` from a count,
replaced by the attribute's name when set on a Cell (`Parameter$N` in a ParameterTuple)."""
import re

import numpy as np
import pytest

from cellgraph import Parameter, ParameterTuple, Tensor, nn


def _param(name=None):
    return Parameter(Tensor(np.ones(2, np.float32)), name=name)


def _count(name: str) -> int:
    assert re.fullmatch(r"Parameter#\d+", name), name
    return int(name.split("#")[1])


def test_unnamed_parameters_are_counted():
    first, second = _param(), _param(None)
    assert _count(second.name) == _count(first.name) + 1
    assert repr(first) == (f"Parameter (name={first.name}, shape=(2,), dtype=Float32, "
                           f"requires_grad=True)")
    assert _count(_param("").name) and _count(_param("   ").name) and _count(Parameter(1.0).name)
    first.name = None
    assert _count(first.name) > _count(second.name)
    assert _param("  padded ").name == "padded"
    assert _param(second.name).clone().name == second.name


def test_name_errors():
    with pytest.raises(ValueError, match="should be less than 1024"):
        _param("a" * 1025)
    with pytest.raises(ValueError, match="should be 'string' or 'None'"):
        _param(5)


class _Holder(nn.Cell):
    def __init__(self, shared):
        super().__init__()
        self.listed = [_param(), _param()]
        self.tup = ParameterTuple([_param(), _param("named"), _param()])
        self.w = _param("Parameter")  # a name given, even MindSpore's default word, stays
        self.v = shared

    def construct(self, x):
        return x


def test_cell_names_generated_names_only():
    shared = _param()
    net = _Holder(shared)
    assert shared.name == "v" and net.w.name == "Parameter"
    assert [p.name for p in net.tup] == ["Parameter$1", "named", "Parameter$2"]
    assert all(_count(p.name) for p in net.listed)  # a list keeps them, as in MindSpore
    assert [name for name, _ in net.parameters_and_names()] == [
        "Parameter$1", "named", "Parameter$2", "w", "v"]
    assert list(net.parameters_dict()) == ["Parameter$1", "named", "Parameter$2", "Parameter",
                                           "v"]


def test_parameter_tuple_clone_prefixes_generated_names():
    copy = ParameterTuple([_param(), _param()]).clone("m")
    assert re.fullmatch(r"m\.Parameter#\d+", copy[0].name)
