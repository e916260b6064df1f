"""cellgraph.dataset: input pipelines as MindSpore writes them.

    import cellgraph.dataset as ds
    from cellgraph.dataset import vision, transforms
    data = ds.Cifar10Dataset(path, usage="train")
    data = data.map([vision.Rescale(1 / 255, 0), vision.HWC2CHW()], input_columns="image")
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    data = data.shuffle(1000).batch(32, drop_remainder=True)

Sources (GeneratorDataset, NumpySlicesDataset, MnistDataset, Cifar10Dataset, Cifar100Dataset,
ImageFolderDataset) feed a chain of lazy pipeline nodes; iterators run it in a prefetch thread.
"""
from . import config, transforms, vision
from .engine import Dataset
from .nodes import BatchInfo
from .readers import Cifar10Dataset, Cifar100Dataset, ImageFolderDataset, MnistDataset
from .samplers import (
    DistributedSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    SubsetSampler,
)
from .sources import GeneratorDataset, NumpySlicesDataset

__all__ = [
    "BatchInfo",
    "Cifar10Dataset",
    "Cifar100Dataset",
    "Dataset",
    "DistributedSampler",
    "GeneratorDataset",
    "ImageFolderDataset",
    "MnistDataset",
    "NumpySlicesDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "SubsetRandomSampler",
    "SubsetSampler",
    "config",
    "transforms",
    "vision",
]
