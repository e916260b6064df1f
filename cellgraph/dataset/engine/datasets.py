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

at_home(__name__, BatchDataset, BatchInfo, ConcatDataset, Dataset, FilterDataset, MapDataset,
        ProjectDataset, RenameDataset, RepeatDataset, Schema, ShuffleDataset, SkipDataset,
        SyncWaitDataset, TakeDataset, ZipDataset)
