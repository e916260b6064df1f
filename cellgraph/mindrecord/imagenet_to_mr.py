"""ImageNetToMR: an ImageNet-style folder (one sub-folder of JPEG images per class, listed
with its label in a map file) into MindRecord files, each row {"label": int32, "image": the
file's bytes, "file_name": its path}, indexed by label and file name, as MindSpore writes
them."""
from __future__ import annotations

import logging
import os

from .checks import check_filename
from .common.exceptions import PathNotExistsError
from .converters import write_rows
from .filewriter import FileWriter

__all__ = ["ImageNetToMR"]

_log = logging.getLogger(__name__)
_SCHEMA = {"label": {"type": "int32"}, "image": {"type": "bytes"},
           "file_name": {"type": "string"}}


class ImageNetToMR:
    """`ImageNetToMR(map_file, image_dir, destination, partition_number=1)`: `map_file` holds
    one "<sub-folder> <label>" line per class of `image_dir`; `transform()` writes
    `partition_number` MindRecord files at `destination`."""

    def __init__(self, map_file, image_dir, destination, partition_number=1):
        check_filename(map_file)
        check_filename(image_dir)
        check_filename(destination)
        if partition_number is None or not isinstance(partition_number, int):
            raise ValueError("The parameter partition_number must be int")
        self.map_file, self.image_dir, self.destination = map_file, image_dir, destination
        self.partition_number = partition_number
        self.writer = FileWriter(destination, partition_number)

    def _rows(self):
        """Each image as a row: the classes in map-file order, each folder's JPEG files
        (.JPEG/.jpg) in directory order."""
        path = os.path.realpath(self.map_file)
        if not os.path.exists(path):
            raise OSError(f"map file {self.map_file} not exists")
        classes = {}  # label text -> folder name; a label listed twice keeps its last folder
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.split(" ")
                classes[parts[1]] = parts[0]
        folders = {}
        for label, name in classes.items():
            folder = os.path.join(self.image_dir, name)
            if not os.path.isdir(folder):
                _log.warning("%s dir is not exist", folder)
                continue
            folders[label] = folder
        if not folders:
            raise PathNotExistsError(f"not valid image dir in {self.image_dir}")
        for label, folder in folders.items():
            for item in os.listdir(folder):
                file_name = os.path.join(folder, item)
                if not item.endswith(("JPEG", "jpg")):
                    _log.warning("%s file is not suffix with JPEG/jpg, skip it.", file_name)
                    continue
                with open(os.path.realpath(file_name), "rb") as f:
                    image = f.read()
                if not image:
                    _log.warning("The image file: %s is invalid.", file_name)
                    continue
                yield {"file_name": str(file_name), "label": int(label), "image": image}

    def run(self):
        """Write the files; returns 0 (SUCCESS)."""
        # the default sizes (16 MB header, 32 MB pages): MindSpore's converter sets a 64 MB
        # page, which its parallel writer does not apply, so its files have 32 MB pages
        self.writer.add_schema(_SCHEMA, "imagenet_schema")
        self.writer.add_index(["label", "file_name"])
        write_rows(self.writer, self._rows(), parallel=True)
        return 0

    def transform(self):
        """The same as `run`."""
        return self.run()
