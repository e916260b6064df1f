"""The image sources whose labels or annotations are MATLAB `.mat` files: Caltech 101, Oxford
Flowers-102, SVHN (the cropped 32x32 digits) and the Semantic Boundaries Dataset. As in MindSpore, each is
a GeneratorDataset over a random-access reader, so shuffling, samplers and shards follow the
GeneratorDataset rules. The `.mat` files are read with `scipy.io.loadmat` (the optional `mat`
extra); without SciPy the sources raise an ImportError that says so."""
from __future__ import annotations

import os
from typing import ClassVar

import numpy as np

from ..core.validator_helpers import (
    check_arguments,
    check_dir,
    check_file,
    check_mappable_source,
)
from ..sources import GeneratorDataset
from .vision_readers import check_valid_str

__all__ = ["Caltech101Dataset", "Flowers102Dataset", "SBDataset", "SVHNDataset"]


def _loadmat(path: str) -> dict:
    try:
        from scipy.io import loadmat
    except ImportError:
        raise ImportError("reading MATLAB .mat files needs SciPy (scipy.io.loadmat): install "
                          "scipy, or cellgraph's `mat` extra") from None
    return loadmat(path)


def _decode(path: str) -> np.ndarray:
    """An image file as HWC RGB uint8 (what PIL's `Image.open(path).convert("RGB")` gives)."""
    from ..vision.transforms import _pil

    with _pil().open(path) as image:
        return np.asarray(image.convert("RGB"))


def _file_bytes(path: str) -> np.ndarray:
    return np.fromfile(path, dtype=np.uint8)


# Caltech 101's category folders (BACKGROUND_Google left out), sorted: a category's label is
# its index
_CALTECH101_CLASSES = (
    "Faces", "Faces_easy", "Leopards", "Motorbikes", "accordion", "airplanes", "anchor", "ant",
    "barrel", "bass", "beaver", "binocular", "bonsai", "brain", "brontosaurus", "buddha",
    "butterfly", "camera", "cannon", "car_side", "ceiling_fan", "cellphone", "chair",
    "chandelier", "cougar_body", "cougar_face", "crab", "crayfish", "crocodile",
    "crocodile_head", "cup", "dalmatian", "dollar_bill", "dolphin", "dragonfly",
    "electric_guitar", "elephant", "emu", "euphonium", "ewer", "ferry", "flamingo",
    "flamingo_head", "garfield", "gerenuk", "gramophone", "grand_piano", "hawksbill",
    "headphone", "hedgehog", "helicopter", "ibis", "inline_skate", "joshua_tree", "kangaroo",
    "ketch", "lamp", "laptop", "llama", "lobster", "lotus", "mandolin", "mayfly", "menorah",
    "metronome", "minaret", "nautilus", "octopus", "okapi", "pagoda", "panda", "pigeon", "pizza",
    "platypus", "pyramid", "revolver", "rhino", "rooster", "saxophone", "schooner", "scissors",
    "scorpion", "sea_horse", "snoopy", "soccer_ball", "stapler", "starfish", "stegosaurus",
    "stop_sign", "strawberry", "sunflower", "tick", "trilobite", "umbrella", "watch",
    "water_lilly", "wheelchair", "wild_cat", "windsor_chair", "wrench", "yin_yang",
)
# the Annotations folder names the categories whose image folder name differs
_CALTECH101_ANNOTATION_FOLDERS = {"Faces": "Faces_2", "Faces_easy": "Faces_3",
                                  "Motorbikes": "Motorbikes_16", "airplanes": "Airplanes_Side_2"}


