"""Run MindSpore's own test files on MindSpore and on cellgraph, and sort where they differ.

    # 1. the tests of a fetched MindSpore repository (a bare git dir) into a folder of your own
    python tools/oracle/run_corpus.py checkout GIT_DIR /tmp/ms_tree
    # 2. the corpus, by rule, into tools/oracle/corpus_files.txt
    python tools/oracle/run_corpus.py select /tmp/ms_tree
    # 3. run it (or part of it: -k tests/st/nn) on both; results as JSON lines
    nice -n 10 python tools/oracle/run_corpus.py run /tmp/ms_tree --ms-python .ms/bin/python \\
        --cg-python .venv/bin/python -k tests/st/nn --out /tmp/corpus.jsonl
    # 4. pass rates per folder and the divergences sorted by cause
    python tools/oracle/run_corpus.py report /tmp/corpus.jsonl

The corpus rule: every test_*.py under tests/st/{compiler,networks,nn,ops,tensor,mint,
dynamic_shape,pynative} whose text marks a test `cpu_linux`, and every test_*.py under
tests/ut/python that marks a test `cpu_linux` or carries no platform mark. Within a file, only
the tests that carry a CPU mark (or, in tests/ut, no platform mark) are counted.

`run` copies the tree twice into a temporary folder, the second time with the word `mindspore`
written `cellgraph` in every .py file, and runs each file with pytest in its own process on each
side, one test at a time under corpus_harness.py (GRAPH_MODE forced on both sides unless
--mode keep; a per-test time limit; a test that hangs or kills the process is recorded and the
file resumes after it). The files stay where they are; nothing of them enters the project.
Both copies leave out one import: tests/ut/python/__init__.py's registration of reference
kernels for MindSpore's old unit-test VM (tests/vm_impl), which neither CPU run uses.

`report` counts, per folder, the tests MindSpore passes and how many of them cellgraph passes,
and groups the tests MindSpore passes and cellgraph does not by cause: the exception type and
the first line of its message, with numbers, quoted names and shapes written as placeholders.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILE_LIST = HERE / "corpus_files.txt"
ST_FOLDERS = ("compiler", "networks", "nn", "ops", "tensor", "mint", "dynamic_shape", "pynative")
UT_FOLDER = "tests/ut/python"
PLATFORM_MARK = re.compile(r"\b(platform_[a-z0-9_]+|cpu_linux|cpu_windows|cpu_macos|plat_marks)\b")
CPU_MARK = re.compile(r"\b(cpu_linux|platform_x86_cpu)\b")


# ---------------------------------------------------------------- checkout
def checkout(git_dir, dest, prefixes=("tests/",)):
    """Write the files under `prefixes` at HEAD of a bare git dir into dest. Blobs the snapshot
    does not hold (its largest files) are left out and counted."""
    git = ["git", "--git-dir", str(git_dir)]
    listing = subprocess.run(git + ["ls-tree", "-r", "-z", "HEAD", "--", *prefixes],
                             check=True, stdout=subprocess.PIPE).stdout.decode()
    entries = []
    for rec in filter(None, listing.split("\0")):
        meta, path = rec.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind == "blob" and mode != "120000":
            entries.append((sha, path))
    proc = subprocess.Popen(git + ["cat-file", "--batch"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    written = absent = 0
    for sha, path in entries:
        proc.stdin.write(sha.encode() + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            absent += 1
            continue
        data = proc.stdout.read(int(header[2]))
        proc.stdout.read(1)
        out = Path(dest) / path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        written += 1
    proc.stdin.close()
    proc.wait()
    print(f"{written} files written to {dest}; {absent} not in the snapshot")


# ---------------------------------------------------------------- select
def selected(rel, text):
    """Whether a test file belongs to the corpus (see the module docstring)."""
    if rel.startswith(UT_FOLDER + "/"):
        return bool(CPU_MARK.search(text)) or not PLATFORM_MARK.search(text)
    return bool(CPU_MARK.search(text))


def select(tree, out):
    files = []
    roots = [Path(tree) / "tests" / "st" / f for f in ST_FOLDERS] + [Path(tree) / UT_FOLDER]
    for root in roots:
        for path in sorted(root.rglob("test_*.py")):
            rel = path.relative_to(tree).as_posix()
            if selected(rel, path.read_text(encoding="utf-8", errors="replace")):
                files.append(rel)
    out.write_text("# MindSpore test files in the corpus, chosen by the rule in run_corpus.py\n"
                   + "\n".join(files) + "\n", encoding="utf-8")
    counts = collections.Counter(folder_of(f) for f in files)
    for folder, n in sorted(counts.items()):
        print(f"{n:6d}  {folder}")
    print(f"{len(files)} files -> {out}")


def folder_of(rel):
    parts = rel.split("/")
    return "/".join(parts[:3]) if parts[1] == "st" else UT_FOLDER


# ---------------------------------------------------------------- run
def copy_tree(src, dst, package):
    """Copy src/tests to dst/tests, writing the word `mindspore` as `package` in .py files;
    every folder becomes a package, as MindSpore's test tree expects."""
    for path in (Path(src) / "tests").rglob("*"):
        if "__pycache__" in path.parts or path.is_dir():
            continue
        out = dst / path.relative_to(src)
        out.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".py" and package != "mindspore":
            text = path.read_text(encoding="utf-8", errors="surrogateescape")
            out.write_text(re.sub(r"\bmindspore\b", package, text), encoding="utf-8",
                           errors="surrogateescape")
        else:
            shutil.copyfile(path, out)
    for folder in [dst / "tests", *(p for p in (dst / "tests").rglob("*") if p.is_dir())]:
        init = folder / "__init__.py"
        if not init.exists():
            init.write_text("")
    # tests/ut/python/__init__.py registers Python reference kernels (tests/vm_impl) for
    # MindSpore's old unit-test VM through MindSpore internals; neither side's CPU run uses
    # them, so both sides get the package without that import
    ut_init = dst / "tests" / "ut" / "python" / "__init__.py"
    if ut_init.exists():
        ut_init.write_text('"""tests/ut/python without the VM reference kernels."""\n')
    shutil.copyfile(HERE / "corpus_harness.py", dst / "corpus_harness.py")


