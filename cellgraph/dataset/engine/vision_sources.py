"""More image sources with random access, reading the files MindSpore's readers read: VOC
(its Segmentation and Detection tasks), WIDERFace, Flickr8k/30k, QMNIST, STL-10, SUN397 and
SBU. Columns,
dtypes, row order, argument checks and error messages are MindSpore's; the rows a source gives
are chosen by the common sampler rules (shuffle, sampler, num_samples, num_shards/shard_id)."""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from typing import ClassVar

import numpy as np

from ..core.validator_helpers import (
    check_arguments,
    check_dir,
    check_file,
    check_mappable_source,
    type_check,
    validate_dataset_param_value,
)
from ..readers import ImageFolderDataset
from .vision_readers import (
    _atof,
    _image_type_known,
    _LazySource,
    _pipeline_error,
    check_valid_str,
    load_image,
    read_file_bytes,
)

__all__ = [
    "Caltech256Dataset",
    "FlickrDataset",
    "QMnistDataset",
    "SBUDataset",
    "STL10Dataset",
    "SUN397Dataset",
    "VOCDataset",
    "WIDERFaceDataset",
]


def _lines(text: str) -> list[str]:
    """The lines std::getline gives: split at "\\n", no empty last line after a final "\\n"."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _check_decrypt(decrypt) -> None:
    if decrypt is not None and not callable(decrypt):
        raise TypeError(f"Argument decrypt is not a callable object, but got {type(decrypt)}")


def _decoded(path, decode, message):
    """load_image(path, decode), failing with the reader's own message for a broken image."""
    try:
        return load_image(path, decode)
    except RuntimeError:
        raise _pipeline_error(message) from None


