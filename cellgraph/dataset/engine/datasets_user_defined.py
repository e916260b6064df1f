"""`mindspore.dataset.engine.datasets_user_defined`: the sources a program defines."""
from ..sources import GeneratorDataset, NumpySlicesDataset, PaddedDataset
from . import at_home

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "PaddedDataset"]

at_home(__name__, GeneratorDataset, NumpySlicesDataset, PaddedDataset)