def read_events(path):
    out = []
    if path.exists():
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return out


def run_file(python, package, tree, rel, args):
    """Run one test file in `tree`; {test id: record}. Resumes after a hang or a crash."""
    results, cpu = {}, {}
    collect_error = ""
    events_path, skip_path = tree / ".corpus_events.jsonl", tree / ".corpus_skip"
    # MindSpore runs tests/ut/python from that folder (its data paths read `../data/...`), and
    # its test folders are not packages there, so a test imports its neighbours (`from util
    # import ...`) from its own folder
    cwd = tree / UT_FOLDER if rel.startswith(UT_FOLDER + "/") else tree
    test_dir = str((tree / rel).parent)
    env = dict(os.environ, CORPUS_PACKAGE=package, CORPUS_RESULTS=str(events_path),
               CORPUS_TIMEOUT=str(args.test_timeout), CORPUS_SKIP=str(skip_path),
               CORPUS_MODE=args.mode, PYTHONDONTWRITEBYTECODE="1", GLOG_v="3",
               PYTHONHASHSEED="0", OMP_NUM_THREADS="1", PYTHONPATH=str(tree),
               CORPUS_TEST_DIR=test_dir)
    start = time.time()
    for _attempt in range(200):
        skip_path.write_text("\n".join(sorted(results)) + "\n")
        events_path.unlink(missing_ok=True)
        cmd = [python, "-m", "pytest", "-p", "corpus_harness", "-p", "no:cacheprovider", "-q",
               "--no-header", "--tb=no", "--color=no", "-o", "python_files=test_*.py",
               "-o", "addopts=", "--rootdir", str(tree), "--import-mode=prepend", str(tree / rel)]
        budget = max(10.0, args.file_timeout - (time.time() - start))
        t0 = time.time()
        try:
            proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=budget, check=False)
            rc, tail, killed = proc.returncode, proc.stdout.decode("utf-8", "replace"), False
        except subprocess.TimeoutExpired as exc:
            rc, tail, killed = None, (exc.stdout or b"").decode("utf-8", "replace"), True
        elapsed, running = time.time() - t0, None
        collected = False
        for ev in read_events(events_path):
            if ev["event"] == "collected":
                collected = True
                cpu[ev["id"]] = ev["cpu"]
            elif ev["event"] == "collect_error":
                collect_error = collect_error or ev["msg"]
            elif ev["event"] == "start":
                running = ev["id"]
            elif ev["event"] == "done":
                results[ev["id"]] = {"status": ev["status"], "exc": ev["exc"], "msg": ev["msg"]}
                running = None
        last = ([ln for ln in tail.splitlines() if ln.strip()] or [""])[-1][:200]
        if running is not None:
            if killed or elapsed >= args.test_timeout * 0.95:
                results[running] = {"status": "timeout", "exc": "Timeout",
                                    "msg": f"no result after {args.test_timeout:.0f} s"}
            else:
                results[running] = {"status": "error", "exc": "Crash",
                                    "msg": f"process died (rc={rc}): {last}"}
        if not collected and not results:
            msg = collect_error or f"collection failed: {last}"
            results[rel + "::<module>"] = {"status": "error", "exc": "CollectError", "msg": msg}
            cpu[rel + "::<module>"] = True
            break
        remaining = [t for t in cpu if t not in results]
        if not remaining:
            break
        if running is None or time.time() - start >= args.file_timeout:
            for tid in remaining:
                results[tid] = {"status": "timeout" if killed else "error",
                                "exc": "Timeout" if killed else "NotRun",
                                "msg": "file time budget spent" if killed else f"not run: {last}"}
            break
    for tid, rec in results.items():
        rec["cpu"] = cpu.get(tid, True)
    return results


