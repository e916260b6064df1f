"""Image sources with random access over folders of image files, read as MindSpore's readers
read them: Food-101 (meta/train.txt, meta/test.txt and images/<class>/<name>.jpg), Rendered
SST-2 (<split>/<class>/*.png), Places365 (its category and file lists), PhotoTour (64x64
patches of .bmp sheets), Cityscapes (leftImg8bit images with their gtFine/gtCoarse
annotations) and DIV2K (high- and low-resolution image pairs). Columns, dtypes, row order, argument checks and error messages
are MindSpore's; the rows a source gives are chosen by the common sampler rules."""
from __future__ import annotations

import json
import os

import numpy as np

from ..core.validator_helpers import (
    check_arguments,
    check_dir,
    check_mappable_source,
    validate_dataset_param_value,
)
from .vision_readers import _LazySource, _pipeline_error, check_valid_str
from .vision_sources import _decoded, _lines

__all__ = ["CityscapesDataset", "DIV2KDataset", "Food101Dataset", "PhotoTourDataset", "Places365Dataset", "RenderedSST2Dataset"]


class Food101Dataset(_LazySource):
    """Food-101: the images that meta/train.txt and meta/test.txt name ("<class>/<name>" a
    line; usage "all" reads train then test), each images/<class>/<name>.jpg. Columns image
    (the file's bytes, or decoded with `decode`) and label (str: the first class folder, in
    name order, whose name the line contains, as MindSpore picks it)."""

    op = "Food101Dataset"

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "test", "all"], "usage")
        check_mappable_source(params)
        self.dataset_dir, self.decode = dataset_dir, decode
        self.usage = "all" if usage is None else usage
        super().__init__(["image", "label"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def build(self):
        root = os.path.realpath(self.dataset_dir)
        images = os.path.join(root, "images")
        if not os.path.exists(images):
            raise _pipeline_error(f"Invalid path, Food101 image path: {images} does not exist.")
        if not os.path.isdir(images):
            raise _pipeline_error(f"Invalid path, Food101 image path: {images} is not a "
                                  f"folder.")
        self.classes = sorted(e.name for e in os.scandir(images) if e.is_dir())
        if not self.classes:
            raise _pipeline_error(f"Invalid path, no subfolder found under path: {images}")
        parts = ["train", "test"] if self.usage == "all" else [self.usage]
        rows = []
        for part in parts:
            listing = os.path.join(root, "meta", f"{part}.txt")
            if not os.path.isfile(listing):
                raise _pipeline_error(f"Invalid file, failed to open text:{listing}, the file "
                                      f"is damaged or permission denied.")
            with open(listing, encoding="utf-8", newline="") as f:
                rows.extend(line for line in _lines(f.read()) if line)
        if not rows:
            raise _pipeline_error(f"No valid train.txt or test.txt file under path: {images}")
        return rows

    def row_at(self, index):
        from ..nodes import ROW_FILE

        name = self.index[index]
        label = next((c for c in self.classes if c in name), "")
        path = os.path.join(self.dataset_dir, "images", name) + ".jpg"
        ROW_FILE.path = path
        image = _decoded(path, self.decode,
                         f"Invalid file, failed to decode image, the image may be broken or "
                         f"permission denied: {path}")
        return image, np.array(label)


class RenderedSST2Dataset(_LazySource):
    """Rendered SST-2: the .png images of <split>/<class>/ (split "train", "valid" for usage
    "val", "test", or all three for "all"). Class ids are given in the order the folders are
    listed (MindSpore lists them with readdir, as os.listdir does); rows come sorted by class
    folder path, then by file name. Columns image (bytes, or decoded) and label (uint32)."""

    op = "RenderedSST2Dataset"

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["val", "all", "train", "test"])
        check_mappable_source(params)
        self.dataset_dir, self.decode = dataset_dir, decode
        self.usage = "all" if usage is None else usage
        super().__init__(["image", "label"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def _wanted(self, name: str) -> bool:
        if self.usage == "all":
            return name in ("train", "test", "valid")
        return name == ("valid" if self.usage == "val" else self.usage)

    def build(self):
        root = self.dataset_dir
        if not os.path.isdir(root):
            raise _pipeline_error(f"Invalid path, {root} may not exist or is not a directory.")
        class_ids: dict = {}
        folders = []
        for split in os.listdir(root):
            if not (os.path.isdir(os.path.join(root, split)) and self._wanted(split)):
                continue
            for name in os.listdir(os.path.join(root, split)):
                folder = os.path.join(root, split, name)
                if os.path.isdir(folder):
                    folders.append((folder, class_ids.setdefault(name, len(class_ids))))
        rows = []
        for folder, label in sorted(folders):
            images = sorted(n for n in os.listdir(folder) if os.path.splitext(n)[1] == ".png")
            rows.extend((folder, "/" + image, label) for image in images)
        if not rows:
            raise _pipeline_error(f"Invalid data, RenderedSST2Dataset API can't read the data "
                                  f"file (interface mismatch or no data found). Check "
                                  f"RenderedSST2 file path: {root}")
        return rows

    def row_at(self, index):
        from ..nodes import ROW_FILE

        folder, image, label = self.index[index]
        ROW_FILE.path = self.dataset_dir + image
        data = _decoded(folder + image, self.decode,
                        f"Invalid image, {self.dataset_dir}{image} decode failed, the image is "
                        f"broken or permission denied.")
        return data, np.array(label, np.uint32)


_PLACES_LISTS = {"train-standard": "places365_train_standard.txt",
                 "train-challenge": "places365_train_challenge.txt", "val": "places365_val.txt"}
_PLACES_FOLDERS = {("train-standard", False): "data_large_standard",
                   ("train-challenge", False): "data_large_challenge", ("val", False): "val_large",
                   ("train-standard", True): "data_256_standard",
                   ("train-challenge", True): "data_256_challenge", ("val", True): "val_256"}


def _places_words(path: str) -> list[str]:
    """A Places365 list file's words (split at any white space), as MindSpore reads them."""
    if not os.path.isfile(path):
        raise _pipeline_error(f"Invalid file, failed to open {path}: Places365 file is damaged "
                              f"or permission denied.")
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    if not text:
        raise _pipeline_error(f"Invalid file, the file size of {path} is unexpected, got size "
                              f"0.")
    return text.split()


def _c_atoi(text: str) -> int:
    """C's atoi: the integer a string starts with (0 where none)."""
    import re

    match = re.match(r"\s*[+-]?\d+", text)
    return int(match.group(0)) if match else 0


class Places365Dataset(_LazySource):
    """Places365: the images of the file list of `usage` (places365_train_standard.txt,
    places365_train_challenge.txt or places365_val.txt: "<path> <label>" pairs) under
    data_large_* / val_large (or the 256x256 data_256_* / val_256 with `small`). Columns image
    (bytes, or decoded) and label (uint32), in the list's order."""

    op = "Places365Dataset"

    @check_arguments
    def __init__(self, dataset_dir, usage=None, small=True, decode=False, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train-standard", "train-challenge", "val"], "usage")
        check_mappable_source(params, bools=("shuffle", "small", "decode"))
        self.dataset_dir = os.path.realpath(dataset_dir)
        self.usage = "train-standard" if usage is None else usage
        self.small, self.decode = small, decode
        super().__init__(["image", "label"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def build(self):
        root = self.dataset_dir
        # the categories file is read (and checked) first, as MindSpore reads it
        _places_words(os.path.join(root, "categories_places365.txt"))
        words = _places_words(os.path.join(root, _PLACES_LISTS[self.usage]))
        folder = os.path.join(root, _PLACES_FOLDERS[(self.usage, self.small)])
        rows = [(folder + "/" + words[i], _c_atoi(words[i + 1]))
                for i in range(0, len(words) - 1, 2)]
        if not rows:
            raise _pipeline_error(f"Invalid data, no valid data matching the dataset API "
                                  f"Places365Dataset. Please check dataset API or file path: "
                                  f"{root}.")
        return rows

    def count(self):
        for path, _ in self.index:  # MindSpore's count checks that every image is there
            if not os.path.exists(path):
                raise _pipeline_error(f"Invalid file path, {path} does not exists.")
        return super().count()

    def row_at(self, index):
        from ..nodes import ROW_FILE

        path, label = self.index[index]
        if not os.path.exists(path):
            raise _pipeline_error(f"Invalid file path, Places365 image: {path} does not "
                                  f"exists.")
        ROW_FILE.path = path
        image = _decoded(path, self.decode,
                         f"Invalid image, failed to decode {path}: the image is damaged or "
                         f"permission denied.")
        return image, np.array(label, np.uint32)


_PHOTO_TOUR_LENS = {"notredame": 468159, "yosemite": 633587, "liberty": 450092,
                    "liberty_harris": 379587, "yosemite_harris": 450912,
                    "notredame_harris": 325295}
_PATCHES = 16  # patches a side of each sheet


def _photo_tour_words(path: str) -> list[str]:
    if not os.path.isfile(path):
        raise _pipeline_error(f"Invalid file, failed to open {path}: PhotoTour info file is "
                              f"damaged or permission denied.")
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    if not text:
        raise _pipeline_error(f"Invalid file, the file size of {path} is unexpected, got size "
                              f"0.")
    return text.split()


class PhotoTourDataset(_LazySource):
    """PhotoTour (UBC patches): the 64x64 grey patches of the <name>/*.bmp sheets (16x16 patches
    a sheet, read in row order, the sheets in name order). usage "train": one row a line of
    info.txt, column image (64, 64, 1) uint8; usage "test": one row a line of
    m50_100000_100000_0.txt, columns image1, image2 and matches (uint32: 1 where the two
    patches show the same 3D point)."""

    op = "PhotoTourDataset"

    @check_arguments
    def __init__(self, dataset_dir, name, usage=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "test"], "usage")
        check_valid_str(name, list(_PHOTO_TOUR_LENS), "name")
        check_mappable_source(params, bools=("shuffle",))
        self.dataset_dir, self.name = dataset_dir, name
        self.usage = "train" if usage is None else usage
        names = ["image"] if self.usage == "train" else ["image1", "image2", "matches"]
        self._sheets: dict = {}
        super().__init__(names, num_samples, shuffle, sampler, num_shards, shard_id, cache)

    def build(self):
        folder = os.path.join(self.dataset_dir, self.name)
        if not os.path.exists(folder):
            raise _pipeline_error(f"{folder} does not exist.")
        real = os.path.realpath(folder)
        self.sheets = sorted(os.path.join(real, n) for n in os.listdir(real)
                             if n.endswith("bmp"))
        info = _photo_tour_words(os.path.join(real, "info.txt"))
        matches = _photo_tour_words(os.path.join(real, "m50_100000_100000_0.txt"))
        if self.usage == "train":
            rows = [(_c_atoi(word),) for word in info[0::2]]
        else:
            rows = [(_c_atoi(matches[i]), _c_atoi(matches[i + 3]),
                     int(_c_atoi(matches[i + 1]) == _c_atoi(matches[i + 4])))
                    for i in range(0, len(matches) - 4, 7)]
        if not rows:
            raise _pipeline_error(f"Invalid data, data file may not suitable to read with "
                                  f"PhotoTourDataset API.Check file in directory: {folder}")
        return rows

    def class_labels(self) -> list:
        """What a PKSampler groups the rows by, as MindSpore's reader gives it: the 3D point of
        each patch (train), or whether the pair matches (test)."""
        return [row[0] if self.usage == "train" else row[2] for row in self.index]

    def _patch(self, index: int) -> np.ndarray:
        from ..nodes import ROW_FILE
        from ..vision.cv_color import cv_gray_14bit

        if index >= _PHOTO_TOUR_LENS[self.name]:
            raise _pipeline_error(f"[Internal ERROR] Index exceeds the maximum count of image, "
                                  f"got: {index}")
        sheet, cell = divmod(index, _PATCHES * _PATCHES)
        path = self.sheets[sheet]
        ROW_FILE.path = path
        if sheet not in self._sheets:  # OpenCV's grey reading of the sheet
            from PIL import Image

            with Image.open(path) as image:
                self._sheets[sheet] = cv_gray_14bit(np.asarray(image.convert("RGB")))
        row, col = divmod(cell, _PATCHES)
        return self._sheets[sheet][row * 64:row * 64 + 64, col * 64:col * 64 + 64, None].copy()

    def row_at(self, index):
        if self.usage == "train":
            return (self._patch(index),)
        first, second, same = self.index[index]
        return self._patch(first), self._patch(second), np.array(same, np.uint32)


_CITYSCAPES_SUFFIX = {"instance": "_instanceIds.png", "semantic": "_labelIds.png",
                      "color": "_color.png", "polygon": "_polygons.json"}


class CityscapesDataset(_LazySource):
    """Cityscapes: the leftImg8bit/<usage>/<city>/*.png images with their annotation of `task`
    in gtFine or gtCoarse (`quality_mode`): "<name>_gt<Mode>_instanceIds.png", "_labelIds.png",
    "_color.png" (an image column `task`, bytes or decoded) or "_polygons.json" (the JSON as a
    string, written compactly with sorted keys as MindSpore's JSON library writes it). Rows are
    by usage ("all": train, test, val for fine; train, train_extra, val for coarse), then by
    image path."""

    op = "CityscapesDataset"

    @check_arguments
    def __init__(self, dataset_dir, usage="train", quality_mode="fine", task="instance",
                 num_samples=None, num_parallel_workers=None, shuffle=None, decode=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        check_valid_str(task, ["instance", "semantic", "polygon", "color"], "task")
        check_valid_str(quality_mode, ["fine", "coarse"], "quality_mode")
        check_valid_str(usage, ["train", "test", "val", "all"] if quality_mode == "fine" else
                        ["train", "train_extra", "val", "all"], "usage")
        check_mappable_source(params)
        self.dataset_dir, self.usage, self.quality_mode, self.task = (dataset_dir, usage,
                                                                      quality_mode, task)
        self.decode = bool(decode)
        super().__init__(["image", "task"], num_samples, shuffle, sampler, num_shards, shard_id,
                         cache)

    def build(self):
        root = os.path.realpath(self.dataset_dir)
        mode = "gtFine" if self.quality_mode == "fine" else "gtCoarse"
        if self.usage != "all":
            usages = [self.usage]
        else:
            usages = ["train", "test", "val"] if self.quality_mode == "fine" else \
                ["train", "train_extra", "val"]
        rows = []
        for usage in usages:
            images = os.path.join(root, "leftImg8bit", usage)
            tasks = os.path.join(root, mode, usage)
            if not os.path.isdir(images):
                raise _pipeline_error(f"Invalid path, Cityscapes Dataset image dir: {images} is "
                                      f"not a directory path.")
            if not os.path.isdir(tasks):
                raise _pipeline_error(f"Invalid path, Cityscapes Dataset task dir: {tasks} is "
                                      f"not a directory path.")
            pairs = {}
            for city in os.listdir(images):
                if not os.path.isdir(os.path.join(images, city)):
                    continue
                for name in os.listdir(os.path.join(images, city)):
                    if os.path.splitext(name)[1] != ".png":
                        continue
                    stem = name.split("_leftImg8bit")[0]
                    task = os.path.join(tasks, city,
                                        f"{stem}_{mode}{_CITYSCAPES_SUFFIX[self.task]}")
                    if not os.path.exists(task):
                        raise _pipeline_error(f"Invalid file, Cityscapes Dataset task file: "
                                              f"{task} does not exist.")
                    pairs[os.path.join(images, city, name)] = task
            rows.extend(sorted(pairs.items()))
        if not rows:
            raise _pipeline_error(f"Invalid data, no valid data matching the dataset API "
                                  f"'CityscapesDataset'. Please check dataset API or file path: "
                                  f"{self.dataset_dir}.")
        return rows

    def row_at(self, index):
        from ..nodes import ROW_FILE

        image_path, task_path = self.index[index]
        ROW_FILE.path = image_path
        image = _decoded(image_path, self.decode,
                         f"Invalid image, failed to decode {image_path}, the image is damaged or "
                         f"permission denied.")
        if self.task == "polygon":
            with open(task_path, encoding="utf-8") as f:
                content = json.load(f)
            task = np.array(json.dumps(content, sort_keys=True, separators=(",", ":"),
                                       ensure_ascii=False))
        else:
            task = _decoded(task_path, self.decode,
                            f"Invalid image, failed to decode {task_path}, the image is damaged "
                            f"or permission denied.")
        return image, task


_DIV2K_2018 = {"mild": "m", "difficult": "d", "wild": "w"}


class DIV2KDataset(_LazySource):
    """DIV2K: the .png images of DIV2K_<usage>_HR, each with its low-resolution version of
    `downgrade` and `scale` (DIV2K_<usage>_LR_bicubic/X2/0001x2.png, ..._LR_x8/0001x8.png,
    ..._LR_mild/0001x4m.png, ...). Columns hr_image and lr_image (bytes, or decoded), rows by
    usage ("all": train, then valid) and then by path."""

    op = "DIV2KDataset"

    @check_arguments
    def __init__(self, dataset_dir, usage="train", downgrade="bicubic", scale=2, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        check_valid_str(usage, ["train", "valid", "all"], "usage")
        check_valid_str(downgrade, ["bicubic", "unknown", "mild", "difficult", "wild"],
                        "downgrade")
        validate_dataset_param_value(["scale"], params, int)
        if scale not in [2, 3, 4, 8]:
            raise ValueError("Input scale is not within the valid set of [2, 3, 4, 8].")
        if scale == 8 and downgrade != "bicubic":
            raise ValueError("DIV2KNode: scale equal to 8 is allowed only in bicubic downgrade.")
        if downgrade in _DIV2K_2018 and scale != 4:
            raise ValueError(f"DIV2KNode: {downgrade} downgrade requires scale equal to 4.")
        check_mappable_source(params)
        self.dataset_dir, self.usage, self.downgrade, self.scale = (dataset_dir, usage,
                                                                    downgrade, scale)
        self.decode = bool(decode)
        super().__init__(["hr_image", "lr_image"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def _lr_folder(self, usage: str) -> str:
        if self.scale == 8:
            return f"DIV2K_{usage}_LR_x8"
        name = f"DIV2K_{usage}_LR_{self.downgrade}"
        if self.downgrade in ("bicubic", "unknown"):  # the NTIRE 2017 layout
            return os.path.join(name, f"X{self.scale}")
        return name

    def build(self):
        root = os.path.realpath(self.dataset_dir)
        rows = []
        for usage in (["train", "valid"] if self.usage == "all" else [self.usage]):
            high = os.path.join(root, f"DIV2K_{usage}_HR")
            low = os.path.join(root, self._lr_folder(usage))
            if not os.path.isdir(high):
                raise _pipeline_error(f"Invalid path, div2k hr image dir: {high} is not a "
                                      f"directory.")
            if not os.path.isdir(low):
                raise _pipeline_error(f"Invalid path, div2k lr image dir: {low} is not a "
                                      f"directory.")
            pairs = {}
            for name in os.listdir(high):
                stem, extension = os.path.splitext(name)
                if extension != ".png":
                    continue
                low_name = f"{stem}x{self.scale}{_DIV2K_2018.get(self.downgrade, '')}.png"
                low_path = os.path.join(low, low_name)
                if not os.path.exists(low_path):
                    raise _pipeline_error(f"Invalid file, div2k image file: {low_path} does not "
                                          f"exist.")
                pairs[os.path.join(high, name)] = low_path
            rows.extend(sorted(pairs.items()))
        if not rows:
            raise _pipeline_error(f"Invalid data, no valid data matching the dataset API "
                                  f"'DIV2KDataset'. Please check dataset API or file path: "
                                  f"{self.dataset_dir}.")
        return rows

    def row_at(self, index):
        from ..nodes import ROW_FILE

        high, low = self.index[index]
        ROW_FILE.path = high
        images = [_decoded(path, self.decode, f"Invalid image, failed to decode {path}, the "
                                              f"image is damaged or permission denied.")
                  for path in (high, low)]
        return tuple(images)
