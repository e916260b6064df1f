"""MindSpore Primitive subclasses defined in Python: a Python `__call__` (PyNative, and parsed
in graphs), `infer_shape`/`infer_dtype` run in graphs and held to, `infer_value` folding calls
on constants, and the error for a subclass that names a kernel cellgraph cannot run."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.ops import (
    Primitive,
    PrimitiveWithCheck,
    PrimitiveWithInfer,
    prim_arg_register,
    prim_attr_register,
)

X = np.array([1.0, -2.0, 3.0], np.float32)


class Net(nn.Cell):
    def __init__(self, op):
        super().__init__()
        self.op = op

    def construct(self, x):
        return self.op(x)


class Scale(Primitive):
    @prim_attr_register
    def __init__(self, factor=2.0):
        pass

    def __call__(self, x):
        if (x > 0).all():  # a Tensor condition: parsed as a branch in graphs
            return ops.mul(x, self.factor)
        return ops.abs(x) * self.factor


class Declared(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self, reduce=False):
        self.init_prim_io_names(inputs=["x"], outputs=["y"])
        self.seen = []

    def infer_shape(self, shape):
        self.seen.append(shape)
        if len(shape) != 1:
            raise ValueError(f"For 'Declared', x must be 1-d, got {shape}")
        return [1] if self.reduce else shape

    def infer_dtype(self, dtype):
        return dtype

    def __call__(self, x):
        return ops.sum(x) if self.reduce else x * 1.5  # reduce: keeps no axis, unlike infer


class TimesTen(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, shape):
        return shape

    def infer_dtype(self, dtype):
        return dtype

    def infer_value(self, value):
        return None if value is None else Tensor(value.asnumpy() * 10)


@pytest.mark.parametrize("mode", [cellgraph.GRAPH_MODE, cellgraph.PYNATIVE_MODE])
def test_python_call_runs_in_both_modes(mode):
    cellgraph.set_context(mode=mode)
    scale = Scale(3.0)
    assert scale.factor == 3.0 and scale.attrs == {"factor": 3.0}
    assert repr(scale) == "Prim[Scale]<factor=3.0>" and scale.name == "Scale"
    np.testing.assert_array_equal(Net(scale)(Tensor(X)).asnumpy(), np.abs(X) * 3)
    np.testing.assert_array_equal(Net(scale)(Tensor(np.abs(X))).asnumpy(), np.abs(X) * 3)
    grad = cellgraph.grad(Net(scale))(Tensor(np.abs(X)))
    np.testing.assert_array_equal(grad.asnumpy(), [3.0, 3.0, 3.0])


def test_infer_runs_in_graphs_and_is_held_to():
    declared = Declared()
    np.testing.assert_allclose(Net(declared)(Tensor(X)).asnumpy(), X * 1.5)
    assert declared.seen == [[3]] and declared.attrs["input_names"] == ["x"]
    with pytest.raises(ValueError, match="x must be 1-d, got \\[1, 3\\]"):
        Net(Declared())(Tensor(X[None]))
    with pytest.raises(ValueError, match="infer_shape gives \\(1,\\), but __call__ returned"):
        Net(Declared(reduce=True))(Tensor(X))
    cellgraph.set_context(mode=cellgraph.PYNATIVE_MODE)  # PyNative runs __call__ only
    assert Net(Declared(reduce=True))(Tensor(X)).shape == ()


def test_infer_value_folds_calls_on_constants():
    class Folded(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = TimesTen()
            self.c = Tensor(np.array([1.0, 2.0], np.float32))

        def construct(self, y):
            return self.op(self.c) + y

    out = Folded()(Tensor(np.zeros(2, np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [10.0, 20.0])  # MindSpore 2.10: [10. 20.]


def test_a_subclass_without_python_call_is_an_error():
    with pytest.raises(NotImplementedError, match="Unsupported op \\[TimesTen\\] on CPU.*"
                                                  "ops.Custom"):
        Net(TimesTen())(Tensor(X))  # MindSpore: RuntimeError, Unsupported op [...] on CPU
    assert isinstance(NotImplementedError(), RuntimeError)


def test_a_primitive_of_an_unknown_name_is_mindspore_runtime_error():
    invalid = ops.Primitive("invalid_prim")

    @cellgraph.jit
    def func(x):
        return invalid(x)

    # MindSpore 2.10: in a graph, then in PyNative
    with pytest.raises(RuntimeError, match="^Operator 'invalid_prim' is invalid, or no "
                                           "matching evaluator could be found"):
        func(Tensor(X))
    with pytest.raises(RuntimeError, match="^prim:invalid_prim has no attr:__infer__"):
        invalid(Tensor(X))


class Shift(PrimitiveWithInfer):
    """MindSpore's tests declare this kernel of its CPU back end themselves."""

    @prim_attr_register
    def __init__(self, periods=1, axis=-1):
        self.init_prim_io_names(inputs=["x", "fill_value"], outputs=["output"])

    def __infer__(self, x, fill_value):
        return {"shape": tuple(x["shape"]), "dtype": x["dtype"], "value": None}


