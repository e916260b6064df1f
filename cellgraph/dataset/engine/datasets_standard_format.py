"""`mindspore.dataset.engine.datasets_standard_format`: MindRecord files."""
from ..mindrecord_source import MindDataset
from . import at_home

__all__ = ["MindDataset"]

at_home(__name__, MindDataset)
