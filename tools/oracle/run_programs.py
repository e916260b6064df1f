"""Run real programs (MindSpore's tutorials, the model zoos' scripts and tests) on MindSpore and
on cellgraph, and compare what they print.

    # the repositories, fetched as bare git dirs under one folder (owner+name/repo), e.g.
    #   /work/.mirror/mindspore-ai+docs/repo
    python tools/oracle/run_programs.py run --mirrors /work/.mirror \\
        --ms-python .ms/bin/python --cg-python .venv/bin/python --out /tmp/programs.jsonl
    python tools/oracle/run_programs.py report /tmp/programs.jsonl
    # --ms-cache DIR keeps MindSpore's runs, so a rerun after a fix runs cellgraph's side only

The list is programs.txt beside this file, one program a line: `owner/name path [key=value
...]`. A program is
* a tutorial page (`.md`: its ```python blocks in order; `.ipynb`: its code cells), run block
  by block in one namespace, shell and magic lines (`!pip ...`, `%matplotlib`) left out; a
  block that raises prints the built-in exception type it derives from and the page goes on,
  so the errors a page shows on purpose are compared too;
* a `.py` script, run in a copy of the folders that `tree=a,b` names (the zoo's package);
* a zoo's test file (`pytest=1`), run with pytest in such a copy: the program counts as the
  tests MindSpore passes in it.
* a zoo's network that is not an image classifier (`zoo=NAME`): zoo_program.py runs the
  network zoo_networks.py's builder NAME makes from the folder's src/, as model_program.py;
* a zoo's model (`model=NAME`, with `factory=module:function` when not mindcv's
  create_model and `input=CxHxW` when not 3x224x224): model_program.py builds it in such a
  copy, gives it the same weights on both sides, runs one forward pass and two training steps;
* a zoo's training script (`train=MODEL`): mindcv_train_program.py runs mindcv's train.py on
  MODEL for one epoch, then its validate.py on the checkpoint written, with the command-line
  options `args=--a=1,--b=2` adds (comma-separated) to its own.
`data=NAME` writes the synthetic dataset NAME of synthetic_mindcv.py (image folders) into the
program's folder first, the same bytes on each side.
`path=a,b` adds folders of the copy to the module path; `cwd=a` runs the program in that folder of
the copy (a test that opens its data by paths relative to its own folder, where its
repository's CI starts it). `device=CPU` runs a program written for a GPU or an Ascend device
on the CPU (program_harness.py takes the device_target it sets as CPU, on both sides);
`set=FILE:key.key=value;key=value` rewrites entries of a YAML configuration file of the copy
(FILE relative to the `cwd` folder) before the run: the epochs and sizes of a training program,
cut so that it runs within the timeout; `data=FOLDER/NAME` writes program_harness.py's synthetic
files for NAME (a data file the program reads) under FOLDER of the `cwd` folder first. Nothing
of the repositories enters the project: each program is written into a temporary folder twice,
the second time with the word `mindspore` written `cellgraph`, and run there on each side under
program_harness.py (seeded generators; the tutorials' dataset downloads replaced by synthetic
data of the same format and shapes).

A program counts when MindSpore runs it to the end (a page: with at most half its blocks
raising), twice, printing the same number of lines; lines its two runs print differently
(an unseeded shuffle) are not compared, nor, when cellgraph's output differs, the lines a
third MindSpore run prints differently. It passes on cellgraph when cellgraph runs it to the
end and prints the same: the same text, with numbers equal within rel 1e-5 / abs 1e-6 (1e-3
where the line says float16; a number printed with few digits, within one unit of its last
digit, which is as close as the print tells), integers and words exactly, a NumPy scalar
as NumPy 1 prints it (0.5 for NumPy 2's np.float64(0.5)). Lines that report times, addresses
or paths are left out of the comparison.

Each record keeps both sides' wall times (ms_seconds, cg_seconds; MindSpore's from --ms-cache
where it ran then), and `report` lists the programs cellgraph runs more than 1.5x slower.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs.txt"
sys.path.insert(0, str(HERE))
import synthetic_mindcv
from run_corpus import cause, coarse, neutral_id

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)\b")
VOLATILE = re.compile(r"(?<![a-z])time|elapsed|0x[0-9a-f]+|/tmp/|\bs/step\b|\bms\b|seconds|cost|"
                      r"\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d|WARNING|\[WARN|UserWarning|warn\(",
                      re.IGNORECASE)


# ---------------------------------------------------------------- the list
def load_list(path: Path) -> list[dict]:
    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        repo, rel, *options = line.split()
        entry = {"repo": repo, "path": rel, "id": f"{repo}:{rel}"}
        for option in options:
            key, _, value = option.partition("=")
            # `path=` adds to the module path; the entry's own "path" is the program's
            entry["pythonpath" if key == "path" else key] = value
        if "model" in entry or "train" in entry:  # one file, several models
            entry["id"] += f"[{entry.get('model') or entry['train']}]"
        entries.append(entry)
    return entries


def git_dir(mirrors: Path, repo: str) -> Path:
    return mirrors / repo.replace("/", "+") / "repo"


def show(mirrors: Path, repo: str, rel: str) -> str:
    return subprocess.run(["git", "--git-dir", str(git_dir(mirrors, repo)), "show",
                           f"HEAD:{rel}"], check=True, stdout=subprocess.PIPE).stdout.decode(
                               "utf-8", "replace")


# ---------------------------------------------------------------- programs from pages
FENCE = re.compile(r"^([ \t]*)```python[^\n]*\n(.*?)^[ \t]*```", re.MULTILINE | re.DOTALL)


def _keep(line: str) -> bool:
    stripped = line.strip()
    return not stripped.startswith(("!", "%", "pip install"))


def blocks_of(rel: str, text: str) -> list[str]:
    """The code of a page: its python blocks (a .md) or code cells (a .ipynb), in order."""
    if rel.endswith(".ipynb"):
        cells = json.loads(text)["cells"]
        blocks = ["".join(c["source"]) for c in cells if c.get("cell_type") == "code"]
    else:
        blocks = [textwrap.dedent(m.group(2)) for m in FENCE.finditer(text)]
    return ["\n".join(ln for ln in b.splitlines() if _keep(ln)) + "\n" for b in blocks]


# ---------------------------------------------------------------- running
def renamed(text: str, package: str) -> str:
    """The word `mindspore` as `package`, where it names the package: not inside a URL or host
    name (`mindspore-website`, `www.mindspore.cn`)."""
    if package == "mindspore":
        return text
    return re.sub(r"(?<![\w./-])mindspore(?![\w-])", package, text)


def write_tree(mirrors: Path, entry: dict, dest: Path, package: str) -> None:
    """The folders `tree=` names, from the repository's HEAD, with .py files renamed."""
    folders = [f for f in entry.get("tree", "").split(",") if f]
    if not folders:
        return
    gd = str(git_dir(mirrors, entry["repo"]))
    listing = subprocess.run(["git", "--git-dir", gd, "ls-tree", "-r", "-z", "HEAD", "--",
                              *folders], check=True, stdout=subprocess.PIPE).stdout.decode()
    for record in filter(None, listing.split("\0")):
        meta, rel = record.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind != "blob" or mode == "120000":
            continue
        blob = subprocess.run(["git", "--git-dir", gd, "cat-file", "blob", sha], check=False,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if blob.returncode:  # a large data file the snapshot holds no copy of
            continue
        data = blob.stdout
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith(".py"):
            out.write_text(renamed(data.decode("utf-8", "replace"), package), encoding="utf-8")
        else:
            out.write_bytes(data)


def harness_files() -> list[Path]:
    """program_harness.py and the synthetic data makers it imports, copied beside a program."""
    return [HERE / "program_harness.py", *sorted(HERE.glob("synthetic_*.py"))]


def zoo_modules() -> list[Path]:
    """The modules of zoo_program.py's network builders (zoo_networks.py and one module per
    area of the zoo it imports), copied beside a `zoo=NAME` program."""
    return sorted(p for p in HERE.glob("zoo_*.py") if p.name != "zoo_program.py")


def override_config(folder: Path, spec: str) -> None:
    """`FILE:a.b=value;c=value`: the YAML file's entries a.b and c set to the values (read as
    YAML: 2, 0.5, [64, 64], true)."""
    import yaml

    rel, _, assignments = spec.partition(":")
    path = folder / rel
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    for assignment in filter(None, assignments.split(";")):
        keys, _, value = assignment.partition("=")
        *parents, last = keys.split(".")
        node = config
        for key in parents:
            node = node[key]
        if last not in node:
            raise KeyError(f"{rel} has no entry {keys}")
        node[last] = yaml.safe_load(value)
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")


def run_side(python: str, package: str, mirrors: Path, entry: dict, timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"prog_{package}_") as tmp:
        work = Path(tmp)
        write_tree(mirrors, entry, work, package)
        if entry.get("set"):
            override_config(work / entry.get("cwd", ""), entry["set"])
        env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1", GLOG_v="3",
                   PROGRAM_DEVICE=entry.get("device", ""), PROGRAM_DATA=entry.get("data", ""),
                   PYTHONDONTWRITEBYTECODE="1", MPLBACKEND="Agg",
                   PYTHONPATH=os.pathsep.join([str(work)] + [
                       str(work / p) for p in entry.get("pythonpath", "").split(",") if p]))
        blocks = 1
        if entry.get("pytest"):
            cmd = [python, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
                   os.path.relpath(work / entry["path"], work / entry.get("cwd", ""))]
        else:
            text = show(mirrors, entry["repo"], entry["path"])
            if entry.get("model"):
                # a zoo's model run by our own program (model_program.py): `path` is the
                # file that defines it, read only to check that the zoo still has it
                text = (f"MODEL = {entry['model']!r}\n"
                        f"FACTORY = {entry.get('factory', 'mindcv.models:create_model')!r}\n"
                        f"INPUT = {tuple(int(n) for n in entry.get('input', '3x224x224').split('x'))}\n"
                        + (HERE / "model_program.py").read_text(encoding="utf-8"))
            if entry.get("zoo"):
                # a zoo's network built by zoo_networks.py, run by zoo_program.py
                text = (f"NETWORK = {entry['zoo']!r}\n"
                        + (HERE / "zoo_program.py").read_text(encoding="utf-8"))
                for module in zoo_modules():
                    (work / module.name).write_text(renamed(
                        module.read_text(encoding="utf-8"), package), encoding="utf-8")
            if entry.get("train"):
                # a zoo's training and evaluation scripts, run by mindcv_train_program.py
                options = [a for a in entry.get("args", "").split(",") if a]
                text = (f"MODEL = {entry['train']!r}\nARGS = {options!r}\n"
                        + (HERE / "mindcv_train_program.py").read_text(encoding="utf-8"))
            if entry.get("data"):
                synthetic_mindcv.write_folder(entry["data"], work)
            if entry["path"].endswith((".md", ".ipynb")):
                program = work / "program.json"
                page = [renamed(b, package) for b in blocks_of(entry["path"], text)]
                program.write_text(json.dumps(page), encoding="utf-8")
                blocks = len(page)
            else:
                program = work / "program.py"
                program.write_text(renamed(text, package), encoding="utf-8")
            for helper in harness_files():
                shutil.copyfile(helper, work / helper.name)
            cmd = [python, str(work / "program_harness.py"), str(program)]
        start = time.monotonic()
        try:
            proc = subprocess.run(cmd, cwd=work / entry.get("cwd", ""), env=env,
                                  capture_output=True, timeout=timeout, check=False)
            out, err, code = proc.stdout.decode("utf-8", "replace"), \
                proc.stderr.decode("utf-8", "replace"), proc.returncode
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode("utf-8", "replace")
            err, code = f"TimeoutError: more than {timeout:.0f} s", -1
        seconds = round(time.monotonic() - start, 2)
    return {"code": code, "out": out, "err": err[-4000:], "blocks": blocks, "seconds": seconds}


