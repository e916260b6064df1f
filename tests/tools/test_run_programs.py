"""tools/oracle/run_programs.py: how two programs' prints are compared."""

import pytest

from .oracle_tools import load


def _runner():
    return load("run_programs")


def test_numbers_agree_within_the_tolerance_or_the_print_s_last_digit():
    runner = _runner()
    assert runner.last_digit_unit("0.76214") == 1e-5
    assert runner.last_digit_unit("1.5e3") == 100.0 and runner.last_digit_unit("nan") == 0.0
    same = runner.first_difference
    assert same("first row: 0.76214 1.2\n", "first row: 0.76213 1.2\n") is None
    assert same("loss: 2.1354203\n", "loss: 2.1354204\n") is None
    assert same("step 1 loss: 1.647\n", "step 1 loss: 1.687\n") is not None
    assert same("loss: 2.1354203\n", "loss: 2.1356203\n") is not None
    assert same("count 3\n", "count 4\n") is not None  # integers exactly
    assert same("a\nb\n", "a\n") == "2 lines vs 1 lines"


def test_a_block_s_runtime_error_is_compared_and_times_are_not():
    # "-- block K raises RuntimeError" is a line both sides print; `time` inside a word is
    # no report of a time
    same = _runner().first_difference
    assert same("-- block 2 raises RuntimeError\n", "-- block 2 raises ValueError\n") is not None
    assert same("-- block 2 raises RuntimeError\nok\n", "-- block 2 raises RuntimeError\nok\n") \
        is None
    assert same("epoch time: 12.5\n", "epoch time: 3.1\n") is None
    assert same("step_time 12\n", "step_time 3\n") is None


def test_a_block_s_error_is_named_by_mindspore_s_class_among_its_bases():
    harness = load("program_harness")
    import cellgraph
    from cellgraph.primitives import errors

    # a missing checkpoint: MindSpore 2.10 raises ValueError ("the checkpoint file: ... does not
    # exist"); cellgraph's error is a FileNotFoundError too
    with pytest.raises(FileNotFoundError) as caught:
        cellgraph.load_checkpoint("./no_such_file.ckpt")
    assert harness.builtin_type(caught.value) == "ValueError"
    # (MindSpore raises RuntimeError for it in PyNative mode, IndexError in a graph)
    assert harness.builtin_type(errors.GradPositionError("x")) == "RuntimeError"
    assert harness.builtin_type(errors.CompileError("x")) == "RuntimeError"
    assert harness.builtin_type(errors.UnboundNameError("x")) == "UnboundLocalError"
    assert harness.builtin_type(KeyError("x")) == "KeyError"
    assert harness.builtin_type(FileNotFoundError("x")) == "FileNotFoundError"


def test_mindspore_s_runs_are_kept_per_entry_and_run_and_reused(tmp_path, monkeypatch):
    runner = _runner()
    calls = []

    def side(python, package, mirrors, entry, timeout):
        calls.append(entry["id"])
        code = -1 if entry["id"] == "slow" else 0
        err = f"TimeoutError: more than {timeout:.0f} s" if code else ""
        return {"code": code, "out": f"{entry['id']} {len(calls)}\n", "err": err, "blocks": 1}

    monkeypatch.setattr(runner, "run_side", side)
    args = type("Args", (), {"ms_cache": str(tmp_path), "ms_python": "ms", "mirrors": tmp_path,
                             "timeout": 5.0})()
    first = runner.ms_side({"id": "a"}, args, 0)
    assert runner.ms_side({"id": "a"}, args, 0) == first  # from the folder
    assert runner.ms_side({"id": "a"}, args, 1)["out"] == "a 2\n"  # a second run is its own
    runner.ms_side({"id": "slow"}, args, 0)
    runner.ms_side({"id": "slow"}, args, 0)  # a timeout may be the machine's load: run again
    assert calls == ["a", "a", "slow", "slow"]
    args.ms_cache = None
    runner.ms_side({"id": "a"}, args, 0)
    assert calls[-1] == "a" and len(calls) == 5


