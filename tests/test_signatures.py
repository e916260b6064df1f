"""cellgraph's public callables take MindSpore's parameters: names, kinds, order and defaults.

MindSpore's signatures are recorded in tests/data/mindspore_signatures.json.gz by
`tools/oracle/signatures.py` (run under MindSpore 2.10). Every cellgraph callable with a
MindSpore counterpart whose signature Python can read is compared with it. The callables that
still differ are listed in tests/data/signature_divergences.txt; the list may only shrink: a
new difference fails, and so does a listed one that has been fixed (remove its line).
"""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DIVERGENCES = ROOT / "tests" / "data" / "signature_divergences.txt"


def _load_tool():
    spec = importlib.util.spec_from_file_location(
        "oracle_signatures", ROOT / "tools" / "oracle" / "signatures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _listed():
    out = set()
    for line in DIVERGENCES.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.add(line)
    return out


@pytest.fixture(scope="module")
def result():
    tool = _load_tool()
    return tool.compare_all(tool.load_recorded())


def test_recorded_data_covers_the_mirrored_modules():
    tool = _load_tool()
    rec = tool.load_recorded()
    assert rec["mindspore"] == "2.10.0"
    assert set(rec["modules"]) == set(tool.MODULES)
    assert set(rec["classes"]) == set(tool.CLASSES)
    dense = rec["modules"]["nn"]["Dense"]
    assert [p[0] for p in dense][:3] == ["in_channels", "out_channels", "weight_init"]


def test_no_new_signature_divergence(result):
    new = {k: v for k, v in result["mismatches"].items() if k not in _listed()}
    assert not new, "callables whose parameters differ from MindSpore's:\n" + "\n".join(
        f"{k}: {v}" for k, v in sorted(new.items()))


def test_divergence_list_only_shrinks(result):
    fixed = sorted(_listed() - set(result["mismatches"]))
    assert not fixed, ("listed as differing but now matching MindSpore (or no longer provided); "
                       "remove from signature_divergences.txt:\n" + "\n".join(fixed))


def test_comparison_sees_names_kinds_order_and_defaults():
    tool = _load_tool()
    ms = [["x", "PK", None], ["axis", "PK", "None"], ["keepdims", "K", "False"]]
    assert tool.describe(ms, ms) == ""
    assert tool.describe(ms, [["input", "PK", None], *ms[1:]])            # name
    assert tool.describe(ms, [ms[0], ["axis", "K", "None"], ms[2]])       # kind
    assert tool.describe(ms, [ms[0], ms[2], ms[1]])                       # order
    assert tool.describe(ms, [ms[0], ["axis", "PK", "0"], ms[2]])         # default
    assert tool.describe(ms, [ms[0], ms[1]])                              # a parameter fewer


def test_signature_reading_sees_through_a_decorator_without_wraps():
    tool = _load_tool()

    def register(init):
        def deco(self, *args, **kwargs):
            return init(self, *args, **kwargs)
        return deco

    class Opt:
        @register
        def __init__(self, params, learning_rate=0.1):
            pass

    assert tool.encode(tool.signature_of(Opt), "cellgraph") == [
        ["params", "PK", None], ["learning_rate", "PK", "0.1"]]


def test_generated_primitive_classes_calls_are_compared(result):
    """gen_ops_prim's classes are recorded with their constructor's and their call's
    parameters, and both are compared (RepeatInterleaveInt()(input, repeats, dim=None,
    output_size=None), Roll(shifts, dims=None)(input))."""
    rec = _load_tool().load_recorded()["primitives"]
    assert [p[0] for p in rec["RepeatInterleaveInt"]["call"]] == ["input", "repeats", "dim",
                                                                    "output_size"]
    assert [p[0] for p in rec["Roll"]["init"]] == ["shifts", "dims"]
    base = "mindspore.ops.auto_generate.gen_ops_prim."
    for key in (base + "RepeatInterleaveInt.__call__", base + "Roll", base + "Roll.__call__"):
        assert key not in result["mismatches"] and key not in result["missing"]
    assert base + "NoSuchClass" not in result["mismatches"]
