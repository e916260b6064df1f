"""`mindspore.dataset.engine.datasets`: the pipeline classes at MindSpore's module path."""
from ..nodes import (
    BatchDataset,
    BatchInfo,
    ConcatDataset,
    FilterDataset,
    MapDataset,
    ProjectDataset,
    RenameDataset,
    RepeatDataset,
    ShuffleDataset,
    SkipDataset,
    SyncWaitDataset,
    TakeDataset,
    ZipDataset,
)
from ..schema import Schema
from ..sources import GeneratorDataset, NumpySlicesDataset
from . import Dataset, at_home

__all__ = ["BatchDataset", "BatchInfo", "ConcatDataset", "Dataset", "FilterDataset",
           "GeneratorDataset", "MapDataset", "NumpySlicesDataset", "ProjectDataset",
           "RenameDataset", "RepeatDataset", "Schema", "ShuffleDataset", "SkipDataset", "SyncWaitDataset",
           "TakeDataset", "ZipDataset"]

_TRAINING = {"dataset": None}  # the training dataset or iterator recovery resets


def _set_training_dataset(dataset) -> None:
    """The dataset (or iterator) to reset when training recovers from a failure."""
    _TRAINING["dataset"] = dataset


def _get_training_dataset():
    return _TRAINING["dataset"]


def _reset_training_dataset(global_step, dataset_size) -> None:
    """Reset the training dataset to `global_step` (steps done; `dataset_size` an epoch): it
    delivers the rows from the next step on."""
    dataset = _get_training_dataset()
    if dataset is None:
        raise RuntimeError("Training dataset is not set.")
    dataset._reset(global_step, dataset_size)


at_home(__name__, BatchDataset, BatchInfo, ConcatDataset, Dataset, FilterDataset, MapDataset,
        ProjectDataset, RenameDataset, RepeatDataset, Schema, ShuffleDataset, SkipDataset,
        SyncWaitDataset, TakeDataset, ZipDataset)
