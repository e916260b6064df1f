"""`mindspore.log`: the library's logger (Python's `logging`, logger name "cellgraph").

Configured, as MindSpore's, from the environment when it is first used (and again after
`GLOBAL_LOGGER` is set back to None):

* `GLOG_v`: the level, 0 DEBUG, 1 INFO, 2 WARNING (the default), 3 ERROR, 4 CRITICAL;
* `GLOG_logtostderr`: 1 (the default) logs to stderr (through Python's logging, so the
  application's handlers see the records); 0 writes log files as MindSpore does instead:
  `<GLOG_log_dir>/rank_<id>/logs/cellgraph.log.<pid>`, rotated at `logger_maxBytes` (50 MiB)
  keeping `logger_backupCount` (30) old files, each line as MindSpore writes it
  (`[WARNING] ME(pid:thread,process):2024-01-02-03:04:05.678.901 [file.py:12] message`), and
  the records at `GLOG_stderrthreshold` (WARNING) and above to stderr too.

Values outside those are MindSpore's ValueErrors (`_verify_config`).
"""
from __future__ import annotations

import logging
import logging.handlers
import os
import sys
import threading
import time

__all__ = ["get_level", "get_log_config"]

GLOBAL_LOGGER: logging.Logger | None = None  # the configured logger; None: configure on use

_NAMES = {"0": "DEBUG", "1": "INFO", "2": "WARNING", "3": "ERROR", "4": "CRITICAL"}
_GLOG_LEVEL = {getattr(logging, name): glog for glog, name in _NAMES.items()}
# setting name -> environment variable, as MindSpore names them
_ENVIRONMENT = {"level": "GLOG_v", "console": "GLOG_logtostderr", "filepath": "GLOG_log_dir",
                "maxBytes": "logger_maxBytes", "backupCount": "logger_backupCount",
                "stderr_level": "GLOG_stderrthreshold"}
_MAX_BYTES, _BACKUP_COUNT = 52428800, 30
_FORMAT = ("[%(levelname)s] ME(%(process)d:%(thread)d,%(processName)s):%(asctime)s "
           "[%(filename)s:%(lineno)d] %(message)s")
_lock = threading.Lock()
_state = {"level": None, "handlers": ()}  # the level and handlers this module last set


class _Formatter(logging.Formatter):
    """MindSpore's time stamps: `%Y-%m-%d-%H:%M:%S.mmm.uuu`."""

    def formatTime(self, record, datefmt=None):
        stamp = time.strftime("%Y-%m-%d-%H:%M:%S", self.converter(record.created))
        micros = f"{round(record.msecs * 1000):06d}"
        return f"{stamp}.{micros[:3]}.{micros[3:]}"


def _get_env_config() -> dict:
    """The logging settings the environment gives, by MindSpore's setting names."""
    config = {}
    for key, variable in _ENVIRONMENT.items():
        value = os.environ.get(variable)
        if value:
            config[key] = value.strip()
    return config


def _verify_level(level: str) -> None:
    if level not in _NAMES:
        raise ValueError(f"Incorrect log level, please check the configuration of GLOG_v or "
                         f"GLOG_stderrthreshold, desired log level: 4-CRITICAL, 3-ERROR, "
                         f"2-WARNING, 1-INFO, 0-DEBUG. But got {level}.")


def _verify_config(config: dict) -> None:
    """MindSpore's ValueErrors for settings it refuses (the log folder is made if missing)."""
    for key in ("level", "stderr_level"):
        if config.get(key) is not None:
            _verify_level(config[key])
    console = config.get("console")
    if console is None:
        return
    if console not in ("0", "1"):
        raise ValueError(f"Incorrect value, the value of GLOG_logtostderr must be 0 or 1, but got "
                         f"{console}.")
    if console == "1":
        return
    if not config.get("filepath"):
        raise ValueError("When GLOG_logtostderr is set to 0, the directory of saving log "
                         "GLOG_log_dir must be set, but got it empty.")
    os.makedirs(os.path.realpath(config["filepath"]), mode=0o700, exist_ok=True)
    for key, what in (("maxBytes", "logger_maxBytes"), ("backupCount", "logger_backupCount")):
        value = config.get(key)
        if value is not None and not value.isdigit():
            raise ValueError(f"Incorrect value, the value of {what} must be positive integer. "
                             f"But got {what}:{value}.")


