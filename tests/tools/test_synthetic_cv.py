"""tools/oracle/synthetic_cv.py: the computer-vision tutorials' downloads, made up."""
import io

import numpy as np
import pytest

from .oracle_tools import load

Image = pytest.importorskip("PIL.Image")  # the synthetic images are JPEGs made by Pillow


def _cv():
    return load("synthetic_cv")


def test_a_checkpoint_is_read_back_by_load_checkpoint_with_its_names_shapes_and_values(
        tmp_path):
    import cellgraph

    cv = _cv()
    params = [("conv.weight", np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) - 7.5),
              ("norm.gamma", np.ones(200, np.float32)), ("cls", np.zeros((1, 1, 4), np.float32))]
    path = tmp_path / "net.ckpt"
    path.write_bytes(cv.checkpoint_bytes(params))
    loaded = cellgraph.load_checkpoint(str(path))
    assert list(loaded) == ["conv.weight", "norm.gamma", "cls"]
    for name, value in params:
        assert loaded[name].dtype == cellgraph.float32
        np.testing.assert_array_equal(loaded[name].asnumpy(), value)


def test_random_weights_have_a_trained_network_s_kinds_of_values():
    cv = _cv()
    shapes = [("conv1.weight", (64, 3, 7, 7)), ("norm.moving_mean", (64,)),
              ("norm.moving_variance", (64,)), ("norm.gamma", (64,)), ("norm.beta", (64,)),
              ("fc.bias", (10,)), ("pos_embedding", (1, 5, 8))]
    values = dict(cv.random_weights(np.random.RandomState(0), shapes))
    assert {n: v.shape for n, v in values.items()} == dict(shapes)
    assert (values["norm.gamma"] == 1).all() and (values["norm.moving_variance"] == 1).all()
    assert not values["norm.beta"].any() and not values["fc.bias"].any()
    assert not values["norm.moving_mean"].any()
    # He: variance 2 / fan_in (3 * 7 * 7)
    assert abs(values["conv1.weight"].std() - np.sqrt(2 / 147)) < 0.005
    assert abs(values["pos_embedding"].std() - 0.02) < 0.01


def test_the_pretrained_networks_have_their_pages_parameter_counts():
    cv = _cv()
    resnet = dict(cv.resnet50_shapes())
    assert len(resnet) == 267  # as transfer_learning.md's resnet50() lists them
    assert sum(int(np.prod(s)) for n, s in resnet.items()
               if not n.endswith(("moving_mean", "moving_variance"))) == 25_557_032
    assert resnet["layer2.0.down_sample.0.weight"] == (512, 256, 1, 1)
    vit = dict(cv.vit_b16_shapes())
    assert len(vit) == 152 and sum(int(np.prod(s)) for s in vit.values()) == 86_567_656
    assert vit["pos_embedding"] == (1, 197, 768)
    assert vit["transformer.layers.11.1.cell.1.dense1.weight"] == (3072, 768)


def test_image_datasets_are_jpeg_class_folders_made_the_same_from_the_same_seed():
    cv = _cv()
    files = cv.canidae_files(np.random.RandomState(1234))
    assert files == cv.canidae_files(np.random.RandomState(1234))
    train = [p for p in files if p.startswith("data/Canidae/train/")]
    val = [p for p in files if p.startswith("data/Canidae/val/")]
    assert len(train) == 18 and len(val) == 8 and len(files) == 26
    assert {p.split("/")[3] for p in files} == {"dogs", "wolves"}
    image = Image.open(io.BytesIO(files[train[0]]))
    assert image.format == "JPEG" and image.mode == "RGB"
    # the classes differ in colour: a dog is red-poor, a wolf red-rich
    red = [np.asarray(Image.open(io.BytesIO(files[p])))[..., 0].mean() for p in train]
    assert max(red[:9]) < 80 and min(red[9:]) > 180
    vit = cv.vit_imagenet_files(np.random.RandomState(1234))
    assert sum(p.startswith("dataset/train/") for p in vit) == 16
    assert sum(p.startswith("dataset/val/") for p in vit) == 16
    assert "dataset/infer/n01440764/ILSVRC2012_test_00000279.JPEG" in vit


def test_the_harness_downloads_an_archive_into_a_folder_and_a_checkpoint_to_its_path(
        tmp_path, monkeypatch):
    harness = load("program_harness")
    monkeypatch.chdir(tmp_path)
    assert harness.download("https://host/x/Canidae_data.zip", "./datasets-Canidae",
                            kind="zip", replace=True) == "datasets-Canidae"
    assert len(list((tmp_path / "datasets-Canidae/data/Canidae/val/wolves").iterdir())) == 4
    got = harness.download("https://host/m/resnet50_224_new.ckpt",
                           "./LoadPretrainedModel/resnet50_224_new.ckpt", replace=True)
    assert got == "LoadPretrainedModel/resnet50_224_new.ckpt"
    data = (tmp_path / got).read_bytes()
    assert data == _cv().resnet50_checkpoint(np.random.RandomState(1234))
