"""`mindspore.mindrecord`: FileWriter (and Cifar10ToMR, which converts CIFAR-10) writes rows into cellgraph MindRecord files, which
`dataset.MindDataset` reads. The format is cellgraph's own (see format.py): files written by
MindSpore's MindRecord writer are refused with an error that says so."""
from .cifar10_to_mr import Cifar10ToMR
from .filewriter import FileWriter

__all__ = ["Cifar10ToMR", "FileWriter"]
