"""Names defined on one path only: MindSpore 2.10 refuses reading them after the `if` or loop,
decided from the source (a constant condition and a loop that ran included). The expected
exception type and first line are what MindSpore 2.10 CPU raised for the same functions, and
the values of the accepted ones what it returned; the pointer to the definition is MindSpore's
(the function down to that line), then the line that reads the name."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, jit, nn

X = Tensor(np.array([1.0], np.float32))

BRANCH = "The local variable '{}' is not defined in {} branch, but defined in {} branch."
LOOP = ("The local variable '{0}' defined in the '{1}' loop body cannot be used outside of the "
        "loop body. Please define variable '{0}' before '{1}'.")


def for_body(x):
    for _ in range(3):
        y = x
    return y


def else_only(x):
    if x < 0:
        y = 1  # noqa: F841
    else:
        z = 2
    return z


def constant_true(x):
    if True:
        y = 1
    return y


def python_condition(x, n):
    if n > 0:
        y = 1
    return y


def two_ifs(x):
    if x < 0:
        y = 1
    if x > 2:
        y = 3
    return y


def while_on_python_values(x):
    i = 0
    while i < 3:
        y = x
        i = i + 1
    return y


def for_over_tensor(x):
    for i in x:
        y = i
    return y


def loop_target(x):
    for i in range(3):
        pass
    return i


def while_in_fors(x):
    for _ in range(2):
        for _ in range(2):
            while x < 0:
                y = 0
    return y


REFUSED = [
    (for_body, (X,), LOOP.format("y", "for"), "y = x"),
    (else_only, (X,), BRANCH.format("z", "true", "false"), "z = 2"),
    (constant_true, (X,), BRANCH.format("y", "false", "true"), "y = 1"),
    (python_condition, (X, 1), BRANCH.format("y", "false", "true"), "y = 1"),
    (python_condition, (X, -1), BRANCH.format("y", "false", "true"), "y = 1"),
    (two_ifs, (X,), BRANCH.format("y", "false", "true"), "y = 1"),
    (while_on_python_values, (X,), LOOP.format("y", "while"), "y = x"),
    (for_over_tensor, (X,), LOOP.format("y", "for"), "y = i"),
    (loop_target, (X,), LOOP.format("i", "for"), "for i in range(3):"),
    (while_in_fors, (X,), LOOP.format("y", "for"), "y = 0"),
]


@pytest.mark.parametrize("fn, args, first_line, definition", REFUSED,
                         ids=[f"{case[0].__name__}{i}" for i, case in enumerate(REFUSED)])
def test_reading_a_name_some_path_leaves_unbound(fn, args, first_line, definition):
    with pytest.raises(UnboundLocalError) as info:
        jit(fn)(*args)
    text = str(info.value)
    assert text.startswith(first_line + "\n")
    # where it was defined (MindSpore's pointer: the function down to that line), then the read
    lines, first = inspect.getsourcelines(fn)
    def_line = first + next(i for i, t in enumerate(lines) if definition in t)
    assert f"In file {__file__}:{def_line}\ndef {fn.__name__}(" in text
    assert "~<-------------HERE" in text
    assert text.rstrip().endswith("^") and "return" in text.splitlines()[-2]


def assigned_after_branch(x):
    if x < 0:
        y = 1
    y = 5
    return y


def unused_one_sided(x):
    y = 0
    if x < 0:
        z = 1  # noqa: F841
    return y


def other_branch_returns(x):
    if x < 0:
        y = x
        return y
    return x


def both_branches(x):
    if x < 0:
        y = 1
    else:
        y = 2
    return y


def defined_before_the_loop(x):
    y = x
    while x < 0:
        y = y + 1
        x = x + 1
    return y


# MindSpore 2.10's results for the same functions
ACCEPTED = [(assigned_after_branch, 5), (unused_one_sided, 0), (other_branch_returns, [1.0]),
            (both_branches, 2), (defined_before_the_loop, [1.0])]


@pytest.mark.parametrize("fn, expected", ACCEPTED, ids=[c[0].__name__ for c in ACCEPTED])
def test_names_defined_on_every_path(fn, expected):
    np.testing.assert_allclose(np.asarray(jit(fn)(X).asnumpy() if isinstance(
        expected, list) else jit(fn)(X)), expected)


class OneSidedInCell(nn.Cell):
    def construct(self, x):
        if x < 0:
            y = x
        return y


def test_cell_construct_refuses_it_too():
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(UnboundLocalError, match="is not defined in false branch"):
        OneSidedInCell()(X)


def test_undefined_name_uses_mindspore_words():
    def reads_nothing(x):
        return x + undefined_offset  # noqa: F821

    with pytest.raises(NameError, match=r"^The name 'undefined_offset' is not defined, or not "
                                        r"supported in graph mode\."):
        jit(reads_nothing)(X)


# A name the function assigns only inside a loop or one branch, that is also a global: the
# paths that do not assign it read the global (MindSpore 2.10 returned the values below).
TOTAL = Tensor(np.ones((2, 3), np.float32))
LIMIT = 5


def global_updated_in_loop():
    for i in (1, 2, 3):
        TOTAL = TOTAL + i  # noqa: F823 - the global's value on the first pass
    return TOTAL


def global_set_in_one_branch(x):
    if x > 0:
        LIMIT = 2
    return LIMIT + x


def test_loop_reads_the_global_it_shadows():
    out = jit(global_updated_in_loop)()
    np.testing.assert_array_equal(out.asnumpy(), np.full((2, 3), 7.0, np.float32))
    np.testing.assert_array_equal(TOTAL.asnumpy(), np.ones((2, 3), np.float32))


@pytest.mark.parametrize(("x", "want"), [(1, 3), (-1, 4)])
def test_tensor_if_reads_the_global_on_the_other_branch(x, want):
    assert int(jit(global_set_in_one_branch)(Tensor(x)).asnumpy()) == want
