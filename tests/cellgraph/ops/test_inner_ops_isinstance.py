"""_inner_ops.IsInstance: a value against a type object, as MindSpore 2.10 answers (recorded
from it)."""
import pytest

import cellgraph as ms
from cellgraph.ops.operations import _inner_ops as inner


@pytest.mark.parametrize("value, type_, expected", [
    ([1], ms.list_, True), ((1,), ms.list_, False), ((1,), ms.tuple_, True),
    (1.0, ms.float_, True), (1, ms.float_, False), (True, ms.int_, False), (1, ms.int_, True),
    (True, ms.bool_, True), ("a", ms.string, True), (ms.Tensor(1), ms.tensor_type, True),
    (1, ms.int64, True), (1.0, ms.float32, True), (None, ms.type_none, False),
    (ms.Tensor(1), ms.int64, False), ([1], ms.tensor_type, False),
])
def test_is_instance(value, type_, expected):
    assert inner.IsInstance()(value, type_) is expected


def test_in_a_graph_and_bad_type():
    check = inner.IsInstance()
    assert ms.jit(lambda: check([1, 2], ms.list_))() is True
    with pytest.raises(TypeError, match="should be 'Type'"):
        check(1, int)