def _repository(tmp_path, files):
    """A bare git repository `owner+name/repo` under tmp_path holding `files` at HEAD."""
    import subprocess

    work = tmp_path / "work"
    for rel, text in files.items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_text(text)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(work)]
    subprocess.run(git[:5] + ["init", "-q", str(work)], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "files"], check=True)
    mirrors = tmp_path / "mirrors"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(mirrors / "o+r" / "repo")],
                   check=True)
    return mirrors


def test_a_test_runs_in_the_folder_cwd_names_and_its_outcomes_are_read(tmp_path):
    import sys

    runner = _runner()
    test = ("from pathlib import Path\n\n\n"
            "def test_reads_its_data():\n    assert Path('data.txt').read_text() == 'x'\n")
    mirrors = _repository(tmp_path, {"suite/unit/test_data.py": test,
                                     "suite/unit/data.txt": "x"})
    entry = {"repo": "o/r", "path": "suite/unit/test_data.py", "tree": "suite", "pytest": "1"}
    outcomes = {}
    for cwd in ("suite/unit", ""):
        result = runner.run_side(sys.executable, "cellgraph", mirrors, dict(entry, cwd=cwd), 120)
        outcomes[cwd] = list(runner.pytest_outcomes(result["out"]).values())
    assert outcomes == {"suite/unit": ["PASSED"], "": ["FAILED"]}


def test_numpy_2_s_scalar_repr_reads_as_numpy_1_s():
    # the oracle's NumPy 1 prints a metric's np.float64 as 0.5, NumPy 2 as np.float64(0.5)
    same = _runner().first_difference
    assert same("{'Top_1_Accuracy': 0.5}\n", "{'Top_1_Accuracy': np.float64(0.5)}\n") is None
    assert same("(1, True, False)\n", "(np.int64(1), np.True_, np.False_)\n") is None
    assert same("{'acc': 0.5}\n", "{'acc': np.float64(0.75)}\n") is not None


def test_both_sides_times_are_kept_and_report_lists_the_slower_programs(tmp_path, monkeypatch,
                                                                          capsys):
    runner = _runner()
    seconds = {"mindspore": 2.0, "cellgraph": 5.0}

    def side(python, package, mirrors, entry, timeout):
        return {"code": 0, "out": "loss 1.5\n", "err": "", "blocks": 1,
                "seconds": seconds[package]}

    monkeypatch.setattr(runner, "run_side", side)
    args = type("Args", (), {"ms_cache": None, "ms_python": "ms", "cg_python": "cg",
                             "mirrors": tmp_path, "timeout": 5.0})()
    slow = runner.run_one({"id": "o/r:slow.py", "repo": "o/r"}, args)
    assert (slow["ms_seconds"], slow["cg_seconds"], slow["same_output"]) == (2.0, 5.0, True)
    seconds["cellgraph"] = 2.9  # under 1.5x
    fast = runner.run_one({"id": "o/r:fast.py", "repo": "o/r"}, args)
    assert fast["cg_seconds"] == 2.9
    # a record from a cache kept before times were, and a program cellgraph fails, are no
    # measure of its speed
    old = dict(slow, id="o/r:old.py", ms_seconds=None)
    failed = dict(slow, id="o/r:failed.py", cg_ok=False)
    assert runner.slower([slow, fast, old, failed]) == [slow]
    results = tmp_path / "r.jsonl"
    results.write_text("".join(runner.json.dumps(r) + "\n" for r in [slow, fast, old, failed]))
    runner.report(type("Args", (), {"results": [str(results)]})())
    listed = capsys.readouterr().out.split("MindSpore's time")[1]
    assert "o/r:slow.py" in listed and "2.5x" in listed
    assert "fast.py" not in listed and "old.py" not in listed and "failed.py" not in listed


def test_a_side_s_wall_time_is_measured(tmp_path):
    import sys

    runner = _runner()
    mirrors = _repository(tmp_path, {"prog.py": "import time\ntime.sleep(0.3)\nprint('done')\n"})
    result = runner.run_side(sys.executable, "cellgraph", mirrors, {"repo": "o/r",
                                                                   "path": "prog.py"}, 120)
    assert result["out"].strip().endswith("done") and 0.3 <= result["seconds"] < 120