class ShiftNet(nn.Cell):
    def __init__(self, periods, axis):
        super().__init__()
        self.shift = Shift(periods, axis)

    def construct(self, x, fill_value):
        return self.shift(x, fill_value)


SHIFT_X = np.arange(100).reshape(10, 10) % 7


@pytest.mark.parametrize("mode", [cellgraph.GRAPH_MODE, cellgraph.PYNATIVE_MODE])
@pytest.mark.parametrize("periods, axis, fill, row0, col0", [
    # MindSpore 2.10 CPU's values (first row and first column of the result)
    (1, -1, -4, [-4, 0, 1, 2, 3, 4, 5, 6, 0, 1], [-4] * 10),
    (-3, 1, -4, [3, 4, 5, 6, 0, 1, 2, -4, -4, -4], [3, 6, 2, 5, 1, 4, 0, 3, 6, 2]),
    (3, 0, -4, [-4] * 10, [-4, -4, -4, 0, 3, 6, 2, 5, 1, 4]),
    (-2, 0, -4, [6, 0, 1, 2, 3, 4, 5, 6, 0, 1], [6, 2, 5, 1, 4, 0, 3, 6, -4, -4]),
    (12, 1, -4, [-4] * 10, [-4] * 10),
    (0, 1, -4, [0, 1, 2, 3, 4, 5, 6, 0, 1, 2], [0, 3, 6, 2, 5, 1, 4, 0, 3, 6]),
])
def test_a_subclass_naming_the_shift_kernel_runs_it(mode, periods, axis, fill, row0, col0):
    cellgraph.set_context(mode=mode)
    try:
        out = ShiftNet(periods, axis)(Tensor(SHIFT_X.astype(np.int32)), fill).asnumpy()
        assert out.dtype == np.int32 and out.shape == (10, 10)
        assert out[0].tolist() == row0 and out[:, 0].tolist() == col0
        nan = ShiftNet(periods, axis)(Tensor(SHIFT_X.astype(np.float32)), np.nan).asnumpy()
        np.testing.assert_array_equal(np.isnan(nan), out == fill)
    finally:
        cellgraph.set_context(mode=cellgraph.GRAPH_MODE)


# ----- the registering decorators, as MindSpore 2.10 names and fills the primitive ----------------

class CheckedMatMul(PrimitiveWithCheck):
    @prim_arg_register
    def __init__(self, transpose_a=False, transpose_b=False):
        self.init_prim_io_names(inputs=["x1", "x2"], outputs=["output"])


def test_prim_arg_register_sets_the_arguments():
    matmul = CheckedMatMul(transpose_b=True)
    assert matmul.name == "CheckedMatMul"
    assert matmul.transpose_b is True
    assert matmul.attrs == {"transpose_a": False, "transpose_b": True,
                            "input_names": ["x1", "x2"], "output_names": ["output"]}
    assert matmul.init_attrs == {"transpose_a": False, "transpose_b": True}
    assert repr(matmul) == "Prim[CheckedMatMul]<transpose_a=False, transpose_b=True>"
    with pytest.raises(TypeError, match="too many positional arguments"):
        CheckedMatMul(1, 2, 3)


def test_substitute_name():
    """prim_attr_register names any primitive by its class's substitute_name; prim_arg_register
    only a PrimitiveWithInfer or PrimitiveWithCheck (MindSpore 2.10: P1, Sub2, Sub3)."""
    class P1(Primitive):
        substitute_name = "Sub1"

        @prim_arg_register
        def __init__(self, a=1):
            pass

    class P2(Primitive):
        substitute_name = "Sub2"

        @prim_attr_register
        def __init__(self, a=1):
            pass

    class P3(PrimitiveWithInfer):
        substitute_name = "Sub3"

        @prim_arg_register
        def __init__(self, a=1):
            pass

    assert [repr(c(a=5)) for c in (P1, P2, P3)] == ["Prim[P1]<a=5>", "Prim[Sub2]<a=5>",
                                                   "Prim[Sub3]<a=5>"]
    assert P2.__init__.decorated_func.__name__ == "__init__"
