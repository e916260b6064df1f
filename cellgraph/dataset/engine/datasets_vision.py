"""`mindspore.dataset.engine.datasets_vision`: the image sources at MindSpore's module path."""
from ..readers import (
    Cifar10Dataset,
    Cifar100Dataset,
    FashionMnistDataset,
    ImageFolderDataset,
    MnistDataset,
)
from . import at_home
from .vision_readers import CocoDataset

__all__ = [
    "Cifar10Dataset",
    "Cifar100Dataset",
    "CocoDataset",
    "FashionMnistDataset",
    "ImageFolderDataset",
    "MnistDataset",
]

at_home(__name__, Cifar10Dataset, CocoDataset, Cifar100Dataset, FashionMnistDataset, ImageFolderDataset,
        MnistDataset)