class _Caltech101Rows:
    """Caltech 101's rows: for each category folder of 101_ObjectCategories (sorted, without
    BACKGROUND_Google; label = its index), images image_0001.jpg .. image_<count>.jpg, count the
    files in the folder; the annotation is Annotations/<folder>/annotation_<n>.mat's
    obj_contour."""

    def __init__(self, dataset_dir, target_type, decode):
        self.image_dir = os.path.join(dataset_dir, "101_ObjectCategories")
        self.annotation_dir = os.path.join(dataset_dir, "Annotations")
        self.target_type, self.decode = target_type, decode
        self.column_names = {"category": ["image", "category"],
                             "annotation": ["image", "annotation"]}.get(
            target_type, ["image", "category", "annotation"])
        self.classes = [c for c in sorted(os.listdir(self.image_dir)) if c != "BACKGROUND_Google"]
        self.rows = []  # (label, number)
        for label, name in enumerate(self.classes):
            folder = os.path.join(self.image_dir, name)
            if os.path.isdir(folder) and os.access(folder, os.R_OK):
                self.rows.extend((label, n) for n in range(1, len(os.listdir(folder)) + 1))

    def __getitem__(self, index):
        label, number = self.rows[index]
        name = self.classes[label]
        path = os.path.join(self.image_dir, name, f"image_{number:04d}.jpg")
        if not os.path.exists(path):
            raise ValueError(f"The image file {path} does not exist or permission denied!")
        image = _decode(path) if self.decode else _file_bytes(path)
        if self.target_type == "category":
            return image, label
        path = os.path.join(self.annotation_dir, _CALTECH101_ANNOTATION_FOLDERS.get(name, name),
                            f"annotation_{number:04d}.mat")
        if not os.path.exists(path):
            raise ValueError(f"The annotation file {path} does not exist or permission denied!")
        annotation = _loadmat(path)["obj_contour"]
        if self.target_type == "annotation":
            return image, annotation
        return image, label, annotation

    def __len__(self):
        return len(self.rows)


class Caltech101Dataset(GeneratorDataset):
    """Caltech 101: columns image (uint8, file bytes or decoded HWC RGB) and, by
    `target_type`, category (the label), annotation (the object contour, 2 x N) or both
    ("all")."""

    @check_arguments
    def __init__(self, dataset_dir, target_type=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None):
        check_dir(dataset_dir)
        if target_type is not None:
            check_valid_str(target_type, ["category", "annotation", "all"], "target_type")
        check_mappable_source({
            "num_samples": num_samples, "shuffle": shuffle, "decode": decode, "sampler": sampler,
            "num_shards": num_shards, "shard_id": shard_id,
            "num_parallel_workers": num_parallel_workers})
        self.dataset_dir = dataset_dir
        self.target_type = "category" if target_type is None else target_type
        self.decode = bool(decode)
        rows = _Caltech101Rows(os.path.realpath(dataset_dir), self.target_type, self.decode)
        super().__init__(rows, column_names=rows.column_names, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)

    def get_class_indexing(self) -> dict:
        """The category names and their labels: {"Faces": 0, ...}."""
        return {name: label for label, name in enumerate(_CALTECH101_CLASSES)}


# Oxford Flowers-102's class names, in label order (label = index)
_FLOWERS102_CLASSES = (
    "pink primrose", "hard-leaved pocket orchid", "canterbury bells", "sweet pea",
    "english marigold", "tiger lily", "moon orchid", "bird of paradise", "monkshood",
    "globe thistle", "snapdragon", "colt's foot", "king protea", "spear thistle", "yellow iris",
    "globe-flower", "purple coneflower", "peruvian lily", "balloon flower",
    "giant white arum lily", "fire lily", "pincushion flower", "fritillary", "red ginger",
    "grape hyacinth", "corn poppy", "prince of wales feathers", "stemless gentian", "artichoke",
    "sweet william", "carnation", "garden phlox", "love in the mist", "mexican aster",
    "alpine sea holly", "ruby-lipped cattleya", "cape flower", "great masterwort", "siam tulip",
    "lenten rose", "barbeton daisy", "daffodil", "sword lily", "poinsettia", "bolero deep blue",
    "wallflower", "marigold", "buttercup", "oxeye daisy", "common dandelion", "petunia",
    "wild pansy", "primula", "sunflower", "pelargonium", "bishop of llandaff", "gaura",
    "geranium", "orange dahlia", "pink-yellow dahlia?", "cautleya spicata", "japanese anemone",
    "black-eyed susan", "silverbush", "californian poppy", "osteospermum", "spring crocus",
    "bearded iris", "windflower", "tree poppy", "gazania", "azalea", "water lily", "rose",
    "thorn apple", "morning glory", "passion flower", "lotus", "toad lily", "anthurium",
    "frangipani", "clematis", "hibiscus", "columbine", "desert-rose", "tree mallow", "magnolia",
    "cyclamen", "watercress", "canna lily", "hippeastrum", "bee balm", "ball moss", "foxglove",
    "bougainvillea", "camellia", "mallow", "mexican petunia", "bromelia", "blanket flower",
    "trumpet creeper", "blackberry lily",
)


