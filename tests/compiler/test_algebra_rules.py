"""A test per rewrite rule (the arithmetic ones of compiler/algebra.py, then optimize.py's
own): a small hand-written graph goes through one `simplify` sweep with that rule alone in the
table, then `dce`, and must come out as written here. Folding and CSE run in every sweep, so
they show in the results too."""
import pytest

from cellgraph.compiler import algebra
from cellgraph.compiler.compile_context import CompileContext
from cellgraph.compiler.ir import print_graph, verify
from cellgraph.compiler.ir_parser import parse_ir
from cellgraph.compiler.optimize import REWRITES
from cellgraph.compiler.passes import dce_pass, simplify_pass


def rewritten(prim: str, rule, text: str, differentiable: bool = False) -> str:
    """`text` after one sweep with `rule` as the only rewrite of `prim`, then dce."""
    graph = parse_ir(text)
    before = print_graph(graph)
    ctx = CompileContext(differentiable=differentiable, rewrites={prim: [rule]})
    out = dce_pass(simplify_pass(graph, ctx), ctx)
    verify(out)
    assert print_graph(graph) == before  # the passes leave their input as it was
    return print_graph(out)


# rule name -> (the primitive it rewrites, the graph, the graph after it)
CASES = {
    "mul_constant_last": (
        "mul",
        """\
graph @f(%x: f32[2]) {
  %1 = mul(2.0, %x)
  %2 = mul(%1, const([3., 3.]: f32[2]))
  return %2
}
""",
        """\
graph @f(%x: f32[2]) -> f32[2] {
  %1 = mul(%x, 2.0)  : f32[2]
  %2 = mul(%1, 3.0)  : f32[2]
  return %2
}
"""),
    "mul_by_constant": (
        "mul",
        """\
graph @f(%x: f32[2]) {
  %1 = mul(%x, 3.0)
  %2 = mul(%1, 2.0)
  %3 = neg(%x)
  %4 = mul(%3, 5.0)
  %5 = mul(%x, -1)
  return (%2, %4, %5)
}
""",
        """\
graph @f(%x: f32[2]) -> (f32[2], f32[2], f32[2]) {
  %1 = mul(%x, 6.0)  : f32[2]
  %2 = neg(%x)  : f32[2]
  %3 = mul(%x, -5.0)  : f32[2]
  return (%1, %3, %2)
}
"""),
    "mul_pull_out": (
        "mul",
        """\
graph @f(%x: f32[2], %y: f32[2]) {
  %1 = neg(%x)
  %2 = neg(%y)
  %3 = mul(%1, %2)
  %4 = mul(%1, %y)
  %5 = mul(%x, 3.0)
  %6 = mul(%5, %y)
  return (%3, %4, %6)
}
""",
        """\
graph @f(%x: f32[2], %y: f32[2]) -> (f32[2], f32[2], f32[2]) {
  %1 = mul(%x, %y)  : f32[2]
  %2 = neg(%1)  : f32[2]
  %3 = mul(%1, 3.0)  : f32[2]
  return (%1, %2, %3)
}
"""),
    "neg_fold": (
        "neg",
        """\
graph @f(%x: f32[2], %y: f32[2]) {
  %1 = neg(%x)
  %2 = neg(%1)
  %3 = mul(%x, 3.0)
  %4 = neg(%3)
  %5 = sub(%x, %y)
  %6 = neg(%5)
  return (%2, %4, %6)
}
""",
        """\
graph @f(%x: f32[2], %y: f32[2]) -> (f32[2], f32[2], f32[2]) {
  %1 = mul(%x, -3.0)  : f32[2]
  %2 = sub(%y, %x)  : f32[2]
  return (%x, %1, %2)
}
"""),
    "add_collect": (
        "add",
        """\
graph @f(%x: f32[2], %y: f32[2]) {
  %1 = add(2.0, %x)
  %2 = add(%x, %x)
  %3 = mul(%x, 3.0)
  %4 = add(%3, %x)
  %5 = neg(%y)
  %6 = add(%x, %5)
  %7 = add(%5, %x)
  return (%1, %2, %4, %6, %7)
}
""",
        """\
graph @f(%x: f32[2], %y: f32[2]) -> (f32[2], f32[2], f32[2], f32[2], f32[2]) {
  %1 = add(%x, 2.0)  : f32[2]
  %2 = mul(%x, 2)  : f32[2]
  %3 = mul(%x, 4.0)  : f32[2]
  %4 = sub(%x, %y)  : f32[2]
  return (%1, %2, %3, %4, %4)
}
"""),
    "linear_combination": (
        "add",
        """\
graph @f(%a: f32[2], %b: f32[2]) {
  %1 = mul(%a, 2.0)
  %2 = sub(%1, %b)
  %3 = mul(%a, 4.0)
  %4 = add(%a, %3)
  %5 = add(%2, %4)
  return %5
}
""",
        """\
graph @f(%a: f32[2], %b: f32[2]) -> f32[2] {
  %1 = mul(%a, 7.0)  : f32[2]
  %2 = sub(%1, %b)  : f32[2]
  return %2
}
"""),
    "polynomial": (
        "add",
        """\
graph @f(%t: f32[2], %s: f32[2], %u: f32[2]) {
  %1 = mul(%t, %s)
  %2 = mul(%t, %u)
  %3 = add(%1, %2)
  return %3
}
""",
        """\
graph @f(%t: f32[2], %s: f32[2], %u: f32[2]) -> f32[2] {
  %1 = add(%s, %u)  : f32[2]
  %2 = mul(%1, %t)  : f32[2]
  return %2
}
"""),
    "sub_fold": (
        "sub",
        """\
graph @f(%x: f32[2], %y: f32[2]) {
  %1 = neg(%y)
  %2 = sub(%x, %1)
  %3 = neg(%x)
  %4 = sub(%3, %y)
  return (%2, %4)
}
""",
        """\
graph @f(%x: f32[2], %y: f32[2]) -> (f32[2], f32[2]) {
  %1 = add(%x, %y)  : f32[2]
  %2 = neg(%1)  : f32[2]
  return (%1, %2)
}
"""),
    "mul_reuse": (
        "mul",
        """\
graph @f(%a: f32[2], %b: f32[2], %c: f32[2], %d: f32[2]) {
  %1 = mul(%b, %d)
  %2 = mul(%a, %b)
  %3 = mul(%2, %c)
  %4 = mul(%3, %d)
  return (%1, %4)
}
""",
        """\
graph @f(%a: f32[2], %b: f32[2], %c: f32[2], %d: f32[2]) -> (f32[2], f32[2]) {
  %1 = mul(%b, %d)  : f32[2]
  %2 = mul(%1, %a)  : f32[2]
  %3 = mul(%2, %c)  : f32[2]
  return (%1, %3)
}
"""),
    "mul_mask": (
        "mul",
        """\
graph @f(%x: f32[2], %m: bool[2]) {
  %1 = cast(%m) {dtype=Float32}
  %2 = mul(%x, %1)
  return %2
}
""",
        """\
graph @f(%x: f32[2], %m: bool[2]) -> f32[2] {
  %1 = mul(%x, %m)  : f32[2]
  return %1
}
"""),
    "mul_broadcast_constant": (
        "mul",
        """\
graph @f(%y: f32[1,3]) {
  %1 = mul(%y, const([[2., 2., 2.], [2., 2., 2.]]: f32[2,3]))
  return %1
}
""",
        """\
graph @f(%y: f32[1,3]) -> f32[2,3] {
  %1 = mul(%y, 2.0)  : f32[1,3]
  %2 = broadcast_to(%1) {shape=(2, 3)}  : f32[2,3]
  return %2
}
"""),
    "unbroadcast": (
        "add",
        """\
graph @f(%r: f32[3], %y: f32[2,3]) {
  %1 = broadcast_to(%r) {shape=(2, 3)}
  %2 = add(%1, %y)
  return %2
}
""",
        """\
graph @f(%r: f32[3], %y: f32[2,3]) -> f32[2,3] {
  %1 = add(%r, %y)  : f32[2,3]
  return %1
}
"""),
    "matmul_outer": (
        "matmul",
        """\
graph @f(%x: f32[2,1], %y: f32[1,3]) {
  %1 = matmul(%x, %y)
  return %1
}
""",
        """\
graph @f(%x: f32[2,1], %y: f32[1,3]) -> f32[2,3] {
  %1 = reshape(%x) {shape=(2, 1)}  : f32[2,1]
  %2 = reshape(%y) {shape=(1, 3)}  : f32[1,3]
  %3 = mul(%1, %2)  : f32[2,3]
  return %3
}
"""),
    "mul_into_matmul": (
        "mul",
        """\
graph @f(%x: f32[2,3], %w: f32[3,4]) {
  %1 = matmul(%x, %w)
  %2 = mul(%1, 2.0)
  return %2
}
""",
        """\
graph @f(%x: f32[2,3], %w: f32[3,4]) -> f32[2,4] {
  %1 = mul(%x, 2.0)  : f32[2,3]
  %2 = matmul(%1, %w)  : f32[2,4]
  return %2
}
"""),
    "matmul_scaled": (
        "matmul",
        """\
graph @f(%x: f32[4,3], %w: f32[3,2]) {
  %1 = mul(%x, 2.0)
  %2 = matmul(%1, %w)
  return %2
}
""",
        """\
graph @f(%x: f32[4,3], %w: f32[3,2]) -> f32[4,2] {
  %1 = matmul(%x, %w)  : f32[4,2]
  %2 = mul(%1, 2.0)  : f32[4,2]
  return %2
}
"""),
    "reduce_scaled": (
        "reduce_sum",
        """\
graph @f(%x: f32[4,3]) {
  %1 = mul(%x, 3.0)
  %2 = reduce_sum(%1) {axis=(0,), keep_dims=False}
  return %2
}
""",
        """\
graph @f(%x: f32[4,3]) -> f32[3] {
  %1 = reduce_sum(%x) {axis=(0,), keep_dims=False}  : f32[3]
  %2 = mul(%1, 3.0)  : f32[3]
  return %2
}
"""),
    "reduce_dot": (
        "reduce_sum",
        """\
graph @f(%a: f32[2,3], %r: f32[3]) {
  %1 = mul(%a, %r)
  %2 = reduce_sum(%1) {axis=(1,), keep_dims=True}
  return %2
}
""",
        """\
graph @f(%a: f32[2,3], %r: f32[3]) -> f32[2,1] {
  %1 = reshape(%r) {shape=(1, 3)}  : f32[1,3]
  %2 = matmul(%a, %1) {transpose_b=True}  : f32[2,1]
  return %2
}
"""),
    "reduce_unit_axes": (
        "reduce_sum",
        """\
graph @f(%x: f32[4,1,5]) {
  %1 = reduce_sum(%x) {axis=(1,), keep_dims=False}
  %2 = reduce_sum(%x) {axis=(1,), keep_dims=True}
  return (%1, %2)
}
""",
        """\
graph @f(%x: f32[4,1,5]) -> (f32[4,5], f32[4,1,5]) {
  %1 = reshape(%x) {shape=(4, 5)}  : f32[4,5]
  return (%1, %x)
}
"""),
    "transpose_as_reshape": (
        "transpose",
        """\
graph @f(%h: f32[4,1,5]) {
  %1 = transpose(%h) {perm=(0, 2, 1)}
  return %1
}
""",
        """\
graph @f(%h: f32[4,1,5]) -> f32[4,5,1] {
  %1 = reshape(%h) {shape=(4, 5, 1)}  : f32[4,5,1]
  return %1
}
"""),
    "reshape_of_reshape": (
        "reshape",
        """\
graph @f(%x: f32[2,3]) {
  %1 = reshape(%x) {shape=(6,)}
  %2 = reshape(%1) {shape=(3, 2)}
  return %2
}
""",
        """\
graph @f(%x: f32[2,3]) -> f32[3,2] {
  %1 = reshape(%x) {shape=(3, 2)}  : f32[3,2]
  return %1
}
"""),
}


