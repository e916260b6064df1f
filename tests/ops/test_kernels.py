"""Every primitive's NumPy kernel against an independent NumPy reference.

One table, `CASES` (tests/ops/kernel_cases*.py), maps a primitive name to the cases that exercise
it: operands (NumPy arrays, 0-d arrays and Python scalars, over several shapes and dtypes, with
broadcasting), the static params, a float64 NumPy reference and the dtype MindSpore gives (a
tuple of them for a primitive with several results). Each case runs three ways:

* the kernel called directly, on the operands as a graph hands them over (cast to the dtype
  the primitive's promotion decides): its real output shape/dtype must equal the type rule's
  (`prim.abstract_eval`), since neither the eager runtime nor generated code may paper over it;
* eagerly, through the functional op on Tensors;
* inside a compiled graph (`cellgraph.jit`).

A primitive in the registry without a case fails `test_every_primitive_has_a_case`.
"""
from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import PRIMITIVES, abstract_of, promoted_dtype
from cellgraph.runtime.numpy_backend import K

from .kernel_cases import CASES as CORE_CASES
from .kernel_cases import EXACT, TOL, Case, f32
from .kernel_cases_complex import COMPLEX_CASES
from .kernel_cases_nn import NN_CASES
from .kernel_cases_select import SELECT_CASES

CASES: dict[str, list[Case]] = {**CORE_CASES, **NN_CASES, **SELECT_CASES}
for _name, _cases in COMPLEX_CASES.items():  # complex operands join each primitive's cases
    CASES[_name] = CASES.get(_name, []) + _cases

def is_structural(prim) -> bool:
    """Params hold graphs (`grad`, `switch`, `while_loop`, `custom_vjp`): expanded or generated
    as code before kernels run, so no kernel of their own; tested with autodiff and control
    flow."""
    return prim.structural


def _primitives():
    return [name for name, prim in PRIMITIVES.items() if not is_structural(prim)]


# Primitives whose kernels have effects (printing, random draws), checked by their own tests.
EFFECT_TESTS = {"print": "test_print_kernel_writes_values",
                "uniform_real": "tests/cellgraph/test_layers.py::test_uniform_real_*",
                "random_poisson": "tests/ops/test_random_poisson.py",
                "standard_normal": "tests/ops/test_random_streams.py",
                "uniform_int": "tests/ops/test_random_streams.py",
                "random_permutation": "tests/ops/test_random_streams.py",
                "shuffled_true_positions": "tests/ops/test_random_streams.py",
                "random_gamma": "tests/ops/test_random_gamma.py",
                "uniform_candidate_sampler": "tests/ops/test_uniform_candidate_sampler.py",
                "summary": "tests/cellgraph/train/test_summary.py",
                "py_hook": "tests/cellgraph/test_gradient_hooks.py::test_hook_backward_*",
                "py_func": "tests/ops/test_custom_ops.py"}

# Collectives need a group of processes: tests/cellgraph/test_communication.py runs them on
# one and on two processes, against their definitions.
COLLECTIVE_TESTS = {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "all_to_all",
                    "barrier", "send", "recv", "collective_gather", "collective_scatter",
                    "all_reduce_start", "all_reduce_done", "neighbor_exchange"}
# So do the moves of operator sharding: tests/cellgraph/parallel/test_sharding.py, each against
# its definition (test_each_redistribution_move_on_two_processes) and in sharded models.
COLLECTIVE_TESTS |= {"shard_all_reduce", "shard_reduce_scatter", "shard_all_gather",
                     "shard_all_to_all", "shard_slice", "shard_mirror", "shard_rank"}


def test_every_primitive_has_a_case():
    missing = [name for name in _primitives()
               if name not in CASES and name not in EFFECT_TESTS and name not in COLLECTIVE_TESTS]
    assert not missing, f"primitives without a kernel test case in CASES: {missing}"


def test_cases_name_registered_primitives():
    unknown = sorted(set(CASES) - set(PRIMITIVES))
    assert not unknown, f"CASES has entries for unregistered primitives: {unknown}"


def fits(shape: tuple, rule_shape: tuple) -> bool:
    """A kernel result's shape against its type rule's, where None is a size known only at run
    time (nonzero's row count) and fits any size."""
    return len(shape) == len(rule_shape) and all(
        r is None or r == d for d, r in zip(shape, rule_shape))


def _results(value, multiple: bool) -> list:
    return list(value) if multiple else [value]


def _expected(case: Case) -> list[np.ndarray]:
    dtypes = case.out_dtype if isinstance(case.out_dtype, tuple) else (case.out_dtype,)
    refs = _results(case.ref(*case.operands, **case.params), isinstance(case.out_dtype, tuple))
    assert len(refs) == len(dtypes)
    return canonical(case, [np.asarray(r).astype(d.np) for r, d in zip(refs, dtypes)])


def canonical(case: Case, results: list) -> list:
    """Host results as the case compares them (`Case.canonical`: one representative of
    results defined up to a choice)."""
    return results if case.canonical is None else case.canonical(results)


