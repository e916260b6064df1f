"""The IR text parser: the printer's inverse on every golden file, hand-written graphs (types
left to the type rules), and errors that name the line."""
from pathlib import Path

import numpy as np
import pytest

from cellgraph.compiler.ir import Constant, ElidedValue, print_graph, verify
from cellgraph.compiler.ir_parser import IRParseError, UpdatedParameter, parse_ir
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import Slice

GOLDEN = sorted((Path(__file__).resolve().parents[1] / "golden").glob("*.ir"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_every_golden_file_prints_back_as_it_was_read(path):
    text = path.read_text(encoding="utf-8")
    graph = parse_ir(text)
    verify(graph)
    assert print_graph(graph) == text


def test_golden_files_are_there_to_read():
    assert len(GOLDEN) >= 54


def test_a_hand_written_graph_gets_its_types_from_the_type_rules():
    graph = parse_ir("""
graph @f(%x: f32[2,3], %w: f32[3]) -> f32[2,1] {
  %h = mul(%x, %w)
  %s = reduce_sum(%h) {axis=(1,), keep_dims=True}
  return %s
}
""")
    verify(graph)
    assert [n.callee.name for n in graph.nodes] == ["mul", "reduce_sum"]
    assert str(graph.outputs[0].aval) == "f32[2,1]"
    assert print_graph(graph) == (
        "graph @f(%x: f32[2,3], %w: f32[3]) -> f32[2,1] {\n"
        "  %1 = mul(%x, %w)  : f32[2,3]\n"
        "  %2 = reduce_sum(%1) {axis=(1,), keep_dims=True}  : f32[2,1]\n"
        "  return %2\n"
        "}\n")


def test_constants_params_and_locations_are_read_back():
    text = ("graph @g(%x: f32[2], %x.2: i32[]) -> (f32[2], f32[4,4]) {   # net.py:3\n"
            "  %1 = mul(%x, const([0.5, 2. ]: f32[2]))  : f32[2]   # net.py:4  y = x * c\n"
            "  %2 = getitem(%x) {index=(1:, Ellipsis, None, ::-1)}  : f32[2]\n"
            "  %3 = cast(%x.2) {dtype=Float32}  : f32[]\n"
            "  %4 = add(%1, %3)  : f32[2]\n"
            "  return (%4, const(<f32[4,4]>))\n"
            "  # the last 1 outputs update w\n"
            "}\n")
    graph = parse_ir(text)
    mul, getitem, cast, _ = graph.nodes
    np.testing.assert_array_equal(mul.inputs[1].value, np.array([0.5, 2.0], np.float32))
    assert mul.loc.filename == "net.py" and mul.loc.line == 4 and mul.loc.text == "y = x * c"
    assert getitem.params["index"] == (Slice(1, None, None), Ellipsis, None, Slice(None, None, -1))
    assert cast.params["dtype"] is dt.float32
    assert [p.hint for p in graph.params] == ["x", "x"]
    elided = graph.outputs[1]
    assert isinstance(elided, Constant) and isinstance(elided.value, ElidedValue)
    assert graph.updates == [UpdatedParameter("w")]
    assert print_graph(graph) == text


def test_types_classes_and_complex_numbers_read_back():
    text = ("graph @f(%x: c64[], %n: i32[]) -> (c64[], c64[1,2], f64[]) {\n"
            "  %1 = add(%x, 1j)  : c64[]\n"
            "  %2 = add(%1, const(0.+1.5j: c64[]))  : c64[]\n"
            "  raise() {exc_type=<class 'ValueError'>, args=('bad',)}\n"
            "  return (%2, const([[1.3458754-1.8016349j, 0.7813114-1.5j      ]]: c64[1,2]), 0.0)\n"
            "}\n")
    graph = parse_ir(text)
    assert graph.nodes[2].params["exc_type"] is ValueError
    assert graph.nodes[1].inputs[1].value == 1.5j
    np.testing.assert_allclose(graph.outputs[1].value, [[1.3458754 - 1.8016349j, 0.7813114 - 1.5j]])
    assert str(graph.outputs[2].aval) == "f64[]"  # a returned number has the header's type
    assert print_graph(graph) == text


def test_a_class_of_a_module_not_imported_is_not_read():
    text = ("graph @f(%x: f32[]) {\n  raise() {exc_type=<class 'no_such_module.Boom'>}\n"
            "  return %x\n}\n")
    with pytest.raises(IRParseError, match="line 2: .*a module already imported"):
        parse_ir(text)


def test_nested_graphs_are_found_by_name_in_any_order():
    text = """graph @f(%x: f32[]) -> f32[] {
  %1 = greater(%x, 0)  : bool[]
  %2 = switch(%1, %x) {then_graph=@f_then, else_graph=@f_else}  : f32[]
  return %2
}

graph @f_else(%x: f32[]) -> f32[] {
  %1 = neg(%x)  : f32[]
  return %1
}

graph @f_then(%x: f32[]) -> f32[] {
  return %x
}
"""
    graph = parse_ir(text)
    verify(graph)
    switch = graph.nodes[1]
    assert switch.params["then_graph"].name == "f_then"
    assert switch.params["else_graph"].nodes[0].callee.name == "neg"


@pytest.mark.parametrize("text, message", [
    ("graph @f(%x: f32[2]) -> f32[2] {\n  %1 = frobnicate(%x)\n  return %1\n}\n",
     "line 2: .*no primitive is called 'frobnicate'"),
    ("graph @f(%x: f32[2]) -> f32[2] {\n  %1 = mul(%y, %x)\n  return %1\n}\n",
     r"line 2: .*%y is not"),
    ("graph @f(%x: f32[2]) -> f32[3] {\n  return %x\n}\n", "returns f32\\[3\\]"),
    ("graph @f(%x: f32[2]) -> f32[2] {\n  %1 = matmul(%x, %x)\n  return %1\n}\n",
     "line 2: matmul does not take these operands"),
    ("graph @f(%x: q9[2]) -> f32[2] {\n  return %x\n}\n", "line 1: expected a dtype"),
    ("graph @f(%x: f32[2]) -> f32[2] {\n  return %x\n", "no closing"),
    ("%1 = mul(%x, %x)\n", "line 1: expected `graph @name"),
    ("graph @f(%x: f32[2]) -> f32[2] {\n  %1 = switch(%x) {then_graph=@nowhere}\n  return %x\n}\n",
     "there is no @nowhere"),
])
def test_errors_name_the_line_and_what_was_expected(text, message):
    with pytest.raises(IRParseError, match=message):
        parse_ir(text)
