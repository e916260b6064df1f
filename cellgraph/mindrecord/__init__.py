"""`mindspore.mindrecord`: FileWriter (and Cifar10ToMR, which converts CIFAR-10) writes
MindRecord files in MindSpore's format (format.py), which `dataset.MindDataset` and FileReader
read, as MindSpore's reader does; datasets MindSpore wrote load here."""
from .cifar10_to_mr import Cifar10ToMR
from .filereader import FileReader
from .filewriter import FileWriter
from .format import MindRecordError

__all__ = ["Cifar10ToMR", "FileReader", "FileWriter", "MindRecordError"]
