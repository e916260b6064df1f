"""Behaviours MindSpore's own docstring examples show (tools/oracle/run_examples.py found each
divergence); expected values are MindSpore 2.10's outputs for the same calls."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, mint, nn, ops


def test_python_type_names_are_dtypes():
    assert ms.bool is ms.bool_ and ms.int is ms.int32 and ms.float is ms.float32
    assert ms.cfloat is ms.complex64 and ms.cdouble is ms.complex128
    np.testing.assert_array_equal(ops.logical_not(Tensor([True, False], ms.bool)).asnumpy(),
                                  [False, True])
    namespace = {}
    exec("from cellgraph import *", namespace)  # noqa: S102 - a star import shadows no builtin
    assert "bool" not in namespace and "int" not in namespace


def test_full_defaults_to_int64_and_mint_full_infers():
    out = ops.full((2, 3), 1.2)
    assert out.dtype == ms.int64
    np.testing.assert_array_equal(out.asnumpy(), np.ones((2, 3)))
    assert ops.full((2,), 1.2, dtype=ms.float32).dtype == ms.float32
    assert [mint.full((2,), v).dtype for v in (1.5, True, 3)] == [ms.float32, ms.bool_, ms.int64]
    with pytest.raises(TypeError, match="'size' must be a tuple or list"):
        ops.full(2, 1)


def test_index_and_count_dtypes():
    x = Tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 1.0]])
    assert x.argmin().dtype == ms.int32 and x.argmin(axis=1).dtype == ms.int32
    np.testing.assert_array_equal(x.argmin(axis=1).asnumpy(), [1, 0])
    assert ops.median(x, 0)[1].dtype == ms.int64
    assert ops.cummin(x, 1)[1].dtype == ms.int32 and ops.cummax(x, 1)[1].dtype == ms.int64
    assert mint.cummin(x, 1)[1].dtype == ms.int64
    counts = ops.bincount(Tensor([1, 1, 2]))
    assert counts.dtype == ms.float32
    np.testing.assert_array_equal(counts.asnumpy(), [0, 2, 1])
    assert Tensor([1, 1, 2]).bincount().dtype == ms.float32
    assert mint.bincount(Tensor([1, 1, 2])).dtype == ms.int64


def test_in_place_updates_return_a_tensor_not_the_parameter():
    variable = Parameter(Tensor([1.0]), name="variable")
    out = ops.assign(variable, Tensor([2.0]))
    assert type(out) is Tensor and out is not variable
    np.testing.assert_array_equal(out.asnumpy(), [2.0])
    np.testing.assert_array_equal(variable.asnumpy(), [2.0])
    out = ops.assign_add(variable, Tensor([1.0]))
    assert type(out) is Tensor and float(out.asnumpy()[0]) == 3.0
    x = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="x")
    out = ops.ScatterAdd()(x, Tensor([[0, 1]]), Tensor(np.ones((1, 2, 3), np.float32)))
    assert type(out) is Tensor
    np.testing.assert_array_equal(out.asnumpy(), np.ones((2, 3)))


def test_dtype_repr_is_the_name_it_is_reached_by():
    assert repr(ms.float32) == "cellgraph.float32" and str(ms.float32) == "Float32"
    assert repr([ms.bool_, ms.int64]) == "[cellgraph.bool, cellgraph.int64]"
    assert repr(ms.get_py_obj_dtype(1)) == "cellgraph.int64"


def test_isclose_treats_infinities_as_numpy_does():
    inf, nan = float("inf"), float("nan")
    out = ops.isclose(ms.tensor([2e6, inf, -inf, inf, nan]), ms.tensor([2e7, inf, -inf, -inf, nan]))
    np.testing.assert_array_equal(out.asnumpy(), [False, True, True, False, False])
    out = ms.numpy.isclose(ms.numpy.array([0, 1, 2, inf, inf, nan]),
                           ms.numpy.array([0, 1, -2, -inf, inf, nan]), equal_nan=True)
    np.testing.assert_array_equal(out.asnumpy(), [True, True, False, False, True, True])


def test_max_and_min_over_everything_give_index_zero():
    x = ms.tensor([[2, 5, 1, 6], [3, -7, -2, 4], [8, -4, 1, -3]])
    value, index = ops.min(x)
    assert int(value.asnumpy()) == -7 and int(index.asnumpy()) == 0 and index.dtype == ms.int64
    value, index = ops.max(x)
    assert int(value.asnumpy()) == 8 and int(index.asnumpy()) == 0
    _, indices = ops.min(x, axis=1)
    np.testing.assert_array_equal(indices.asnumpy(), [2, 1, 1])
    low, high = ops.aminmax(x, axis=None, keepdims=True)
    assert low.shape == (1, 1) and int(high.asnumpy()[0, 0]) == 8


def test_stop_gradient_of_a_number_is_the_number():
    assert ops.stop_gradient(9.0) == 9.0 and type(ops.stop_gradient(9.0)) is float
    assert float(ops.grad(lambda x: ops.stop_gradient(x) ** 2)(ms.tensor(3.0)).asnumpy()) == 0.0


def test_complex_elements_print_as_mindspore():
    x = Tensor(np.array([1.3 - 0.4j, 2j, -1, 0.5 + 1e-8j], np.complex64))
    assert repr(x) == ("Tensor(shape=[4], dtype=Complex64, value= "
                       "[1.3-0.4j, 0+2j, -1+0j, 0.5+1e-08j])")
    assert repr(x[0]) == "Tensor(shape=[], dtype=Complex64, value= 1.3-0.4j)"


def test_numpy_forms_mindspore_accepts():
    mnp = ms.numpy
    assert type(mnp.array_split(mnp.arange(5), 2)) is tuple
    grids = mnp.indices((2, 3))
    assert isinstance(grids, list) and len(grids) == 2 and grids[0].shape == (2, 3)
    np.testing.assert_array_equal(mnp.repeat(mnp.array([[1, 2], [3, 4]]), [1, 2], axis=0)
                                  .asnumpy(), [[1, 2], [3, 4], [3, 4]])
    assert mnp.moveaxis(mnp.zeros((3, 4, 5)), [0, 1, 2], [-1, -2, -3]).shape == (5, 4, 3)
    np.testing.assert_array_equal(mnp.intersect1d([1, 3, 4, 3], [3, 1, 2, 1]).asnumpy(), [1, 3])
    assert mnp.result_type("i2", mnp.float32, True) == ms.float32


def test_argument_forms_of_mindspore_examples():
    clipped = ops.clip_by_value([Tensor([1.0, 25.0]), Tensor([4.0, 11.0])], 5, 20)
    assert isinstance(clipped, list)
    np.testing.assert_array_equal(clipped[0].asnumpy(), [5, 20])
    choices = [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]
    np.testing.assert_array_equal(Tensor(np.array([2, 3, 1, 0])).choose(choices).asnumpy(),
                                  [20, 31, 12, 3])
    np.testing.assert_array_equal(ops.heaviside(ms.tensor(-3.0), ms.tensor([2, 0.5, 1]))
                                  .asnumpy(), [0, 0, 0])
    n = Tensor(np.array(1), ms.int64)
    np.testing.assert_allclose(ops.Polygamma()(n, Tensor([1.0, -0.5])).asnumpy(),
                               [1.644934, 8.934803], rtol=1e-6)
    np.testing.assert_array_equal(ops.TensorShape()(Tensor(np.ones((3, 2, 1)))).asnumpy(),
                                  [3, 2, 1])
    np.testing.assert_array_equal(ms.tensor([1, 1 + 1j, 2 + 2j], ms.int32).asnumpy(), [1, 1, 2])


def test_in_place_updates_take_plain_tensors():
    var = Parameter(Tensor(np.ones((2, 2), np.float32)), name="var")
    mean_square, moment = Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2, 2), np.float32))
    ops.ApplyRMSProp()(var, mean_square, moment, 0.01, Tensor(np.ones((2, 2), np.float32)),
                       0.0, 1e-10, 0.001)
    np.testing.assert_allclose(var.asnumpy(), 0.990005, rtol=1e-6)
    np.testing.assert_allclose(moment.asnumpy(), 0.009995, rtol=1e-5)   # updated in place


def test_cross_entropy_loss_with_class_probabilities():
    # MindSpore 2.10's values for these inputs
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((3, 5)), ms.float32)
    target = Tensor(rng.random((3, 5)), ms.float32)
    weight = Tensor(rng.random(5), ms.float32)
    assert nn.CrossEntropyLoss()(x, target).asnumpy() == pytest.approx(5.331819, rel=1e-6)
    assert nn.CrossEntropyLoss(weight=weight)(x, target).asnumpy() == pytest.approx(2.3321984,
                                                                                 rel=1e-6)
    np.testing.assert_allclose(
        nn.CrossEntropyLoss(weight=weight, label_smoothing=0.1, reduction="none")(x, target)
        .asnumpy(), [1.6586907, 2.459162, 2.4572697], rtol=1e-6)


def test_cell_tables_are_ordered_dicts():
    from collections import OrderedDict

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(2, 2)

        def construct(self, x):
            return self.dense(x)

    net = Net()
    assert type(net.name_cells()) is OrderedDict and list(net.name_cells()) == ["dense"]
    assert type(net.cells()).__name__ == "odict_values"
    assert type(net.parameters_dict()) is OrderedDict
    assert list(net.parameters_dict()) == ["dense.weight", "dense.bias"]


def test_tensor_methods_as_mindspore_examples():
    x = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.float32))
    y = x.itemset((0, 1), 4)
    np.testing.assert_array_equal(y.asnumpy(), [[1, 4, 3], [4, 5, 6]])
    np.testing.assert_array_equal(x.asnumpy(), [[1, 2, 3], [4, 5, 6]])   # unchanged
    z = ms.tensor([[9, 3, 4, 5], [5, 2, 7, 4], [8, 1, 3, 6]])
    value, index = z.argmin_with_value(axis=None)
    assert value.shape == () and int(value.asnumpy()) == 1 and int(index.asnumpy()) == 0
    value, index = z.argmax_with_value(axis=None, keep_dims=True)
    assert value.shape == () and int(value.asnumpy()) == 9


def test_history_log_config_and_file_writer_returns():
    import tempfile

    from cellgraph.mindrecord import FileWriter
    from cellgraph.train import History

    history = History()
    assert history.epoch is None
    assert ms.get_log_config()["GLOG_logtostderr"] == "1"
    with tempfile.TemporaryDirectory() as folder:
        writer = FileWriter(f"{folder}/t.mindrecord", shard_num=1, overwrite=True)
        assert writer.add_schema({"label": {"type": "int32"}}, "s") is None


def test_gamma_functions_in_float16_are_computed_in_float32():
    x = Tensor(np.array([1.5, 0.5, 9.3]), ms.float16)
    np.testing.assert_allclose(ops.digamma(x).asnumpy(), [0.0365, -1.964, 2.176], rtol=1e-3)
    assert ops.digamma(x).dtype == ms.float16


def test_top_level_helpers(capsys):
    from cellgraph import seed

    assert isinstance(seed(), int)
    data = bytearray([1, 2, 3, 4, 5, 6])
    tensor = ms.frombuffer(data, dtype=ms.uint8)
    np.testing.assert_array_equal(tensor.asnumpy(), [1, 2, 3, 4, 5, 6])
    data[0] = 9   # on the CPU the Tensor shares the buffer's memory, as MindSpore's
    assert tensor.asnumpy()[0] == 9
    np.testing.assert_array_equal(ms.frombuffer(bytearray(8), ms.int32, 1, 4).asnumpy(), [0])
    with pytest.raises(RuntimeError, match="offset"):
        ms.frombuffer(bytearray(4), ms.uint8, offset=4)
    ms.run_check()
    assert "The result of multiplication calculation is correct" in capsys.readouterr().out
    pieces = [Parameter(Tensor(np.array([0.1, 0.2])), "net.e"),
              Parameter(Tensor(np.array([0.3, 0.4])), "net.e")]
    merged = ms.merge_sliced_parameter(pieces)
    assert merged.name == "net.e" and merged.shape == (4,)
    with pytest.raises(ValueError, match="same name"):
        ms.merge_sliced_parameter([pieces[0], Parameter(Tensor(np.ones(2)), "other")])


def test_subclass_helpers():
    class Net(nn.LossBase):
        def construct(self, logits, labels):
            x = ops.abs(logits - labels)
            return self.get_loss(x), self.get_axis(x)

    output, axis = Net()(Tensor([1.0, 2.0, 3.0]), Tensor([1.0, 2.0, 2.0]))
    assert axis == (0,) and output.asnumpy() == pytest.approx(0.33333334)
    cell = nn.ReLU()
    assert cell.add_flags(sink_mode=True) is cell and cell.sink_mode is True
    from cellgraph.amp import _grad_scale_map, _grad_unscale_map

    scaled = _grad_scale_map(Tensor(4.0), (Tensor([1.0, 2.0]), Tensor([3.0])))
    np.testing.assert_array_equal(scaled[0].asnumpy(), [4.0, 8.0])
    np.testing.assert_array_equal(_grad_unscale_map(Tensor(4.0), scaled)[1].asnumpy(), [3.0])


def test_experimental_optimizer_groups_grow():
    from cellgraph.experimental import optim

    net = nn.Dense(8, 2)
    optimizer = optim.SGD(net.trainable_params(), 0.01)
    extra = Parameter(Tensor([0.01, 0.02]), name="extra")
    optimizer.add_param_group({"params": extra, "lr": 0.5})
    assert optimizer.group_start_id == [0, 2, 3] and len(optimizer.parameters) == 3
    assert float(optimizer.param_groups[1]["lr"].asnumpy()) == 0.5
    with pytest.raises(ValueError, match="more than one parameter group"):
        optimizer.add_param_group({"params": [extra]})
    with pytest.raises(TypeError, match="ordered collections"):
        optimizer.add_param_group({"params": {Parameter(Tensor([1.0]), name="p")}})


def test_numpy_histograms_as_mindspore():
    mnp = ms.numpy
    hist, edges = mnp.histogram([1, 2, 1], bins=[0, 1, 2, 3])
    assert hist.dtype == ms.float32 and edges.dtype == ms.int32
    np.testing.assert_array_equal(hist.asnumpy(), [0, 2, 1])
    hist, _, yedges = mnp.histogram2d(mnp.arange(5), mnp.arange(2, 7), bins=(2, 3))
    np.testing.assert_array_equal(hist.asnumpy(), [[2, 0, 0], [0, 1, 2]])
    # MindSpore's edges are start + i * step in float32
    np.testing.assert_array_equal(yedges.asnumpy(),
                                  np.array([2.0, 3.33333349, 4.66666698, 6.0], np.float32))
    hist, edges = mnp.histogramdd(mnp.arange(15).reshape(5, 3), bins=(2, 3, 4))
    assert hist.shape == (2, 3, 4) and isinstance(edges, list) and len(edges) == 3


def test_tensor_storage_helpers():
    x = Tensor([1, 2, 3], ms.int16)
    assert isinstance(x.data_ptr(), int) and not x.is_pinned() and not x.is_shared()
    assert x.get_bytes() == b"\x01\x00\x02\x00\x03\x00"
    y = Tensor.convert_bytes_to_tensor(x.get_bytes(), x.shape, x.dtype)
    np.testing.assert_array_equal(y.asnumpy(), [1, 2, 3])
    moved = x.move_to("CPU")
    assert moved is not x and moved.dtype == ms.int16
    with pytest.raises(RuntimeError, match="device target"):
        x.move_to("GPU")
    with pytest.raises(ValueError, match="must be one of"):
        x.move_to("cpu")


def test_a_cell_params_table_is_live():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.param_a = Parameter(ms.tensor([1, 2, 3]))

        def construct(self, x):
            return x + self.param_a

    def add_extra(cell, prefix, keep_vars):
        cell._params["extra_param"] = Parameter(ms.tensor([4, 5, 6]))

    net = Net()
    handle = net.register_state_dict_pre_hook(add_extra)
    assert "extra_param" in net.state_dict()
    handle.remove()
    assert list(net._params) == ["param_a", "extra_param"]
    with pytest.raises(TypeError, match="should be 'Parameter'"):
        net._params["x"] = Tensor([1.0])


def test_container_methods_return_as_mindspore():
    cells = nn.CellList([nn.ReLU()])
    assert cells.append(nn.ReLU()) is None and cells.insert(0, nn.ReLU()) is None
    assert cells.extend([nn.ReLU()]) is cells and len(cells) == 4
    assert nn.SequentialCell([nn.ReLU()]).append(nn.ReLU()) is None
    # an initializer prints as Python's default object repr, as MindSpore's
    assert repr(ms.common.initializer.Normal(0.02)).startswith(
        "<cellgraph.common.initializer.Normal object at 0x")


def test_numpy_slices_of_ragged_rows_pad_in_batches():
    import cellgraph.dataset as ds

    data = ds.NumpySlicesDataset([[1], [1, 2], [1, 2, 3], [1, 2, 3, 4]], "column1",
                                 shuffle=False)
    batches = [b[0] for b in data.padded_batch(2, True, pad_info={})
               .create_tuple_iterator(output_numpy=True)]
    np.testing.assert_array_equal(batches[0], [[1, 0], [1, 2]])
    np.testing.assert_array_equal(batches[1], [[1, 2, 3, 0], [1, 2, 3, 4]])


def test_ext_names_of_the_function_modules_are_mints():
    from cellgraph.ops.function import math_func, nn_func, random_func

    x = ms.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(math_func.amax_ext(x, dim=1, keepdim=True).asnumpy(),
                                  [[2.0], [5.0]])
    np.testing.assert_allclose(nn_func.softmax_ext(x, 1).asnumpy(),
                               mint.softmax(x, 1).asnumpy())
    assert random_func.rand_ext(2, 3).shape == (2, 3)


def test_vision_forms_of_mindspore_examples():
    pytest.importorskip("PIL")
    from cellgraph.dataset import vision
    from cellgraph.dataset.vision import Inter
    from cellgraph.dataset.vision.transforms import resize_array

    rng = np.random.default_rng(1)
    grey = rng.integers(0, 255, (7, 9), dtype=np.uint8)
    out = vision.AdjustSharpness(0.3)(grey.reshape(7, 9, 1))
    assert out.shape == (7, 9, 1)
    # MindSpore 2.10's second row for this image and factor (cv::addWeighted's rounding)
    assert out[1, :, 0].tolist() == [167, 120, 167, 180, 152, 116, 190, 170, 23]
    x = rng.standard_normal((2, 2, 3)).astype(np.float32)
    assert vision.LinearTransformation(np.eye(12), np.zeros(12))(x).dtype == np.float64
    assert resize_array(rng.random((10, 8, 3)).astype(np.float32), 5, 4, Inter.CUBIC).shape \
        == (5, 4, 3)


def test_softmax_ext_picks_the_implicit_dim():
    from cellgraph.ops.function import nn_func

    x = Tensor(np.array([1, 2, 3, 4, 5]), ms.float32)   # MindSpore 2.10's docstring values
    np.testing.assert_allclose(nn_func.softmax_ext(x).asnumpy(),
                               [0.01165623, 0.03168492, 0.08612854, 0.23412167, 0.6364086],
                               rtol=1e-6)
    y = Tensor(np.ones((2, 3)), ms.float32)   # rank 2: dim 1
    np.testing.assert_allclose(nn_func.log_softmax_ext(y).asnumpy(), np.log(np.full((2, 3), 1 / 3)),
                               rtol=1e-6)
