"""ops.Custom with func_type "pyfunc" and "hybrid": a Python function over NumPy arrays as an
operation, in graph mode and PyNative, with its declared output types, its bprop under grad and
MindSpore's errors (values and messages recorded from MindSpore 2.10)."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.primitives.errors import RunError, UnsupportedError

MODES = [cellgraph.GRAPH_MODE, cellgraph.PYNATIVE_MODE]
X = np.array([1.0, 2.0, 3.0], np.float32)
Y = np.array([4.0, 5.0, 6.0], np.float32)


class Net(nn.Cell):
    def __init__(self, op):
        super().__init__()
        self.op = op

    def construct(self, *args):
        return self.op(*args)


def mul_add(x, y):
    return x * y + 1.0


def mul_add_bprop(x, y, out, dout):
    return dout * y, dout * x


def same_shape(x, _):
    return x


@pytest.fixture(params=MODES, ids=["graph", "pynative"])
def mode(request):
    cellgraph.set_context(mode=request.param)
    return request.param


def test_pyfunc_runs_on_numpy_arrays(mode):
    seen = []

    def record(x, y):
        seen.append((type(x), x.dtype, type(y)))
        return x + y

    op = ops.Custom(record, same_shape, same_shape, "pyfunc")
    out = Net(op)(Tensor(X), Tensor(Y))
    np.testing.assert_array_equal(out.asnumpy(), [5.0, 7.0, 9.0])
    assert out.dtype == cellgraph.float32
    assert seen == [(np.ndarray, np.float32, np.ndarray)]


def test_declared_shapes_as_values_and_several_outputs(mode):
    x, y = Tensor(X), Tensor(Y)
    for shape in [(3,), [3]]:
        op = ops.Custom(lambda a, b: a + b, shape, cellgraph.float32, "pyfunc")
        np.testing.assert_array_equal(Net(op)(x, y).asnumpy(), X + Y)
    two = ops.Custom(lambda a, b: (a + b, a - b), ((3,), (3,)), (cellgraph.float32,) * 2,
                     "pyfunc")
    plus, minus = Net(two)(x, y)
    np.testing.assert_array_equal(plus.asnumpy(), X + Y)
    np.testing.assert_array_equal(minus.asnumpy(), X - Y)
    # a 1-tuple is taken for the one output; [] declares a 0-d result
    one = ops.Custom(lambda a: (a,), (3,), cellgraph.float32, "pyfunc")
    np.testing.assert_array_equal(Net(one)(x).asnumpy(), X)
    total = ops.Custom(lambda a: a.sum(), [], cellgraph.float32, "pyfunc")
    assert Net(total)(x).shape == () and float(Net(total)(x).asnumpy()) == 6.0


def test_numbers_pass_through_and_infer_functions_see_lists_and_dtypes(mode):
    args = []

    def scale(a, k):
        args.append(k)
        return a * k

    def shape_of(s, _):
        args.append(s)
        return s

    op = ops.Custom(scale, shape_of, lambda t, _: t, "pyfunc")
    np.testing.assert_array_equal(Net(op)(Tensor(X), 2).asnumpy(), X * 2)
    assert [3] in args and 2 in args


def test_grad_uses_the_bprop(mode):
    op = ops.Custom(mul_add, same_shape, same_shape, "pyfunc", bprop=mul_add_bprop)
    x, y = Tensor(X), Tensor(Y)
    np.testing.assert_array_equal(Net(op)(x, y).asnumpy(), X * Y + 1)
    dx, dy = cellgraph.grad(Net(op), grad_position=(0, 1))(x, y)
    np.testing.assert_array_equal(dx.asnumpy(), Y)  # MindSpore 2.10: [4, 5, 6]
    np.testing.assert_array_equal(dy.asnumpy(), X)  # and [1, 2, 3]
    assert op.get_bprop() is mul_add_bprop


def test_bprop_differentiates_again():
    cube = ops.Custom(lambda a: a ** 3, lambda s: s, lambda t: t, "pyfunc",
                      bprop=lambda a, out, dout: (3 * a * a * dout,))
    first = cellgraph.grad(lambda a: cube(a).sum())
    second = cellgraph.grad(lambda a: first(a).sum())
    np.testing.assert_allclose(second(Tensor(X)).asnumpy(), 6 * X)


def test_grad_without_bprop_is_mindspores_error(mode):
    op = ops.Custom(mul_add, same_shape, same_shape, "pyfunc")
    with pytest.raises(RuntimeError, match="Custom's bprop not defined.*mul_add"):
        cellgraph.grad(Net(op))(Tensor(X), Tensor(Y))
    # an output that is not differentiated needs no bprop
    free = cellgraph.grad(lambda a, b: op(a, b).sum() * 0 + (a * a).sum(), grad_position=0)
    with pytest.raises(RuntimeError, match="bprop not defined"):
        free(Tensor(X), Tensor(Y))
    stopped = cellgraph.grad(lambda a, b: ops.stop_gradient(op(a, b)).sum() + (a * a).sum())
    np.testing.assert_array_equal(stopped(Tensor(X), Tensor(Y)).asnumpy(), 2 * X)


@pytest.mark.parametrize("func, message", [
    (lambda a, b: np.concatenate([a, b]), r"declare its result as \(3,\) Float32, .*\(6,\)"),
    (lambda a, b: (a + b).astype(np.float64), r"\(3,\) Float32, .*Float64"),
    (lambda a, b: (a + b).astype(np.int32), r"\(3,\) Float32, .*Int32"),  # same itemsize
    (lambda a, b: [1.0, 2.0, 3.0], r"Float64"),
])
def test_results_unlike_the_declaration_are_errors(mode, func, message):
    """MindSpore fails these with 'memcpy failed' (and reinterprets int32 bits as float32)."""
    op = ops.Custom(func, (3,), cellgraph.float32, "pyfunc")
    with pytest.raises(RunError, match=message):
        Net(op)(Tensor(X), Tensor(Y))


def test_wrong_number_of_results_is_an_error(mode):
    two = ops.Custom(lambda a: [a, a], ((3,), (3,)), (cellgraph.float32,) * 2, "pyfunc")
    with pytest.raises(RunError, match="a tuple of 2 arrays.*got list"):
        Net(two)(Tensor(X))


def test_declaration_errors_are_mindspores(mode):
    x = Tensor(X)
    with pytest.raises(TypeError, match="'out_shape' must be one of \\[tuple, list, function\\]"
                                        ", but got <class 'NoneType'>"):
        Net(ops.Custom(lambda a: a, None, cellgraph.float32, "pyfunc"))(x)
    with pytest.raises(TypeError, match="'out_shape' must be one of .*<class 'int'>"):
        Net(ops.Custom(lambda a: a, 3, cellgraph.float32, "pyfunc"))(x)
    with pytest.raises(TypeError, match="'out_dtype' must be one of \\[mindspore.dtype"):
        Net(ops.Custom(lambda a: a, (3,), np.float32, "pyfunc"))(x)


def test_constructor_errors_are_mindspores():
    with pytest.raises(ValueError, match="'func_type' must be one of \\['hybrid', 'akg', 'tbe', "
                                         "'aicpu', 'aot', 'pyfunc'\\], but got foo"):
        ops.Custom(lambda a: a, (3,), cellgraph.float32, "foo")
    with pytest.raises(TypeError, match="'func' must be a function decorated by kernel"):
        ops.Custom(lambda a: a, func_type="hybrid")
    with pytest.raises(TypeError, match="'func' must be of type function or str, but got "
                                        "<class 'int'>"):
        ops.Custom(3, (3,), cellgraph.float32, "pyfunc")
    with pytest.raises(UnsupportedError, match="'aot' Custom op compiles a kernel"):
        ops.Custom("add.so:Add", (3,), cellgraph.float32, "aot")
    op = ops.Custom(lambda a: a, (3,), cellgraph.float32)
    assert op.func_type == "pyfunc" and op.name == "Custom"  # MindSpore 2.10's default
    assert op.attrs["func_type"] == "pyfunc" and op.attrs["fake_output"] is False


def test_the_users_exception_reaches_the_user(mode):
    op = ops.Custom(lambda a: 1 / 0, (3,), cellgraph.float32, "pyfunc")
    with pytest.raises(ZeroDivisionError):
        Net(op)(Tensor(X))


def test_calls_run_in_program_order_and_are_never_merged():
    calls = []

    def count(a):
        calls.append(len(calls))
        return a

    op = ops.Custom(count, lambda s: s, lambda t: t, "pyfunc")

    @cellgraph.jit
    def twice(a):
        op(a)  # result unused: still called
        return op(a)

    twice(Tensor(X))
    assert calls == [0, 1]


def test_vmap_calls_the_function_per_example():
    shapes = []

    def double(a):
        shapes.append(a.shape)
        return a * 2

    op = ops.Custom(double, lambda s: s, lambda t: t, "pyfunc")
    xs = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = ops.vmap(op, in_axes=1)(Tensor(xs))
    np.testing.assert_array_equal(out.asnumpy(), (xs * 2).T)
    assert shapes == [(4,)] * 3
    nested = ops.vmap(ops.vmap(op))(Tensor(xs.reshape(2, 2, 3)))
    np.testing.assert_array_equal(nested.asnumpy(), xs.reshape(2, 2, 3) * 2)


def test_empty_declarations_give_mindspores_placeholder():
    with pytest.warns(UserWarning, match="'out_shape' is an empty tuple"):
        out = ops.Custom(lambda a: a.sum(), (), cellgraph.float32, "pyfunc")(Tensor(X))
    np.testing.assert_array_equal(out.asnumpy(), [6.0])  # the scalar in a (1,) placeholder
    with pytest.warns(UserWarning, match="'out_dtype' is an empty tuple"):
        out = ops.Custom(lambda a: None, (3,), (), "pyfunc")(Tensor(X))  # its result unused
    assert out.dtype == cellgraph.int32 and out.shape == (3,)


@ops.kernel
def outer_product(a, b):
    c = output_tensor((a.shape[0], b.shape[1]), a.dtype)  # noqa: F821  (a DSL intrinsic)
    for i0 in range(a.shape[0]):
        for i1 in range(b.shape[1]):
            c[i0, i1] = 0.0
            for i2 in range(a.shape[1]):
                c[i0, i1] = c[i0, i1] + (a[i0, i2] * b[i2, i1])
    return c


def test_hybrid_kernel_runs_as_python(mode):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_allclose(outer_product(a, b), a @ b)  # the decorated function itself
    assert "output_tensor" not in globals()  # the DSL's names stay out of this module
    op = ops.Custom(outer_product, func_type="hybrid")  # shape and dtype inferred by a run
    out = Net(op)(Tensor(a), Tensor(b))
    assert out.shape == (2, 4) and out.dtype == cellgraph.float32
    np.testing.assert_allclose(out.asnumpy(), a @ b)
    with pytest.raises(RuntimeError, match="bprop not defined"):
        cellgraph.grad(Net(op))(Tensor(a), Tensor(b))


def test_kernel_checks_its_arguments():
    with pytest.raises(TypeError, match="'compile_attrs' of @kernel must be a dict"):
        ops.kernel(lambda a: a, compile_attrs=[1])
    with pytest.raises(TypeError, match="The key of 'compile_attrs' of @kernel must be a str"):
        ops.kernel(lambda a: a, compile_attrs={1: 2})


def test_calls_with_different_numbers_stay_apart():
    op = ops.Custom(lambda a, k: a * k, lambda s, _: s, lambda t, _: t, "pyfunc")
    out = cellgraph.jit(lambda a: op(a, 2.0) + op(a, 3.0))(Tensor(X))
    np.testing.assert_array_equal(out.asnumpy(), X * 5)
    ir = cellgraph.dump_ir(lambda a: op(a, 2.0) + op(a, 3.0), Tensor(X))
    assert "(%0, 2.0)" in ir and "(%0, 3.0)" in ir


def test_aot_func_checked_as_mindspore_before_refusing(tmp_path, monkeypatch):
    """MindSpore checks an "aot" func's form (and its white list) before compiling anything:
    TypeError for a non-str func, a func not 'file_name:func_name', or a file outside
    MS_CUSTOM_AOT_WHITE_LIST; a "tbe" func must be callable."""
    with pytest.raises(TypeError, match="'func' must be of type str, but got <class 'NoneType'>"):
        ops.Custom(None, lambda x, _: x, None, "aot")
    with pytest.raises(TypeError, match="'func' should be like 'file_name:func_name', but got "
                                        "aclnnAddCustom"):
        ops.Custom("aclnnAddCustom", None, None, "aot")
    monkeypatch.setenv("MS_CUSTOM_AOT_WHITE_LIST", str(tmp_path / "white"))
    with pytest.raises(TypeError, match="the legal path for the file is"):
        ops.Custom(str(tmp_path / "add.cc") + ":Add", None, None, "aot")
    with pytest.raises(TypeError, match="'func' must be of type function, but got <class 'str'>"):
        ops.Custom("add", None, None, "tbe")
    # inside the white list (or callable out_shape), the kind itself is what cellgraph lacks
    with pytest.raises(UnsupportedError, match="'aot' Custom op compiles a kernel"):
        ops.Custom(str(tmp_path / "white" / "add.so") + ":Add", (3,), None, "aot")
