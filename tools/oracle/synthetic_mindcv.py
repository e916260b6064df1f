"""Synthetic image-folder datasets for mindcv's own training and evaluation scripts (train.py,
validate.py), which read ImageNet's layout: `ROOT/train/CLASS/*.JPEG` and `ROOT/val/CLASS/*.JPEG`,
one folder a class, as ImageFolderDataset reads them.

run_programs.py writes the folder an entry names with `data=NAME` into the program's folder
before either side runs, from a generator seeded the same way each time, so both sides read the
same bytes. Only NumPy and Pillow are used. Sizes are small: a few images a class, a little
larger than the crops the scripts take, so that one epoch runs on a CPU within the runner's
timeout.
"""
from __future__ import annotations

import numpy as np
from synthetic_cv import image_folders

MINDCV_CLASSES = ["n01440764", "n01443537", "n01484850", "n01491361"]
TRAIN_PER_CLASS, VAL_PER_CLASS = 4, 2  # 16 training images (batches of 4), 8 validation


def mindcv_imagenet_files(rng: np.random.RandomState) -> dict:
    """data/{train,val}/WNID/*.JPEG, four ImageNet classes."""
    return {**image_folders(rng, "data/train", MINDCV_CLASSES, TRAIN_PER_CLASS),
            **image_folders(rng, "data/val", MINDCV_CLASSES, VAL_PER_CLASS)}


FOLDERS = {"mindcv_imagenet": mindcv_imagenet_files}


def write_folder(name: str, dest) -> None:
    """The dataset `name` (a key of FOLDERS) under the folder `dest`, seeded as the harness's
    downloads are."""
    from pathlib import Path

    for rel, data in FOLDERS[name](np.random.RandomState(1234)).items():
        out = Path(dest) / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
