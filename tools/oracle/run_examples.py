"""Run the examples of MindSpore's docstrings on MindSpore and on cellgraph, and compare.

Every public callable of the modules ``signatures.py`` walks (and the methods of its classes)
documents an ``Examples:`` section in doctest form. They are small real programs, written for
exactly the argument forms MindSpore means to accept, so they are an oracle corpus of their own::

    .ms/bin/python tools/oracle/run_examples.py collect --out /tmp/examples.json
    .venv/bin/python tools/oracle/run_examples.py run /tmp/examples.json \\
        --python .ms/bin/python --package mindspore --out /tmp/ex_ms.jsonl
    .venv/bin/python tools/oracle/run_examples.py run /tmp/examples.json \\
        --python .venv/bin/python --package cellgraph --out /tmp/ex_cg.jsonl
    .venv/bin/python tools/oracle/run_examples.py report /tmp/ex_ms.jsonl /tmp/ex_cg.jsonl

``collect`` keeps the examples of callables whose ``Supported Platforms`` name the CPU (or name
none). ``run`` executes each example as doctest does (statement by statement, an expression's
value printed), from a file so that graph mode can read the source, in worker processes that
survive crashes and time-outs, with the package name rewritten for cellgraph. ``report`` counts
the examples MindSpore runs that cellgraph runs with the same output (numbers compared within
float32 tolerance, or 1e-3 for examples computing in float16, other text exactly) and groups
the rest by cause.
"""
import argparse
import ast
import collections
import contextlib
import doctest
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

_PLATFORMS = re.compile(r"Supported Platforms:\s*\n?\s*(.*)")
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)\b")


# ---------------------------------------------------------------------------------- collect


def _runs_on_cpu(doc):
    found = _PLATFORMS.search(doc)
    return found is None or "CPU" in found.group(1)


def collect(package="mindspore"):
    """[{name, examples: [[source, want], ...]}] for each documented CPU callable, one entry per
    distinct example text."""
    import inspect

    import signatures as sig

    seen, out = set(), []

    def add(name, obj):
        doc = inspect.getdoc(obj) or ""
        if "Examples:" not in doc or not _runs_on_cpu(doc):
            return
        part = doc[doc.index("Examples:"):]
        examples = [[ex.source, ex.want] for ex in doctest.DocTestParser().get_examples(part)]
        key = "".join(s for s, _ in examples)
        if examples and key not in seen:
            seen.add(key)
            out.append({"name": name, "examples": examples})

    for path in sig.MODULES:
        mod = sig.resolve(package, path)
        for name, obj in sorted(sig.module_callables(mod).items()):
            add(f"{path}.{name}" if path else name, obj)
    for cname, path in sig.CLASSES.items():
        cls = sig.resolve(package, path)
        for name, (fn, _) in sorted(sig.class_methods(cls).items()):
            add(f"{cname}.{name}", fn)
    return out


# -------------------------------------------------------------------------------------- run


class _Timeout(BaseException):
    pass


def _on_alarm(signum, frame):
    raise _Timeout()


def _rewrite(text, package):
    return text if package == "mindspore" else re.sub(r"\bmindspore\b", package, text)


def _reset(package):
    """A fresh start for each example: PyNative mode, no parallel settings left by an earlier
    example, NumPy's generator at a fixed seed."""
    import importlib

    import numpy as np

    ms = importlib.import_module(package)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.reset_auto_parallel_context()
    np.random.seed(0)