def last_error(err: str) -> tuple[str, str]:
    """(exception type, message) of the last traceback in stderr."""
    for line in reversed(err.strip().splitlines()):
        m = re.match(r"^([\w.]+(?:Error|Exception|Exit|Interrupt)|TimeoutError)\b:?\s*(.*)",
                     line.strip())
        if m:
            return m.group(1).rsplit(".", 1)[-1], m.group(2)
    return "Failed", (err.strip().splitlines() or ["no message"])[-1][:200]


def pytest_outcomes(out: str) -> dict:
    found = {}
    for m in re.finditer(r"^(PASSED|FAILED|ERROR|SKIPPED)\s+(\S+)", out, re.MULTILINE):
        found[m.group(2)] = m.group(1)
    return found


# NumPy 2 spells a scalar's repr np.float64(0.5) (np.True_) where NumPy 1 (the oracle's) wrote
# 0.5 (True)
NUMPY_SCALAR = re.compile(r"np\.(?:float|int|uint|bool|complex|str)\w*\(([^()]*)\)"
                          r"|np\.(True|False)_\b")


def _compared(text: str, package: str) -> list[str]:
    lines = []
    for line in text.replace(package, "mindspore").splitlines():
        if line.strip() and not VOLATILE.search(line):
            lines.append(NUMPY_SCALAR.sub(lambda m: m.group(1) or m.group(2), line.rstrip()))
    return lines


