"""The primitive table is complete: every primitive has a type rule, a NumPy kernel under its own
name, and a bprop rule or an explicit `nondifferentiable` mark."""
from __future__ import annotations

import inspect
import re

import pytest

import cellgraph  # noqa: F401  (registers every primitive and the NumPy backend)
from cellgraph.primitives.core import PRIMITIVES
from cellgraph.runtime.kernels import TABLE
from cellgraph.runtime.numpy_backend import K

from .test_kernels import CASES, is_structural

ORDINARY = [name for name, prim in PRIMITIVES.items() if not is_structural(prim)]


def test_registry_is_populated():
    for name in ("add", "matmul", "reduce_sum", "getitem", "relu", "grad"):
        assert name in PRIMITIVES
    assert is_structural(PRIMITIVES["grad"])
    assert not is_structural(PRIMITIVES["matmul"])


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_names_and_type_rules(name):
    prim = PRIMITIVES[name]
    assert prim.name == name
    assert re.fullmatch(r"[a-z][a-z0-9_]*", name), f"{name}: names are snake_case"
    assert prim.label and prim.label[0].isupper(), f"{name}: label {prim.label!r}"
    assert callable(prim.abstract_rule), f"{name} has no type rule"


def test_every_primitive_has_a_numpy_kernel():
    missing = [name for name in ORDINARY if name not in K]
    assert not missing, ("primitives without a kernel (an `array_api=` function in the "
                         f"declaration or an entry in runtime/kernels.py): {missing}")


def test_a_kernel_is_written_once():
    """A primitive named after an array-API function needs no table entry (and has none)."""
    both = [name for name, p in PRIMITIVES.items() if p.array_api and name in TABLE]
    assert not both, f"kernels both declared (array_api=) and in runtime/kernels.py: {both}"


def test_structural_and_effectful_are_declared_traits():
    assert {n for n, p in PRIMITIVES.items() if p.structural} >= {"grad", "switch",
                                                                  "while_loop", "custom_vjp"}
    assert {n for n, p in PRIMITIVES.items() if p.effectful} == {
        "uniform_real", "random_poisson", "random_gamma", "uniform_candidate_sampler", "print",
        "standard_normal", "uniform_int", "random_permutation",
        "shuffled_true_positions", "check_range",
        "all_reduce", "all_gather", "reduce_scatter",
        "broadcast", "reduce", "barrier", "all_to_all", "send", "recv", "neighbor_exchange",
        "collective_gather",
        "collective_scatter", "all_reduce_start", "all_reduce_done", "raise", "summary",
        "py_hook", "py_func", "shard_all_reduce", "shard_all_gather", "shard_reduce_scatter",
        "shard_all_to_all"}


def test_every_kernel_belongs_to_a_primitive():
    # a variant's kernel (`matmul@2d`) belongs to the primitive before the `@`, which has
    # the variant
    orphans = sorted(name for name in K if name.partition("@")[0] not in PRIMITIVES)
    assert not orphans, f"NumPy kernels under names no primitive has: {orphans}"


def test_every_variant_kernel_is_of_a_primitive_with_variants():
    variants = [name for name in K if "@" in name]
    assert variants  # matmul@2d at least
    for name in variants:
        assert PRIMITIVES[name.partition("@")[0]].kernel_variant is not None, name


def test_every_primitive_is_differentiable_or_marked():
    missing = [name for name in ORDINARY
               if PRIMITIVES[name].bprop_rule is None and not PRIMITIVES[name].nondifferentiable]
    assert not missing, ("primitives with neither a bprop rule nor nondifferentiable=True: "
                         f"{missing}")


def test_nondifferentiable_primitives_have_no_bprop():
    both = [name for name, p in PRIMITIVES.items() if p.nondifferentiable and p.bprop_rule]
    assert not both, f"marked nondifferentiable yet given a bprop rule: {both}"


@pytest.mark.parametrize("name", [n for n in ORDINARY if PRIMITIVES[n].bprop_rule is not None])
def test_bprop_rules_take_out_and_dout(name):
    params = inspect.signature(PRIMITIVES[name].bprop_rule).parameters
    assert "out" in params and "dout" in params, (
        f"{name}: bprop rule must be rule(*inputs, out=, dout=, **params), got {list(params)}")