def run_one(entry, package, folder, timeout):
    """{name, out, exc, msg}: what the example printed, and the exception that stopped it."""
    sources = [_rewrite(s, package) for s, _ in entry["examples"]]
    path = os.path.join(folder, re.sub(r"\W", "_", entry["name"]) + ".py")
    with open(path, "w") as f:
        f.write("".join(sources))
    buffer, exc, msg = io.StringIO(), "", ""
    namespace = {"__name__": "__main__", "__file__": path}
    line = 0
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(timeout)
    try:
        with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(io.StringIO()):
            _reset(package)
            for source in sources:
                tree = ast.parse(source, path, mode="single")
                ast.increment_lineno(tree, line)
                line += source.count("\n")
                exec(compile(tree, path, "single"), namespace)  # noqa: S102 - running it is the point
    except _Timeout:
        exc, msg = "Timeout", f"over {timeout} s"
    except BaseException as e:  # noqa: BLE001 - the outcome is the record
        exc, msg = type(e).__name__, str(e)[:400]
        if not isinstance(e, Exception):
            exc = "Exit" if isinstance(e, SystemExit) else exc
    finally:
        signal.alarm(0)
    return {"name": entry["name"], "out": buffer.getvalue()[-4000:], "exc": exc, "msg": msg}


def worker(examples_path, package, indices, timeout):
    entries = json.loads(Path(examples_path).read_text())
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        for i in indices:
            try:
                result = run_one(entries[i], package, folder, timeout)
            except BaseException:  # noqa: BLE001 - never lose the line
                result = {"name": entries[i]["name"], "out": "", "exc": "Harness",
                          "msg": traceback.format_exc()[-400:]}
            sys.__stdout__.write(json.dumps(result) + "\n")
            sys.__stdout__.flush()


def _watch(cmd, env, quiet_limit):
    """(stdout, stderr) of a worker, killed once it prints nothing for `quiet_limit` seconds
    (an example stuck in native code, which the worker's own alarm cannot interrupt)."""
    import select

    with tempfile.TemporaryFile() as errors:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=errors, env=env)
        chunks, note = [], None
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], quiet_limit)
            if not ready:
                proc.kill()
                note = "the example hung (killed)"
            data = os.read(proc.stdout.fileno(), 1 << 16) if ready else b""
            if not data:
                break
            chunks.append(data)
        proc.wait()
        errors.seek(0)
        return b"".join(chunks).decode(), note or errors.read().decode(errors="replace")


