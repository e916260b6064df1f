"""Checkpoints: a round trip restores identical outputs (and optimizer state); missing,
corrupted and mismatched checkpoints give errors that name the file or the parameter."""
from __future__ import annotations

import os

import numpy as np
import pytest

import cellgraph
from cellgraph import Parameter, Tensor, nn
from cellgraph.primitives.errors import DTypeError, ShapeError
from cellgraph.train import CheckpointError

f32, f64 = cellgraph.float32, cellgraph.float64


class Net(nn.Cell):
    def __init__(self, hidden=4):
        super().__init__()
        self.fc1 = nn.Dense(3, hidden, activation="relu")
        self.bn = nn.BatchNorm1d(hidden)
        self.fc2 = nn.Dense(hidden, 2)

    def construct(self, x):
        return self.fc2(self.bn(self.fc1(x)))


def _x(rng):
    return Tensor(rng.standard_normal((5, 3)).astype(np.float32))


def test_round_trip_restores_identical_outputs(rng, tmp_path):
    cellgraph.set_seed(1)
    net = Net()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.Adam(net.trainable_params(), 0.01))
    train.set_train()
    x, y = _x(rng), Tensor(np.ones((5, 2), np.float32))
    for _ in range(2):
        train(x, y)
    path = tmp_path / "net.ckpt"
    cellgraph.save_checkpoint(train, str(path))
    net.set_train(False)
    expected = net(x).asnumpy()

    cellgraph.set_seed(2)  # a different initialisation ...
    other = Net()
    other_train = nn.TrainOneStepCell(nn.WithLossCell(other, nn.MSELoss()),
                                      nn.Adam(other.trainable_params(), 0.01))
    params = cellgraph.load_checkpoint(str(path))
    assert {"fc1.weight", "bn.moving_mean", "moment1.fc2.bias", "global_step"} <= set(params)
    assert isinstance(params["fc1.weight"], cellgraph.Parameter)
    not_loaded, unused = cellgraph.load_param_into_net(other_train, params)
    assert not_loaded == [] and unused == []
    other.set_train(False)
    np.testing.assert_array_equal(other(x).asnumpy(), expected)  # ... fully restored
    assert other_train.optimizer.global_step.asnumpy().item() == 2
    np.testing.assert_array_equal(other_train.optimizer.moment2[0].asnumpy(),
                                  train.optimizer.moment2[0].asnumpy())


def test_load_into_the_bare_network_and_load_checkpoint_with_net(rng, tmp_path):
    net = Net()
    path = str(tmp_path / "bare.ckpt")
    cellgraph.save_checkpoint(net, path)
    fresh = Net()
    cellgraph.load_checkpoint(path, net=fresh)
    x = _x(rng)
    np.testing.assert_array_equal(fresh(x).asnumpy(), net(x).asnumpy())


def test_save_list_of_dicts_dict_and_append_dict(tmp_path):
    path = str(tmp_path / "items.ckpt")
    cellgraph.save_checkpoint([{"name": "a", "data": Tensor(np.arange(3, dtype=np.int32))},
                               {"name": "b", "data": Tensor(np.ones((2, 2)))}], path,
                              append_dict={"epoch": 7, "lr": 0.5})
    params = cellgraph.load_checkpoint(path)
    assert params["a"].dtype == cellgraph.int32 and params["b"].dtype == f64
    assert int(params["epoch"].asnumpy()) == 7 and float(params["lr"].asnumpy()) == 0.5
    only_a = cellgraph.load_checkpoint(path, specify_prefix="a")
    assert list(only_a) == ["a"]
    assert "a" not in cellgraph.load_checkpoint(path, filter_prefix=["a", "ep"])


def test_missing_file_and_a_name_that_does_not_fit_the_format(tmp_path):
    with pytest.raises(FileNotFoundError, match="load_checkpoint: no checkpoint file at"):
        cellgraph.load_checkpoint(str(tmp_path / "nope.ckpt"))
    with pytest.raises(ValueError, match="no checkpoint file at"):  # MindSpore's type
        cellgraph.load_checkpoint(str(tmp_path / "nope.ckpt"))
    cellgraph.save_checkpoint(Net(), str(tmp_path / "net.ckpt"))
    with pytest.raises(ValueError, match="must end with the format 'safetensors'"):
        cellgraph.load_checkpoint(str(tmp_path / "net.ckpt"), format="safetensors")


