"""The API layer laid out as MindSpore's module tree: a MindSpore path names the module that
defines the name (`ops.function.array_func.matrix_diag`, `ops.operations.math_ops.Add`), every
primitive class has one base, and the functional losses are compositions of ops that nn's loss
Cells call (ops never builds a Cell)."""
from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

FUNCTION_MODULES = ("array_func", "math_func", "nn_func", "random_func", "clip_func",
                    "image_func")
OPERATIONS_MODULES = ("array_ops", "math_ops", "nn_ops", "random_ops", "image_ops", "comm_ops")


@pytest.mark.parametrize("path, name", [
    ("cellgraph.ops.function.array_func", "matrix_diag"),
    ("cellgraph.ops.function.math_func", "einsum"),
    ("cellgraph.ops.function.nn_func", "flash_attention_score"),
    ("cellgraph.ops.function.random_func", "randn"),
    ("cellgraph.ops.function.clip_func", "clip_by_norm"),
    ("cellgraph.ops.function.image_func", "crop_and_resize"),
])
def test_a_composition_is_defined_in_the_module_mindspore_keeps_it_in(path, name):
    module = importlib.import_module(path)
    fn = getattr(module, name)
    assert fn is getattr(ops, name)
    assert fn.__module__.startswith(path)


@pytest.mark.parametrize("path, name", [
    ("cellgraph.ops.operations.math_ops", "Add"),  # derived from its declaration
    ("cellgraph.ops.operations.math_ops", "MatMul"),  # written by hand
    ("cellgraph.ops.operations.array_ops", "Reshape"),
    ("cellgraph.ops.operations.array_ops", "Identity"),
    ("cellgraph.ops.operations.nn_ops", "Conv2D"),
    ("cellgraph.ops.operations.nn_ops", "FlashAttentionScore"),
    ("cellgraph.ops.operations.nn_ops", "Flatten"),
    ("cellgraph.ops.operations.array_ops", "ResizeNearestNeighbor"),
])
def test_a_primitive_class_is_defined_in_its_operations_module(path, name):
    cls = getattr(importlib.import_module(path), name)
    assert cls.__module__ in (path, "cellgraph.ops")  # "cellgraph.ops": a function_class
    assert cls is getattr(ops, name) is getattr(ops.operations, name)
    if cls.__module__ == path:
        assert name in importlib.import_module(path).__all__


def test_the_classes_of_mindspores_operations_modules_join_ops_operations():
    for module_name in OPERATIONS_MODULES:
        module = importlib.import_module(f"cellgraph.ops.operations.{module_name}")
        for name in module.__all__:
            assert getattr(ops.operations, name) is getattr(module, name), (module_name, name)


def test_every_primitive_class_has_one_base():
    seen = 0
    for module_name in (*OPERATIONS_MODULES, "_inner_ops", "_sequence_ops"):
        module = importlib.import_module(f"cellgraph.ops.operations.{module_name}")
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if not isinstance(value, type) or module_name == "comm_ops":
                continue  # comm_ops: the core's collectives (primitives with kernels)
            assert issubclass(value, PrimitiveClass), f"{module_name}.{name}"
            seen += 1
    assert seen > 200


def test_a_class_without_init_params_takes_none():
    assert str(inspect.signature(ops.Flatten)) == "()"
    assert str(inspect.signature(ops.Rank)) == "()"
    with pytest.raises(TypeError):
        ops.Flatten(1)


def test_classes_print_their_attributes():
    assert repr(ops.L2Normalize()) == "L2Normalize(axis=0, epsilon=0.0001)"
    assert repr(ops.StandardNormal()) == "StandardNormal(seed=0, seed2=0)"
    assert repr(ops.Flatten()) == "Flatten()"
    assert repr(ops.ReduceSum(keep_dims=True)) == "ReduceSum(keep_dims=True, skip_mode=False)"


def test_ops_function_answers_for_every_functional_op():
    function = importlib.import_module("cellgraph.ops.function")
    assert function.exp is ops.functional.exp
    assert function.grad is ops.grad  # the gradient functions are in ops.function too
    for module_name in FUNCTION_MODULES:
        module = importlib.import_module(f"cellgraph.ops.function.{module_name}")
        assert module.exp is ops.functional.exp  # a primitive's, reached from every module
    with pytest.raises(AttributeError):
        function.no_such_operation  # noqa: B018


def test_ops_function_grad_grad_func_imports():
    from cellgraph.ops.function.grad.grad_func import custom_vjp, grad

    assert grad is ops.grad and callable(custom_vjp)


# ----------------------------------------------------------- functional losses and nn's Cells

def _data(seed=0, shape=(4, 3)):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape).astype(np.float32), rng.standard_normal(shape).astype(
        np.float32)


@pytest.mark.parametrize("fn, cell", [
    (lambda x, y, r: ops.mse_loss(x, y, r), lambda r: nn.MSELoss(r)),
    (lambda x, y, r: ops.l1_loss(x, y, r), lambda r: nn.L1Loss(r)),
    (lambda x, y, r: ops.smooth_l1_loss(x, y, 0.5, r), lambda r: nn.SmoothL1Loss(0.5, r)),
    (lambda x, y, r: ops.binary_cross_entropy_with_logits(x, ops.sigmoid(y), None, None, r),
     None),
])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_the_functional_loss_and_the_cell_agree(fn, cell, reduction):
    x, y = _data()
    got = fn(Tensor(x), Tensor(y), reduction).asnumpy()
    if cell is not None:
        want = cell(reduction)(Tensor(x), Tensor(y)).asnumpy()
        np.testing.assert_allclose(got, want, rtol=1e-6)
    else:  # against NumPy: (1 - t) x + softplus(-x)
        t = 1 / (1 + np.exp(-y))
        ref = (1 - t) * x + np.log1p(np.exp(-x))
        ref = {"mean": ref.mean(), "sum": ref.sum(), "none": ref}[reduction]
        np.testing.assert_allclose(got, ref, rtol=1e-5)


