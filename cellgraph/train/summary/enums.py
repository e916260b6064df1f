"""`mindspore.train.summary.enums`: the plugin and mode names of summaries."""
from __future__ import annotations

from enum import Enum

__all__ = ["BaseEnum", "ModeEnum", "PluginEnum", "WriterPluginEnum"]


class BaseEnum(Enum):
    """An enumeration that lists its values."""

    @classmethod
    def to_list(cls):
        return [member.value for member in cls.__members__.values()]


class PluginEnum(BaseEnum):
    """The plugins a summary value belongs to."""
    GRAPH = 'graph'
    SCALAR = 'scalar'
    IMAGE = 'image'
    TENSOR = 'tensor'
    HISTOGRAM = 'histogram'
    TRAIN_LINEAGE = 'train_lineage'
    EVAL_LINEAGE = 'eval_lineage'
    CUSTOM_LINEAGE_DATA = 'custom_lineage_data'
    DATASET_GRAPH = 'dataset_graph'
    EXPLAINER = 'explainer'
    LANDSCAPE = 'landscape'


class WriterPluginEnum(Enum):
    """The files a summary run writes besides the summary."""
    EXPORTER = 'exporter'
    EXPLAINER = 'explainer'
    SUMMARY = 'summary'
    LINEAGE = 'lineage'


class ModeEnum(BaseEnum):
    """The modes of a run."""
    TRAIN = 'train'
    EVAL = 'eval'