def unstable_lines(first: str, second: str) -> set | None:
    """The compared lines where two MindSpore runs of a program differ (an unseeded shuffle,
    a time), or None when they do not even print the same number of lines."""
    a, b = _compared(first, "mindspore"), _compared(second, "mindspore")
    if len(a) != len(b):
        return None
    return {k for k, (x, y) in enumerate(zip(a, b)) if x != y}


def last_digit_unit(number: str) -> float:
    """One unit in the last printed digit of `number` (1e-5 for '0.76214', 1e2 for '1.5e3')."""
    m = re.fullmatch(r"[-+]?\d*(?:\.(\d*))?(?:[eE]([-+]?\d+))?", number)
    if m is None:  # nan, inf
        return 0.0
    return 10.0 ** (int(m.group(2) or 0) - len(m.group(1) or ""))


def first_difference(ms_out: str, cg_out: str, skip: set = frozenset()) -> str | None:
    """None when the outputs agree (see the module docstring), else the first differing line;
    the lines in `skip` (those MindSpore itself does not repeat) are not compared."""
    a, b = _compared(ms_out, "mindspore"), _compared(cg_out, "cellgraph")
    for k, (x, y) in enumerate(zip(a, b)):
        if k in skip:
            continue
        if NUMBER.sub(" N ", x).split() != NUMBER.sub(" N ", y).split():
            return f"line {k + 1}: {x.strip()[:100]!r} vs {y.strip()[:100]!r}"
        half = "float16" in x.lower()
        for u, v in zip(NUMBER.findall(x), NUMBER.findall(y)):
            if u == v:
                continue
            if not re.search(r"[.eEn]", u + v):
                return f"line {k + 1}: {u} vs {v} in {x.strip()[:100]!r}"
            fu, fv = float(u), float(v)
            rtol, atol = (1e-3, 1e-3) if half else (1e-5, 1e-6)
            # a print of a few digits rounds values within the tolerance apart to neighbouring
            # last digits: one unit there is as close as the print can tell
            atol = max(atol, last_digit_unit(u), last_digit_unit(v))
            if not abs(fu - fv) <= atol + rtol * abs(fu) and not (math.isnan(fu)
                                                                  and math.isnan(fv)):
                return f"line {k + 1}: {u} vs {v} in {x.strip()[:100]!r}"
    if len(a) != len(b):
        return f"{len(a)} lines vs {len(b)} lines"
    return None