def _check(out, case: Case, how: str):
    multiple = isinstance(case.out_dtype, tuple)
    dtypes = case.out_dtype if multiple else (case.out_dtype,)
    outs = _results(out, multiple)
    assert len(outs) == len(dtypes), f"{how} {case}: {len(outs)} results, expected {len(dtypes)}"
    hosts = canonical(case, [o.asnumpy() if isinstance(o, Tensor) else o for o in outs])
    for k, (got, host, expected, dtype) in enumerate(zip(outs, hosts, _expected(case), dtypes)):
        what = f"{how} {case}" + (f" result {k}" if multiple else "")
        assert isinstance(got, Tensor), f"{what}: returned {type(got).__name__}, not a Tensor"
        assert got.dtype == dtype, f"{what}: dtype {got.dtype}, expected {dtype}"
        assert got.shape == expected.shape, f"{what}: shape {got.shape}, expected " \
                                            f"{expected.shape}"
        np.testing.assert_allclose(host, expected, err_msg=what,
                                   **(case.tol or TOL.get(dtype, EXACT)))


def _tensors(case: Case) -> list:
    return [Tensor(o) if isinstance(o, np.ndarray) else o for o in case.operands]


def _call(name: str, case: Case) -> Callable:
    if case.call is not None:
        return case.call
    return functools.partial(PRIMITIVES[name], **case.params)


def kernel_operands(prim, operands: tuple) -> tuple:
    """`operands` as the kernel receives them: arrays cast where the graph holds a `cast`."""
    if prim.promote is None:
        return operands
    first = prim.promote.first
    target = promoted_dtype(prim, [abstract_of(o) for o in operands[first:]])
    if target is None:
        return operands
    return operands[:first] + tuple(o.astype(target.np) if isinstance(o, np.ndarray) else o
                                    for o in operands[first:])


def _case_params():
    return [pytest.param(name, id=name) for name in CASES]


@pytest.mark.parametrize("name", _case_params())
def test_type_rule_matches_kernel_output(name):
    prim = PRIMITIVES[name]
    for case in CASES[name]:
        rules = _results(prim.abstract_eval([abstract_of(o) for o in case.operands],
                                            case.params), prim.multiple_results)
        with np.errstate(all="ignore"):
            raws = _results(K[name](*kernel_operands(prim, case.operands), **case.params),
                            prim.multiple_results)
        dtypes = case.out_dtype if isinstance(case.out_dtype, tuple) else (case.out_dtype,)
        assert len(raws) == len(rules) == len(dtypes), f"{name}{case}: result counts differ"
        for raw, rule, dtype in zip(raws, rules, dtypes):
            raw = np.asarray(raw)
            assert fits(raw.shape, rule.shape) and dt.from_numpy(raw.dtype) == rule.dtype, (
                f"{name}{case}: kernel gives {dt.from_numpy(raw.dtype).short}"
                f"{list(raw.shape)}, type rule says {rule}")
            if case.call is None:  # a case's own call may cast (ops.bincount's float32)
                assert rule.dtype == dtype, f"{name}{case}: rule dtype {rule.dtype}, expected {dtype}"


@pytest.mark.parametrize("name", _case_params())
def test_eager_matches_numpy(name):
    for case in CASES[name]:
        _check(_call(name, case)(*_tensors(case)), case, f"eager {name}")


def _compiled(fn):
    @cellgraph.jit
    def run(*xs):
        return fn(*xs)

    return run


@pytest.mark.parametrize("name", _case_params())
def test_graph_matches_numpy(name):
    for case in CASES[name]:
        _check(_compiled(_call(name, case))(*_tensors(case)), case, f"graph {name}")


def test_print_kernel_writes_values(capsys):
    prim = PRIMITIVES.get("print")
    if prim is None:
        pytest.skip("no print primitive registered")
    x = np.array([1.5, -2.0], np.float32)
    n = np.array(3, np.int64)
    params = {"template": ("x:", " ", 0, " n = ", 1), "lines": ()}
    assert prim.abstract_eval([abstract_of(x), abstract_of(n)], params) == ()
    assert K["print"](x, n, **params) == ()
    assert prim(Tensor(x), Tensor(n), **params) == ()

    def show_and_double(x, n):
        prim(x, n, **params)
        return x * 2

    out = _compiled(show_and_double)(Tensor(x), Tensor(n))
    np.testing.assert_allclose(out.asnumpy(), x * 2, **TOL[f32])
    assert capsys.readouterr().out == "x: [ 1.5 -2. ] n = 3\n" * 3


def test_positive_refuses_a_bool_tensor_naming_the_op():
    """The array API's positive has no bool loop: the type rule refuses a bool Tensor (eagerly
    and while a graph is built) with MindSpore's TypeError kind, before any kernel runs."""
    from cellgraph import Tensor, jit, ops
    from cellgraph.primitives.errors import DTypeError

    flags = Tensor(np.array([True, False]))
    with pytest.raises(DTypeError, match="Positive: expected a numeric Tensor, got Bool"):
        ops.positive(flags)
    with pytest.raises(DTypeError, match="Positive"):
        jit(lambda x: ops.positive(x))(flags)
