"""`mindspore.dataset.engine.cache_client`: DatasetCache at MindSpore's module path."""
from ..cache import DatasetCache
from . import at_home

__all__ = ["DatasetCache"]

at_home(__name__, DatasetCache)
