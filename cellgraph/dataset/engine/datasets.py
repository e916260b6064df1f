"""`mindspore.dataset.engine.datasets`: the pipeline classes at MindSpore's module path."""
from ..nodes import BatchDataset
from ..sources import GeneratorDataset, NumpySlicesDataset
from . import Dataset

__all__ = ["BatchDataset", "Dataset", "GeneratorDataset", "NumpySlicesDataset"]