@pytest.mark.parametrize("name", sorted(n for n, p in PRIMITIVES.items() if p.public))
def test_public_declarations_give_op_class_and_method(name):
    """`ops.name`, `ops.Label()` (also in `cellgraph.ops.operations`; none where the
    declaration says MindSpore has no class), `Tensor.name` and every functional spelling the
    declaration lists (ops aliases, mint, mint.nn.functional, numpy) come from the declaration
    alone, take MindSpore's operand names, and all compute the same."""
    import importlib

    import numpy as np

    from cellgraph import Tensor, ops
    from cellgraph.ops import operations
    from cellgraph.ops.function._namespace import MINDSPORE_PARAMETERS

    prim = PRIMITIVES[name]
    # MindSpore's ops.div takes rounding_mode, ops.relu inplace, ...: a function of the API
    # layer in front of the primitive
    assert getattr(ops, name) is MINDSPORE_PARAMETERS.get(name, prim)
    if prim.primitive_class:
        cls = getattr(ops, prim.label)
        assert cls is getattr(operations, prim.label)
        for alias in prim.aliases:  # MindSpore's own class of that name (TensorAdd, RealDiv)
            assert issubclass(getattr(ops, alias), cls) and getattr(ops, alias)().name == alias
    else:
        cls = None
        assert not hasattr(operations, prim.label)
    # a method MindSpore dispatches among overloads may be one the op does not give (Tensor.select
    # is the op's (condition, y) form and mint.select's (dim, index) form): ops/tensor_overloads.py
    from cellgraph.ops.tensor_overloads import FORMS

    assert (getattr(Tensor, name, None) is not None) == (prim.method or name in FORMS)
    spelled = {}
    for spelling in prim.spellings:
        module = importlib.import_module(f"cellgraph.{spelling.module}")
        fn = getattr(module, spelling.name)
        if spelling.operands is not None:
            names = list(inspect.signature(fn).parameters)
            assert names[:len(spelling.operands)] == list(spelling.operands), spelling
        spelled[spelling] = fn
    cases = CASES.get(name)
    if not cases:
        return
    case = cases[0]
    operands = [Tensor(o) if isinstance(o, np.ndarray) else o for o in case.operands]
    def host(out):  # a primitive with several results (geqrf's (y, tau)) gives a tuple
        return tuple(o.asnumpy() for o in out) if prim.multiple_results else out.asnumpy()

    def assert_same(got, want, err_msg=""):
        for g, w in zip(*(((got,), (want,)) if not prim.multiple_results else (got, want))):
            np.testing.assert_array_equal(np.asarray(g), w, err_msg=err_msg)

    expected = host(prim(*operands, **case.params))
    if cls is not None and cls._fn is not None:  # (Round takes its decimals at the call)
        assert_same(host(cls(**case.params)(*operands)), expected)
    if prim.method:
        method = getattr(operands[0], name)
        assert_same(host(method(*operands[1:], **case.params)), expected)
    for spelling, fn in spelled.items():
        if spelling.operands is not None and not case.params:  # the operands by name
            got = fn(**dict(zip(spelling.operands, operands)))
        else:
            got = fn(*operands, **case.params)
        assert_same(host(got), expected, err_msg=str(spelling))


def test_declared_params_are_the_class_arguments_and_the_defaults():
    """A public declaration with static params: its class `Name(param=...)` configures the
    call and the functional op (the primitive) fills in the defaults."""
    import numpy as np

    from cellgraph import Tensor, ops
    from cellgraph.ops import primitive_class
    from cellgraph.primitives.core import Primitive
    from cellgraph.runtime.numpy_backend import numpy_backend

    prim = Primitive("scaled_probe", lambda x, scale: x.strong(), params={"scale": 2.0},
                     public=True)
    try:
        numpy_backend.kernels["scaled_probe"] = lambda x, scale: x * np.float32(scale)
        x = Tensor(np.array([1.0, -3.0], np.float32))
        np.testing.assert_array_equal(prim(x).asnumpy(), [2.0, -6.0])
        probe_class = primitive_class.primitive_class(prim, "cellgraph.ops.operations")
        probe = probe_class(0.5)
        assert repr(probe) == "ScaledProbe(scale=0.5)"
        np.testing.assert_array_equal(probe(x).asnumpy(), [0.5, -1.5])
        with pytest.raises(TypeError, match="unexpected keyword argument 'shift'"):
            probe_class(shift=1)
    finally:
        del PRIMITIVES["scaled_probe"], numpy_backend.kernels["scaled_probe"]
    assert not hasattr(ops, "ScaledProbe")


def test_spelling_text_names_module_name_and_operands():
    """A declaration's spelling reads `module[.name][(operands)]`: the name defaults to the
    primitive's, the operand names to the declaration's; "ops" and "mint" are told apart from
    "mint.nn.functional" by the longest module that fits."""
    from cellgraph.primitives.core import Spelling

    assert Spelling.parse("mint", "asin", ("input",)) == Spelling("mint", "asin", ("input",))
    assert Spelling.parse("ops.arcsin(x)", "asin", ("input",)) == Spelling("ops", "arcsin", ("x",))
    assert Spelling.parse("mint.nn.functional", "relu", None) == \
        Spelling("mint.nn.functional", "relu", None)
    assert Spelling.parse("numpy(x1, x2)", "bitwise_and", ("input", "other")) == \
        Spelling("numpy", "bitwise_and", ("x1", "x2"))


def test_a_spelling_with_other_operand_names_calls_the_primitive():
    """`ops.arcsin(x)` is the primitive asin under MindSpore's name for its operand: it takes it
    by position or by that name, shows it in its signature, and computes what asin does."""
    import numpy as np

    from cellgraph import Tensor, ops

    x = Tensor(np.array([0.5, -0.25], np.float32))
    assert str(inspect.signature(ops.arcsin)) == "(x)"
    assert str(inspect.signature(ops.asin)) == "(input)"
    np.testing.assert_array_equal(ops.arcsin(x=x).asnumpy(), ops.asin(x).asnumpy())
    np.testing.assert_array_equal(ops.arcsin(x).asnumpy(), ops.asin(input=x).asnumpy())
    with pytest.raises(TypeError, match="arcsin.. got an unexpected keyword argument 'input'"):
        ops.arcsin(input=x)


def test_a_class_argument_without_default_is_required():
    """export_class's REQUIRED init argument: MindSpore's class takes it without a default
    (`ops.Cummax(axis)`), so the signature shows none and a call without it is a TypeError."""
    from cellgraph import ops

    assert str(inspect.signature(ops.Cummax)) == "(axis)"
    with pytest.raises(TypeError, match="Cummax.. missing required argument 'axis'"):
        ops.Cummax()
    assert repr(ops.Cummax(axis=1)) == "Cummax(axis=1)"
