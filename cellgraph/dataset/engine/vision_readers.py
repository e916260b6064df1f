"""Image sources with random access that read an annotated folder as MindSpore's readers do:
COCO (its five tasks). Columns, dtypes, row order, argument checks and error messages are
MindSpore's; the rows a source gives are chosen by the common sampler rules (shuffle,
sampler, num_samples, num_shards/shard_id)."""
from __future__ import annotations

import json
import os
import re
from typing import ClassVar

import numpy as np

from ..core.validator_helpers import (
    check_arguments,
    check_dir,
    check_file,
    check_mappable_source,
    check_pos_int32,
    check_sampler_shuffle_shard_options,
    check_valid_str,
    type_check,
    validate_dataset_param_value,
)
from ..readers import MnistDataset
from ..samplers import PKSampler
from ..sources import MappableSource

__all__ = ["CelebADataset", "CocoDataset", "EMnistDataset", "FakeImageDataset", "KITTIDataset", "LFWDataset", "ManifestDataset", "OmniglotDataset",
           "load_image",
           "read_file_bytes"]


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


def load_image(path: str, decode: bool, decrypt=None) -> np.ndarray:
    """An image file's bytes, passed through `decrypt` (a function of the file's path giving
    its bytes) when given, and decoded (HWC RGB) with `decode`."""
    if decrypt is None:
        raw = read_file_bytes(path)
    else:
        from ..nodes import ROW_FILE

        ROW_FILE.path = os.path.realpath(path)
        data = decrypt(path)
        if not isinstance(data, bytes):
            raise _pipeline_error(f"The return value of the decrypt function is not of type "
                                  f"bytes, but got {type(data)}.")
        raw = np.frombuffer(data, np.uint8)
    return _decoded(raw) if decode else raw


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

    @check_arguments
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

    def build(self):
        """MindSpore's reading of the annotation file (its checks, in its order and words): the
        images' file names by id, the categories (Detection, Panoptic), then each annotation
        by its image; the rows are the listed images that have annotations."""
        try:
            with open(self.annotation_file, encoding="utf-8") as f:
                doc = json.load(f)
        except (ValueError, UnicodeDecodeError) as error:
            raise _pipeline_error(f"Invalid annotation file, Coco Dataset annotation file:"
                                  f"{self.annotation_file} load failed, error description: "
                                  f"{error}") from None
        images = self._node(doc, "images")
        if not images:
            raise _pipeline_error(f"Invalid annotation, the 'image' node is missing in "
                                  f"annotation file: {self.annotation_file}.")
        files, order = {}, []
        for image in images:
            name = self._node(image, "file_name")
            files[self._node(image, "id")] = name
            order.append(name)
        task = self.task
        self._known = set()
        if task in ("Detection", "Panoptic"):
            self._class_indexing = self._categories(self._node(doc, "categories"))
        entries: dict = {}
        for annotation in self._node(doc, "annotations"):
            image_id = self._node(annotation, "image_id")
            if image_id not in files:
                raise _pipeline_error(f"Invalid annotation, the attribute of 'image_id': "
                                      f"{image_id} is missing in the node of 'image' from "
                                      f"annotation file: {self.annotation_file}")
            file_name = files[image_id]
            if task == "Panoptic":
                entries.setdefault(file_name, []).extend(self._panoptic(annotation, image_id))
                continue
            unique_id = self._node(annotation, "id")
            entries.setdefault(file_name, []).append(self._annotation(annotation, unique_id))
        rows = [(name, entries[name]) for name in order if name in entries]
        if not rows:
            raise _pipeline_error(f"Invalid data, 'CocoDataset' API can't read the data file "
                                  f"(interface mismatch or no data found). Check file in "
                                  f"directory: {self.dataset_dir}.")
        return rows

    def _node(self, tree: dict, name: str):
        if not isinstance(tree, dict) or name not in tree:
            raise _pipeline_error(f"Invalid annotation, the attribute of '{name}' is missing in "
                                  f"annotation file: {self.annotation_file}.")
        return tree[name]

    def _categories(self, categories) -> dict:
        if not categories:
            raise _pipeline_error(f"Invalid annotation, the 'categories' node is missing in "
                                  f"annotation file: {self.annotation_file}.")
        indexing = {}
        for category in categories:
            if "id" not in category:
                raise _pipeline_error(f"Invalid annotation, the attribute of 'id' is missing in "
                                      f"the node of 'categories' from annotation file: "
                                      f"{self.annotation_file}")
            info = [category["id"]]
            self._known.add(category["id"])
            if "name" not in category:
                raise _pipeline_error(f"Invalid annotation, the attribute of 'name' is missing "
                                      f"in the node of 'categories' where 'id': {info[0]}")
            if self.task == "Panoptic":
                if "isthing" not in category:
                    raise _pipeline_error(f"Invalid annotation, the attribute of 'isthing' is "
                                          f"missing in the node of 'categories' from annotation "
                                          f"file: {self.annotation_file}")
                info.append(category["isthing"])
            indexing[category["name"]] = info
        return indexing

    def _category(self, tree: dict, where: str = "annotation file: ") -> int:
        category = self._node(tree, "category_id")
        if category not in self._known:
            raise _pipeline_error(f"Invalid annotation, the attribute of 'category_id': "
                                  f"{category} is missing in the node of 'categories' from "
                                  f"{where}{self.annotation_file}" +
                                  ("." if where == "" else ""))
        return category

    def _annotation(self, annotation: dict, unique_id):
        task = self.task
        if task == "Captioning":
            return self._node(annotation, "caption")
        if task == "Keypoint":
            for key, shown in (("num_keypoints", "num_keypoint"), ("keypoints", "keypoint")):
                if key not in annotation:
                    raise _pipeline_error(f"Invalid annotation, the '{shown}' node is missing "
                                          f"in annotation file: {self.annotation_file} where "
                                          f"'image_id': {unique_id}.")
            return annotation["keypoints"], annotation["num_keypoints"]
        if task == "Detection":
            bbox = self._node(annotation, "bbox")
            category = self._category(annotation)
            return bbox, category, annotation.get("iscrowd", 0)
        crowd = self._node(annotation, "iscrowd")  # Stuff
        segmentation = self._node(annotation, "segmentation")
        if crowd == 0:
            polygons = list(segmentation)
        elif crowd == 1:
            polygons = [self._node(segmentation, "counts")]
        else:
            polygons = []
        return polygons, crowd

    def _panoptic(self, annotation: dict, image_id) -> list:
        where = f"where 'image_id': {image_id} from annotation file: {self.annotation_file}."
        if "segments_info" not in annotation:
            raise _pipeline_error(f"Invalid annotation, the 'segments_info' node is missing in "
                                  f"annotation file: {self.annotation_file} where 'image_id': "
                                  f"{image_id}.")
        out = []
        for segment in annotation["segments_info"]:
            if "bbox" not in segment:
                raise _pipeline_error(f"Invalid annotation, the 'bbox' attribute is missing in "
                                      f"the node of 'segments_info' {where}")
            category = self._category(segment, where="")
            for key in ("iscrowd", "area"):
                if key not in segment:
                    raise _pipeline_error(f"Invalid annotation, the attribute of '{key}' is "
                                          f"missing in the node of 'segments_info' {where}")
            out.append((segment["bbox"], category, segment["iscrowd"], segment["area"]))
        return out

    def row_at(self, index):
        file_name, entries = self.index[index]
        row = [load_image(os.path.join(self.dataset_dir, file_name), self.decode,
                          self.decrypt)] + self._columns(entries)
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
            width = max((len(k) for k, _ in entries), default=0)
            return [column([k for k, _ in entries], np.float32, width),
                    column([n for _, n in entries], np.uint32)]
        if task == "Stuff":
            polygons = [p for ps, _ in entries for p in ps]
            width = max((len(p) for p in polygons), default=0)
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


