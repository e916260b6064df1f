"""`mindspore.dataset.engine.datasets_text`: the text sources at MindSpore's module path."""
from ..readers import TextFileDataset
from ..text_sources import PennTreebankDataset
from . import at_home

__all__ = ["PennTreebankDataset", "TextFileDataset"]

at_home(__name__, PennTreebankDataset, TextFileDataset)