class _Flowers102Rows:
    """Flowers-102's rows: the image ids of setid.mat's split(s) (trnid, tstid, valid), each
    image jpg/image_<id:05>.jpg with its label (imagelabels.mat's, from 1..102 to 0..101) and,
    for the Segmentation task, segmim/segmim_<id:05>.jpg between them."""

    _SPLITS: ClassVar[dict] = {"train": ("trnid",), "test": ("tstid",), "valid": ("valid",),
                               "all": ("trnid", "tstid", "valid")}

    def __init__(self, dataset_dir, task, usage, decode):
        self.dataset_dir, self.task, self.decode = dataset_dir, task, decode
        self.column_names = (["image", "label"] if task == "Classification"
                             else ["image", "segmentation", "label"])
        labels = _loadmat(os.path.join(dataset_dir, "imagelabels.mat"))["labels"][0]
        self.labels = (labels - 1).astype(np.uint32)
        setid = _loadmat(os.path.join(dataset_dir, "setid.mat"))
        self.ids = [int(i) for key in self._SPLITS[usage] for i in setid[key][0]]

    def _image(self, folder: str, prefix: str, number: int, what: str) -> np.ndarray:
        path = os.path.join(self.dataset_dir, folder, f"{prefix}_{number:05d}.jpg")
        if not os.path.exists(path):
            raise RuntimeError(f"Can not find {what} file: {path}")
        return _decode(path) if self.decode else _file_bytes(path)

    def __getitem__(self, index):
        number = self.ids[index]
        image = self._image("jpg", "image", number, "image")
        label = self.labels[number - 1]
        if self.task == "Segmentation":
            return image, self._image("segmim", "segmim", number, "segmentation"), label
        return image, label

    def __len__(self):
        return len(self.ids)


class Flowers102Dataset(GeneratorDataset):
    """Oxford 102 Flower: columns image (uint8, file bytes or decoded HWC RGB) and label
    (uint32); task "Segmentation" adds the segmentation image between them. `usage` is
    "train", "valid", "test" or "all" (the three splits in that order)."""

    @check_arguments
    def __init__(self, dataset_dir, task="Classification", usage="all", num_samples=None,
                 num_parallel_workers=1, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None):
        check_dir(dataset_dir)
        check_dir(os.path.join(dataset_dir, "jpg"))
        check_file(os.path.join(dataset_dir, "imagelabels.mat"))
        check_file(os.path.join(dataset_dir, "setid.mat"))
        if usage is not None:
            check_valid_str(usage, ["train", "valid", "test", "all"], "usage")
        if task is not None:
            check_valid_str(task, ["Classification", "Segmentation"], "task")
        if task == "Segmentation":
            check_dir(os.path.join(dataset_dir, "segmim"))
        check_mappable_source({
            "num_samples": num_samples, "shuffle": shuffle, "decode": decode, "sampler": sampler,
            "num_shards": num_shards, "shard_id": shard_id,
            "num_parallel_workers": num_parallel_workers})
        self.dataset_dir = os.path.realpath(dataset_dir)
        self.task = "Classification" if task is None else task
        self.usage = "all" if usage is None else usage
        self.decode = bool(decode)
        rows = _Flowers102Rows(self.dataset_dir, self.task, self.usage, self.decode)
        super().__init__(rows, column_names=rows.column_names, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)

    def get_class_indexing(self) -> dict:
        """The class names and their labels: {"pink primrose": 0, ...}."""
        return {name: label for label, name in enumerate(_FLOWERS102_CLASSES)}


