"""mindspore.dataset.debug: the hooks that debug mode (`config.set_debug_mode`) runs before
and after each operation of a `map`, or that a program puts among a map's operations."""
from .debug_hook import DebugHook
from .pre_defined_hook import PrintDataHook, PrintMetaDataHook

__all__ = ["DebugHook", "PrintDataHook", "PrintMetaDataHook"]
