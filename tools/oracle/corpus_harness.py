"""pytest plugin for run_corpus.py (loaded with `-p corpus_harness`).

Environment: CORPUS_PACKAGE (the package the tests import: mindspore or cellgraph),
CORPUS_RESULTS (a JSON-lines file this plugin appends to), CORPUS_TIMEOUT (seconds per test; the
process exits when one runs longer, and the runner resumes the file after it), CORPUS_SKIP (a
file of test ids to leave out: those already done), CORPUS_MODE ("graph": every set_context
mode becomes GRAPH_MODE and a test's PYNATIVE_MODE parametrisation is left out; "keep": as
written).

It records, for each collected test, an id that does not depend on how the package prints
parameter values (file::name[arg=index,...]) and whether the test runs on CPU: a platform mark
`cpu_linux` / `platform_x86_cpu`, or no platform mark at all; then one line per finished test
with its status (pass, fail, error, skip), exception type and the first line of its message.
"""
import faulthandler
import importlib
import json
import os
import sys
import time

import pytest

PACKAGE = os.environ.get("CORPUS_PACKAGE", "mindspore")
RESULTS = os.environ.get("CORPUS_RESULTS")
TIMEOUT = float(os.environ.get("CORPUS_TIMEOUT", "60"))
SKIP = os.environ.get("CORPUS_SKIP")
MODE = os.environ.get("CORPUS_MODE", "graph")
CPU_MARKS = {"cpu_linux", "platform_x86_cpu"}
OTHER_PLATFORMS = {"platform_ascend", "platform_ascend910b", "platform_ascend310p", "platform_gpu",
                   "cpu_windows", "cpu_macos", "platform_arm_ascend_training",
                   "platform_x86_ascend_training", "platform_x86_gpu_training"}

# the package (and NumPy, which it imports) first: a test folder holds sub-folders named like
# libraries (tests/ut/python/graph_syntax/numpy), which the copy makes packages, and which
# must not stand for them
_pkg = importlib.import_module(PACKAGE)

# the test's own folder first, before the working folder `python -m` put there: MindSpore's
# test folders are not packages, so pytest would have put the folder first (mindrecord's
# `from utils import ...` means its utils.py, not tests/ut/python/utils)
if os.environ.get("CORPUS_TEST_DIR"):
    sys.path.insert(0, os.environ["CORPUS_TEST_DIR"])

_context = importlib.import_module(PACKAGE + ".context")
GRAPH = getattr(_context, "GRAPH_MODE", 0)
PYNATIVE = getattr(_context, "PYNATIVE_MODE", 1)

if MODE == "graph":
    _set_context = _context.set_context

    def set_context(*args, **kwargs):
        if kwargs.get("mode") == PYNATIVE:
            kwargs["mode"] = GRAPH
        target = kwargs.get("device_target")
        if target is not None and str(target).upper() != "CPU":
            del kwargs["device_target"]
        return _set_context(*args, **kwargs)

    set_context.__wrapped__ = _set_context
    for _mod in (_context, _pkg):
        if getattr(_mod, "set_context", None) is _set_context:
            _mod.set_context = set_context
    _set_context(mode=GRAPH)


def emit(record):
    if RESULTS:
        with open(RESULTS, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record) + "\n")


def test_id(item):
    tid = item.nodeid.split("[", 1)[0]
    spec = getattr(item, "callspec", None)
    if spec is not None and spec.indices:
        tid += "[" + ",".join(f"{k}={v}" for k, v in sorted(spec.indices.items())) + "]"
    return tid


def pynative_instance(item):
    spec = getattr(item, "callspec", None)
    for name, value in (spec.params.items() if spec is not None else ()):
        if "mode" in name.lower() and isinstance(value, int) and not isinstance(value, bool) \
                and value == PYNATIVE:
            return True
    return False


def runs_on_cpu(item):
    marks = {m.name for m in item.iter_markers()}
    return bool(marks & CPU_MARKS) or not marks & OTHER_PLATFORMS


def pytest_collection_modifyitems(session, config, items):
    skip = set()
    if SKIP and os.path.exists(SKIP):
        with open(SKIP, encoding="utf-8") as fh:
            skip = {line.strip() for line in fh if line.strip()}
    keep, drop = [], []
    for item in items:
        tid = test_id(item)
        if tid in skip or (MODE == "graph" and pynative_instance(item)):
            drop.append(item)
            continue
        keep.append(item)
        emit({"event": "collected", "id": tid, "cpu": runs_on_cpu(item)})
    if drop:
        config.hook.pytest_deselected(items=drop)
    items[:] = keep


def pytest_collectreport(report):
    if report.failed:
        text = str(report.longrepr or "")
        errors = [ln[1:].strip() for ln in text.splitlines() if ln.startswith("E ")]
        msg = errors[-1] if errors else (text.strip().splitlines() or [""])[-1]
        emit({"event": "collect_error", "msg": msg[:500]})


_now = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _now.clear()
    _now.update(id=test_id(item), t0=time.time(), status=None, msg="", exc="")
    emit({"event": "start", "id": _now["id"]})
    sys.stdout.flush()
    faulthandler.dump_traceback_later(TIMEOUT, exit=True, file=sys.__stderr__)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
    emit({"event": "done", "id": _now["id"], "status": _now["status"] or "error",
          "msg": _now["msg"], "exc": _now["exc"], "dur": round(time.time() - _now["t0"], 3)})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.excinfo is not None:
        name = getattr(call.excinfo.type, "__name__", str(call.excinfo.type))
        try:
            lines = str(call.excinfo.value).strip().splitlines()
        except Exception:  # noqa: BLE001 - an exception whose str raises
            lines = []
        report.corpus_exc = name
        report.corpus_msg = lines[0] if lines else ""


def pytest_runtest_logreport(report):
    if _now.get("status") in ("fail", "error"):
        return
    exc, msg = getattr(report, "corpus_exc", ""), getattr(report, "corpus_msg", "")
    if report.skipped:
        if _now.get("status") is None:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
            _now.update(status="skip", msg=str(reason)[:300])
    elif report.when == "call":
        if report.passed:
            _now["status"] = "pass"
        else:
            status = "fail" if exc in ("AssertionError", "Failed") else "error"
            _now.update(status=status, msg=msg[:500], exc=exc)
    elif report.failed and not (report.when == "teardown" and _now.get("status") == "pass"):
        _now.update(status="error", msg=f"[{report.when}] {msg}"[:500], exc=exc)
