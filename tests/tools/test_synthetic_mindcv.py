"""tools/oracle/synthetic_mindcv.py: the image folders mindcv's train.py and validate.py read."""
import hashlib
import io

import pytest

from .oracle_tools import load

Image = pytest.importorskip("PIL.Image")  # the synthetic images are JPEGs made by Pillow


def _digest(folder):
    return hashlib.sha256(b"".join(path.relative_to(folder).as_posix().encode() + path.read_bytes()
                                   for path in sorted(folder.rglob("*")) if path.is_file())
                          ).hexdigest()


def test_imagenet_folders_hold_rgb_jpegs_a_class_to_a_folder_the_same_each_time(tmp_path):
    mindcv = load("synthetic_mindcv")
    mindcv.write_folder("mindcv_imagenet", tmp_path / "a")
    mindcv.write_folder("mindcv_imagenet", tmp_path / "b")
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b")
    for split, per_class in (("train", mindcv.TRAIN_PER_CLASS), ("val", mindcv.VAL_PER_CLASS)):
        classes = sorted(p.name for p in (tmp_path / "a" / "data" / split).iterdir())
        assert classes == mindcv.MINDCV_CLASSES
        for name in classes:
            files = sorted((tmp_path / "a" / "data" / split / name).glob("*.JPEG"))
            assert len(files) == per_class
            image = Image.open(io.BytesIO(files[0].read_bytes()))
            assert image.format == "JPEG" and image.mode == "RGB"
            assert min(image.size) >= 48  # larger than the 32-pixel crops the entries take


def test_a_training_entry_is_named_by_its_model_and_passes_its_options(tmp_path):
    runner = load("run_programs")
    listing = tmp_path / "list.txt"
    listing.write_text("mindspore-lab/mindcv train.py tree=mindcv,train.py "
                       "data=mindcv_imagenet train=resnet18 args=--image_resize=32,--a=1\n")
    (entry,) = runner.load_list(listing)
    assert entry["id"] == "mindspore-lab/mindcv:train.py[resnet18]"
    assert entry["path"] == "train.py" and entry["train"] == "resnet18"
    assert entry["data"] == "mindcv_imagenet" and entry["args"] == "--image_resize=32,--a=1"
