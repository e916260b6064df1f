"""mindspore.dataset.config: the module `mindspore.dataset.core.config` under the name MindSpore
also gives it (`dataset.config` is that module, its settings one state)."""
import sys

from .core import config as _config

sys.modules[__name__] = _config
