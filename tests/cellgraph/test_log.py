"""`cellgraph.log` configured from the environment as MindSpore's `mindspore.log` is (its
settings' names, defaults, file layout and line format, and its ValueErrors)."""
import logging
import os
import re

import pytest

from cellgraph import log as logger

_VARIABLES = ("GLOG_v", "GLOG_logtostderr", "GLOG_log_dir", "logger_maxBytes",
              "logger_backupCount", "GLOG_stderrthreshold")


@pytest.fixture(autouse=True)
def _fresh_logger(monkeypatch):
    for name in _VARIABLES:
        monkeypatch.delenv(name, raising=False)
    logger.GLOBAL_LOGGER = None
    yield
    logger.GLOBAL_LOGGER = None
    monkeypatch.undo()
    logger._get_logger()  # back to the environment's settings, handlers closed


def test_defaults_are_mindspores():
    assert logger.get_log_config() == {"GLOG_v": "2", "GLOG_logtostderr": "1"}
    assert logger.get_level() == "2"


def test_the_level_is_read_again_once_the_logger_is_reset(monkeypatch):
    monkeypatch.setenv("GLOG_v", "0")
    logger.GLOBAL_LOGGER = None
    assert logger.get_level() == "0"
    monkeypatch.setenv("GLOG_v", "3")
    assert logger.get_level() == "0"  # configured once
    logger.GLOBAL_LOGGER = None
    assert logger.get_level() == "3"


def test_log_files_as_mindspore_writes_them(tmp_path, monkeypatch):
    monkeypatch.setenv("GLOG_v", "1")
    monkeypatch.setenv("GLOG_logtostderr", "0")
    monkeypatch.setenv("GLOG_log_dir", str(tmp_path))
    monkeypatch.setenv("logger_maxBytes", "1000")
    monkeypatch.setenv("logger_backupCount", "10")
    for i in range(100):
        logger.warning("test log message warning %r", i)
    folder = tmp_path / "rank_0" / "logs"
    files = sorted(os.listdir(folder))
    assert len(files) == 11 and all(f.startswith(f"cellgraph.log.{os.getpid()}") for f in files)
    line = (folder / f"cellgraph.log.{os.getpid()}").read_text().splitlines()[-1]
    assert re.fullmatch(r"\[WARNING\] ME\(\d+:\d+,MainProcess\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d"
                        r"\.\d{3}\.\d{3} \[test_log\.py:\d+\] test log message warning 99", line)
    assert logger.get_log_config() == {
        "GLOG_v": "1", "GLOG_logtostderr": "0", "GLOG_log_dir": str(folder),
        "logger_maxBytes": 1000, "logger_backupCount": 10, "GLOG_stderrthreshold": "2"}


@pytest.mark.parametrize("settings, message", [
    ({"GLOG_v": "test"}, "Incorrect log level"),
    ({"GLOG_v": "100"}, "Incorrect log level"),
    ({"GLOG_logtostderr": "6"}, "GLOG_logtostderr must be 0 or 1, but got 6."),
    ({"GLOG_logtostderr": "0"}, "GLOG_log_dir must be set, but got it empty."),
    ({"GLOG_logtostderr": "0", "GLOG_log_dir": "{tmp}", "logger_maxBytes": "-1"},
     "logger_maxBytes must be positive integer. But got logger_maxBytes:-1."),
    ({"GLOG_logtostderr": "0", "GLOG_log_dir": "{tmp}", "logger_backupCount": "x"},
     "logger_backupCount must be positive integer. But got logger_backupCount:x."),
])
def test_settings_mindspore_refuses(settings, message, monkeypatch, tmp_path):
    for name, value in settings.items():
        monkeypatch.setenv(name, value.format(tmp=tmp_path))
    with pytest.raises(ValueError, match=re.escape(message)):
        logger._verify_config(logger._get_env_config())


def test_records_reach_the_applications_handlers_on_stderr(caplog):
    with caplog.at_level(logging.INFO, logger="cellgraph"):
        logger.info("seen %d", 3)
    assert caplog.records[-1].getMessage() == "seen 3"
    assert caplog.records[-1].filename == "test_log.py"