@pytest.mark.parametrize("name", CASES)
def test_rule_rewrites_its_example(name):
    prim, text, expected = CASES[name]
    assert rewritten(prim, getattr(algebra, name), text) == expected


def test_every_algebra_rule_in_the_table_has_a_case():
    in_table = {rule.__name__ for rules in REWRITES.values() for rule in rules
                if getattr(rule, "__module__", None) == algebra.__name__}
    assert in_table == set(CASES)


UNCHANGED = {
    # terms that cancel are left as written (inf - inf is nan, not 0)
    "linear_combination": ("sub", """\
graph @f(%a: f32[2], %b: f32[2]) {
  %1 = add(%a, %b)
  %2 = sub(%1, %b)
  return %2
}
"""),
    "add_collect": ("add", """\
graph @f(%x: f32[2]) {
  %1 = mul(%x, -1.0)
  %2 = add(%x, %1)
  return %2
}
"""),
    # a sum holding a constant stays whole (1 - t*t is not expanded)
    "polynomial": ("mul", """\
graph @f(%t: f32[2]) {
  %1 = mul(%t, %t)
  %2 = sub(1.0, %1)
  %3 = mul(%2, %t)
  return %3
}
"""),
    # an integer result: sub(x, neg(y)) is kept (the rules that fold signs are for floats)
    "sub_fold": ("sub", """\
graph @f(%x: i32[2], %y: i32[2]) {
  %1 = neg(%y)
  %2 = sub(%x, %1)
  return %2
}
"""),
    # a product scaled is smaller than the operand: the factor stays on the product
    "matmul_scaled": ("matmul", """\
graph @f(%x: f32[2,3], %w: f32[3,4]) {
  %1 = mul(%x, 2.0)
  %2 = matmul(%1, %w)
  return %2
}
"""),
}


