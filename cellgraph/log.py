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



def debug(msg, *args, **kwargs):
    """Log `msg % args` at level DEBUG."""
    kwargs.setdefault("stacklevel", 2)  # the caller's line, not this module's
    _logger.debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    """Log `msg % args` at level INFO."""
    kwargs.setdefault("stacklevel", 2)  # the caller's line, not this module's
    _logger.info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    """Log `msg % args` at level WARNING."""
    kwargs.setdefault("stacklevel", 2)  # the caller's line, not this module's
    _logger.warning(msg, *args, **kwargs)


def error(msg, *args, **kwargs):
    """Log `msg % args` at level ERROR."""
    kwargs.setdefault("stacklevel", 2)  # the caller's line, not this module's
    _logger.error(msg, *args, **kwargs)


def critical(msg, *args, **kwargs):
    """Log `msg % args` at level CRITICAL."""
    kwargs.setdefault("stacklevel", 2)  # the caller's line, not this module's
    _logger.critical(msg, *args, **kwargs)


def exception(msg, *args, **kwargs):
    """Log `msg % args` at level ERROR, with the exception being handled."""
    kwargs.setdefault("stacklevel", 2)  # the caller's line, not this module's
    _logger.exception(msg, *args, **kwargs)


def get_level() -> str:
    """The level as MindSpore spells it: "0" (debug) to "4" (critical)."""
    by_value = {v: k for k, v in _LEVELS.items()}
    return str(by_value.get(_logger.level, 2))


def get_log_config() -> dict:
    return {"GLOG_v": get_level()}
