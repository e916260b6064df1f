"""`mindspore._c_expression.amp`: the automatic mixed precision strategies and their stack.

A strategy (`create_amp_strategy(level, dtype, white_list, black_list)`, each list of
`(primitive class name, argument positions)`) says, for each primitive by name, whether its
float inputs are cast and to what (`get_prim_cast_strategy_info`):

* O0: nothing is cast; O1: the white list to `dtype`; O2: the black list to float32 and every
  other primitive to `dtype`; O3: every primitive to `dtype`;
* auto: the white list to `dtype`, the black list to float32, `AutoPromoteList` (BiasAdd,
  Concat, AddN, ...) to the widest float type among the float Tensor inputs, the rest as
  they are.

A list entry's argument positions are reported back (`arg_pos`) but, as in MindSpore 2.10,
every float input of the primitive is cast.

`push_amp_strategy`/`pop_amp_strategy` keep a stack (one per thread); while a strategy is on
top, each primitive class called (`ops.MatMul()(x, y)`, eagerly or while a graph is built)
casts its float Tensor inputs, those in Tuples and lists included, as the strategy says
(`cast_arguments`). `auto_mixed_precision(net, "auto")` pushes one around each call of
`net`."""
from __future__ import annotations

import enum
import threading
import warnings

from cellgraph.primitives import dtype as dt

__all__ = ["AmpLevel", "AmpStrategy", "AutoPromoteList", "PrimCastStrategy",
           "PrimCastStrategyInfo", "SetDtypeList", "SetDtypeOptList", "create_amp_strategy",
           "get_curr_amp_strategy", "get_prim_cast_strategy_info", "pop_amp_strategy",
           "push_amp_strategy"]


class AmpLevel(enum.IntEnum):
    """The mixed precision levels, numbered as MindSpore's."""

    AmpO0 = 0
    AmpO1 = 1
    AmpO2 = 2
    AmpO3 = 3
    AmpAuto = 4


class PrimCastStrategy(enum.IntEnum):
    """What a strategy does to one primitive's inputs."""

    AmpIgnore = 0
    AmpDoCast = 1
    AmpSetDtype = 2
    AmpSetDtypeOpt = 3
    AmpAutoPromote = 4


# the primitives "auto" runs in the widest float type of their inputs (MindSpore's list)
AutoPromoteList = [("Addcdiv", []), ("Addcmul", []), ("Cross", []), ("_PyboostCrossPrim", []),
                   ("GridSampler2D", []), ("GridSampler3D", []), ("BiasAdd", []), ("AddN", []),
                   ("Dot", []), ("Concat", [])]
SetDtypeList: list = []
SetDtypeOptList: list = []
_FLOATS = (dt.float16, dt.bfloat16, dt.float32, dt.float64)


def _signature_error(fn: str, args: tuple) -> TypeError:
    return TypeError(
        f"{fn}(): incompatible function arguments. The following argument types are "
        f"supported:\n    1. (arg0: AmpLevel, arg1: mindspore.dtype, arg2: list[tuple[str, "
        f"list[int]]], arg3: list[tuple[str, list[int]]])\n\nInvoked with: "
        f"{', '.join(repr(a) for a in args)}")


def _prim_args(entries) -> list | None:
    """`[(name, [positions])]`, or None when `entries` is not such a list."""
    if not isinstance(entries, (list, tuple)):
        return None
    out = []
    for entry in entries:
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            return None
        name, positions = entry
        if not isinstance(name, str) or not isinstance(positions, (list, tuple)) or not all(
                isinstance(p, int) and not isinstance(p, bool) for p in positions):
            return None
        out.append((name, list(positions)))
    return out


def _strategy_args(fn: str, args: tuple) -> tuple:
    level, dtype, white_list, black_list = args
    white, black = _prim_args(white_list), _prim_args(black_list)
    if not isinstance(level, AmpLevel) or not isinstance(dtype, dt.DType) or white is None \
            or black is None:
        raise _signature_error(fn, args)
    return level, dtype, white, black


class PrimCastStrategyInfo:
    """How one primitive's inputs are cast: `strategy`, the target `dtype`, and the argument
    positions `arg_pos` (empty: every float input)."""

    def __init__(self, strategy=PrimCastStrategy.AmpIgnore, dtype=dt.float32, arg_pos=()):
        self.strategy, self.dtype, self.arg_pos = strategy, dtype, list(arg_pos)