def run(examples_path, python, package, out, chunk=40, timeout=60):
    """Each example's record, appended to `out` (examples it already holds are skipped)."""
    entries = json.loads(Path(examples_path).read_text())
    done = ({json.loads(line)["name"] for line in Path(out).read_text().splitlines()}
            if os.path.exists(out) else set())
    todo = [i for i, e in enumerate(entries) if e["name"] not in done]
    env = dict(os.environ, PYTHONWARNINGS="ignore", GLOG_v="3")
    with open(out, "a") as sink:
        while todo:
            batch = todo[:chunk]
            cmd = [python, __file__, "worker", examples_path, "--package", package,
                   "--indices", ",".join(map(str, batch)), "--timeout", str(timeout)]
            stdout, stderr = _watch(cmd, env, timeout + 30)
            finished = set()
            for line in stdout.splitlines():
                try:
                    result = json.loads(line)
                except ValueError:
                    continue
                sink.write(json.dumps(result) + "\n")
                finished.add(result["name"])
            left = [i for i in batch if entries[i]["name"] not in finished]
            if left:  # the first unfinished example ended the worker
                sink.write(json.dumps({"name": entries[left[0]]["name"], "out": "",
                                       "exc": "Crash", "msg": stderr[-400:]}) + "\n")
                finished.add(entries[left[0]]["name"])
            sink.flush()
            todo = [i for i in todo if entries[i]["name"] not in finished]
            print(f"{len(entries) - len(todo)}/{len(entries)}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------------- report


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
# NumPy 2 spells a scalar's repr np.float32(1.5) where NumPy 1 (the oracle's) wrote 1.5
_NUMPY_SCALAR = re.compile(r"np\.(?:float|int|uint|bool|complex|str)\w*\(([^()]*)\)")


def _tokens(text):
    """(numbers, the text between them with whitespace squeezed); object addresses, which no
    two processes share, and NumPy 2's scalar wrappers are left out."""
    text = _NUMPY_SCALAR.sub(r"\1", _ADDRESS.sub("", text))
    numbers = [float(n) for n in _NUMBER.findall(text)]
    words = "".join(_NUMBER.sub("#", text).split())
    return numbers, words


def same_output(ms_out, cg_out, rtol=1e-5, atol=1e-6):
    import math

    (ms_nums, ms_words), (cg_nums, cg_words) = _tokens(ms_out), _tokens(_rewrite_back(cg_out))
    if ms_words != cg_words or len(ms_nums) != len(cg_nums):
        return False
    for a, b in zip(ms_nums, cg_nums):
        if math.isnan(a) and math.isnan(b):
            continue
        if a != b and not abs(a - b) <= atol + rtol * abs(a):
            return False
    return True


def _rewrite_back(text):
    return re.sub(r"\bcellgraph\b", "mindspore", text)


def _load(path):
    return {r["name"]: r for r in map(json.loads, Path(path).read_text().splitlines())}


def _half_precision(examples_path):
    """Names of the examples that compute in float16: compared within 1e-3."""
    if examples_path is None:
        return set()
    entries = json.loads(Path(examples_path).read_text())
    return {e["name"] for e in entries if any("float16" in s for s, _ in e["examples"])}


def compare(ms_path, cg_path, examples_path=None):
    ms, cg = _load(ms_path), _load(cg_path)
    half = _half_precision(examples_path)
    rows = []
    for name, m in ms.items():
        if m["exc"] or name not in cg:
            continue
        c = cg[name]
        rtol = 1e-3 if name in half else 1e-5
        if c["exc"]:
            verdict = f"{c['exc']}: {c['msg'][:90]}"
        elif same_output(m["out"], c["out"], rtol=rtol, atol=rtol / 10):
            verdict = "same"
        else:
            verdict = "different output"
        rows.append((name, verdict))
    return rows


def report(ms_path, cg_path, top=60, listing=False, examples_path=None):
    rows = compare(ms_path, cg_path, examples_path)
    same = sum(v == "same" for _, v in rows)
    print(f"examples MindSpore runs: {len(rows)}; cellgraph the same: {same} "
          f"({100.0 * same / max(len(rows), 1):.1f}%)")
    by_module = collections.defaultdict(lambda: [0, 0])
    for name, verdict in rows:
        module = name.rsplit(".", 1)[0] if "." in name else "mindspore"
        by_module[module][0] += 1
        by_module[module][1] += verdict == "same"
    for module, (n, ok) in sorted(by_module.items()):
        print(f"  {module or 'mindspore'}: {ok}/{n}")
    causes = collections.Counter(v if v == "different output" else v.split(":")[0]
                                 for _, v in rows if v != "same")
    print("causes:")
    for cause, n in causes.most_common(top):
        print(f"  {n:4d}  {cause}")
    if listing:
        for name, verdict in rows:
            if verdict != "same":
                print(f"{name}\t{verdict}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("collect")
    p.add_argument("--out", required=True)
    p = sub.add_parser("run")
    p.add_argument("examples")
    p.add_argument("--python", required=True)
    p.add_argument("--package", required=True, choices=["mindspore", "cellgraph"])
    p.add_argument("--out", required=True)
    p.add_argument("--timeout", type=int, default=60, help="seconds per example")
    p = sub.add_parser("worker")
    p.add_argument("examples")
    p.add_argument("--package", required=True)
    p.add_argument("--indices", required=True)
    p.add_argument("--timeout", type=int, default=60)
    p = sub.add_parser("report")
    p.add_argument("ms")
    p.add_argument("cg")
    p.add_argument("--list", action="store_true", help="list every example that differs")
    p.add_argument("--examples", help="the collected examples: those computing in float16 are "
                                      "compared within 1e-3")
    args = parser.parse_args()
    if args.cmd == "collect":
        with open(args.out, "w") as f:
            json.dump(collect(), f)
    elif args.cmd == "run":
        run(args.examples, args.python, args.package, args.out, timeout=args.timeout)
    elif args.cmd == "worker":
        worker(args.examples, args.package, [int(i) for i in args.indices.split(",")],
               args.timeout)
    else:
        report(args.ms, args.cg, listing=args.list, examples_path=args.examples)


if __name__ == "__main__":
    main()