class _SVHNRows:
    """SVHN's rows: <usage>_32x32.mat's X (32x32x3xN) as N HWC images and y (1..10, 10 for
    the digit 0) as uint32 labels; "all" is train, test and extra in that order."""

    def __init__(self, dataset_dir, usage):
        images, labels = [], []
        for part in (["train", "test", "extra"] if usage == "all" else [usage]):
            mat = _loadmat(os.path.join(dataset_dir, f"{part}_32x32.mat"))
            images.append(np.transpose(mat["X"], [3, 0, 1, 2]))
            label = mat["y"].astype(np.uint32).reshape(-1)
            label[label == 10] = 0
            labels.append(label)
        self.images = np.concatenate(images)
        self.labels = np.concatenate(labels)

    def __getitem__(self, index):
        return self.images[index], self.labels[index]

    def __len__(self):
        return len(self.images)


class SVHNDataset(GeneratorDataset):
    """SVHN (Street View House Numbers, cropped digits): columns image (uint8 32x32x3) and
    label (uint32, 0..9). `usage` is "train", "test", "extra" or "all" (None: all)."""

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "test", "extra", "all"], "usage")
            for part in (["train", "test", "extra"] if usage == "all" else [usage]):
                check_file(os.path.join(dataset_dir, f"{part}_32x32.mat"))
        check_mappable_source({
            "num_samples": num_samples, "shuffle": shuffle, "sampler": sampler,
            "num_shards": num_shards, "shard_id": shard_id,
            "num_parallel_workers": num_parallel_workers}, bools=("shuffle",))
        self.dataset_dir = os.path.realpath(dataset_dir)
        self.usage = "all" if usage is None else usage
        rows = _SVHNRows(self.dataset_dir, self.usage)
        super().__init__(rows, column_names=["image", "label"], num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)


class _SBRows:
    """The Semantic Boundaries Dataset's rows: the names listed in <usage>.txt ("all": train
    and val), each img/<name>.jpg with cls/<name>.mat's GTcls annotation: for "Boundaries"
    the 20 categories' boundary maps stacked (uint8 20xHxW), for "Segmentation" the class
    map (uint8 HxW)."""

    categories = 20

    def __init__(self, dataset_dir, task, usage, decode):
        self.task, self.decode = task, bool(decode)
        names = []
        for part in (["train", "val"] if usage == "all" else [usage]):
            listing = os.path.join(dataset_dir, part + ".txt")
            if not os.path.exists(listing):
                raise FileNotFoundError(f"SBDataset: {listing} not found")
            with open(listing, encoding="utf-8") as file:
                names += [line.strip() for line in file]
        self.images = [os.path.join(dataset_dir, "img", name + ".jpg") for name in names]
        self.annotations = [os.path.join(dataset_dir, "cls", name + ".mat") for name in names]

    def _annotation(self, path: str) -> np.ndarray:
        gtcls = _loadmat(path)["GTcls"][0][self.task][0]
        if self.task == "Boundaries":
            return np.stack([gtcls[i][0].toarray() for i in range(self.categories)])
        return np.asarray(gtcls)

    def __getitem__(self, index):
        image = (_decode(self.images[index]) if self.decode
                 else _file_bytes(self.images[index]))
        return image, self._annotation(self.annotations[index])

    def __len__(self):
        return len(self.images)


class SBDataset(GeneratorDataset):
    """The Semantic Boundaries Dataset: columns image (uint8, file bytes or decoded HWC RGB)
    and task (the "Boundaries" or "Segmentation" annotation). `usage` is "train", "val",
    "train_noval" or "all" (train and val)."""

    @check_arguments
    def __init__(self, dataset_dir, task="Boundaries", usage="all", num_samples=None,
                 num_parallel_workers=1, shuffle=None, decode=None, sampler=None,
                 num_shards=None, shard_id=None):
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "val", "train_noval", "all"], "usage")
        if task is not None:
            check_valid_str(task, ["Boundaries", "Segmentation"], "task")
        check_mappable_source({
            "num_samples": num_samples, "shuffle": shuffle, "decode": decode, "sampler": sampler,
            "num_shards": num_shards, "shard_id": shard_id,
            "num_parallel_workers": num_parallel_workers})
        rows = _SBRows(dataset_dir, task, usage, decode)
        super().__init__(rows, column_names=["image", "task"], num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)
