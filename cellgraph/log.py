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



def _level_function(name: str, description: str):
    """The module function `name` (debug, info, ...): logs at its level, reporting the
    caller's line. A function of this module, so that graphs refuse it as MindSpore's do."""

    def log(msg, *args, **kwargs):
        kwargs.setdefault("stacklevel", 2)  # the caller's line, not this module's
        getattr(_logger, name)(msg, *args, **kwargs)

    log.__name__ = log.__qualname__ = name
    log.__doc__ = f"Log `msg % args` at level {description}."
    return log


debug = _level_function("debug", "DEBUG")
info = _level_function("info", "INFO")
warning = _level_function("warning", "WARNING")
error = _level_function("error", "ERROR")
critical = _level_function("critical", "CRITICAL")
exception = _level_function("exception", "ERROR, with the exception being handled")


def get_level() -> str:
    """The level as MindSpore spells it: "0" (debug) to "4" (critical)."""
    by_value = {v: k for k, v in _LEVELS.items()}
    return str(by_value.get(_logger.level, 2))


def get_log_config() -> dict:
    """The logging settings in MindSpore's names: the level, and GLOG_logtostderr "1" (this
    logger writes to stderr; it keeps no log files)."""
    return {"GLOG_v": get_level(), "GLOG_logtostderr": "1"}
