"""`mindspore.dataset.engine.datasets_text`: the text sources at MindSpore's module path."""
from ..readers import TextFileDataset

__all__ = ["TextFileDataset"]
