"""`ops.operations.manually_defined`, MindSpore's hand-written primitives: the values and the
error below were recorded from MindSpore 2.10."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops


def test_scalar_operations_as_mindspore():
    m = ops.operations.manually_defined
    got = (m.ScalarDiv()(7, 2), m.ScalarFloorDiv()(7, 2), m.ScalarMod()(7, 2), m.ScalarLog()(8),
           m.ScalarCast()(3.7, ms.int64), m.ScalarBool()(0), m.ScalarMax()(2, 5),
           m.ScalarUadd()(3), m.ScalarUsub()(3), m.ScalarPow()(2, 10), m.ScalarEq()(1, 1.0),
           m.ScalarMin()(2, 5), m.scalar_max(1, 9))
    assert got == (3.5, 3, 1, 2.0794415416798357, 3, False, 5, 3, -3, 1024, True, 2, 9)
    with pytest.raises(ValueError, match="ScalarCast', the supported type is in the list"):
        m.scalar_cast(2, ms.float32)


def test_the_shared_primitives_are_the_same_objects():
    m = ops.operations.manually_defined
    assert m.Shape is ops.Shape and m.Cast is ops.Cast and m.Tile is ops.Tile
    assert m.rank(Tensor(np.ones((2, 3)))) == 2


def test_shape_in_a_graph():
    class Net(nn.Cell):
        def construct(self, x):
            return ops.operations.manually_defined.shape_(x)

    assert Net()(Tensor(np.ones((2, 5), np.float32))) == (2, 5)


def test_constexpr_takes_mindspores_arguments():
    """MindSpore's constexpr(fn=None, get_instance=True, name=None, reuse_result=True,
    check=True)."""
    from cellgraph.ops import constexpr

    @constexpr(name="Doubled")
    def doubled(n):
        return 2 * n

    assert doubled(4) == 8 and doubled.__name__ == "Doubled"
    as_class = constexpr(lambda n: n + 1, get_instance=False, name="Next")
    assert isinstance(as_class, type) and as_class.__name__ == "Next" and as_class()(1) == 2

    class Net(nn.Cell):
        def construct(self, x):
            return strict(x)

    strict = constexpr(lambda v: v)
    with pytest.raises(TypeError, match="compile-time constants"):
        Net()(Tensor(np.ones(2, np.float32)))
    strict = constexpr(lambda v: v * 2, check=False)  # graph values reach the function
    np.testing.assert_allclose(Net()(Tensor(np.ones(2, np.float32))).asnumpy(), [2.0, 2.0])
    with pytest.raises(RuntimeError, match="reuse_result=False"):
        constexpr(lambda v: v, reuse_result=False)


def test_functional_scalar_cast_log_uadd():
    """ops.functional has MindSpore's scalar_cast, scalar_log and scalar_uadd (the same
    functions as manually_defined's), also inside graphs."""
    import math

    import cellgraph as _cg
    from cellgraph.ops import functional as F
    from cellgraph.ops.operations import manually_defined as md

    assert F.scalar_cast is md.scalar_cast
    assert F.scalar_cast(8.5, _cg.int64) == 8 and F.scalar_cast(3, _cg.float64) == 3.0
    assert F.scalar_cast(2, _cg.bool_) is True
    with pytest.raises(ValueError, match="the supported type is in the list"):
        F.scalar_cast(1.5, _cg.int32)
    assert F.scalar_log(math.e) == 1.0 and F.scalar_uadd(-3) == -3
    assert _cg.jit(lambda x, t: F.scalar_cast(x, t))(8.5, _cg.int64) == 8