@pytest.mark.parametrize("name", UNCHANGED)
def test_rule_leaves_what_it_must_not_change(name):
    prim, text = UNCHANGED[name]
    assert rewritten(prim, getattr(algebra, name), text) == print_graph(parse_ir(text))


def test_mul_reuse_waits_while_the_graph_is_to_be_differentiated_again():
    prim, text, expected = CASES["mul_reuse"]
    assert rewritten(prim, algebra.mul_reuse, text, differentiable=True) == print_graph(
        parse_ir(text))
    assert rewritten(prim, algebra.mul_reuse, text) == expected


# ----- optimize.py's own rules: identities, constant fills, shape no-ops ---------------------

# primitive -> (the graph, the graph after the first rule REWRITES lists for it)
OWN_CASES = {
    "ones_like": (
        """\
graph @f(%x: f32[2]) {
  %1 = ones_like(%x)
  return %1
}
""",
        """\
graph @f(%x: f32[2]) -> f32[2] {
  return const([1., 1.]: f32[2])
}
"""),
    "zeros_like": (
        """\
graph @f(%x: f32[2]) {
  %1 = zeros_like(%x)
  return %1
}
""",
        """\
graph @f(%x: f32[2]) -> f32[2] {
  return const([0., 0.]: f32[2])
}
"""),
    "add": (
        """\
graph @f(%x: f32[2]) {
  %1 = add(0.0, %x)
  %2 = add(%1, const([0., 0.]: f32[2]))
  return %2
}
""",
        """\
graph @f(%x: f32[2]) -> f32[2] {
  return %x
}
"""),
    "sub": (
        """\
graph @f(%x: f32[2]) {
  %1 = sub(%x, 0.0)
  %2 = sub(0.0, %x)
  return (%1, %2)
}
""",
        """\
graph @f(%x: f32[2]) -> (f32[2], f32[2]) {
  %1 = sub(0.0, %x)  : f32[2]
  return (%x, %1)
}
"""),
    "mul": (  # a float times 0 stays: an infinity or a NaN in x gives NaN (MindSpore's too)
        """\
graph @f(%x: f32[2], %n: i32[2]) {
  %1 = mul(%x, 0.0)
  %2 = mul(1.0, %x)
  %3 = mul(%n, 0)
  return (%1, %2, %3)
}
""",
        """\
graph @f(%x: f32[2], %n: i32[2]) -> (f32[2], f32[2], i32[2]) {
  %1 = mul(%x, 0.0)  : f32[2]
  return (%1, %x, const([0, 0]: i32[2]))
}
"""),
    "div": (
        """\
graph @f(%x: f32[2]) {
  %1 = div(%x, 1.0)
  %2 = div(1.0, %x)
  return (%1, %2)
}
""",
        """\
graph @f(%x: f32[2]) -> (f32[2], f32[2]) {
  %1 = div(1.0, %x)  : f32[2]
  return (%x, %1)
}
"""),
    "conj": (
        """\
graph @f(%z: c64[2]) {
  %1 = conj(%z)
  %2 = conj(%1)
  return %2
}
""",
        """\
graph @f(%z: c64[2]) -> c64[2] {
  return %z
}
"""),
    "reshape": (
        """\
graph @f(%x: f32[2,3]) {
  %1 = reshape(%x) {shape=(2, 3)}
  return %1
}
""",
        """\
graph @f(%x: f32[2,3]) -> f32[2,3] {
  return %x
}
"""),
    "broadcast_to": (
        """\
graph @f(%x: f32[2,3]) {
  %1 = broadcast_to(%x) {shape=(2, 3)}
  return %1
}
""",
        """\
graph @f(%x: f32[2,3]) -> f32[2,3] {
  return %x
}
"""),
    "cast": (
        """\
graph @f(%x: f32[2]) {
  %1 = cast(%x) {dtype=Float32}
  %2 = cast(%x) {dtype=Float16}
  return (%1, %2)
}
""",
        """\
graph @f(%x: f32[2]) -> (f32[2], f16[2]) {
  %1 = cast(%x) {dtype=Float16}  : f16[2]
  return (%x, %1)
}
"""),
    "squeeze": (
        """\
graph @f(%x: f32[2,3]) {
  %1 = squeeze(%x) {axis=()}
  return %1
}
""",
        """\
graph @f(%x: f32[2,3]) -> f32[2,3] {
  return %x
}
"""),
    "expand_dims": (
        """\
graph @f(%x: f32[2]) {
  %1 = expand_dims(%x) {axis=0}
  return %1
}
""",
        """\
graph @f(%x: f32[2]) -> f32[1,2] {
  %1 = expand_dims(%x) {axis=0}  : f32[1,2]
  return %1
}
"""),
    "assigned_read": (
        """\
graph @f(%x: f32[2], %y: f32[2]) {
  %1 = assigned_read(%x, %y)
  return %1
}
""",
        """\
graph @f(%x: f32[2], %y: f32[2]) -> f32[2] {
  return %y
}
"""),
    "stop_gradient": (
        """\
graph @f(%x: f32[2]) {
  %1 = stop_gradient(%x)
  return %1
}
""",
        """\
graph @f(%x: f32[2]) -> f32[2] {
  return %x
}
"""),
    "transpose": (
        """\
graph @f(%x: f32[2,3]) {
  %1 = transpose(%x) {perm=(0, 1)}
  %2 = transpose(%x) {perm=(1, 0)}
  return (%1, %2)
}
""",
        """\
graph @f(%x: f32[2,3]) -> (f32[2,3], f32[3,2]) {
  %1 = transpose(%x) {perm=(1, 0)}  : f32[3,2]
  return (%x, %1)
}
"""),
    "select": (
        """\
graph @f(%x: f32[2], %y: f32[2]) {
  %1 = select(True, %x, %y)
  return %1
}
""",
        """\
graph @f(%x: f32[2], %y: f32[2]) -> f32[2] {
  return %x
}
"""),
}