class VOCDataset(_LazySource):
    """PASCAL VOC: the image ids of ImageSets/<Segmentation|Main>/<usage>.txt. Task
    "Segmentation": columns image and target (JPEGImages/<id>.jpg, SegmentationClass/<id>.png,
    uint8 file bytes or decoded). Task "Detection": image, bbox (float32 (n, 4): xmin, ymin,
    width, height), label, difficult, truncate (uint32 (n, 1)) from Annotations/<id>.xml, the
    ids whose annotation holds a named object (one in `class_indexing`, when given); labels are
    the `class_indexing` values, or the indexes of the sorted object names. `extra_metadata`
    adds `_meta-filename` (the image id)."""

    op = "VOCDataset"

    @check_arguments
    def __init__(self, dataset_dir, task="Segmentation", usage="train", class_indexing=None,
                 num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None, extra_metadata=False,
                 decrypt=None):
        params = dict(locals())
        check_dir(dataset_dir)
        type_check(task, (str,), "task")
        type_check(usage, (str,), "usage")
        root = os.path.realpath(dataset_dir)
        if task == "Segmentation":
            sets = os.path.join(root, "ImageSets", "Segmentation", usage + ".txt")
            if class_indexing is not None:
                raise ValueError("class_indexing is not supported in Segmentation task.")
        elif task == "Detection":
            sets = os.path.join(root, "ImageSets", "Main", usage + ".txt")
        else:
            raise ValueError("Invalid task : " + task + ".")
        _check_decrypt(decrypt)
        check_file(sets)
        check_mappable_source(params)
        validate_dataset_param_value(["class_indexing"], params, dict)
        self.dataset_dir, self.task, self.usage = dataset_dir, task, usage
        self.class_indexing = {} if class_indexing is None else dict(class_indexing)
        self.decode, self.extra_metadata, self.decrypt = decode, extra_metadata, decrypt
        self._sets, self._labels = sets, {}
        names = ["image", "target"] if task == "Segmentation" else \
            ["image", "bbox", "label", "difficult", "truncate"]
        super().__init__(names + (["_meta-filename"] if extra_metadata else []), num_samples,
                         shuffle, sampler, num_shards, shard_id, cache)

    def _path(self, folder: str, image_id: str, extension: str) -> str:
        return self.dataset_dir + "/" + folder + "/" + image_id + extension

    def build(self):
        with open(self._sets, encoding="utf-8", newline="") as f:
            ids = [line.removesuffix("\r") for line in _lines(f.read())]
        if self.task != "Detection":
            return [(i, None) for i in ids]
        rows, names = [], set()
        for image_id in ids:
            objects = self._objects(self._path("Annotations", image_id, ".xml"))
            if objects:
                rows.append((image_id, objects))
                names.update(name for name, _ in objects)
        self._labels = {name: i for i, name in enumerate(sorted(names))}
        if not rows:
            raise _pipeline_error(f"Invalid data, VOCDataset API can't read the data file "
                                  f"(interface mismatch or no data found). Check file in "
                                  f"directory:{self.dataset_dir}")
        return rows

    def _objects(self, path: str) -> list:
        """MindSpore's reading of one annotation: each <object>'s name, difficult, truncated
        and <bndbox> (a box that is not inside the image's positive quadrant is an error);
        objects without a name, or not in `class_indexing`, are left out."""
        if not os.path.exists(path):
            raise _pipeline_error(f"Invalid file path, {path} does not exist.")
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError:
            raise _pipeline_error(f"Invalid xml, failed to load {path}: the xml file is damaged "
                                  f"or incorrect format.") from None
        found = root.findall("object")
        if not found:
            raise _pipeline_error(f"Invalid xml, the node of object is missing in {path}.")

        def value(node, name):
            child = None if node is None else node.find(name)
            return np.float32(_atof(child.text or "")) if child is not None else np.float32(0)

        objects = []
        for obj in found:
            name_node = obj.find("name")
            name = (name_node.text or "") if name_node is not None else ""
            difficult, truncated = value(obj, "difficult"), value(obj, "truncated")
            box = obj.find("bndbox")
            if box is None:
                raise _pipeline_error(f"Invalid xml, the node of bndbox is missing in {path}")
            xmin, xmax = value(box, "xmin"), value(box, "xmax")
            ymin, ymax = value(box, "ymin"), value(box, "ymax")
            if not (xmin > 0 and ymin > 0 and xmax > xmin and ymax > ymin):
                shown = ", ".join(str(int(v)) for v in (xmin, ymin, xmax, ymax))
                raise _pipeline_error(f"Invalid bndbox, the coordinate of bndbox in {path} "
                                      f"should be greater than 0, but got {{{shown}}}")
            if name and (not self.class_indexing or name in self.class_indexing):
                objects.append((name, [xmin, ymin, xmax - xmin, ymax - ymin, difficult,
                                       truncated]))
        return objects

    def row_at(self, index):
        image_id, objects = self.index[index]
        image = load_image(self._path("JPEGImages", image_id, ".jpg"), self.decode,
                           self.decrypt)
        if objects is None:
            target = load_image(self._path("SegmentationClass", image_id, ".png"), self.decode,
                                self.decrypt)
            row = [image, target]
        else:
            labels = [self.class_indexing.get(name, self._labels[name]) for name, _ in objects]
            values = np.array([v for _, v in objects], np.float32).reshape(-1, 6)
            row = [image, values[:, :4].copy(), np.array(labels, np.uint32).reshape(-1, 1),
                   values[:, 4:5].astype(np.uint32), values[:, 5:6].astype(np.uint32)]
        if self.extra_metadata:
            row.append(np.array(image_id))
        return tuple(row)

    def get_class_indexing(self) -> dict:
        """{object name: label} of the Detection task: `class_indexing` when given, else the
        sorted names of the objects the annotations hold, numbered from 0."""
        if self.task != "Detection":
            raise NotImplementedError("Only 'Detection' support get_class_indexing.")
        if self.class_indexing:
            return dict(self.class_indexing)
        self.index  # noqa: B018  (reads the annotations, which name the classes)
        return dict(self._labels)

    def num_classes(self):
        return None


