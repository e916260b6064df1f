"""`mindspore.dataset.engine.datasets_vision`: the image sources at MindSpore's module path."""
from ..readers import (
    Cifar10Dataset,
    Cifar100Dataset,
    FashionMnistDataset,
    ImageFolderDataset,
    MnistDataset,
)

__all__ = ["Cifar10Dataset", "Cifar100Dataset", "FashionMnistDataset", "ImageFolderDataset",
           "MnistDataset"]
