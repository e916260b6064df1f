"""`mindspore.dataset.engine.datasets_vision`: the image sources at MindSpore's module path."""
from ..readers import (
    Cifar10Dataset,
    Cifar100Dataset,
    FashionMnistDataset,
    ImageFolderDataset,
    MnistDataset,
)
from . import at_home

__all__ = ["Cifar10Dataset", "Cifar100Dataset", "FashionMnistDataset", "ImageFolderDataset",
           "MnistDataset"]

at_home(__name__, Cifar10Dataset, Cifar100Dataset, FashionMnistDataset, ImageFolderDataset,
        MnistDataset)