class WIDERFaceDataset(_LazySource):
    """WIDER FACE: the .jpg files of each event folder under WIDER_<train|val|test>/images
    (folders in name order, files in directory order); usage "train", "valid" or "all" (train
    then val) add the boxes of wider_face_split/wider_face_<train|val>_bbx_gt.txt: bbox (n, 4),
    blur, expression, illumination, occlusion, pose, invalid (n,), int32 as MindSpore gives
    them; usage "test" gives the image column only."""

    op = "WIDERFaceDataset"
    _COLUMNS: ClassVar[list] = ["image", "bbox", "blur", "expression", "illumination",
                                "occlusion", "pose", "invalid"]

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "test", "valid", "all"], "usage")
        check_mappable_source(params, bools=("decode", "shuffle"))
        self.dataset_dir, self.decode = dataset_dir, decode
        self.usage = "all" if usage is None else usage
        self._boxes: dict = {}
        super().__init__(["image"] if self.usage == "test" else self._COLUMNS, num_samples,
                         shuffle, sampler, num_shards, shard_id, cache)

    def build(self):
        root = os.path.realpath(self.dataset_dir)
        folder = {part: os.path.join(root, f"WIDER_{part}", "images")
                  for part in ("train", "val", "test")}
        split = os.path.join(root, "wider_face_split")
        names: set = set()  # MindSpore keeps one set of event folders across the walks
        images: list = []
        parts = {"train": ["train"], "valid": ["val"], "test": ["test"],
                 "all": ["train", "val"]}[self.usage]
        for part in parts:
            self._walk(folder[part], names, images)
        for part in parts:
            if part != "test":
                self._annotations(os.path.join(split, f"wider_face_{part}_bbx_gt.txt"),
                                  folder[part])
        return images

    @staticmethod
    def _walk(path: str, names: set, images: list) -> None:
        if not os.path.isdir(path):
            raise _pipeline_error(f"Invalid path, failed to open WIDERFace folder: {path}")
        names.update(e.name for e in os.scandir(path) if e.is_dir())
        if not names:
            raise _pipeline_error(f"Invalid file, no subfolder found under path: {path}")
        before = len(images)
        for name in sorted(names):
            sub = os.path.join(path, name)
            if not os.path.isdir(sub):
                raise _pipeline_error(f"Invalid path, failed to open dir: {sub}, not exists or "
                                      f"permission denied.")
            images.extend(e.path for e in os.scandir(sub)
                          if os.path.splitext(e.name)[1] == ".jpg")
        if len(images) == before:
            raise _pipeline_error(f"Invalid file, no .jpg file found under path: {path}")

    def _annotations(self, list_path: str, image_folder: str) -> None:
        """The boxes of a list file: a file name line, a count line, then that many lines of
        ten integers (a count of 0 still takes one line of zeros, as in the files)."""
        if not os.path.isfile(list_path):
            return
        with open(list_path, encoding="utf-8") as f:
            lines = _lines(f.read())
        state, count, seen, image, values = "name", 0, 0, "", []
        for line in lines:
            if state == "name":
                seen, values = 0, []
                image = os.path.join(image_folder, line)
                state = "count"
            elif state == "count":
                try:
                    count = int(line.split()[0]) if line.split() else int(line)
                except ValueError:
                    raise _pipeline_error(f"Invalid data, failed to read the number of bbox: "
                                          f"{line}") from None
                state = "boxes"
            else:
                seen += 1
                fields = [s for s in line.split(" ") if s]
                for i, field in enumerate(fields):
                    try:
                        values.append(int(field))
                    except ValueError:
                        raise _pipeline_error(f"Invalid data, failed to parse the annotation "
                                              f"{i}: {field}") from None
                if seen >= count:
                    self._boxes[image] = values
                    state = "name"

    def row_at(self, index):
        path = self.index[index]
        raw = read_file_bytes(path)
        if self.decode:
            image = _decoded(path, True,
                             f"Invalid file, failed to decode image, the image may be "
                             f"broken or permission denied: {path}")
        else:
            image = raw
        if self.usage == "test":
            return (image,)
        values = self._boxes.get(path, [])
        if len(values) % 10:
            raise _pipeline_error(f"Invalid parameter, only annotation with size multiple of "
                                  f"eight are accepted, but got: {len(values)}")
        table = np.array(values, np.int32).reshape(-1, 10)
        return (image, table[:, :4].copy(), *(table[:, i].copy() for i in range(4, 10)))