def _spread_collect_error(results, per_side):
    """A file that failed to import on one side fails every test the other side collected."""
    failed = [r for t, r in results.items() if t.endswith("::<module>")]
    if not failed:
        return results
    out = dict(results)
    for other in per_side.values():
        for tid, rec in other.items():
            if tid not in out:
                out[tid] = dict(failed[0], cpu=rec.get("cpu", True))
    if len(out) > 1:
        out = {t: r for t, r in out.items() if not t.endswith("::<module>")}
    return out


def load_files(args):
    files = [ln.strip() for ln in Path(args.files).read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    if args.filter:
        files = [f for f in files if args.filter in f]
    if args.max_files:
        files = files[:args.max_files]
    return files


def _stored_mindspore(paths):
    """{file: {test id: record}} of MindSpore's side from earlier `run` results: its results do
    not depend on cellgraph's code, so a re-measurement of the same tree need not repeat them."""
    stored = collections.defaultdict(dict)
    for path in paths:
        for ln in Path(path).read_text().splitlines():
            if ln.strip():
                r = json.loads(ln)
                stored[r["file"]][r["id"]] = {"status": r["ms"], "exc": r["ms_exc"],
                                              "msg": r["ms_msg"], "cpu": r["cpu"]}
    return stored


def run(args):
    files = load_files(args)
    done = set()
    out = Path(args.out)
    if out.exists() and args.resume:
        done = {json.loads(ln)["file"] for ln in out.read_text().splitlines() if ln.strip()}
    elif out.exists():
        out.unlink()
    stored_ms = _stored_mindspore(args.ms_results or ())
    tmp = Path(tempfile.mkdtemp(prefix="corpus_"))
    sides = {"mindspore": (os.path.abspath(args.ms_python), tmp / "ms"),
             "cellgraph": (os.path.abspath(args.cg_python), tmp / "cg")}
    try:
        for package, (_, tree) in sides.items():
            copy_tree(Path(args.tree), tree, package)
        for i, rel in enumerate(files, 1):
            if rel in done:
                continue
            t0 = time.time()
            per_side = {p: (stored_ms[rel] if p == "mindspore" and rel in stored_ms
                            else run_file(py, p, tree, rel, args))
                        for p, (py, tree) in sides.items()}
            ms, cg = (_spread_collect_error(per_side[p], per_side) for p in sides)
            cg = {neutral_id(t): r for t, r in cg.items()}
            with out.open("a", encoding="utf-8") as fh:
                for tid in sorted(set(ms) | set(cg)):
                    m = ms.get(tid, {"status": "absent", "exc": "", "msg": "", "cpu": True})
                    c = cg.get(tid, {"status": "absent", "exc": "NotCollected", "msg": "",
                                     "cpu": m.get("cpu", True)})
                    fh.write(json.dumps({"file": rel, "id": tid, "cpu": m["cpu"] and c["cpu"],
                                         "ms": m["status"], "cg": c["status"],
                                         "cg_exc": c["exc"], "cg_msg": c["msg"],
                                         "ms_exc": m["exc"], "ms_msg": m["msg"]}) + "\n")
            n_ms = sum(r["status"] == "pass" and r["cpu"] for r in ms.values())
            n_both = sum(r["status"] == "pass" and r["cpu"] and cg.get(t, {}).get("status") == "pass"
                         for t, r in ms.items())
            print(f"[{i}/{len(files)}] {rel}: mindspore passes {n_ms}, cellgraph {n_both} of them "
                  f"({time.time() - t0:.0f} s)", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------- report
_NORMALISE = [(re.compile(r"0x[0-9a-fA-F]+"), "0x_"),
              # quoted text stays when it is a name (an attribute, a module, an argument)
              (re.compile(r"(['\"`])([^'\"`]{0,200})\1"),
               lambda m: m.group(0) if re.fullmatch(r"[\w.]{1,60}", m.group(2)) else
               m.group(1) + "_" + m.group(1)),
              (re.compile(r"\[[\d,\s\-]*\]|\([\d,\s\-]*\)"), "(shape)"),
              (re.compile(r"(?<![\w.])[-+]?\d+(\.\d+)?(e[-+]?\d+)?(?![\w.])"), "N"),
              (re.compile(r"/[\w./-]+\.py"), "FILE.py"),
              (re.compile(r"\s+"), " ")]


def neutral_id(test_id: str) -> str:
    """A cellgraph-side test id as the MindSpore side names it: the rewrite of `mindspore` to
    `cellgraph` also rewrote parameter values that are strings (`test_x[mindspore]`)."""
    head, bracket, params = test_id.partition("[")
    return head + bracket + params.replace("cellgraph", "mindspore")


def cause(exc, msg):
    """Exception type and the first line of its message, with the particulars taken out."""
    text = msg or ""
    if exc and text.startswith(exc + ":"):
        text = text[len(exc) + 1:]
    text = text.strip().split("\n", 1)[0]
    for pattern, repl in _NORMALISE:
        text = pattern.sub(repl, text)
    return f"{exc or '?'}: {text.strip()[:110]}"


def coarse(text):
    """A cause with every quoted name taken out too: the class of divergence."""
    return re.sub(r"(['\"`])[^'\"`]*\1", r"\1_\1", text)


def _rows(path):
    rows = [json.loads(ln) for ln in Path(path).read_text().splitlines() if ln.strip()]
    failed_import = {r["file"]: r for r in rows if r["id"].endswith("::<module>")
                     and r["cg"] != "pass"}
    for r in rows:   # a file cellgraph could not import fails every test MindSpore ran
        if r["cg"] == "absent" and r["file"] in failed_import:
            src = failed_import[r["file"]]
            r.update(cg="error", cg_exc=src["cg_exc"], cg_msg=src["cg_msg"])
    return [r for r in rows if r["cpu"] and not r["id"].endswith("::<module>")
            or r["id"].endswith("::<module>") and r["ms"] == "pass"]


def report(args):
    rows = [r for path in args.results for r in _rows(path)]
    per_folder = collections.defaultdict(lambda: [0, 0, 0, 0])
    causes = collections.defaultdict(list)
    for r in rows:
        f = per_folder[folder_of(r["file"])]
        f[0] += 1
        if r["ms"] == "pass":
            f[1] += 1
            if r["cg"] == "pass":
                f[2] += 1
            else:
                causes[cause(r["cg_exc"], r["cg_msg"])].append(r["id"])
        elif r["cg"] == "pass":
            f[3] += 1
    lines = ["folder                           tests  ms-pass  cg-pass-of-those  rate   "
             + "cg-only-pass"]
    tot = [0, 0, 0, 0]
    for folder, (n, m, c, extra) in sorted(per_folder.items()):
        tot = [a + b for a, b in zip(tot, (n, m, c, extra))]
        lines.append(f"{folder:32s} {n:6d} {m:8d} {c:17d}  {100 * c / max(m, 1):5.1f}% {extra:6d}")
    lines.append(f"{'all':32s} {tot[0]:6d} {tot[1]:8d} {tot[2]:17d}  "
                 f"{100 * tot[2] / max(tot[1], 1):5.1f}% {tot[3]:6d}")
    classes = collections.defaultdict(list)
    for text, ids in causes.items():
        classes[coarse(text)].append((text, ids))
    lines += ["", "divergences by class (tests MindSpore passes and cellgraph does not), "
              + "with the most frequent particular causes:"]
    ranked = sorted(classes.items(), key=lambda kv: -sum(len(i) for _, i in kv[1]))
    for text, members in ranked[:args.top]:
        ids = [i for _, group in members for i in group]
        files = len({i.split("::", 1)[0] for i in ids})
        lines.append(f"{len(ids):5d} tests {files:4d} files  {text}")
        for particular, group in sorted(members, key=lambda m: -len(m[1]))[:3]:
            if particular != text:
                lines.append(f"{'':8s}{len(group):5d}  {particular}")
        lines.append(f"{'':14s}e.g. {ids[0]}")
    print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("checkout", help="write tests/ of a bare git dir's HEAD into a folder")
    p.add_argument("git_dir")
    p.add_argument("dest")
    p = sub.add_parser("select", help="choose the corpus files by the rule")
    p.add_argument("tree")
    p.add_argument("--out", type=Path, default=FILE_LIST)
    p = sub.add_parser("run", help="run the corpus on MindSpore and cellgraph")
    p.add_argument("tree", help="folder holding MindSpore's tests/ (from `checkout`)")
    p.add_argument("--ms-python", required=True, help="the oracle's interpreter (.ms/bin/python)")
    p.add_argument("--cg-python", required=True, help="cellgraph's interpreter (.venv/bin/python)")
    p.add_argument("--files", default=str(FILE_LIST), help="list of files (default: %(default)s)")
    p.add_argument("-k", dest="filter", help="only files whose path contains this")
    p.add_argument("--max-files", type=int, help="only the first N files")
    p.add_argument("--out", required=True, help="results, one JSON line per test")
    p.add_argument("--resume", action="store_true", help="skip files --out already holds")
    p.add_argument("--mode", choices=("graph", "keep"), default="graph",
                   help="graph: run every test in GRAPH_MODE (default); keep: as written")
    p.add_argument("--ms-results", nargs="+", metavar="JSONL",
                   help="earlier results of the same tree: MindSpore's side of the files they "
                        "hold is taken from them instead of being run again")
    p.add_argument("--test-timeout", type=float, default=60.0, help="seconds per test")
    p.add_argument("--file-timeout", type=float, default=300.0, help="seconds per file and side")
    p = sub.add_parser("report", help="pass rates per folder and divergences by cause")
    p.add_argument("results", nargs="+", help="result files of `run` (JSON lines)")
    p.add_argument("--top", type=int, default=40, help="how many classes to list")
    args = ap.parse_args()
    if args.command == "checkout":
        checkout(args.git_dir, args.dest)
    elif args.command == "select":
        select(args.tree, args.out)
    elif args.command == "run":
        run(args)
    else:
        report(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
