"""tools/oracle: the options a program of programs.txt may carry for its run: `set=` (a YAML
configuration's epochs and sizes cut), `device=CPU` (the program's device_target pinned) and
`data=` (synthetic data files written first)."""
import io
import os

import numpy as np
import pytest

from .oracle_tools import load


def test_set_rewrites_nested_entries_of_the_yaml_file(tmp_path):
    yaml = pytest.importorskip("yaml")  # the runner's own dependency, not cellgraph's
    runner = load("run_programs")
    (tmp_path / "configs").mkdir()
    path = tmp_path / "configs" / "train.yaml"
    path.write_text("data:\n  train:\n    epochs: 4000\n    batch_size: 8192\n  size: [256, 256]\n"
                    "lr: 0.001\n")
    runner.override_config(tmp_path, "configs/train.yaml:data.train.epochs=2;data.size=[8, 8]")
    config = yaml.safe_load(path.read_text())
    assert config == {"data": {"train": {"epochs": 2, "batch_size": 8192}, "size": [8, 8]},
                      "lr": 0.001}
    with pytest.raises(KeyError, match="no entry data.train.epoch"):  # a misspelt key
        runner.override_config(tmp_path, "configs/train.yaml:data.train.epoch=2")


def test_list_options_reach_the_entry():
    runner = load("run_programs")
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "programs.txt"
        listing.write_text("owner/repo a/b.ipynb device=CPU set=c.yaml:x=1;y.z=2 data=d/F.mat\n")
        (entry,) = runner.load_list(listing)
    assert entry["device"] == "CPU" and entry["set"] == "c.yaml:x=1;y.z=2"
    assert entry["data"] == "d/F.mat"


def test_device_is_pinned_in_set_context_and_set_device(tmp_path):
    harness = load("program_harness")
    import cellgraph

    program = tmp_path / "program.py"
    program.write_text("import cellgraph\n")
    saved = cellgraph.set_context, cellgraph.context.set_context, cellgraph.set_device
    try:
        harness._pin_device(str(program), "CPU")
        cellgraph.set_context(device_target="GPU", device_id=0)
        assert cellgraph.get_context("device_target") == "CPU"
        cellgraph.context.set_context(device_target="Ascend")
        assert cellgraph.get_context("device_target") == "CPU"
        cellgraph.set_device("GPU", 0)
        assert cellgraph.get_context("device_target") == "CPU"
    finally:
        cellgraph.set_context, cellgraph.context.set_context, cellgraph.set_device = saved
        cellgraph.set_context(device_target="CPU")


def test_synthetic_burgers_2d_has_the_real_file_s_shape_and_same_bytes(tmp_path):
    loadmat = pytest.importorskip("scipy.io").loadmat  # reads it back as the program does
    harness = load("program_harness")
    name = "Burgers_2001x2x100x100_[dt=00025].mat"
    assert name in harness.SYNTHETIC
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        harness.write_data(f"dataset/{name}")
    finally:
        os.chdir(cwd)
    uv = loadmat(str(tmp_path / "dataset" / name))["uv"]
    assert uv.shape == (2001, 2, 100, 100) and uv.dtype == np.float32
    assert np.isfinite(uv).all() and uv.std() > 0
    again = harness.SYNTHETIC[name](np.random.RandomState(1234))[name]
    assert np.array_equal(loadmat(io.BytesIO(again))["uv"], uv)