class AmpStrategy:
    """A level, a low-precision dtype and the white and black lists (see the module)."""

    def __init__(self, level, dtype, white_list, black_list):
        self._level, self._dtype = level, dtype
        self._white, self._black = white_list, black_list
        self._cache: dict[str, PrimCastStrategyInfo] = {}

    def get_amp_level(self) -> AmpLevel:
        return self._level

    def get_amp_dtype(self) -> dt.DType:
        return self._dtype

    def get_white_list(self) -> list:
        return [(name, list(pos)) for name, pos in self._white]

    def get_black_list(self) -> list:
        return [(name, list(pos)) for name, pos in self._black]

    def info(self, op_name: str) -> PrimCastStrategyInfo:
        """The (cached) cast of primitive `op_name`'s inputs under this strategy."""
        found = self._cache.get(op_name)
        if found is None:
            found = self._cache[op_name] = self._decide(op_name)
        return found

    def _decide(self, op_name: str) -> PrimCastStrategyInfo:
        level, low = self._level, self._dtype
        white, black = dict(self._white), dict(self._black)
        if level == AmpLevel.AmpO1 and op_name in white:
            return PrimCastStrategyInfo(PrimCastStrategy.AmpDoCast, low, white[op_name])
        if level == AmpLevel.AmpO2:
            if op_name in black:
                return PrimCastStrategyInfo(PrimCastStrategy.AmpDoCast, dt.float32,
                                            black[op_name])
            return PrimCastStrategyInfo(PrimCastStrategy.AmpDoCast, low)
        if level == AmpLevel.AmpO3:
            return PrimCastStrategyInfo(PrimCastStrategy.AmpDoCast, low)
        if level == AmpLevel.AmpAuto:
            if op_name in white:
                return PrimCastStrategyInfo(PrimCastStrategy.AmpDoCast, low, white[op_name])
            if op_name in black:
                return PrimCastStrategyInfo(PrimCastStrategy.AmpDoCast, dt.float32,
                                            black[op_name])
            for table, strategy in ((SetDtypeList, PrimCastStrategy.AmpSetDtype),
                                    (SetDtypeOptList, PrimCastStrategy.AmpSetDtypeOpt),
                                    (AutoPromoteList, PrimCastStrategy.AmpAutoPromote)):
                positions = dict(table).get(op_name)
                if positions is not None:
                    return PrimCastStrategyInfo(strategy, dt.float32, positions)
        return PrimCastStrategyInfo()


def create_amp_strategy(*args) -> AmpStrategy:
    """create_amp_strategy(level, dtype, white_list, black_list)."""
    if len(args) != 4:
        raise _signature_error("create_amp_strategy", args)
    return AmpStrategy(*_strategy_args("create_amp_strategy", args))


class _Stack(threading.local):
    def __init__(self):
        self.strategies: list[AmpStrategy] = []


_STACK = _Stack()


def push_amp_strategy(*args) -> None:
    """Put a new strategy, made as create_amp_strategy makes one, on top of the stack."""
    if len(args) != 4:
        raise _signature_error("push_amp_strategy", args)
    _STACK.strategies.append(AmpStrategy(*_strategy_args("push_amp_strategy", args)))


def pop_amp_strategy() -> None:
    """Take the top strategy off the stack (a warning when it is empty)."""
    if not _STACK.strategies:
        warnings.warn("the amp strategy stack is empty when trying to pop the amp strategy",
                      stacklevel=2)
        return
    _STACK.strategies.pop()


def get_curr_amp_strategy() -> AmpStrategy | None:
    """The strategy on top of the stack, or None."""
    return _STACK.strategies[-1] if _STACK.strategies else None


def get_prim_cast_strategy_info(amp_strategy, op_name) -> PrimCastStrategyInfo:
    """How `amp_strategy` casts the inputs of the primitive named `op_name`."""
    if amp_strategy is None:
        return PrimCastStrategyInfo()
    if not isinstance(amp_strategy, AmpStrategy) or not isinstance(op_name, str):
        raise TypeError(f"get_prim_cast_strategy_info(): incompatible function arguments: "
                        f"expected (AmpStrategy, str), got ({type(amp_strategy).__name__}, "
                        f"{type(op_name).__name__})")
    return amp_strategy.info(op_name)


def cast_arguments(op_name: str, args: tuple, cast) -> tuple:
    """`args` of primitive `op_name` cast as the current strategy says; `cast(value, dtype)`
    converts one Tensor (or graph value). Unchanged without a strategy."""
    strategy = get_curr_amp_strategy()
    if strategy is None or strategy.get_amp_level() == AmpLevel.AmpO0:
        return args
    info = strategy.info(op_name)
    if info.strategy == PrimCastStrategy.AmpIgnore:
        return args
    target = info.dtype
    if info.strategy == PrimCastStrategy.AmpAutoPromote:
        target = _promoted(args)
        if target is None:
            return args
    # every float input, whatever `arg_pos` lists: MindSpore 2.10 casts them all, eagerly and
    # in graphs
    writes = op_name.startswith(_WRITING_PREFIXES)
    return tuple(a if writes and _is_parameter(a) else _cast_float(a, target, cast)
                 for a in args)


# the primitives that write a Parameter operand (MindSpore's `RW_WRITE` signatures: the
# assignments, scatters and optimizer updates); the Parameters they write are never cast
_WRITING_PREFIXES = ("Assign", "Scatter", "Apply", "SparseApply", "Adam", "FusedSparse")


def _is_parameter(value) -> bool:
    """A Parameter, or the graph value that stands for one while a graph is built."""
    from cellgraph.compiler.builder import is_parameter

    return is_parameter(value)


def _float_dtype(value):
    """The float dtype of a Tensor or graph value (None for anything else)."""
    aval = getattr(value, "aval", None)
    dtype = getattr(aval, "dtype", None)
    return dtype if dtype in _FLOATS else None


def _float_dtypes(args):
    for a in args:
        if isinstance(a, (tuple, list)):
            yield from _float_dtypes(a)
        else:
            found = _float_dtype(a)
            if found is not None:
                yield found


def _promoted(args):
    """The widest float type among the float Tensors in `args` (None if there are none)."""
    widest = None
    for dtype in _float_dtypes(args):
        widest = dtype if widest is None else dt.promote(widest, dtype)
    return widest


def _cast_float(value, dtype, cast):
    if isinstance(value, (tuple, list)):
        return type(value)(_cast_float(v, dtype, cast) for v in value)
    found = _float_dtype(value)
    return value if found is None or found == dtype else cast(value, dtype)
