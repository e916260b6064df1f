"""ops.functional, ops.operations and the packages of ops.function answer for the names of ops
without importing it (ops/function/_namespace.py gathers them from the modules defining them):
the same objects as ops itself gives."""
import types

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import ops
from cellgraph.ops import function, functional, operations
from cellgraph.ops.function import _namespace, array_func, math_func, nn_func


def _functional_ops() -> list:
    return [n for n, v in vars(ops).items() if n[:1].islower() and callable(v)
            and not isinstance(v, types.ModuleType) and n not in ops.COMMUNICATION
            and n not in _namespace.COMPOSITE_ONLY
            and getattr(v, "__module__", None) not in _OWN_MODULES]


# ops's names that MindSpore's ops.functional and ops.operations do not carry either: Custom's
# decorators, the operator-registration builders, `TensorToTuple` (of `_sequence_ops`) and the
# collectives of ops.communication (ops.COMMUNICATION) and composite's tail, zip_operation,
# add_flags and augassign_* (_namespace.COMPOSITE_ONLY)
_OWN_MODULES = ("cellgraph.ops.custom_ops", "cellgraph.ops.op_info_register",
                "cellgraph.ops.operations._sequence_ops")


def test_ops_functional_answers_for_each_functional_op_of_ops():
    names = _functional_ops()
    assert len(names) > 400
    for name in names:
        assert getattr(functional, name) is getattr(ops, name), name
    assert set(names) <= set(dir(functional))


def test_ops_functional_has_the_ops_named_like_builtins_as_mindspore_does():
    # MindSpore 2.10: F.slice, F.min, F.max, F.all, F.any are ops.slice, ops.min, ...
    for name in ("slice", "min", "max", "all", "any"):
        assert getattr(functional, name) is getattr(ops, name), name
    x = ops.arange(12.0).reshape(3, 4)
    assert functional.slice(x, (1, 0), (1, 2)).asnumpy().tolist() == [[4.0, 5.0]]


def test_ops_operations_answers_for_each_primitive_class_of_ops():
    classes = [n for n, v in vars(ops).items() if n[:1].isupper() and isinstance(v, type)
               and n != "Tensor" and v.__module__ not in _OWN_MODULES
               and n not in ops.COMMUNICATION]
    for name in classes:
        assert getattr(operations, name) is getattr(ops, name), name
    assert operations.HyperMap is ops.HyperMap and operations.Assign is ops.Assign


def test_the_function_packages_answer_for_each_name_of_ops_functional():
    for name in dir(functional):
        if name.startswith("_") or isinstance(getattr(functional, name), types.ModuleType):
            continue
        for package in (function, array_func, math_func, nn_func):
            if name not in vars(package):  # a name it defines is its own
                assert getattr(package, name) is getattr(functional, name), (package, name)


def test_functional_spellings_that_are_primitive_instances():
    # MindSpore 2.10: ops.functional.tensor_add is Prim[Add], ... and tensor_lt/tensor_gt are
    # its functions less/greater; ops has the same objects
    from cellgraph.ops.operations import array_ops, math_ops

    F = functional

    kinds = {"tensor_add": math_ops.Add, "tensor_sub": math_ops.Sub, "tensor_mul": math_ops.Mul,
             "tensor_div": math_ops.RealDiv, "tensor_pow": math_ops.Pow,
             "tensor_mod": math_ops.FloorMod, "tensor_floordiv": math_ops.FloorDiv,
             "tensor_exp": math_ops.Exp, "tensor_le": math_ops.LessEqual,
             "tensor_ge": math_ops.GreaterEqual, "tensor_slice": array_ops.Slice}
    for name, kind in kinds.items():
        assert isinstance(getattr(F, name), kind) and getattr(ops, name) is getattr(F, name)
    assert F.tensor_lt is F.less and F.tensor_gt is F.greater
    x, y = ms.Tensor(np.array([1.0, 4.0], np.float32)), ms.Tensor(np.array([2.0, 2.0], np.float32))
    np.testing.assert_allclose(F.tensor_add(x, y).asnumpy(), [3.0, 6.0])
    np.testing.assert_allclose(F.tensor_div(x, y).asnumpy(), [0.5, 2.0])
    np.testing.assert_array_equal(F.tensor_lt(x, y).asnumpy(), [True, False])


def test_functional_overload_holds_mint_s_functions():
    """MindSpore 2.10's ops.functional_overload: mint's functions (and mint.nn.functional's
    convolutions, gelu, pixel_shuffle), as its examples call them."""
    import cellgraph
    from cellgraph import mint
    from cellgraph.mint.nn import functional as mnf
    from cellgraph.ops import functional_overload

    assert functional_overload.any is mint.any and functional_overload.max is mint.max
    assert functional_overload.conv2d is mnf.conv2d
    x = cellgraph.tensor([[True, False], [True, True]])
    assert bool(functional_overload.any(x)) and functional_overload.any(x, dim=1).shape == (2,)
    with pytest.raises(AttributeError):
        functional_overload.gmm  # noqa: B018  (Ascend-only: not here)


def test_ops_re_exports_the_collectives_of_ops_communication():
    """MindSpore 2.10's `ops.all_reduce is ops.communication.all_reduce` (and every name of
    ops.communication but gather and scatter, which stay the array operations)."""
    from cellgraph.ops import communication

    assert set(ops.COMMUNICATION) == set(communication.__all__) - {"gather", "scatter"}
    for name in ops.COMMUNICATION:
        assert getattr(ops, name) is getattr(communication, name), name
        assert name in dir(ops)
    assert ops.gather is not communication.gather and ops.scatter is not communication.scatter
    assert ops.get_rank is ms.mint.distributed.get_rank


def test_ops_holds_the_functional_operations_on_graph_values():
    for name in _namespace.OPS_FROM_FUNCTIONAL:
        assert getattr(ops, name) is getattr(functional, name), name
    assert ops.scalar_add(2, 3) == 5 and ops.make_range(3) == (0, 1, 2)


def test_composite_s_names_in_ops_are_not_functional_s():
    # MindSpore 2.10: ops.tail is ops.composite.tail, and ops.functional has no tail
    from cellgraph.ops import composite

    for name in _namespace.COMPOSITE_ONLY:
        assert getattr(ops, name) is getattr(composite, name), name
        assert name in composite.__all__ and not hasattr(functional, name), name