@pytest.mark.parametrize("prim", OWN_CASES)
def test_optimize_rule_rewrites_its_example(prim):
    text, expected = OWN_CASES[prim]
    assert rewritten(prim, REWRITES[prim][0], text) == expected


def test_every_primitive_with_an_optimize_rule_has_a_case():
    own = {prim for prim, rules in REWRITES.items()
           if getattr(rules[0], "__module__", None) != algebra.__name__}
    assert own == set(OWN_CASES)


def test_stop_gradient_stays_in_a_graph_to_be_differentiated_again():
    text, _ = OWN_CASES["stop_gradient"]
    kept = rewritten("stop_gradient", REWRITES["stop_gradient"][0], text, differentiable=True)
    assert "stop_gradient(%x)" in kept


def test_polynomial_stops_walking_once_the_answer_is_no(monkeypatch):
    # a*b*c*d needs a fourth base: the sum holding it is no polynomial over three values,
    # whatever the long chain beside it holds, so the walk ends there (not POLY_NODES on)
    chain = [f"  %{k + 5} = add(%{k + 4}, %e)" for k in range(150)]
    text = "\n".join([
        "graph @f(%a: f32[2], %b: f32[2], %c: f32[2], %d: f32[2], %x: f32[2]) {",
        "  %1 = mul(%a, %b)", "  %2 = mul(%1, %c)", "  %3 = mul(%2, %d)", "  %e = exp(%x)",
        "  %4 = add(%x, %e)", *chain, "  %out = add(%3, %154)", "  return %out", "}", ""])
    visited = []
    walk = algebra._Polynomial._of
    monkeypatch.setattr(algebra._Polynomial, "_of",
                        lambda self, atom: visited.append(atom) or walk(self, atom))
    assert rewritten("add", algebra.polynomial, text) == print_graph(parse_ir(text))
    assert len(visited) < 10
