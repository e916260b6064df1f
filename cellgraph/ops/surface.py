"""The compile-time helpers of `mindspore.ops` that need the compiler: `constexpr`,
`tuple_len`, `make_range` and the scalar operations of `ops.functional` (`F.scalar_add`), and
`ops.Print`."""
from __future__ import annotations

import functools
import operator

from cellgraph.compiler.builder import Tracer, current_builder
from cellgraph.ops.derive import PrimitiveClass
from cellgraph.primitives.errors import DTypeError


class _ConstexprFunction:
    """A function run at compile time on constant arguments (never parsed into the graph)."""

    def __init__(self, fn):
        functools.update_wrapper(self, fn)
        self.fn = fn

    def __call__(self, *args, **kwargs):
        for value in list(args) + list(kwargs.values()):
            if isinstance(value, Tracer):
                raise DTypeError(f"constexpr function {self.fn.__name__}: expected compile-time "
                                f"constants, got a Tensor computed in the graph")
        return self.fn(*args, **kwargs)


def constexpr(fn=None, *, get_instance=True, reuse_result=True, check=True):
    """Decorator: `fn` runs at compile time on constants (shapes, dtypes, numbers)."""
    if fn is None:
        return _ConstexprFunction
    return _ConstexprFunction(fn)


def make_range(start=0, stop=None, step=1) -> tuple:
    """A tuple of ints like Python's range (`F.make_range(5)` is (0, 1, 2, 3, 4)), made when
    the graph is built."""
    if stop is None:
        start, stop = 0, start
    for name, value in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise DTypeError(f"make_range: `{name}` must be an int, got "
                             f"{type(value).__name__} {value!r}")
    if step == 0:
        raise ValueError("make_range: `step` must not be 0")
    return tuple(range(start, stop, step))


def tuple_len(data) -> int:
    return len(data)


class Print(PrimitiveClass):
    """`ops.Print()(*values)`: inside a graph, an effectful node that prints every time the
    graph runs, constants included (unlike the built-in `print` of constants in construct,
    which prints once while compiling, as MindSpore's does); outside, it prints at once."""

    def __call__(self, *args):
        from cellgraph.compiler.print_op import emit_print

        if current_builder() is not None:
            return emit_print(args, {})
        print(*args)
        return None

    def __repr__(self) -> str:
        return "Print()"


# F.scalar_add(2, 3) and friends: arithmetic on Python numbers, done when the graph is built.
SCALAR_OPS = {"scalar_add": operator.add, "scalar_sub": operator.sub,
              "scalar_mul": operator.mul, "scalar_div": operator.truediv,
              "scalar_floordiv": operator.floordiv, "scalar_mod": operator.mod,
              "scalar_pow": operator.pow, "scalar_usub": operator.neg,
              "scalar_lt": operator.lt, "scalar_gt": operator.gt, "scalar_le": operator.le,
              "scalar_ge": operator.ge, "scalar_eq": operator.eq, "scalar_ne": operator.ne,
              "bool_not": operator.not_, "bool_and": operator.and_, "bool_or": operator.or_}
