"""`mindspore.ops.composite.base`: the module MindSpore defines its higher-order operations
in; programs and MindSpore's tests import GradOperation, HyperMap, Map and
MultitypeFuncGraph from here."""
from . import GradOperation, HyperMap, Map, MultitypeFuncGraph

__all__ = ["GradOperation", "HyperMap", "Map", "MultitypeFuncGraph"]
