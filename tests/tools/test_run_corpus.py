"""tools/oracle/run_corpus.py: a re-measurement takes MindSpore's side from earlier results
(--ms-results) and runs only cellgraph's."""
import json
import sys
import types

import pytest

from .oracle_tools import load


def _runner():
    return load("run_corpus")


@pytest.mark.slow
def test_mindspore_side_taken_from_earlier_results(tmp_path):
    runner = _runner()
    rel = "tests/st/nn/test_tiny.py"
    test_file = tmp_path / "tree" / rel
    test_file.parent.mkdir(parents=True)
    test_file.write_text("import pytest\n\n\n@pytest.mark.cpu_linux\ndef test_a():\n    pass\n\n\n"
                         "@pytest.mark.cpu_linux\ndef test_b():\n    assert 0\n")
    earlier = tmp_path / "earlier.jsonl"
    rows = [{"file": rel, "id": f"{rel}::{name}", "cpu": True, "ms": "pass", "cg": "fail",
             "cg_exc": "", "cg_msg": "", "ms_exc": "", "ms_msg": ""} for name in ("test_a", "test_b")]
    earlier.write_text("".join(json.dumps(r) + "\n" for r in rows))
    files = tmp_path / "files.txt"
    files.write_text(rel + "\n")
    out = tmp_path / "out.jsonl"
    # MindSpore's interpreter does not exist: its side must come from `earlier` alone
    args = types.SimpleNamespace(tree=str(tmp_path / "tree"), ms_python="/nonexistent/python",
                                 cg_python=sys.executable, files=str(files), filter=None,
                                 max_files=None, out=str(out), resume=False, mode="keep",
                                 test_timeout=60.0, file_timeout=120.0, ms_results=[str(earlier)])
    runner.run(args)
    result = {r["id"].split("::")[1]: (r["ms"], r["cg"])
              for r in map(json.loads, out.read_text().splitlines())}
    assert result == {"test_a": ("pass", "pass"), "test_b": ("pass", "fail")}


def test_cellgraph_side_ids_are_named_as_mindspore_s():
    """The rewrite of `mindspore` to `cellgraph` reaches string parameters in test ids too."""
    run_corpus = _runner()
    assert run_corpus.neutral_id("a/cellgraph_x.py::test[cellgraph-0]") == \
        "a/cellgraph_x.py::test[mindspore-0]"
    assert run_corpus.neutral_id("t.py::test_plain") == "t.py::test_plain"
