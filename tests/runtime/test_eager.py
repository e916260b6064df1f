"""runtime/eager.py: operations outside graphs (PyNative mode, `__init__` code)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import ops
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import PRIMITIVES, Primitive, TensorType
from cellgraph.primitives.errors import DTypeError


def _counting(rule):
    calls = []

    def counted(*avals, **params):
        calls.append(params)
        return rule(*avals, **params)

    prim = Primitive("counted_probe", counted, public=False, primitive_class=False)
    del PRIMITIVES["counted_probe"]  # a probe of the type cache, not an operation to register
    return prim, calls


def test_a_type_rule_runs_once_per_signature_of_plain_data():
    prim, calls = _counting(lambda x, *, axis=0: TensorType(x.shape[:axis], x.dtype))
    f32 = TensorType((2, 3), dt.float32)
    assert prim.eager_type([f32], {"axis": 1}) == TensorType((2,), dt.float32)
    assert prim.eager_type([f32], {"axis": 1}) == TensorType((2,), dt.float32)
    assert len(calls) == 1
    # 1, True and 1.0 are different parameters, as are other operand types
    prim.eager_type([f32], {"axis": True})
    prim.eager_type([TensorType((2, 3), dt.float16)], {"axis": 1})
    assert len(calls) == 3


def test_user_objects_and_errors_are_not_remembered():
    def rule(x, *, fn=None):
        if fn == "bad":
            raise DTypeError("refused")
        return x

    prim, calls = _counting(rule)
    f32 = TensorType((2,), dt.float32)
    marker = object()  # no key keeps a user's object alive: such a call is not remembered
    prim.eager_type([f32], {"fn": marker})
    prim.eager_type([f32], {"fn": marker})
    assert len(calls) == 2 and not prim._types
    for _ in range(2):
        with pytest.raises(DTypeError):
            prim.eager_type([f32], {"fn": "bad"})
    assert len(calls) == 4


def test_eager_operations_keep_their_checks_and_results():
    x = cg.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    for _ in range(2):  # the second call takes the remembered type
        np.testing.assert_array_equal(ops.sum(x, 1).asnumpy(), [3.0, 12.0])
        assert (x + 1).dtype == cg.float32 and (x.astype(cg.int32) + 1).dtype == cg.int32
        with pytest.raises(ValueError):
            ops.reshape(x, (4, 2))
    assert PRIMITIVES["add"]._types  # what was remembered
