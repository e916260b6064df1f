"""`mindspore.dataset.engine.datasets_standard_format`: MindRecord and TFRecord files."""
from ..mindrecord_source import MindDataset
from ..tfrecord_source import TFRecordDataset
from . import at_home

__all__ = ["MindDataset", "TFRecordDataset"]

at_home(__name__, MindDataset, TFRecordDataset)
