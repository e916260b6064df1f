"""MindSpore's deprecated array classes that its CPU kernels still run (UnravelIndex, IdentityN,
ParallelConcat, ScatterAddWithAxis, CheckNumerics), and the generated classes ops.operations
takes from ops.auto_generate (Sinc, LogSoftmaxExt, ...). Expected values are MindSpore 2.10's
(CPU, PyNative), recorded as literals."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, ops
from tests.ops.conftest import in_a_cell


def test_unravel_index_rows_per_dimension():
    out = ops.UnravelIndex()(Tensor(np.array([2, 5, 7]), cg.int64), Tensor(np.array([3, 3]), cg.int64))
    assert out.dtype == cg.int64
    np.testing.assert_array_equal(out.asnumpy(), [[0, 1, 2], [2, 2, 1]])
    scalar = ops.UnravelIndex()(Tensor(np.array(5), cg.int32), Tensor(np.array([2, 3]), cg.int32))
    assert scalar.dtype == cg.int32
    np.testing.assert_array_equal(scalar.asnumpy(), [1, 2])


def test_unravel_index_in_ain_a_cell(graph_mode):
    dims = Tensor(np.array([2, 3, 4]), cg.int32)
    out = in_a_cell(ops.UnravelIndex())(Tensor(np.array([0, 7, 23]), cg.int32), dims)
    np.testing.assert_array_equal(out.asnumpy(), np.stack(np.unravel_index([0, 7, 23], (2, 3, 4))))


def test_unravel_index_errors():
    op = ops.UnravelIndex()
    i32 = cg.int32
    with pytest.raises(TypeError, match="the input type must be same"):
        op(Tensor(np.array([5]), i32), Tensor(np.array([2, 3]), cg.int64))
    with pytest.raises(TypeError, match=r"argument\[dims\].*Tensor\[Float32\]"):
        op(Tensor(np.array([1.0]), cg.float32), Tensor(np.array([2, 3]), cg.float32))
    with pytest.raises(ValueError, match="indices shape must be equal to 1, but got 2"):
        op(Tensor(np.array([[1]]), i32), Tensor(np.array([2, 3]), i32))
    for bad in (-1, 9):  # MindSpore: "Index must be greater than 0." / "Index out of boundary."
        with pytest.raises(ValueError):
            op(Tensor(np.array([bad]), i32), Tensor(np.array([2, 3]), i32))


def test_identity_n():
    x = Tensor(np.array([[0, 1, 0], [2, 0, 3]], np.float32))
    y = Tensor(np.array([1, 2]), cg.int32)
    out = ops.IdentityN()([x, y])
    assert isinstance(out, tuple) and [o.dtype for o in out] == [cg.float32, cg.int32]
    np.testing.assert_array_equal(out[1].asnumpy(), [1, 2])
    with pytest.raises(TypeError, match=r"ListTensor or TupleTensor input but get Tensor\[Float32\]"):
        ops.IdentityN()(x)


def test_parallel_concat():
    a = Tensor(np.array([[0, 1]], np.float32))
    out = ops.ParallelConcat()((a, Tensor(np.array([[2, 3]], np.float32))))
    np.testing.assert_array_equal(out.asnumpy(), [[0, 1], [2, 3]])
    np.testing.assert_array_equal(ops.ParallelConcat()([a]).asnumpy(), [[0, 1]])
    two = Tensor(np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match=r"the x1.shape\[0\] must be equal to 1, but got 2"):
        ops.ParallelConcat()((two, two))
    with pytest.raises(TypeError, match="the input type must be same"):
        ops.ParallelConcat()((a, Tensor(np.array([[2, 3]], np.int32))))
    with pytest.raises(ValueError, match=r"x0.shape\[1\] = \[2\] and x1.shape\[1\] = \[3\]"):
        ops.ParallelConcat()((a, Tensor(np.array([[2, 3, 4]], np.float32))))


def test_scatter_add_with_axis():
    x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], np.float32))
    rows = ops.ScatterAddWithAxis(0)(x, Tensor(np.array([[1, 0, 2], [0, 2, 1]]), cg.int32),
                                     Tensor(np.ones((2, 3)), cg.float32))
    np.testing.assert_array_equal(rows.asnumpy(), [[2, 3, 3], [5, 5, 7], [7, 9, 10]])
    cols = ops.ScatterAddWithAxis(1)(x, Tensor(np.array([[1, 1], [0, 2]]), cg.int64),
                                     Tensor(np.ones((2, 2)), cg.float32))
    np.testing.assert_array_equal(cols.asnumpy(), [[1, 4, 3], [5, 5, 7], [7, 8, 9]])
    last = ops.ScatterAddWithAxis(-1)(Tensor(np.array([[1, 2, 3, 4, 5]]), cg.int32),
                                      Tensor(np.array([[2, 4]]), cg.int32),
                                      Tensor(np.array([[8, 8]]), cg.int32))
    np.testing.assert_array_equal(last.asnumpy(), [[1, 2, 11, 4, 13]])
    # int updates into a float input: cast to the input's dtype
    cast = ops.ScatterAddWithAxis(0)(x, Tensor(np.array([[1]]), cg.int32),
                                     Tensor(np.ones((1, 1)), cg.int32))
    assert cast.dtype == cg.float32 and cast.asnumpy()[1, 0] == 5
    with pytest.raises(TypeError, match="the type of 'axis' should be 'int', but got type 'float'"):
        ops.ScatterAddWithAxis(0.5)
    with pytest.raises(ValueError):  # MindSpore: "indices value 3 is out of bound 3!"
        ops.ScatterAddWithAxis(0)(x, Tensor(np.array([[3]]), cg.int32),
                                  Tensor(np.ones((1, 1)), cg.float32))


def test_scatter_add_with_axis_in_ain_a_cell(graph_mode):
    x = Tensor(np.zeros((2, 3), np.float32))
    out = in_a_cell(ops.ScatterAddWithAxis(1))(x, Tensor(np.array([[0, 0, 2], [1, 1, 1]]), cg.int32),
                                           Tensor(np.ones((2, 3)), cg.float32))
    np.testing.assert_array_equal(out.asnumpy(), [[2, 0, 1], [0, 3, 0]])


def test_check_numerics():
    x = Tensor(np.array([[1, 3], [2, 4]], np.float32))
    np.testing.assert_array_equal(ops.CheckNumerics()(x).asnumpy(), [[1, 3], [2, 4]])
    half = ops.CheckNumerics()(Tensor(np.array([1, 2], np.float16)))
    assert half.dtype == cg.float16
    with pytest.raises(RuntimeError, match="NaN"):
        ops.CheckNumerics()(Tensor(np.array([1, np.nan], np.float32)))
    with pytest.raises(RuntimeError, match="Inf"):
        ops.CheckNumerics()(Tensor(np.array([1, np.inf], np.float32)))
    with pytest.raises(TypeError, match=r"Float64\]\}, but got Tensor\[Int32\]"):
        ops.CheckNumerics()(Tensor(np.array([1, 2], np.int32)))


def test_check_numerics_in_a_graph_checks_when_it_runs(graph_mode):
    net = in_a_cell(lambda x: ops.CheckNumerics()(x) * 2)
    np.testing.assert_array_equal(net(Tensor(np.array([1, 2], np.float32))).asnumpy(), [2, 4])
    with pytest.raises(RuntimeError, match="NaN"):
        net(Tensor(np.array([1, np.nan], np.float32)))


def test_generated_classes_in_ops():
    for name in ("LerpScalar", "LogSoftmaxExt", "Roll", "ScalarCast", "Sinc"):
        assert getattr(ops, name) is getattr(ops.operations, name)
        assert getattr(ops, name) is getattr(ops.auto_generate.gen_ops_prim, name)
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_allclose(ops.Sinc()(x).asnumpy()[0], [1.0, -2.7827534e-08, 2.7827534e-08],
                               atol=1e-7)
    # MindSpore 2.10 (graph mode): LogSoftmaxExt()(x, 1)
    np.testing.assert_allclose(ops.LogSoftmaxExt()(x, 1).asnumpy(),
                               [[-2.4076037, -1.4076039, -0.40760383]] * 2, rtol=1e-5)
    assert ops.ScalarCast()(3.7, cg.int64) == 3


def test_gradients():
    from cellgraph.testing import check_grads

    rng = np.random.default_rng(0)
    x, updates = Tensor(rng.normal(size=(3, 4))), Tensor(rng.normal(size=(2, 4)))
    index = Tensor(np.array([[0, 2, 1, 0], [2, 2, 0, 1]]), cg.int32)
    check_grads(lambda a, u: ops.ScatterAddWithAxis(0)(a, index, u), (x, updates), order=2)
    check_grads(lambda a: ops.CheckNumerics()(a) ** 2, (x,), order=2)
    check_grads(lambda a, u: ops.IdentityN()((a, u))[0] * 3 + ops.IdentityN()([u])[0].sum(),
                (x, updates), order=2)
    rows = (Tensor(rng.normal(size=(1, 3))), Tensor(rng.normal(size=(1, 3))))
    check_grads(lambda a, b: ops.ParallelConcat()((a, b)) ** 2, rows, order=2)


VOLUME = np.arange(1 * 2 * 4 * 5 * 6).reshape(1, 2, 4, 5, 6) % 11
# MindSpore 2.10's outputs: (shape, sum, sum weighted by (flat position % 7), first 20 values)
VOLUME_PATCHES = [
    (((1, 1, 2, 3, 2), (1, 1, 2, 2, 2), "SAME"), (1, 24, 2, 3, 3), 1674.0, 5193.0,
     [0, 0, 0, 6, 8, 10, 7, 9, 0, 0, 0, 0, 0, 2, 4, 1, 3, 5, 0, 0]),
    ((3, 2, "same"), (1, 54, 2, 3, 3), 2769.0, 8370.0,
     [0, 0, 0, 6, 8, 10, 7, 9, 0, 0, 0, 0, 0, 2, 4, 1, 3, 5, 0, 0]),
    (((2, 2, 1), (3, 1, 2), "VALID"), (1, 8, 1, 4, 3), 481.0, 1359.0,
     [0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 0, 10, 1, 3, 5, 7, 9, 0, 2]),
    (((1, 3, 3), (1, 2, 3), "SAME"), (1, 18, 4, 3, 2), 1674.0, 4796.0,
     [0, 0, 6, 9, 7, 10, 0, 0, 3, 6, 4, 7, 0, 0, 0, 3, 1, 4, 0, 0]),
]


@pytest.mark.parametrize("args, shape, total, weighted, head", VOLUME_PATCHES)
def test_extract_volume_patches_as_mindspore(args, shape, total, weighted, head):
    out = ops.ExtractVolumePatches(*args)(Tensor(VOLUME.astype(np.float32))).asnumpy()
    assert out.shape == shape
    assert out.sum() == total and (out * (np.arange(out.size).reshape(shape) % 7)).sum() == weighted
    assert out.reshape(-1)[:20].tolist() == head


def test_extract_volume_patches_checks_and_gradients():
    from cellgraph.testing import check_grads

    with pytest.raises(ValueError, match="must be greater than or equal to 0, but got -1"):
        ops.ExtractVolumePatches((1, 1, 2, 3, 2), (1, 1, 2, 2, 3), "SAME")(
            Tensor(VOLUME.astype(np.float32)))
    with pytest.raises(ValueError, match=r"kernel_size\[0\]"):
        ops.ExtractVolumePatches((2, 1, 2, 2, 2), 1, "VALID")
    with pytest.raises(ValueError, match="'padding'"):
        ops.ExtractVolumePatches(2, 1, "FULL")
    x = Tensor(np.random.default_rng(5).normal(size=(1, 2, 3, 4, 3)))
    check_grads(lambda v: ops.ExtractVolumePatches(2, (1, 2, 1), "SAME")(v) ** 2, (x,), order=2)


def _edit_inputs(hypothesis_shape=(2, 2, 3)):
    i64 = cg.int64
    return (Tensor(np.array([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 0, 2]]), i64),
            Tensor(np.array([1, 2, 3, 4, 5, 6]), cg.float32), Tensor(np.array(hypothesis_shape), i64),
            Tensor(np.array([[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 1], [1, 1, 0]]), i64),
            Tensor(np.array([1, 3, 4, 4, 6, 7]), cg.float32), Tensor(np.array([2, 2, 2]), i64))


def test_edit_distance_as_mindspore():
    out = ops.EditDistance()(*_edit_inputs())
    assert out.dtype == cg.float32
    np.testing.assert_array_equal(out.asnumpy(), [[1.0, 0.5], [0.5, 1.0]])
    np.testing.assert_array_equal(ops.EditDistance(False)(*_edit_inputs()).asnumpy(),
                                  [[1, 1], [1, 1]])
    wider = ops.EditDistance()(*_edit_inputs((2, 3, 3)))  # positions in neither: 0
    np.testing.assert_array_equal(wider.asnumpy(), [[1.0, 0.5, 0.0], [0.5, 1.0, 0.0]])
    with pytest.raises(TypeError, match="the type of 'normalize' should be 'bool'"):
        ops.EditDistance(1)
    args = list(_edit_inputs())
    args[0] = args[0].astype(cg.int32)
    with pytest.raises(TypeError, match=r"argument\[hypothesis_indices\].*Tensor\[Int32\]"):
        ops.EditDistance()(*args)


def test_edit_distance_in_ain_a_cell(graph_mode):
    net = in_a_cell(ops.EditDistance())
    np.testing.assert_array_equal(net(*_edit_inputs()).asnumpy(), [[1.0, 0.5], [0.5, 1.0]])
    args = list(_edit_inputs())
    args[4] = Tensor(np.array([9, 3, 4, 4, 5, 7]), cg.float32)  # other truth values, same graph
    np.testing.assert_array_equal(net(*args).asnumpy(), [[2.0, 0.5], [0.5, 1.0]])
