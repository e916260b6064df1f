"""Image sources with random access that read an annotated folder as MindSpore's readers do:
COCO (its five tasks). Columns, dtypes, row order, argument checks and error messages are
MindSpore's; the rows a source gives are chosen by the common sampler rules (shuffle,
sampler, num_samples, num_shards/shard_id)."""
from __future__ import annotations

import json
import os

import numpy as np

from ..core.validator_helpers import (
    check_dir,
    check_file,
    check_mappable_source,
    type_check,
)
from ..samplers import PKSampler
from ..sources import MappableSource

__all__ = ["CocoDataset", "read_file_bytes"]


def _decoded(raw: np.ndarray) -> np.ndarray:
    from ..vision.transforms import Decode

    return Decode()(raw)


def read_file_bytes(path: str) -> np.ndarray:
    """A data file's bytes (uint8), noting it as the file of the row being read (a map's error
    names it, as MindSpore's does); a file that cannot be read is MindSpore's error."""
    from ..nodes import ROW_FILE

    real = os.path.realpath(path)
    ROW_FILE.path = real
    try:
        return np.fromfile(real, np.uint8)
    except OSError:
        raise _pipeline_error(f"Failed to open file: {real}") from None


def _pipeline_error(message: str) -> RuntimeError:
    return RuntimeError(f"Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline "
                        f"Error Message'. \n\n- Dataset Pipeline Error Message: \n[ERROR] "
                        f"{message}")


class _LazySource(MappableSource):
    """A source whose index (the rows and what each holds) is built from its files when first
    needed: by the first count or read, where MindSpore builds it (and reports its errors)."""

    def __init__(self, names, num_samples, shuffle, sampler, num_shards, shard_id, cache):
        self._index = None
        super().__init__(names, num_samples, shuffle, sampler, num_shards, shard_id, cache)

    def build(self) -> list:
        raise NotImplementedError

    @property
    def index(self) -> list:
        if self._index is None:
            self._index = self.build()
        return self._index

    @property
    def num_rows(self):
        return len(self.index)


_COCO_COLUMNS = {
    "Detection": ["image", "bbox", "category_id", "iscrowd"],
    "Stuff": ["image", "segmentation", "iscrowd"],
    "Keypoint": ["image", "keypoints", "num_keypoints"],
    "Panoptic": ["image", "bbox", "category_id", "iscrowd", "area"],
    "Captioning": ["image", "captions"],
}


