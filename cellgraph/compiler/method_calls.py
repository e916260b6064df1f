"""A Tensor method called in graph code with arguments its signature does not take: MindSpore's
TypeError listing the method's overloads (primitives/overload_errors.py)."""
from __future__ import annotations

import inspect

from cellgraph.primitives.errors import DTypeError
from cellgraph.primitives.method_overloads import OVERLOADS
from cellgraph.primitives.overload_errors import overload_message, refuses_scalars
from cellgraph.primitives.tensor_methods import TensorMethods


def check_method_call(name: str, fn, args: tuple, kwargs: dict, loc) -> None:
    """Raise MindSpore's error when `fn` (the Tensor method `name`, bound, or called on the class
    with the Tensor first) cannot take `args` and `kwargs`; otherwise return."""
    callings = OVERLOADS.get(name)
    if not callings:
        return
    if inspect.ismethod(fn) and isinstance(fn.__self__, TensorMethods):
        given = args
    elif args and isinstance(args[0], TensorMethods) and getattr(type(args[0]), name, None) is fn:
        given = args[1:]
    elif getattr(TensorMethods, name, None) is fn:  # Tensor.add(x, y) with x no Tensor
        first = type(args[0]).__name__ if args else "NoneType"
        raise DTypeError(f"descriptor '{name}' for 'TensorPy' objects doesn't apply to a "
                         f"'{first}' object", loc)
    else:
        return
    try:
        inspect.signature(fn).bind(*args, **kwargs)
    except ValueError:
        return  # no signature to bind against: the call itself decides
    except TypeError:
        raise DTypeError(overload_message(name, callings, given, kwargs), loc) from None
    if refuses_scalars(callings, given, kwargs):  # a number or string of a type no form takes
        raise DTypeError(overload_message(name, callings, given, kwargs), loc)