def _rank_id() -> str:
    return os.getenv("RANK_ID") or os.getenv("OMPI_COMM_WORLD_RANK") or \
        os.getenv("MS_NODE_ID") or "0"


def _get_logger() -> logging.Logger:
    """GLOBAL_LOGGER, configured from the environment when it is None."""
    global GLOBAL_LOGGER
    if GLOBAL_LOGGER is not None:
        return GLOBAL_LOGGER
    config = _get_env_config()
    _verify_config(config)
    with _lock:
        if GLOBAL_LOGGER is None:
            GLOBAL_LOGGER = _configured(config)
    return GLOBAL_LOGGER


def _configured(config: dict) -> logging.Logger:
    logger = logging.getLogger("cellgraph")
    # a level someone else set (an application, pytest's caplog) stays unless GLOG_v says one
    if "level" in config or logger.level in (logging.NOTSET, _state["level"]):
        logger.setLevel(getattr(logging, _NAMES[config.get("level", "2")]))
        _state["level"] = logger.level
    for handler in _state["handlers"]:
        logger.removeHandler(handler)
        handler.close()
    handlers = []
    if config.get("console", "1") == "0":
        folder = os.path.join(os.path.realpath(config["filepath"]), f"rank_{_rank_id()}", "logs")
        os.makedirs(folder, mode=0o700, exist_ok=True)
        to_file = logging.handlers.RotatingFileHandler(
            os.path.join(folder, f"cellgraph.log.{os.getpid()}"),
            maxBytes=int(config.get("maxBytes", _MAX_BYTES)),
            backupCount=int(config.get("backupCount", _BACKUP_COUNT)), encoding="utf8")
        to_file.name = "FileHandler"
        to_stderr = logging.StreamHandler(sys.stderr)
        to_stderr.name = "StreamHandler"
        to_stderr.setLevel(getattr(logging, _NAMES[config.get("stderr_level", "2")]))
        handlers = [to_file, to_stderr]
        for handler in handlers:
            handler.setFormatter(_Formatter(_FORMAT))
            logger.addHandler(handler)
    logger.propagate = not handlers  # its own handlers write it: not the application's too
    _state["handlers"] = tuple(handlers)
    return logger


def _level_function(name: str, description: str):
    """The module function `name` (debug, info, ...): logs at its level, reporting the
    caller's line. A function of this module, so that graphs refuse it as MindSpore's do."""

    def log(msg, *args, **kwargs):
        kwargs.setdefault("stacklevel", 2)  # the caller's line, not this module's
        getattr(_get_logger(), name)(msg, *args, **kwargs)

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
    return _GLOG_LEVEL.get(_get_logger().getEffectiveLevel(), "2")


def get_log_config() -> dict:
    """The logging settings in MindSpore's names: the level and GLOG_logtostderr, and where
    log files are written, the folder, rotation and stderr threshold."""
    config = {"GLOG_v": get_level(), "GLOG_logtostderr": "1"}  # get_level configures
    if _state["handlers"]:
        to_file, to_stderr = _state["handlers"]
        config.update({"GLOG_logtostderr": "0",
                       "GLOG_log_dir": os.path.dirname(to_file.baseFilename),
                       "logger_maxBytes": to_file.maxBytes,
                       "logger_backupCount": to_file.backupCount,
                       "GLOG_stderrthreshold": _GLOG_LEVEL.get(to_stderr.level)})
    return config