class CocoDataset(_LazySource):
    """COCO: the images of `dataset_dir` named by the "images" of `annotation_file` that have
    annotations, in that order, with the task's columns: Detection (bbox float32 (n, 4),
    category_id and iscrowd uint32 (n, 1)), Stuff (segmentation float32, one polygon a row
    padded with -1, iscrowd), Keypoint (keypoints float32 (n, 51), num_keypoints uint32),
    Panoptic (bbox, category_id, iscrowd, area) or Captioning (captions str (n, 1));
    `extra_metadata` adds `_meta-filename` (the file name without its extension)."""

    op = "CocoDataset"

    def __init__(self, dataset_dir, annotation_file, task="Detection", num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None, extra_metadata=False,
                 decrypt=None):
        params = dict(locals())
        check_dir(dataset_dir)
        check_file(annotation_file)
        type_check(task, (str,), "task")
        if task not in _COCO_COLUMNS:
            raise ValueError("Invalid task type: " + task + ".")
        if decrypt is not None and not callable(decrypt):
            raise TypeError(f"Argument decrypt is not a callable object, but got "
                            f"{type(decrypt)}")
        check_mappable_source(params)
        if isinstance(sampler, PKSampler):
            raise ValueError("CocoDataset doesn't support PKSampler.")  # noqa: TRY004
        type_check(extra_metadata, (bool,), "extra_metadata")
        self.dataset_dir, self.annotation_file, self.task = dataset_dir, annotation_file, task
        self.decode, self.decrypt, self.extra_metadata = decode, decrypt, extra_metadata
        self._class_indexing = None
        names = _COCO_COLUMNS[task] + (["_meta-filename"] if extra_metadata else [])
        super().__init__(names, num_samples, shuffle, sampler, num_shards, shard_id, cache)

    def _missing(self, what: str) -> RuntimeError:
        return _pipeline_error(f"Invalid annotation, the attribute of '{what}' is missing in "
                               f"annotation file: {self.annotation_file}.")

    def build(self):
        try:
            with open(self.annotation_file, encoding="utf-8") as f:
                doc = json.load(f)
        except (ValueError, UnicodeDecodeError) as error:
            raise _pipeline_error(f"Invalid annotation file, Coco Dataset annotation file:"
                                  f"{self.annotation_file} load failed, error description: "
                                  f"{error}") from None
        if "images" not in doc:
            raise self._missing("images")
        files = {}
        for image in doc["images"]:
            if "file_name" not in image:
                raise self._missing("file_name")
            if "id" not in image:
                raise self._missing("id")
            files[image["id"]] = image["file_name"]
        if "annotations" not in doc:
            raise self._missing("annotations")
        task = self.task
        categories = {}
        if task in ("Detection", "Panoptic"):
            if "categories" not in doc:
                raise self._missing("categories")
            for category in doc["categories"]:
                if "id" not in category:
                    raise self._missing("id")
                if "name" not in category:
                    raise self._missing("name")
                entry = [category["id"]]
                if task == "Panoptic":
                    if "isthing" not in category:
                        raise self._missing("isthing")
                    entry.append(category["isthing"])
                categories.setdefault(category["name"], entry)
            self._class_indexing = categories
        known = {entry[0] for entry in categories.values()}
        per_image: dict = {}
        for annotation in doc["annotations"]:
            if "image_id" not in annotation:
                raise self._missing("image_id")
            image_id = annotation["image_id"]
            if image_id not in files:
                raise _pipeline_error(f"Invalid annotation, the attribute of 'image_id': "
                                      f"{image_id} is missing from image node in annotation "
                                      f"file: {self.annotation_file}")
            entries = per_image.setdefault(image_id, [])
            if task == "Panoptic":
                if "segments_info" not in annotation:
                    raise self._missing("segments_info")
                for segment in annotation["segments_info"]:
                    entries.append(self._panoptic(segment, known))
            else:
                entries.append(self._annotation(annotation, known))
        rows = []
        for image_id, file_name in files.items():
            if image_id in per_image:
                rows.append((file_name, per_image[image_id]))
        return rows

    def _field(self, annotation: dict, name: str):
        if name not in annotation:
            raise self._missing(name)
        return annotation[name]

    def _category(self, annotation: dict, known: set) -> int:
        category = self._field(annotation, "category_id")
        if category not in known:
            raise _pipeline_error(f"Invalid annotation, the attribute of 'category_id': "
                                  f"{category} is missing in the node of 'categories' from "
                                  f"annotation file: {self.annotation_file}")
        return category

    def _annotation(self, annotation: dict, known: set):
        task = self.task
        if task == "Captioning":
            return self._field(annotation, "caption")
        if task == "Keypoint":
            return (self._field(annotation, "keypoints"),
                    self._field(annotation, "num_keypoints"))
        crowd = annotation.get("iscrowd", 0)
        if task == "Detection":
            return (self._field(annotation, "bbox"), self._category(annotation, known), crowd)
        self._field(annotation, "id")
        segmentation = self._field(annotation, "segmentation")  # Stuff
        polygons = [segmentation["counts"]] if crowd else list(segmentation)
        return polygons, crowd

    def _panoptic(self, segment: dict, known: set):
        return (self._field(segment, "bbox"), self._category(segment, known),
                self._field(segment, "iscrowd"), self._field(segment, "area"))

    def row_at(self, index):
        file_name, entries = self.index[index]
        image = read_file_bytes(os.path.join(self.dataset_dir, file_name))
        if self.decrypt is not None:
            image = np.frombuffer(self.decrypt(image.tobytes()), np.uint8)
        if self.decode:
            image = _decoded(image)
        row = [image] + self._columns(entries)
        if self.extra_metadata:
            row.append(np.array(os.path.splitext(file_name)[0]))
        return tuple(row)

    def _columns(self, entries):
        task = self.task

        def column(values, dtype, width=1):
            return np.array(values, dtype).reshape(-1, width)

        if task == "Captioning":
            return [np.array(entries, np.str_).reshape(-1, 1)]
        if task == "Keypoint":
            width = max(len(k) for k, _ in entries)
            return [column([k for k, _ in entries], np.float32, width),
                    column([n for _, n in entries], np.uint32)]
        if task == "Stuff":
            polygons = [p for ps, _ in entries for p in ps]
            width = max(len(p) for p in polygons)
            padded = np.full((len(polygons), width), -1, np.float32)
            for i, polygon in enumerate(polygons):
                padded[i, :len(polygon)] = polygon
            return [padded, column([c for _, c in entries], np.uint32)]
        out = [column([e[0] for e in entries], np.float32, 4),
               column([e[1] for e in entries], np.uint32),
               column([e[2] for e in entries], np.uint32)]
        if task == "Panoptic":
            out.append(column([e[3] for e in entries], np.uint32))
        return out

    def get_class_indexing(self) -> dict:
        """{category name: [id]} (Panoptic: [id, isthing]), from the annotation file."""
        if self.task not in {"Detection", "Panoptic"}:
            raise NotImplementedError("Only 'Detection' and 'Panoptic' support "
                                      "get_class_indexing.")
        self.index  # noqa: B018  (reads the annotation file, which sets the categories)
        return dict(self._class_indexing)
