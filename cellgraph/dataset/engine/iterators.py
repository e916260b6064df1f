"""`mindspore.dataset.engine.iterators`: the iterators at MindSpore's module path."""
from ..iterators import DictIterator, TupleIterator
from . import at_home

__all__ = ["DictIterator", "TupleIterator"]

at_home(__name__, DictIterator, TupleIterator)
