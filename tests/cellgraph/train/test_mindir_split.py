"""export(file_format="MINDIR") of a model whose Parameters pass TOTAL_SAVE: the graph and the
Parameters' data files, laid out byte for byte as MindSpore 2.10 writes them, and load
reading them back."""
import os
import sys

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.train import serialization


class _AddN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.addn = ops.AddN()
        self.y = Parameter(Tensor(np.array([2, 3, 3, 4], np.float32)), name="w")
        self.z = Parameter(Tensor(np.array([2, 3, 3, 4], np.float32)), name="z")

    def construct(self, x):
        return self.addn((x, self.y, self.z))


X = Tensor(np.array([2, 3, 3, 4], np.float32))


def _head() -> bytes:
    return bytes([sys.byteorder == "little"]) + bytes(63)


def _padded(param) -> bytes:
    raw = param.asnumpy().tobytes()
    return raw + bytes(-len(raw) % 64)


@pytest.fixture
def small_limits(monkeypatch):
    monkeypatch.setattr(serialization, "TOTAL_SAVE", 0)
    return monkeypatch


def test_parameters_over_total_save_go_to_a_data_file(tmp_path, small_limits):
    net = _AddN()
    ms.export(net, X, file_name=str(tmp_path / "split"), file_format="MINDIR")
    data = tmp_path / "split_variables" / "data_0"
    assert sorted(os.listdir(tmp_path)) == ["split_graph.mindir", "split_variables"]
    assert data.read_bytes() == _head() + _padded(net.y) + _padded(net.z)
    assert oct(os.stat(data).st_mode)[-3:] == "400"
    assert oct(os.stat(tmp_path / "split_graph.mindir").st_mode)[-3:] == "400"
    graph = ms.load(str(tmp_path / "split_graph.mindir"))
    np.testing.assert_array_equal(nn.GraphCell(graph)(X).asnumpy(), [6.0, 9.0, 9.0, 12.0])


def test_a_new_data_file_when_one_would_pass_the_split_size(tmp_path, small_limits):
    small_limits.setattr(serialization, "PARAMETER_SPLIT_SIZE", 129 / 1024)
    net = _AddN()
    ms.export(net, X, file_name=str(tmp_path / "big.mindir"), file_format="MINDIR")
    folder = tmp_path / "big_variables"
    assert (folder / "data_0").read_bytes() == _head() + _padded(net.y)
    assert (folder / "data_1").read_bytes() == _head() + _padded(net.z)
    graph = ms.load(str(tmp_path / "big_graph.mindir"))
    np.testing.assert_array_equal(nn.GraphCell(graph)(X).asnumpy(), [6.0, 9.0, 9.0, 12.0])


def test_a_parameter_alone_over_the_split_size_is_refused(tmp_path, small_limits):
    small_limits.setattr(serialization, "PARAMETER_SPLIT_SIZE", 0)
    with pytest.raises(RuntimeError, match="The parameter size is exceed 1T,cannot export to "
                                           "the file"):
        ms.export(_AddN(), X, file_name=str(tmp_path / "net"), file_format="MINDIR")


def test_small_models_stay_in_one_file(tmp_path):
    ms.export(_AddN(), X, file_name=str(tmp_path / "one"), file_format="MINDIR")
    assert os.listdir(tmp_path) == ["one.mindir"]


def test_missing_data_files_fail_the_load(tmp_path, small_limits):
    ms.export(_AddN(), X, file_name=str(tmp_path / "gone"), file_format="MINDIR")
    for name in os.listdir(tmp_path / "gone_variables"):
        os.remove(tmp_path / "gone_variables" / name)
    with pytest.raises(RuntimeError, match="Load MindIR failed.*data_0"):
        ms.load(str(tmp_path / "gone_graph.mindir"))


def test_encrypted_split_model_loads_with_its_key(tmp_path, small_limits):
    pytest.importorskip("cryptography")
    key = bytes(range(32))
    ms.export(_AddN(), X, file_name=str(tmp_path / "enc.mindir"), file_format="MINDIR",
              enc_key=key)
    assert _head() not in (tmp_path / "enc_variables" / "data_0").read_bytes()
    graph = ms.load(str(tmp_path / "enc_graph.mindir"), dec_key=key)
    np.testing.assert_array_equal(nn.GraphCell(graph)(X).asnumpy(), [6.0, 9.0, 9.0, 12.0])
