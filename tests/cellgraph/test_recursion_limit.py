"""set_recursion_limit and set_context(max_call_depth=...): a compile whose calls nest deeper
than the limit fails with a RuntimeError naming it, as MindSpore 2.10's does (its message:
"Exceed function call depth limit 20, (function call depth: 21, ..."; it fails for the same
depths as this test's)."""
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.compiler.compile_context import CALL_DEPTH


def _count_down(x, n):
    if n == 0:
        return x
    return _count_down(x + 1, n - 1)


class _Recurse(nn.Cell):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def construct(self, x):
        return _count_down(x, self.n)


@pytest.fixture(autouse=True)
def _restore():
    yield
    CALL_DEPTH.limit = 1000


def test_limit_refuses_deeper_calls_and_can_be_raised_again():
    assert float(_Recurse(30)(Tensor([1.0])).asnumpy()[0]) == 31.0
    ms.set_recursion_limit(20)
    with pytest.raises(RuntimeError, match="Exceed function call depth limit 20"):
        _Recurse(30)(Tensor([1.0]))
    ms.set_recursion_limit(1000)
    assert float(_Recurse(25)(Tensor([1.0])).asnumpy()[0]) == 26.0


def test_max_call_depth_context_option_sets_the_same_limit():
    ms.set_context(max_call_depth=20)
    try:
        with pytest.raises(RuntimeError, match="Exceed function call depth limit 20"):
            _Recurse(28)(Tensor([1.0]))
        assert ms.get_context("max_call_depth") == 20
    finally:
        ms.set_context(max_call_depth=1000)


@pytest.mark.parametrize("value, error", [(0, ValueError), (-1, ValueError), (1.5, TypeError),
                                          ("3", TypeError)])
def test_limit_must_be_a_positive_int(value, error):
    with pytest.raises(error, match="The input value must be int"):
        ms.set_recursion_limit(value)