def _saved(tmp_path, name="net.ckpt"):
    path = tmp_path / name
    cellgraph.save_checkpoint(Net(), str(path))
    return path


@pytest.mark.filterwarnings("ignore:.*holds no CRC code")
@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped"])
def test_corrupted_files_name_the_file(tmp_path, damage):
    path = tmp_path / "net.ckpt"
    cellgraph.save_checkpoint(Net(), str(path), crc_check=True)
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"this is not a checkpoint" * 10)
    elif damage == "truncated":
        path.write_bytes(data[:len(data) // 2])
    else:  # a byte flipped inside a tensor: the CRC check catches it
        spot = data.index(b"Float32") + 12
        path.write_bytes(data[:spot] + bytes([data[spot] ^ 0xFF]) + data[spot + 1:])
    match = "the CRC check failed" if damage == "flipped" else "is not a valid checkpoint file"
    with pytest.raises(CheckpointError, match=match):
        cellgraph.load_checkpoint(str(path), crc_check=True)


def _old_format(path, **arrays):
    """A checkpoint in cellgraph's earlier format: an .npz archive with a marker entry."""
    np.savez(path.open("wb"), __cellgraph_checkpoint__=np.array(1), **arrays)


def test_earlier_npz_checkpoints_still_load(tmp_path):
    path = tmp_path / "old.ckpt"
    _old_format(path, **{"fc1.weight": np.ones((4, 3), np.float32), "step": np.array(3)})
    params = cellgraph.load_checkpoint(str(path), specify_prefix="fc1")
    assert list(params) == ["fc1.weight"] and params["fc1.weight"].dtype == f32
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(CheckpointError, match="is not a valid checkpoint file"):
        cellgraph.load_checkpoint(str(path))


def test_pickled_objects_are_refused(tmp_path):
    path = tmp_path / "evil.ckpt"
    _old_format(path, payload=np.array([{"a": 1}], dtype=object))
    with pytest.raises(CheckpointError, match="not a valid checkpoint file"):
        cellgraph.load_checkpoint(str(path))


def test_a_plain_npz_is_not_a_checkpoint(tmp_path):
    path = tmp_path / "plain.ckpt"
    np.savez(path.open("wb"), x=np.ones(3))
    with pytest.raises(CheckpointError, match="not a cellgraph checkpoint"):
        cellgraph.load_checkpoint(str(path))


def test_shape_mismatch_names_the_parameter_and_changes_nothing(tmp_path):
    params = cellgraph.load_checkpoint(str(_saved(tmp_path)))
    wide = Net(hidden=5)
    before = wide.fc1.weight.asnumpy().copy()
    with pytest.raises(ShapeError, match=r"Parameter 'fc1.weight' has shape \(5, 3\) in the "
                                         r"network but \(4, 3\) in the checkpoint"):
        cellgraph.load_param_into_net(wide, params)
    np.testing.assert_array_equal(wide.fc1.weight.asnumpy(), before)


def test_dtype_mismatch_converts_within_floats_unless_strict(tmp_path):
    params = cellgraph.load_checkpoint(str(_saved(tmp_path)))
    params["fc1.weight"] = Tensor(params["fc1.weight"].asnumpy().astype(np.float64))
    net = Net()
    cellgraph.load_param_into_net(net, params)
    assert net.fc1.weight.dtype == f32
    np.testing.assert_allclose(net.fc1.weight.asnumpy(), params["fc1.weight"].asnumpy())
    with pytest.raises(DTypeError, match="'fc1.weight' has dtype Float32 in the network but "
                                         "Float64 in the checkpoint"):
        cellgraph.load_param_into_net(net, params, strict_load=True)
    params["fc1.weight"] = Tensor(np.ones((4, 3), np.int32))
    with pytest.raises(DTypeError, match="only conversions within floats"):
        cellgraph.load_param_into_net(net, params)


def test_floats_round_and_lossy_integer_conversions_are_refused(tmp_path):
    params = cellgraph.load_checkpoint(str(_saved(tmp_path)))
    net = Net()
    params["fc1.weight"] = Tensor(np.full((4, 3), 0.1, np.float64))
    cellgraph.load_param_into_net(net, params)  # MindSpore casts float64 to float32 too
    np.testing.assert_array_equal(net.fc1.weight.asnumpy(), np.full((4, 3), 0.1, np.float32))

    class Counter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.count = Parameter(Tensor(np.zeros(2, np.int8)), name="count")

    with pytest.raises(DTypeError, match="300 would become 44"):
        cellgraph.load_param_into_net(Counter(), {"count": Tensor(np.array([1, 300]))})
    counter = Counter()
    cellgraph.load_param_into_net(counter, {"count": Tensor(np.array([1, 100]))})
    np.testing.assert_array_equal(counter.count.asnumpy(), [1, 100])


def test_missing_parameters_warn_even_when_strict(tmp_path):
    params = cellgraph.load_checkpoint(str(_saved(tmp_path)))
    del params["fc2.bias"]
    params["extra"] = Tensor(np.ones(2, np.float32))
    with pytest.warns(UserWarning) as warned:
        not_loaded, unused = cellgraph.load_param_into_net(Net(), params)
    assert "not loaded: fc2.bias" in str(warned[0].message)
    assert "named no parameter of the network: extra" in str(warned[1].message)
    assert not_loaded == ["fc2.bias"] and unused == ["extra"]
    # as MindSpore's: strict_load is about dtypes; a missing parameter is reported, not refused
    with pytest.warns(UserWarning, match="not loaded: fc2.bias"):
        assert cellgraph.load_param_into_net(Net(), params, strict_load=True) == (
            ["fc2.bias"], ["extra"])


def test_mismatches_raise_mindspores_runtime_error_and_values_must_be_parameters(tmp_path):
    """MindSpore raises RuntimeError for a shape or dtype that does not fit, TypeError for a
    value that is no Parameter, ValueError when choice_func fails while reading."""
    net = Net()
    with pytest.raises(RuntimeError, match="shape"):
        cellgraph.load_param_into_net(net, {"fc1.weight": Parameter(Tensor(np.ones(3, np.float32)),
                                                                    name="fc1.weight")})
    with pytest.raises(RuntimeError, match="dtype"):
        cellgraph.load_param_into_net(net, {"fc1.weight": Parameter(
            Tensor(np.ones((4, 3), np.int32)), name="fc1.weight")})
    with pytest.raises(TypeError, match="should be a 'str' and 'Parameter'"):
        cellgraph.load_param_into_net(net, {"fc1.weight": 1})
    path = str(_saved(tmp_path))
    with pytest.raises(ValueError, match="failed to load the checkpoint file"):
        cellgraph.load_checkpoint(path, choice_func=lambda name: name.startswith(123))


def test_checkpoint_manager_lists_and_removes_a_prefixs_files(tmp_path):
    from cellgraph.train.callback import _CheckpointManager

    for name in ("test-1_1.ckpt", "test-2_1.ckpt", "test-graph.ckpt", "other-1_1.ckpt"):
        (tmp_path / name).write_text("")
    manager = _CheckpointManager()
    manager.update_ckpoint_filelist(str(tmp_path), "test")
    assert sorted(os.path.basename(f) for f in manager.ckpoint_filelist) == [
        "test-1_1.ckpt", "test-2_1.ckpt"]
    manager.remove_oldest_ckpoint_file()
    assert manager.ckpoint_num == 1
    manager.update_ckpoint_filelist(str(tmp_path), "test")
    assert manager.ckpoint_num == 1


def test_save_graph_is_refused():
    from cellgraph.primitives.errors import UnsupportedError
    from cellgraph.train.serialization import _save_graph

    with pytest.raises(UnsupportedError, match="IR protobuf"):
        _save_graph(Net(), "net-graph.meta")
