"""tools/oracle/run_examples.py: docstring examples run as doctest runs them, a crashing example
costs only itself, and outputs compare within float32 tolerance."""
import json
import sys

from .oracle_tools import ROOT, load


def _runner():
    return load("run_examples")


def test_examples_run_as_doctest_and_survive_crashes(tmp_path, monkeypatch):
    runner = _runner()
    entries = [
        {"name": "ops.first", "examples": [
            ["import mindspore\n", ""], ["from mindspore import ops, Tensor\n", ""],
            ["x = Tensor([1.0, -2.0], mindspore.float32)\n", ""],
            ["print(ops.abs(x))\n", "[1. 2.]\n"], ["1 + 1\n", "2\n"]]},
        {"name": "crash", "examples": [["import os\n", ""], ["os._exit(3)\n", ""]]},
        {"name": "Tensor.raises", "examples": [["import mindspore\n", ""],
                                               ["int('x')\n", ""]]},
        {"name": "graph", "examples": [
            ["import mindspore\n", ""], ["from mindspore import nn, Tensor\n", ""],
            ["class Net(nn.Cell):\n    def construct(self, x):\n        return x * 2\n", ""],
            ["mindspore.set_context(mode=mindspore.GRAPH_MODE)\n", ""],
            ["print(Net()(Tensor([3.0])))\n", "[6.]\n"]]},
    ]
    examples = tmp_path / "examples.json"
    examples.write_text(json.dumps(entries))
    out = tmp_path / "out.jsonl"
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    runner.run(str(examples), sys.executable, "cellgraph", str(out), chunk=4, timeout=60)
    got = {r["name"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert got["ops.first"] == {"name": "ops.first", "out": "[1. 2.]\n2\n", "exc": "", "msg": ""}
    assert got["crash"]["exc"] == "Crash"
    assert got["Tensor.raises"]["exc"] == "ValueError"
    assert got["graph"]["out"] == "[6.]\n" and got["graph"]["exc"] == ""


def test_outputs_compare_numbers_within_tolerance():
    runner = _runner()
    assert runner.same_output("[1.0000001 2. ]\n", "[1. 2.]\n")
    assert runner.same_output("Tensor(shape=[], dtype=Float32, value= 0.5)",
                              "Tensor(shape=[], dtype=Float32, value= 0.5)")
    assert not runner.same_output("[1.001 2.]", "[1. 2.]")
    assert not runner.same_output("dtype=Float32", "dtype=Float64")
    assert not runner.same_output("[1. 2.]", "[1. 2. 3.]")
    assert runner.same_output("<mindspore.Generator object at 0x7f04d5879890>",
                              "<cellgraph.Generator object at 0x7fadba62c690>")
    assert runner.same_output("{'net_output': [1.5, 2.0]}",
                              "{'net_output': [np.float32(1.5), np.float32(2.0)]}")
    assert runner.same_output("<class 'mindspore.common.tensor.Tensor'>",
                              "<class 'cellgraph.common.tensor.Tensor'>")
