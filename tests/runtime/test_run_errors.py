"""Errors while a compiled graph runs name the operation, the values and the user's line."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops
from cellgraph.primitives.errors import CompileError


def _raises(exc_type, fn, *args):
    with pytest.raises(exc_type) as info:
        fn(*args)
    return str(info.value)


def _assert_located(message: str, line_text: str, op: str) -> None:
    assert message.startswith(f"{op}: "), message
    assert f"    {line_text}\n" in message and message.rstrip().endswith("^"), message
    assert "test_run_errors.py" in message


class GatherNet(nn.Cell):
    def construct(self, x, i):
        y = x * 2
        return ops.gather(y, i, 0)


def test_gather_index_out_of_range():
    msg = _raises(RuntimeError, GatherNet(), Tensor(np.ones((5, 3), np.float32)),
                  Tensor(np.array([1, 7], np.int32)))
    _assert_located(msg, "return ops.gather(y, i, 0)", "Gather")
    assert "the 'input_indices' should be in the range [0, 5), but got 7" in msg
    assert "= [1, 7]" in msg and "float32[5, 3]" in msg  # the offending values


def test_gather_error_is_also_the_runtime_error_mindspore_raises():
    with pytest.raises(RuntimeError):
        GatherNet()(Tensor(np.ones((5, 3), np.float32)), Tensor(np.array([9], np.int32)))


class IndexNet(nn.Cell):
    def construct(self, x, i):
        if x.sum() > 0:
            return x[i]
        return x[0]


def test_tensor_index_out_of_range_inside_a_branch():
    msg = _raises(RuntimeError, IndexNet(), Tensor(np.ones((5, 3), np.float32)),
                  Tensor(np.array(9, np.int32)))
    _assert_located(msg, "return x[i]", "Gather")


class Calls(nn.Cell):
    """Calls a library Cell, so that its errors point at this construct's line."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def construct(self, *args):
        return self.inner(*args)


def test_embedding_id_out_of_range():
    msg = _raises(RuntimeError, Calls(nn.Embedding(4, 2)), Tensor(np.array([1, 4], np.int32)))
    _assert_located(msg, "return self.inner(*args)", "Gather")


class MaxNet(nn.Cell):
    def construct(self, x):
        return ops.reduce_max(x, 0)


def test_reduce_max_of_empty():
    msg = _raises(ValueError, MaxNet(), Tensor(np.ones((0, 3), np.float32)))
    _assert_located(msg, "return ops.reduce_max(x, 0)", "ReduceMax")
    assert "float32[0, 3]" in msg


def test_error_in_a_gradient_points_at_the_forward_line():
    def f(x, i):
        return ops.reduce_sum(ops.gather(x, i, 0))

    msg = _raises(IndexError, cg.grad(f), Tensor(np.ones((3, 2), np.float32)),
                  Tensor(np.array([3], np.int32)))
    _assert_located(msg, "return ops.reduce_sum(ops.gather(x, i, 0))", "GatherGrad")


class SumScalar(nn.Cell):
    def construct(self, x):
        return ops.reduce_sum(x, 0)


def test_reduce_sum_of_a_scalar_over_axis_0_is_the_scalar():
    np.testing.assert_allclose(SumScalar()(Tensor(np.float32(3.0))).asnumpy(), 3.0)


def test_none_to_a_library_cell():
    msg = _raises(TypeError, Calls(nn.Dense(2, 2)), None)
    assert msg.startswith("Dense: expected a Tensor for input 1, got None")
    assert "return self.inner(*args)" in msg


def deep(x, n):
    if n == 0:
        return x
    return deep(x + 1.0, n - 1)


class DeepNet(nn.Cell):
    def construct(self, x):
        return deep(x, 5000)


def test_recursion_too_deep_is_a_compile_error_at_the_users_line():
    msg = _raises(CompileError, DeepNet(), Tensor(np.float32([1.0])))
    assert "calls nested too deep while inlining deep" in msg
    assert "return deep(x + 1.0, n - 1)" in msg


def test_sparse_softmax_cross_entropy_label_out_of_range():
    logits = Tensor(np.zeros((3, 4), np.float32))
    loss = Calls(nn.SoftmaxCrossEntropyWithLogits(sparse=True))
    msg = _raises(RuntimeError, loss, logits, Tensor(np.array([0, 4, -1], np.int32)))
    _assert_located(msg, "return self.inner(*args)", "SoftmaxCrossEntropyWithLogits")
    assert "label 4, -1 out of range [0, 4)" in msg
    loss = loss(logits, Tensor(np.array([0, 3, 1], np.int32)))
    np.testing.assert_allclose(loss.asnumpy(), np.full(3, np.log(4.0)), rtol=1e-6)


class SinNet(nn.Cell):
    def construct(self, x):
        return ops.sin(x)


def test_an_exception_inside_the_package_is_reported_as_internal(monkeypatch):
    from cellgraph.compiler import ir

    monkeypatch.setattr(ops, "sin", ir.verify)  # fails inside ir.py on a graph value
    msg = _raises(CompileError, SinNet(), Tensor(np.float32([1.0])))
    assert msg.startswith("internal error in cellgraph while compiling this statement: ")
    assert "raised at cellgraph/compiler/ir.py:" in msg and "please report it" in msg
    assert "return ops.sin(x)" in msg
