"""`mindspore.device_context.cpu.op_tuning.threads_num(num)`: how many threads MindSpore's CPU
kernels use, set once per process (`set_context(runtime_num_threads=...)`). cellgraph keeps the
value and checks it as MindSpore does; it is a performance hint here (the NumPy backend's
kernels use the threads its BLAS was built with) and changes no result."""
from __future__ import annotations

from cellgraph import context
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError

__all__ = ["threads_num"]

_SET: list = []


def threads_num(num) -> None:
    if isinstance(num, bool) or not isinstance(num, int):
        raise ArgumentError(f"The parameter 'num' must be {int}, but got {type(num)}")
    if num <= 0:
        raise ArgumentValueError(f"The 'num' must be int and must > 0, but got '{num}' with "
                                 f"type 'int'.")
    if _SET:
        raise RuntimeError("The 'threads_num' can not be set repeatedly.")
    context.set_context(runtime_num_threads=num)
    _SET.append(num)