def ms_side(entry: dict, args, run: int) -> dict:
    """MindSpore's `run`-th run of a program, from --ms-cache when an earlier run of the same
    entry under the same harness left it there (MindSpore's side does not change between
    cellgraph's reruns, and takes most of the time)."""
    if not args.ms_cache:
        return run_side(args.ms_python, "mindspore", args.mirrors, entry, args.timeout)
    harness = "".join(path.read_text(encoding="utf-8")
                      for path in [*harness_files(), HERE / "model_program.py",
                                   HERE / "mindcv_train_program.py", HERE / "zoo_program.py",
                                   *zoo_modules()])
    key = hashlib.sha256(json.dumps([entry, run, harness], sort_keys=True).encode()).hexdigest()
    path = Path(args.ms_cache) / f"{key[:32]}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    result = run_side(args.ms_python, "mindspore", args.mirrors, entry, args.timeout)
    if result["err"] != f"TimeoutError: more than {args.timeout:.0f} s":  # may be load: retried
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result), encoding="utf-8")
    return result


def run_one(entry: dict, args) -> dict:
    ms = ms_side(entry, args, 0)
    raised = len(re.findall(r"^-- block \d+ raises", ms["out"], re.MULTILINE))
    # a page counts when MindSpore runs it and at most half its blocks raise there
    record = {"id": entry["id"], "source": entry["repo"],
              "ms_ok": ms["code"] == 0 and 2 * raised <= ms["blocks"],
              "ms_seconds": ms.get("seconds")}  # None from a cache kept before times were
    if raised:
        record["ms_blocks_raising"] = f"{raised} of {ms['blocks']}"
    if not record["ms_ok"]:
        record["ms_error"] = cause(*last_error(ms["err"])) if ms["code"] else "most blocks raise"
        if not entry.get("pytest"):
            return record
    cg = run_side(args.cg_python, "cellgraph", args.mirrors, entry, args.timeout)
    record["cg_seconds"] = cg["seconds"]
    if entry.get("pytest"):
        ms_tests = pytest_outcomes(ms["out"])
        cg_tests = {neutral_id(t): s for t, s in pytest_outcomes(cg["out"]).items()}
        passed = [t for t, s in ms_tests.items() if s == "PASSED"]
        failing = [t for t in passed if cg_tests.get(t) != "PASSED"]
        record.update(ms_ok=bool(passed), tests=len(passed), cg_failing=failing[:20],
                      cg_ok=bool(passed) and not failing)
        if failing:
            record["cg_error"] = cause(*last_error(cg["out"] + "\n" + cg["err"]))
        return record
    again = ms_side(entry, args, 1)
    unstable = unstable_lines(ms["out"], again["out"])
    if unstable is None:
        record.update(ms_ok=False, ms_error="MindSpore's own two runs print different lines")
        return record
    if unstable:
        record["ms_unstable_lines"] = len(unstable)
    record["cg_ok"] = cg["code"] == 0
    if not record["cg_ok"]:
        record.update(cg_error=cause(*last_error(cg["err"])), cg_err=cg["err"][-3000:])
        return record
    diff = first_difference(ms["out"], cg["out"], unstable)
    if diff is not None:
        # a third MindSpore run, only where cellgraph differs: lines that two runs printed
        # alike by chance (an unseeded shuffle of three rows) show themselves unstable here
        third = unstable_lines(ms["out"], ms_side(entry, args, 2)["out"])
        if third:
            unstable |= third
            record["ms_unstable_lines"] = len(unstable)
            diff = first_difference(ms["out"], cg["out"], unstable)
    record["same_output"] = diff is None
    if diff:
        record.update(difference=diff, ms_out=ms["out"][-3000:], cg_out=cg["out"][-3000:])
    return record


