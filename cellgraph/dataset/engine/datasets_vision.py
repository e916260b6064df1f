"""`mindspore.dataset.engine.datasets_vision`: the image sources at MindSpore's module path."""
from ..readers import (
    Cifar10Dataset,
    Cifar100Dataset,
    FashionMnistDataset,
    ImageFolderDataset,
    MnistDataset,
)
from ..semeion_source import SemeionDataset
from . import at_home

__all__ = ["Cifar10Dataset", "Cifar100Dataset", "FashionMnistDataset", "ImageFolderDataset",
           "MnistDataset", "SemeionDataset"]

at_home(__name__, Cifar10Dataset, Cifar100Dataset, FashionMnistDataset, ImageFolderDataset,
        MnistDataset, SemeionDataset)
