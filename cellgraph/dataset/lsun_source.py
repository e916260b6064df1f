"""LSUNDataset: the LSUN scene categories as MindSpore reads them, a folder per category and
split (<category>_train, <category>_val) of image files, or one folder `test`; read like an
image folder, each split folder its own label."""
from __future__ import annotations

import os

import numpy as np

from .core.validator_helpers import (
    check_arguments,
    check_dir,
    check_mappable_source,
    check_valid_str,
    validate_dataset_param_value,
)
from .readers import ImageFolderDataset
from .sources import MappableSource

__all__ = ["LSUNDataset"]

_CATEGORIES = ["bedroom", "bridge", "church_outdoor", "classroom", "conference_room",
               "dining_room", "kitchen", "living_room", "restaurant", "tower"]
_SPLITS = {"train": ["_train"], "valid": ["_val"], "all": ["_train", "_val"]}


class LSUNDataset(ImageFolderDataset):
    """LSUN: columns image (the file's bytes, or decoded HWC RGB with `decode=True`) and label
    (uint32). `usage` "train", "valid" or "all" reads the folders whose name holds
    "<category>_train" / "<category>_val" for the `classes` asked (all ten by default), in
    sorted order, each folder a label in that order; "test" reads the folder `test`, label 0."""

    op = "LSUNDataset"

    @check_arguments
    def __init__(self, dataset_dir, usage=None, classes=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "test", "valid", "all"], "usage")
        validate_dataset_param_value(["classes"], params, list)
        for name in classes or []:
            check_valid_str(name, _CATEGORIES, "classes")
        check_mappable_source(params)
        self.dataset_dir, self.usage = dataset_dir, "all" if usage is None else usage
        self.classes = list(classes or [])
        folders, found = self._folders()
        self.class_count = len(found)
        self.files = [(os.path.join(dataset_dir, folder, file), label)
                      for label, folder in enumerate(folders)
                      for file in sorted(os.listdir(os.path.join(dataset_dir, folder)))]
        self.class_indexing = {folder: label for label, folder in enumerate(folders)}
        self.decode = bool(decode)
        MappableSource.__init__(self, ["image", "label"], num_samples, shuffle, sampler,
                                num_shards, shard_id, cache)

    def _folders(self) -> tuple[list, set]:
        """The split folders read, sorted, and the categories among them."""
        if self.usage == "test":
            return ["test"], set()
        folders, found = set(), set()
        for name in os.listdir(self.dataset_dir):
            for split in _SPLITS[self.usage]:
                for category in self.classes or _CATEGORIES:
                    if category + split in name:
                        folders.add(name)
                        found.add(category)
        return sorted(folders), found

    def num_classes(self) -> int:
        """The categories among the folders read (0 for usage "test"), as MindSpore counts."""
        return self.class_count

    def row_at(self, index):
        image, label = super().row_at(index)
        return image, np.array(label, np.uint32)
