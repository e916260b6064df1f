"""`mindspore.mindrecord`: FileWriter writes rows into cellgraph MindRecord files, which
`dataset.MindDataset` reads. The format is cellgraph's own (see format.py): files written by
MindSpore's MindRecord writer are refused with an error that says so."""
from .filewriter import FileWriter

__all__ = ["FileWriter"]