def test_the_functional_nll_and_cross_entropy_match_numpy():
    logits = np.float32([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]])
    labels = np.int32([1, 2])
    log_p = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    want = -log_p[np.arange(2), labels].mean()
    np.testing.assert_allclose(ops.cross_entropy(Tensor(logits), Tensor(labels)).asnumpy(),
                               want, rtol=1e-6)
    np.testing.assert_allclose(ops.nll_loss(Tensor(log_p), Tensor(labels)).asnumpy(), want,
                               rtol=1e-6)
    np.testing.assert_allclose(nn.CrossEntropyLoss()(Tensor(logits), Tensor(labels)).asnumpy(),
                               want, rtol=1e-6)


def test_the_functional_losses_check_as_the_cells_do():
    x, y = _data()
    with pytest.raises(ArgumentValueError, match="MSELoss: `reduction`"):
        ops.mse_loss(Tensor(x), Tensor(y), "average")
    with pytest.raises(ArgumentValueError, match="SmoothL1Loss: `beta`"):
        ops.smooth_l1_loss(Tensor(x), Tensor(y), beta=0.0)
    with pytest.raises(DTypeError, match="TripletMarginLoss: `p`"):
        ops.triplet_margin_loss(Tensor(x), Tensor(y), Tensor(x), p=0)
    # MindSpore 2.10 takes integers: l1_loss in their dtype, mse_loss in float32
    ints, others = Tensor(np.int32([1, 2])), Tensor(np.int32([1, 4]))
    l1, mse = ops.l1_loss(ints, others), ops.mse_loss(ints, others)
    assert (l1.dtype, int(l1)) == (cellgraph.int32, 1)
    assert (mse.dtype, float(mse)) == (cellgraph.float32, 2.0)
    with pytest.raises(DTypeError, match="SmoothL1Loss: expected float"):
        ops.smooth_l1_loss(ints, others)


def test_the_functional_losses_of_integers_as_mindspore():
    # MindSpore 2.10: ops.l1_loss and nn's losses keep int32 (a mean of 0.5 is 0), ops.mse_loss
    # reduces in float32 and gives float32
    a, b = Tensor(np.int32([1, 2])), Tensor(np.int32([1, 3]))
    for loss in (ops.l1_loss(a, b), nn.L1Loss()(a, b), nn.MSELoss()(a, b)):
        assert loss.dtype == cellgraph.int32 and int(loss) == 0
    loss = ops.mse_loss(a, b)
    assert loss.dtype == cellgraph.float32 and float(loss) == 0.5
    none = ops.mse_loss(a, b, "none")
    assert none.dtype == cellgraph.float32 and none.asnumpy().tolist() == [0.0, 1.0]
    half = ops.mse_loss(Tensor(np.float16([1, 2])), Tensor(np.float16([1, 3])))
    assert half.dtype == cellgraph.float16


def test_a_functional_loss_builds_no_cell(monkeypatch):
    """ops' losses are compositions of ops: computing one never constructs an nn Cell."""
    built = []
    original = nn.Cell.__init__

    def record(self, *args, **kwargs):
        built.append(type(self).__name__)
        original(self, *args, **kwargs)

    monkeypatch.setattr(nn.Cell, "__init__", record)
    x, y = _data()
    ops.mse_loss(Tensor(x), Tensor(y))
    ops.kl_div(Tensor(x), Tensor(np.abs(y)), "batchmean")
    ops.cross_entropy(Tensor(x), Tensor(np.int32([0, 1, 2, 1])))
    ops.margin_ranking_loss(Tensor(x), Tensor(y), Tensor(np.sign(y)))
    assert built == []


def test_a_loss_cell_in_a_graph_calls_the_functional_loss():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.loss = nn.SmoothL1Loss(beta=0.5, reduction="mean")

        def construct(self, x, y):
            return self.loss(x * 2.0, y)

    x, y = _data(1)
    got = Net()(Tensor(x), Tensor(y)).asnumpy()
    d = np.abs(2 * x - y)
    want = np.where(d < 0.5, 0.5 * d * d / 0.5, d - 0.25).mean()
    np.testing.assert_allclose(got, want, rtol=1e-5)
    assert cellgraph.get_context("mode") in (cellgraph.GRAPH_MODE, cellgraph.PYNATIVE_MODE)


def test_a_loss_cell_reduces_through_get_loss():
    """nn's losses reduce the functional loss's elements with `get_loss`, so a subclass that
    overrides it changes the reduction, as MindSpore's do."""
    class MaxMSE(nn.MSELoss):
        def get_loss(self, x, weights=1.0):
            return ops.reduce_max(x)

    x, y = _data(2)
    got = MaxMSE()(Tensor(x), Tensor(y)).asnumpy()
    np.testing.assert_allclose(got, ((x - y) ** 2).max(), rtol=1e-6)
    weight = np.float32([0.5, 1.0, 2.0])
    p = 1 / (1 + np.exp(-x))
    got = nn.BCELoss(Tensor(weight), "sum")(Tensor(p), Tensor((y > 0).astype(np.float32)))
    t = (y > 0).astype(np.float32)
    want = (-(t * np.log(p) + (1 - t) * np.log(1 - p)) * weight).sum()
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)
