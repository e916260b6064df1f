"""`add_prim_attr` / `del_prim_attr` / `attrs` on the built-in primitive classes, as on
MindSpore 2.10's: an argument of the operation set this way changes what it computes (in a
graph too); another attribute is kept and read back, and removed again."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

A = Tensor(np.ones((2, 3), np.float32))
B = Tensor(np.ones((4, 3), np.float32))


def test_an_argument_set_as_attribute_changes_the_operation():
    matmul = ops.MatMul()
    assert matmul.add_prim_attr("transpose_b", True) is matmul
    assert matmul.attrs["transpose_b"] is True
    assert matmul(A, B).shape == (2, 4)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.matmul = ops.MatMul().add_prim_attr("transpose_b", True)

        def construct(self, x, y):
            return self.matmul(x, y)

    assert Net()(A, B).shape == (2, 4)


def test_other_attributes_are_kept_and_removed():
    matmul = ops.MatMul()
    matmul.add_prim_attr("repeat_dim_direct", "right")
    assert (matmul.attrs["repeat_dim_direct"], matmul.repeat_dim_direct) == ("right", "right")
    matmul.del_prim_attr("repeat_dim_direct")
    assert "repeat_dim_direct" not in matmul.attrs
    assert not hasattr(matmul, "repeat_dim_direct")
    lookup = ops.EmbeddingLookup().shard(((1, 1), (1, 1)))
    lookup.add_prim_attr("primitive_target", "CPU")
    assert lookup.attrs["primitive_target"] == "CPU"


def test_set_device_keeps_the_target():
    add = ops.Add()
    assert add.set_device("GPU") is add
    assert add.primitive_target == "GPU"
    assert add.attrs["primitive_target"] == "GPU"


def test_user_data_is_kept_per_primitive_instance():
    """MindSpore's Primitive.set_user_data / get_user_data: any value by str key on the
    instance; a key never set is its RuntimeError, a key not a str a TypeError."""
    from cellgraph.ops.primitive import Primitive

    cast = ops.Cast()
    data = Tensor(np.ones((1, 2, 3)), ms.float64)
    cast.set_user_data("__user_data__", data)
    assert cast.get_user_data("__user_data__") is data
    cast.set_user_data("__user_data__", 3)
    assert cast.get_user_data("__user_data__") == 3
    with pytest.raises(RuntimeError, match=r"The pointer\[primitive_data\] is null."):
        ops.Cast().get_user_data("__user_data__")
    with pytest.raises(TypeError):
        cast.set_user_data(1, 2)

    class Own(Primitive):
        pass

    own = Own("own")
    own.set_user_data("k", [1, 2])
    assert own.get_user_data("k") == [1, 2]