class _ImageRows(MappableSource):
    """Rows of image files (and their labels) listed when the source is made: subclasses fill
    `self.items` with (paths, labels) — a tuple of image paths and a tuple of label values —
    and `label_dtype`."""

    label_dtype = np.uint32

    def __init__(self, names, items, decode, num_samples, shuffle, sampler, num_shards,
                 shard_id, cache, decrypt=None):
        self.items, self.decode, self.decrypt = items, decode, decrypt
        super().__init__(names, num_samples, shuffle, sampler, num_shards, shard_id, cache)

    @property
    def num_rows(self):
        return len(self.items)

    def image(self, path) -> np.ndarray:
        return load_image(path, self.decode, self.decrypt)

    def row_at(self, index):
        paths, labels = self.items[index]
        return tuple([self.image(p) for p in paths] +
                     [np.array(v, self.label_dtype) for v in labels])


class LFWDataset(_ImageRows):
    """Labeled Faces in the Wild: task "people" (columns image, label: the person's index in
    lfw-names.txt) or "pairs" (image1, image2, label: 1 for the same person), from the list
    files of `usage` ("train": *DevTrain.txt, "test": *DevTest.txt, "all": both, "10fold":
    people.txt / pairs.txt); images under lfw/, lfw_funneled/ (default) or lfw-deepfunneled/
    (`image_set` "original", "funneled", "deepfunneled") as <name>/<name>_<nnnn>.jpg."""

    op = "LFWDataset"
    _FOLDERS: ClassVar[dict] = {"original": "lfw", "funneled": "lfw_funneled",
                                "deepfunneled": "lfw-deepfunneled"}

    @check_arguments
    def __init__(self, dataset_dir, task=None, usage=None, image_set=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if task is not None:
            check_valid_str(task, ["people", "pairs"], "task")
        if usage is not None:
            check_valid_str(usage, ["10fold", "train", "test", "all"], "usage")
        if image_set is not None:
            check_valid_str(image_set, ["original", "funneled", "deepfunneled"], "image_set")
        check_mappable_source(params)
        self.dataset_dir = dataset_dir
        self.task = "people" if task is None else task
        self.usage = "all" if usage is None else usage
        self.image_set = "funneled" if image_set is None else image_set
        stem = "people" if self.task == "people" else "pairs"
        lists = {"train": [f"{stem}DevTrain.txt"], "test": [f"{stem}DevTest.txt"],
                 "all": [f"{stem}DevTrain.txt", f"{stem}DevTest.txt"],
                 "10fold": [f"{stem}.txt"]}[self.usage]
        folder = os.path.join(dataset_dir, self._FOLDERS[self.image_set])
        names = self._names_file()
        items = []
        for list_file in lists:
            for fields in self._records(os.path.join(dataset_dir, list_file)):
                if self.task == "people" and len(fields) == 2:
                    name, count = fields[0], int(fields[1])
                    label = names.setdefault(name, len(names))
                    items.extend(((_lfw_path(folder, name, k),), (label,))
                                 for k in range(1, count + 1))
                elif self.task == "pairs" and len(fields) == 3:
                    name, a, b = fields
                    items.append(((_lfw_path(folder, name, int(a)),
                                   _lfw_path(folder, name, int(b))), (1,)))
                elif self.task == "pairs" and len(fields) == 4:
                    items.append(((_lfw_path(folder, fields[0], int(fields[1])),
                                   _lfw_path(folder, fields[2], int(fields[3]))), (0,)))
        columns = ["image", "label"] if self.task == "people" else ["image1", "image2", "label"]
        super().__init__(columns, items, decode, num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def _names_file(self) -> dict:
        path = os.path.join(self.dataset_dir, "lfw-names.txt")
        names: dict = {}
        if os.path.isfile(path):
            for fields in self._records(path):
                names.setdefault(fields[0], len(names))
        return names

    @staticmethod
    def _records(path) -> list[list[str]]:
        """The lines of a list file that name images (count lines, all digits, left out)."""
        if not os.path.isfile(path):
            raise _pipeline_error(f"Invalid file, failed to open file: {path}")
        with open(path, encoding="utf-8") as f:
            rows = [line.split() for line in f]
        return [fields for fields in rows if fields and not all(f.isdigit() for f in fields)]


def _lfw_path(folder, name, number) -> str:
    return os.path.join(folder, name, f"{name}_{number:04d}.jpg")


class ManifestDataset(_LazySource):
    """A manifest file (a JSON record a line: "source" image path, "usage" and "annotation"
    names): the images of `usage` ("train", "eval" or "inference"), columns image and label
    int32 (a scalar, or one index per name for an image with several); classes are the names
    of those images in sorted order, or `class_indexing` (then only images with a name in it
    are read)."""

    op = "ManifestDataset"

    @check_arguments
    def __init__(self, dataset_file, usage="train", num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, class_indexing=None, decode=False,
                 num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_file(dataset_file)
        check_mappable_source(params)
        for name, kind in (("usage", str), ("class_indexing", dict)):
            if params[name] is not None:
                type_check(params[name], (kind,), name)
        if usage not in ("inference", "eval", "train"):
            raise RuntimeError(f"Syntax error. \n\n- Dataset Pipeline Error Message: \n"
                               f"[ERROR] ManifestDataset: {usage} does not match any mode in "
                               f"[ inference eval train ]")
        self.dataset_file, self.usage, self.decode = dataset_file, usage, decode
        self._given_classes = None if class_indexing is None else dict(class_indexing)
        self._classes = None
        super().__init__(["image", "label"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def build(self):
        records = []
        line_count = 1  # as MindSpore counts: a line that is read to its end
        with open(self.dataset_file, encoding="utf-8") as f:
            for line in f:
                try:
                    record = json.loads(line)
                except ValueError as error:
                    raise _pipeline_error(f"Invalid manifest file, parse ManiFest file: "
                                          f"{self.dataset_file} failed, {error}") from None
                source = record.get("source", "")
                if not source:
                    raise self._missing("'source' is", line_count)
                if not _image_type_known(source):  # not JPEG/PNG/GIF/BMP: left out
                    continue
                usage = record.get("usage", "")
                if not usage:
                    raise self._missing("'usage' is", line_count)
                if usage.lower() != self.usage:
                    continue
                names = []
                for annotation in record.get("annotation", []):
                    name = annotation.get("name", "")
                    if not name:
                        raise self._missing("'name' attribute of label is", line_count)
                    if self._given_classes is None or name in self._given_classes:
                        names.append(name)
                if names:
                    records.append((source, names))
                line_count += 1
        self._num_classes = len({n for _, names in records for n in names})
        if not records:
            raise _pipeline_error(f"Invalid data, ManifestDataset API can't read the data file "
                                  f"(interface mismatch or no data found). Check file path: "
                                  f"{self.dataset_file}")
        if self._given_classes is None:
            self._classes = {name: i for i, name in enumerate(
                sorted({n for _, names in records for n in names}))}
        else:
            self._classes = dict(self._given_classes)
        return [(source, [self._classes[n] for n in names]) for source, names in records]

    def _missing(self, what: str, line: int) -> RuntimeError:
        return _pipeline_error(f"Invalid manifest file, {what} missing in file: "
                               f"{self.dataset_file} at line {line}")

    def row_at(self, index):
        source, labels = self.index[index]
        image = read_file_bytes(source)
        if self.decode:
            image = _decoded(image)
        label = np.array(labels[0] if len(labels) == 1 else labels, np.int32)
        return image, label

    def get_class_indexing(self) -> dict:
        self.index  # noqa: B018  (reads the manifest, which sets the classes)
        return dict(self._classes)

    def num_classes(self) -> int:
        """The number of label names the rows hold (those of `class_indexing` only, when it
        is given)."""
        self.index  # noqa: B018  (reads the manifest, which counts the classes)
        return self._num_classes


def _image_type_known(path: str) -> bool:
    """Whether the file starts as a JPEG, PNG, GIF or BMP does (MindSpore's manifest reader
    leaves the others out); a file that cannot be read, or is shorter than 3 bytes, is
    MindSpore's error."""
    if not os.path.isfile(path):
        raise _pipeline_error(f"Invalid file path, {path} does not exist.")
    with open(path, "rb") as f:
        head = f.read(3)
    if len(head) < 3:
        raise _pipeline_error(f"Invalid manifest file, failed to read {path} : the manifest "
                              f"file is damaged or permission denied.")
    return head in (b"\xff\xd8\xff", b"\x89PN", b"GIF") or head[:2] == b"BM"


class CelebADataset(_ImageRows):
    """CelebA: the images listed in `dataset_dir`/list_attr_celeba.txt (those of `usage`
    "train", "valid" or "test" by list_eval_partition.txt, or "all"; with `extensions`, only
    files so ending), columns image and attr (uint32 (40,): the attributes, -1 read as 0)."""

    op = "CelebADataset"
    _PARTS: ClassVar[dict] = {"train": "0", "valid": "1", "test": "2"}

    @check_arguments
    def __init__(self, dataset_dir, num_parallel_workers=None, shuffle=None, usage="all",
                 sampler=None, decode=False, extensions=None, num_samples=None,
                 num_shards=None, shard_id=None, cache=None, decrypt=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if decrypt is not None and not callable(decrypt):
            raise TypeError(f"Argument decrypt is not a callable object, but got "
                            f"{type(decrypt)}")
        check_mappable_source(params)
        if extensions is not None:
            type_check(extensions, (list,), "extensions")
        if usage is not None and usage not in ("all", "train", "valid", "test"):
            raise ValueError("usage should be 'all', 'train', 'valid' or 'test'.")
        if isinstance(sampler, PKSampler):
            raise ValueError("CelebADataset doesn't support PKSampler.")  # noqa: TRY004
        self.dataset_dir, self.usage = dataset_dir, "all" if usage is None else usage
        self.extensions = extensions
        keep = None
        if self.usage != "all":
            keep = set()
            with open(os.path.join(dataset_dir, "list_eval_partition.txt"),
                      encoding="utf-8") as f:
                for line in f:
                    fields = line.split()
                    if len(fields) == 2 and fields[1] == self._PARTS[self.usage]:
                        keep.add(fields[0])
        items = []
        with open(os.path.join(dataset_dir, "list_attr_celeba.txt"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        for line in lines[2:]:
            fields = line.split()
            if not fields or (keep is not None and fields[0] not in keep):
                continue
            if extensions and not fields[0].endswith(tuple(extensions)):
                continue
            attr = [1 if int(v) == 1 else 0 for v in fields[1:]]
            items.append(((os.path.join(dataset_dir, fields[0]),), (attr,)))
        super().__init__(["image", "attr"], items, decode, num_samples, shuffle, sampler,
                         num_shards, shard_id, cache, decrypt)

    @property
    def num_rows(self):
        if not self.items:
            raise _pipeline_error(f"Invalid data, CelebADataset API can't read the data file "
                                  f"(interface mismatch or no data found). Check file path: "
                                  f"{self.dataset_dir}")
        return len(self.items)


class EMnistDataset(MnistDataset):
    """EMNIST: the IDX files emnist-<name>-<usage>-{images-idx3,labels-idx1}-ubyte of the
    split `name` ("byclass", "bymerge", "balanced", "letters", "digits" or "mnist"); the
    columns of MnistDataset (image (28, 28, 1) uint8, label uint32)."""

    op = "EMnistDataset"
    _ALL: ClassVar[tuple] = ("test", "train")

    @check_arguments
    def __init__(self, dataset_dir, name, usage=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        params = dict(locals())
        validate_dataset_param_value(["num_samples", "num_parallel_workers", "num_shards",
                                      "shard_id"], params, int)
        validate_dataset_param_value(["shuffle"], params, bool)
        check_dir(dataset_dir)
        check_valid_str(name, ["byclass", "bymerge", "balanced", "letters", "digits", "mnist"],
                        "name")
        if usage is not None:
            check_valid_str(usage, ["train", "test", "all"], "usage")
        check_sampler_shuffle_shard_options(params)
        self.name = name
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         sampler, num_shards, shard_id, cache)

    def _files(self) -> tuple[list, list]:
        """The (images, labels) files of the usage's parts (with "all": the parts there)."""
        parts = self._ALL if self.usage == "all" else (self.usage,)
        if self.usage == "all":
            parts = [p for p in parts if self._find(p, "images-idx3-ubyte", required=False)]
        parts = parts or ("train",)
        return ([os.path.realpath(self._find(p, "images-idx3-ubyte")) for p in parts],
                [self._find(p, "labels-idx1-ubyte") for p in parts])

    def _find(self, part, suffix, required=True):
        path = os.path.join(self.dataset_dir, f"emnist-{self.name}-{part}-{suffix}")
        if os.path.isfile(path):
            return path
        if not required:
            return None
        raise _pipeline_error(f"Invalid file, failed to open file: {os.path.realpath(path)}")


class FakeImageDataset(_LazySource):
    """`num_images` generated rows: image (`image_size`, uint8) and label (uint32 in
    [0, num_classes)). Row i's generator is std::mt19937 seeded with base_seed + i, as
    MindSpore's; its label is that generator's first uniform draw (MindSpore's labels), and
    its pixels the draws after it (MindSpore's pixel values are not reproduced)."""

    op = "FakeImageDataset"

    @check_arguments
    def __init__(self, num_images=1000, image_size=(224, 224, 3), num_classes=10, base_seed=0,
                 num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        validate_dataset_param_value(["num_images", "num_classes", "base_seed", "num_samples",
                                      "num_parallel_workers", "num_shards", "shard_id"],
                                     params, int)
        validate_dataset_param_value(["shuffle"], params, bool)
        check_pos_int32(num_images, "num_images")
        type_check(image_size, (list, tuple), "image_size")
        if len(image_size) != 3:
            raise ValueError(f"image_size should be a list or tuple of length 3, but got "
                             f"{len(image_size)}")
        for i, value in enumerate(image_size):
            check_pos_int32(value, f"image_size[{i}]")
        check_pos_int32(num_classes, "num_classes")
        check_sampler_shuffle_shard_options(params)
        self.num_images, self.image_size = num_images, tuple(image_size)
        self.num_classes, self.base_seed = num_classes, base_seed
        super().__init__(["image", "label"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def build(self):
        from .._std_shuffle import Mt19937Words, uniform_below

        return [uniform_below(Mt19937Words(self.base_seed + i), self.num_classes)
                for i in range(self.num_images)]

    def row_at(self, index):
        from .._std_shuffle import Mt19937Words, uniform_below

        words = Mt19937Words(self.base_seed + index)
        label = uniform_below(words, self.num_classes)
        size = int(np.prod(self.image_size))
        pixels = (words.block(size) >> 24).astype(np.uint8)
        return pixels.reshape(self.image_size), np.array(label, np.uint32)


class KITTIDataset(_LazySource):
    """KITTI object detection: data_object_image_2/{training,testing}/image_2/<nnnnnn>.png
    (as many ids, from 000000 on, as the folder holds files) and, for usage "train", the
    labels in data_object_label_2/training/label_2/<nnnnnn>.txt: columns image, label
    (uint32: the object type's index among the sorted type names), truncated, occluded
    (uint32), alpha, bbox (xmin, ymin, xmax, ymax), dimensions, location, rotation_y
    (float32, one row per object). usage "test" gives the image column only."""

    op = "KITTIDataset"
    _TRAIN_COLUMNS: ClassVar[list] = ["image", "label", "truncated", "occluded", "alpha",
                                      "bbox", "dimensions", "location", "rotation_y"]

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "test"], "usage")
        check_mappable_source(params)
        self.dataset_dir, self.decode = dataset_dir, decode
        self.usage = "train" if usage is None else usage
        self._labels: dict = {}
        super().__init__(self._TRAIN_COLUMNS if self.usage == "train" else ["image"],
                         num_samples, shuffle, sampler, num_shards, shard_id, cache)

    def build(self):
        part = "training" if self.usage == "train" else "testing"
        folder = os.path.join(self.dataset_dir, "data_object_image_2", part, "image_2")
        if not os.path.isdir(folder):
            raise _pipeline_error(f"Invalid path, failed to open KITTI image dir: {folder}, "
                                  f"permission denied.")
        ids = [f"{i:06d}" for i in range(len(os.listdir(folder)))]
        rows = [(os.path.join(folder, f"{i}.png"), None) for i in ids]
        if self.usage != "train":
            return rows
        names, kept = set(), []
        for (image, _), i in zip(rows, ids):
            path = os.path.join(self.dataset_dir, "data_object_label_2", "training", "label_2",
                                f"{i}.txt")
            if not os.path.exists(path):
                raise _pipeline_error(f"Invalid path, {path} does not exist.")
            objects = []
            with open(path, encoding="utf-8") as f:
                for line in f:
                    fields = line.split()
                    if not fields:
                        continue
                    values = [_atof(v) for v in (fields[1:15] + ["0"] * 14)[:14]]
                    objects.append((fields[0], values))
                    names.add(fields[0])
            if objects:
                kept.append((image, objects))
        self._labels = {name: i for i, name in enumerate(sorted(names))}
        if not kept:
            raise _pipeline_error("Invalid data, no valid data matching the dataset API "
                                  "KITTIDataset. Please check file path or dataset API.")
        return kept

    def row_at(self, index):
        image, objects = self.index[index]
        row = [load_image(image, self.decode)]
        if objects is None:
            return tuple(row)
        values = np.array([v for _, v in objects], np.float32)
        labels = np.array([[self._labels[name]] for name, _ in objects], np.uint32)
        occluded = values[:, 1:2].astype(np.int64).astype(np.uint32)
        return tuple(row + [labels, values[:, 0:1], occluded, values[:, 2:3], values[:, 3:7],
                            values[:, 7:10], values[:, 10:13], values[:, 13:14]])


def _atof(text: str) -> float:
    """C's atof: the longest leading number of `text`, 0.0 where there is none."""
    match = re.match(r"\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)", text)
    return float(match.group(0)) if match else 0.0


class OmniglotDataset(_ImageRows):
    """Omniglot: the images under images_background/ (`background` True, the default) or
    images_evaluation/ of `dataset_dir`, one class per <alphabet>/<character> folder (sorted
    by that path; label int32), files in name order."""

    op = "OmniglotDataset"
    label_dtype = np.int32

    @check_arguments
    def __init__(self, dataset_dir, background=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        check_mappable_source(params, bools=("shuffle", "background", "decode"))
        self.dataset_dir = dataset_dir
        self.background = True if background is None else background
        root = os.path.join(dataset_dir, "images_background" if self.background else
                            "images_evaluation")
        classes = []
        if os.path.isdir(root):
            for alphabet in sorted(os.listdir(root)):
                folder = os.path.join(root, alphabet)
                if os.path.isdir(folder):
                    classes.extend(os.path.join(alphabet, c) for c in sorted(os.listdir(folder))
                                   if os.path.isdir(os.path.join(folder, c)))
        classes.sort()
        self.class_indexing = {name: i for i, name in enumerate(classes)}
        items = []
        for name in classes:
            folder = os.path.join(root, name)
            items.extend(((os.path.join(folder, file),), (self.class_indexing[name],))
                         for file in sorted(os.listdir(folder))
                         if os.path.isfile(os.path.join(folder, file)))
        super().__init__(["image", "label"], items, decode, num_samples, shuffle, sampler,
                         num_shards, shard_id, cache)

    def num_classes(self) -> int:
        return len(self.class_indexing)
