"""`mindspore.dataset.engine.iterators`: the iterators at MindSpore's module path."""
from ..iterators import (  # noqa: F401  (MindSpore's test suites import the registry and its helpers)
    ITERATORS_LIST,
    DictIterator,
    TupleIterator,
    _cleanup,
    _set_iterator_cleanup,
    _unset_iterator_cleanup,
    check_iterator_cleanup,
)
from . import at_home

__all__ = ["DictIterator", "TupleIterator"]

at_home(__name__, DictIterator, TupleIterator)
