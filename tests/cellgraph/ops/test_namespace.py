"""ops.functional, ops.operations and the packages of ops.function answer for the names of ops
without importing it (ops/function/_namespace.py gathers them from the modules defining them):
the same objects as ops itself gives."""
import types

from cellgraph import ops
from cellgraph.ops import function, functional, operations
from cellgraph.ops.function import array_func, math_func, nn_func


def _functional_ops() -> list:
    return [n for n, v in vars(ops).items() if n[:1].islower() and callable(v)
            and not isinstance(v, types.ModuleType)
            and getattr(v, "__module__", None) != "cellgraph.ops.custom_ops"]


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
               and n != "Tensor"]
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
