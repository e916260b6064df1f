"""`mindspore.dataset.engine.datasets_text`: the text sources at MindSpore's module path."""
from ..readers import TextFileDataset
from . import at_home

__all__ = ["TextFileDataset"]

at_home(__name__, TextFileDataset)
