"""`mindspore.mindrecord`: FileWriter (and Cifar10ToMR, which converts CIFAR-10) writes
MindRecord files in MindSpore's format (format.py), which `dataset.MindDataset` reads, as
MindSpore's reader does; datasets MindSpore wrote load here."""
from .cifar10_to_mr import Cifar10ToMR
from .filewriter import FileWriter
from .format import MindRecordError

__all__ = ["Cifar10ToMR", "FileWriter", "MindRecordError"]