class FlickrDataset(_LazySource):
    """Flickr8k / Flickr30k: the lines "<image>#<k>\\t<caption>" of `annotation_file`, whose
    images (JPEG, PNG, GIF or BMP) are in `dataset_dir`; one row per image, in the order of
    the image paths: image and annotation (its captions, str (n,))."""

    op = "FlickrDataset"

    @check_arguments
    def __init__(self, dataset_dir, annotation_file, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=None, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        check_file(annotation_file)
        check_mappable_source(params)
        self.dataset_dir, self.annotation_file = dataset_dir, annotation_file
        self.decode = bool(decode)
        super().__init__(["image", "annotation"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def build(self):
        path = self.annotation_file
        if not os.path.exists(path):
            raise _pipeline_error(f"Invalid file path, {path} does not exist.")
        with open(path, encoding="utf-8", newline="") as f:
            lines = _lines(f.read())
        captions: dict = {}
        for line in lines:
            if not line:
                continue
            tab = line.find("\t")
            image_name = line if tab < 2 else line[:tab - 2]  # "<name>#<k>\t"
            if not image_name:
                raise _pipeline_error(f"Invalid file, the attribute of image_name is missing in "
                                      f"flickr dataset file: {path}, line: {line}")
            annotation = line[tab + 1:]
            if not annotation:
                raise _pipeline_error(f"Invalid file, the attribute of annotation is missing in "
                                      f"flickr dataset file: {path}, line: {line}")
            image = os.path.join(self.dataset_dir, image_name)
            if not os.path.exists(image):
                raise _pipeline_error(f"Invalid file path, flickr dataset file: {image} does not "
                                      f"exist.")
            if not _image_type_known(image):
                continue
            captions.setdefault(image, []).append(annotation)
        if not captions:
            raise _pipeline_error("Invalid data, no valid data matching the dataset API "
                                  "FlickrDataset. Please check file path or dataset API.")
        return sorted(captions.items())

    def row_at(self, index):
        image, captions = self.index[index]
        data = _decoded(image, self.decode,
                        f"Invalid image, failed to decode {image}: the image is "
                        f"damaged or permission denied!")
        return data, np.array(captions, np.str_)


def _big_endian_u32(raw: bytes, offset: int) -> int:
    return int.from_bytes(raw[offset:offset + 4], "big")


class QMnistDataset(_LazySource):
    """QMNIST: qmnist-<train|test>-images-idx3-ubyte / -labels-idx2-int and xnist-* (usage
    "train", "test", "test10k" (its first 10000), "test50k" (the rest), "nist" or "all":
    train, test, nist); columns image (28, 28, 1) uint8 and label uint32: the class (`compat`
    True) or all eight label fields (8,)."""

    op = "QMnistDataset"
    _PARTS: ClassVar[dict] = {"train": ["qmnist-train"], "test": ["qmnist-test"],
                              "test10k": ["qmnist-test"], "test50k": ["qmnist-test"],
                              "nist": ["xnist"],
                              "all": ["qmnist-train", "qmnist-test", "xnist"]}

    @check_arguments
    def __init__(self, dataset_dir, usage=None, compat=True, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "test", "test10k", "test50k", "nist", "all"],
                            "usage")
        check_mappable_source(params, bools=("shuffle", "compat"))
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        self.compat = compat
        super().__init__(["image", "label"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def build(self):
        root = os.path.realpath(self.dataset_dir)
        rows = []
        for prefix in self._PARTS[self.usage]:
            image_file = os.path.join(root, f"{prefix}-images-idx3-ubyte")
            label_file = os.path.join(root, f"{prefix}-labels-idx2-int")
            for path in (image_file, label_file):
                if not os.path.isfile(path):
                    raise _pipeline_error(f"Invalid file path, Qmnist data file: {path} does "
                                          f"not exist or is a directory.")
            images, labels = self._read(image_file, label_file)
            if self.usage == "test10k":
                images, labels = images[:10000], labels[:10000]
            elif self.usage == "test50k":
                images, labels = images[10000:60000], labels[10000:60000]
            rows.extend((image_file, image, label) for image, label in zip(images, labels))
        return rows

    def _read(self, image_file: str, label_file: str):
        with open(image_file, "rb") as f:
            raw = f.read()
        if len(raw) < 16:
            raise _pipeline_error(f"Invalid file, load {image_file} failed: the first 16 bytes "
                                  f"of the image file should be type, number, row and column, "
                                  f"but got the first read bytes : {len(raw)}")
        magic, count = _big_endian_u32(raw, 0), _big_endian_u32(raw, 4)
        if magic != 2051:
            raise _pipeline_error(f"Invalid image file, the number of images loading from "
                                  f"{image_file} should be 2051, but got {magic}.")
        with open(label_file, "rb") as f:
            label_raw = f.read()
        if len(label_raw) < 12:
            raise _pipeline_error(f"Invalid file, load {label_file} failed: the first 12 bytes "
                                  f"of the label file should be type, number and length, but "
                                  f"got the first read bytes : {len(label_raw)}")
        magic = _big_endian_u32(label_raw, 0)
        if magic != 3074:
            raise _pipeline_error(f"Invalid label file, the number of labels loading from "
                                  f"{label_file} should be 3074, but got {magic}.")
        num_labels, length = _big_endian_u32(label_raw, 4), _big_endian_u32(label_raw, 8)
        if length != 8:
            raise _pipeline_error(f"Invalid data, length of every label loading from "
                                  f"{label_file} should be equal to 8, but got {length}.")
        if len(label_raw) - 12 != num_labels * 32:
            raise _pipeline_error(f"Invalid data, the total bytes of labels loading from Qmnist "
                                  f"label file: {label_file} should be {len(label_raw) - 12}, "
                                  f"but got {num_labels * 32}.")
        if count != num_labels:
            raise _pipeline_error(f"Invalid data, num of images should be equal to num of labels "
                                  f"loading from {self.dataset_dir}, but got num of images: "
                                  f"{count}, num of labels: {num_labels}.")
        images = np.frombuffer(raw, np.uint8, count * 784, 16).reshape(count, 28, 28, 1)
        labels = np.frombuffer(label_raw, ">u4", num_labels * 8, 12).reshape(num_labels, 8)
        return images, labels.astype(np.uint32)

    def row_at(self, index):
        from ..nodes import ROW_FILE

        path, image, label = self.index[index]
        ROW_FILE.path = path
        return image.copy(), (np.array(label[0], np.uint32) if self.compat else label.copy())


class STL10Dataset(_LazySource):
    """STL-10 binary files: <usage>_X.bin (96x96x3 images stored channel by channel, column by
    column) with <usage>_y.bin (a byte label from 1); usage "train", "test", "unlabeled"
    (label -1), "train+unlabeled" or "all" (test, train, unlabeled: the files in name order).
    Columns image (96, 96, 3) uint8 and label int32 (0 to 9)."""

    op = "STL10Dataset"
    _SIZE = 96 * 96 * 3

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "test", "unlabeled", "train+unlabeled", "all"],
                            "usage")
            parts = {"all": ["train", "test", "unlabeled"], "train+unlabeled":
                     ["train", "unlabeled"]}.get(usage, [usage])
            for part in parts:
                check_file(os.path.join(dataset_dir, part + "_X.bin"))
                if part != "unlabeled":
                    check_file(os.path.join(dataset_dir, part + "_y.bin"))
        check_mappable_source(params, bools=("shuffle",))
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        super().__init__(["image", "label"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def build(self):
        root = os.path.realpath(self.dataset_dir)
        parts = {"all": ["train", "test", "unlabeled"],
                 "train+unlabeled": ["train", "unlabeled"]}.get(self.usage, [self.usage])
        images, labels = [], []
        for part in parts:
            image_file = os.path.join(root, part + "_X.bin")
            if not os.path.isfile(image_file):
                raise _pipeline_error(f"Invalid file, failed to find STL10 {self.usage} data "
                                      f"file: {image_file}")
            images.append(image_file)
            if part != "unlabeled":
                label_file = os.path.join(root, part + "_y.bin")
                if not os.path.isfile(label_file):
                    raise _pipeline_error(f"Invalid file, failed to find STL10 {self.usage} "
                                          f"label file: {label_file}")
                labels.append(label_file)
        images.sort()
        labels.sort()
        rows = []
        for i, image_file in enumerate(images):
            raw = np.fromfile(image_file, np.uint8)
            count = raw.size // self._SIZE
            data = raw[:count * self._SIZE].reshape(count, 3, 96, 96).transpose(0, 3, 2, 1)
            if "unlabeled" in os.path.basename(image_file):
                label_values = np.full(count, -1, np.int32)
            else:
                label_raw = np.fromfile(labels[i], np.int8)
                if label_raw.size != count:
                    raise _pipeline_error(f"Invalid file, error in {labels[i]}: the number of "
                                          f"labels is not equal to the number of images in "
                                          f"{image_file}! Please check the file integrity!")
                label_values = label_raw.astype(np.int32) - 1
            rows.extend((image_file, image, label) for image, label in zip(data, label_values))
        if not rows:
            raise _pipeline_error("Invalid data, no valid data matching the dataset API "
                                  "STL10Dataset. Please check file path or dataset API.")
        return rows

    def row_at(self, index):
        from ..nodes import ROW_FILE

        path, image, label = self.index[index]
        ROW_FILE.path = path
        return np.ascontiguousarray(image), np.array(label, np.int32)


class SUN397Dataset(_LazySource):
    """SUN397: the categories of ClassName.txt ("/a/abbey" a line; label uint32 = its line
    number from 0), read in the categories' name order; each category's folder gives its
    sun_*.jpg files in path order. Columns image (file bytes, or decoded) and label."""

    op = "SUN397Dataset"

    @check_arguments
    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        check_mappable_source(params)
        self.dataset_dir, self.decode = dataset_dir, decode
        super().__init__(["image", "label"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def build(self):
        meta = os.path.join(os.path.realpath(self.dataset_dir), "ClassName.txt")
        if not os.path.isfile(meta):
            raise _pipeline_error(f"Invalid file, failed to open {meta}: SUN397 file is damaged "
                                  f"or permission denied.")
        with open(meta, encoding="utf-8") as f:
            text = f.read()
        if not text:
            raise _pipeline_error(f"Invalid file, the file size of {meta} is unexpected, got "
                                  f"size 0.")
        labels: dict = {}
        for i, category in enumerate(text.split()):
            labels.setdefault(category, i)
        rows = []
        for category in sorted(labels):
            folder = self.dataset_dir + category
            if not os.path.isdir(folder):
                raise _pipeline_error(f"Invalid path, {category} does not exist or permission "
                                      f"denied.")
            images = sorted(os.path.join(folder, e.name) for e in os.scandir(folder)
                            if os.path.splitext(e.name)[1] == ".jpg" and
                            e.name.startswith("sun_"))
            rows.extend((image, labels[category]) for image in images)
        if not rows:
            raise _pipeline_error("Invalid data, no valid data matching the dataset API "
                                  "SUN397Dataset. Please check file path or dataset API.")
        return rows

    def row_at(self, index):
        path, label = self.index[index]
        image = _decoded(path, self.decode,
                         f"Invalid image, {path} decode failed, the image is broken or "
                         f"permission denied.")
        return image, np.array(label, np.uint32)


class Caltech256Dataset(ImageFolderDataset):
    """Caltech 256: an image folder (one sub-folder a class, labels the sorted folder names'
    indexes) of .jpg and .JPEG files, as MindSpore's Caltech256 reader (an ImageFolder reader)
    reads it: columns image and label."""

    op = "Caltech256Dataset"

    @check_arguments
    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        check_mappable_source(params)
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler,
                         [".jpg", ".JPEG"], None, decode, num_shards, shard_id, cache)


class SBUDataset(_LazySource):
    """SBU Captioned Photo: line i of SBU_captioned_photo_dataset_urls.txt and of
    ..._captions.txt make a row when sbu_images/ holds the image the URL names (the URL after
    its first 23 characters, "/" read as "_"): columns image (file bytes, or decoded) and
    caption (str, trailing spaces removed)."""

    op = "SBUDataset"
    _URLS, _CAPTIONS = "SBU_captioned_photo_dataset_urls.txt", \
        "SBU_captioned_photo_dataset_captions.txt"

    @check_arguments
    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        check_file(os.path.join(dataset_dir, self._URLS))
        check_file(os.path.join(dataset_dir, self._CAPTIONS))
        check_dir(os.path.join(dataset_dir, "sbu_images"))
        check_mappable_source(params)
        self.dataset_dir, self.decode = dataset_dir, decode
        super().__init__(["image", "caption"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def build(self):
        root = os.path.realpath(self.dataset_dir)
        urls_path, captions_path = (os.path.join(root, n) for n in (self._URLS, self._CAPTIONS))
        images = os.path.join(root, "sbu_images")
        with open(urls_path, encoding="utf-8", newline="") as f:
            urls = _lines(f.read())
        with open(captions_path, encoding="utf-8", newline="") as f:
            captions = _lines(f.read())
        rows, line = [], 0
        for url, caption in zip(urls, captions):
            if bool(url) != bool(caption):
                raise _pipeline_error(f"Invalid data, SBU url: {urls_path} and caption file: "
                                      f"{captions_path} load empty data at line: {line}.")
            if not url:
                continue
            line += 1
            if len(url) <= 23:
                raise _pipeline_error(f"Invalid url in {urls_path}: {url}")
            path = os.path.join(images, url[23:].replace("/", "_"))
            if os.path.isfile(path):
                rows.append((path, caption.rstrip(" ")))
        if not rows:
            raise _pipeline_error(f"Invalid data, no valid images in {images}, check SBU "
                                  f"dataset.")
        return rows

    def row_at(self, index):
        path, caption = self.index[index]
        image = _decoded(path, self.decode,
                         f"Invalid image, failed to decode image:{path}, the image is "
                         f"damaged or permission denied.")
        return image, np.array(caption)
