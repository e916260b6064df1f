"""`mindspore.log`: the library's logger (Python's `logging`, logger name "cellgraph").

`GLOG_v` sets the level as in MindSpore: 0 DEBUG, 1 INFO, 2 WARNING (the default), 3 ERROR,
4 CRITICAL.
"""
from __future__ import annotations

import logging
import os

_LEVELS = {0: logging.DEBUG, 1: logging.INFO, 2: logging.WARNING, 3: logging.ERROR,
           4: logging.CRITICAL}
_logger = logging.getLogger("cellgraph")
if _logger.level == logging.NOTSET:  # a level set before this module loaded stays
    _logger.setLevel(_LEVELS.get(int(os.environ.get("GLOG_v", "2") or 2), logging.WARNING))

debug = _logger.debug
info = _logger.info
warning = _logger.warning
error = _logger.error
critical = _logger.critical
exception = _logger.exception


def get_level() -> str:
    """The level as MindSpore spells it: "0" (debug) to "4" (critical)."""
    by_value = {v: k for k, v in _LEVELS.items()}
    return str(by_value.get(_logger.level, 2))


def get_log_config() -> dict:
    return {"GLOG_v": get_level()}
