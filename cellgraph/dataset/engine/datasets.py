"""`mindspore.dataset.engine.datasets`: the pipeline classes at MindSpore's module path."""
import weakref

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
from . import Dataset, at_home, consumers

__all__ = ["BatchDataset", "BatchInfo", "ConcatDataset", "Dataset", "DeserializedDataset",
           "FilterDataset",
           "GeneratorDataset", "MapDataset", "NumpySlicesDataset", "ProjectDataset",
           "RenameDataset", "RepeatDataset", "Schema", "ShuffleDataset", "SkipDataset", "SyncWaitDataset",
           "TakeDataset", "ZipDataset"]



class DeserializedDataset(Dataset):
    """The pipeline `deserialize` reads from a dict or a JSON file. As in MindSpore it is
    built when first used: a missing or unreadable file, or a node that cannot be rebuilt,
    raises RuntimeError when the pipeline runs or is asked about its rows, not before."""

    def __init__(self, input_obj):
        self.input_obj = input_obj
        self._pipeline = ()  # nothing to read while the base class registers the children
        super().__init__()
        self._pipeline = None

    @property
    def children(self):
        if self._pipeline is None:
            from .serializer_deserializer import build_pipeline

            pipeline = build_pipeline(self.input_obj)
            consumers(pipeline).append(weakref.ref(self))
            self._pipeline = (pipeline,)
        return self._pipeline

    @children.setter
    def children(self, value):
        self._pipeline = tuple(value)

    def rows(self, state):
        return self.children[0].rows(state)

    def sync_notifiers(self) -> dict:
        # JSON holds no sync_wait (serialize cannot write one back): none to look for, and
        # nodes built on this one need not read the pipeline yet
        return {}


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


at_home(__name__, BatchDataset, BatchInfo, ConcatDataset, Dataset, DeserializedDataset,
        FilterDataset, MapDataset,
        ProjectDataset, RenameDataset, RepeatDataset, Schema, ShuffleDataset, SkipDataset,
        SyncWaitDataset, TakeDataset, ZipDataset)