def run(args) -> None:
    # the programs run in folders of their own: the interpreters' paths must not be relative
    args.ms_python, args.cg_python = map(os.path.abspath, (args.ms_python, args.cg_python))
    entries = [e for e in load_list(Path(args.list))
               if not args.filter or args.filter in e["id"]]
    done = set()
    if args.resume and Path(args.out).exists():
        done = {json.loads(ln)["id"] for ln in Path(args.out).read_text().splitlines() if ln}
    with open(args.out, "a", encoding="utf-8") as out:
        for entry in entries:
            if entry["id"] in done:
                continue
            record = run_one(entry, args)
            out.write(json.dumps(record) + "\n")
            out.flush()
            verdict = ("MindSpore fails" if not record["ms_ok"] else
                       "same" if record.get("same_output") or (
                           entry.get("pytest") and record.get("cg_ok")) else
                       record.get("difference") or record.get("cg_error", "differs"))
            print(f"{entry['id']}: {verdict}", flush=True)


# ---------------------------------------------------------------- report
def report(args) -> None:
    rows = [json.loads(ln) for path in args.results
            for ln in Path(path).read_text().splitlines() if ln.strip()]
    per_source = collections.defaultdict(lambda: [0, 0, 0, 0])
    causes, differs = collections.defaultdict(list), collections.defaultdict(list)
    for r in rows:
        s = per_source[r["source"]]
        s[0] += 1
        if not r["ms_ok"]:
            continue
        s[1] += 1
        if r.get("cg_ok") and (r.get("same_output") or "tests" in r):
            s[2] += 1
        elif r.get("cg_ok"):
            s[3] += 1
            differs[r.get("difference", "")[:150]].append(r["id"])
        else:
            causes[r.get("cg_error", "?")].append(r["id"])
    lines = ["source                        programs  ms-runs  cg-same  cg-runs-differs  rate"]
    total = [0, 0, 0, 0]
    for source, counts in sorted(per_source.items()):
        total = [a + b for a, b in zip(total, counts)]
        n, m, same, other = counts
        lines.append(f"{source:30s}{n:8d} {m:8d} {same:8d} {other:16d}  "
                     f"{100 * same / max(m, 1):5.1f}%")
    n, m, same, other = total
    lines.append(f"{'all':30s}{n:8d} {m:8d} {same:8d} {other:16d}  "
                 f"{100 * same / max(m, 1):5.1f}%")
    lines += ["", "divergences (programs MindSpore runs and cellgraph does not run alike):"]
    classes = collections.defaultdict(list)
    for text, ids in causes.items():
        classes[coarse(text)].append((text, ids))
    for text, members in sorted(classes.items(), key=lambda kv: -sum(len(i) for _, i in kv[1])):
        ids = [i for _, group in members for i in group]
        lines.append(f"{len(ids):4d}  {text}")
        for i in ids[:3]:
            lines.append(f"{'':8s}{i}")
    lines += ["", "programs that run on both and print differently (the first differing line):"]
    for text, ids in sorted(differs.items()):
        lines += [f"{'':4s}{i}" for i in ids] + [f"{'':8s}{text}"]
    lines += ["", (f"programs cellgraph runs more than {SLOWER}x MindSpore's time "
                   "(seconds: MindSpore, cellgraph):")]
    for r in sorted(slower(rows), key=lambda r: r["ms_seconds"] - r["cg_seconds"]):
        lines.append(f"{r['ms_seconds']:8.1f} {r['cg_seconds']:8.1f}  "
                     f"{r['cg_seconds'] / max(r['ms_seconds'], 0.01):5.1f}x  {r['id']}")
    print("\n".join(lines))


