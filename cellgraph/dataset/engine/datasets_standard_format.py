"""`mindspore.dataset.engine.datasets_standard_format`: CSV, MindRecord and TFRecord files."""
from ..csv_source import CSVDataset
from ..mindrecord_source import MindDataset
from ..tfrecord_source import TFRecordDataset
from . import at_home

__all__ = ["CSVDataset", "MindDataset", "TFRecordDataset"]

at_home(__name__, CSVDataset, MindDataset, TFRecordDataset)