SLOWER = 1.5


def slower(rows: list[dict]) -> list[dict]:
    """The records of programs that ran to the end on both sides where cellgraph took more than
    SLOWER times MindSpore's wall time (a program that fails ends early: its time tells
    nothing)."""
    return [r for r in rows if r.get("ms_ok") and r.get("cg_ok")
            and r.get("ms_seconds") is not None and r.get("cg_seconds") is not None
            and r["cg_seconds"] > SLOWER * r["ms_seconds"]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="run the programs on MindSpore and cellgraph")
    p.add_argument("--mirrors", type=Path, required=True,
                   help="folder of fetched bare git dirs, one per repository (owner+name/repo)")
    p.add_argument("--ms-python", required=True, help="the oracle's interpreter (.ms/bin/python)")
    p.add_argument("--cg-python", required=True, help="cellgraph's interpreter (.venv/bin/python)")
    p.add_argument("--list", default=str(PROGRAMS), help="the programs (default: %(default)s)")
    p.add_argument("-k", dest="filter", help="only programs whose id contains this")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per program and side")
    p.add_argument("--out", required=True, help="results, one JSON line per program")
    p.add_argument("--resume", action="store_true", help="skip programs --out already holds")
    p.add_argument("--ms-cache", help="folder keeping MindSpore's runs, reused by later runs of "
                                      "the same entries (cellgraph's side always runs)")
    p = sub.add_parser("report", help="rates per source and the divergences by cause")
    p.add_argument("results", nargs="+")
    args = ap.parse_args()
    {"run": run, "report": report}[args.command](args)


if __name__ == "__main__":
    main()
