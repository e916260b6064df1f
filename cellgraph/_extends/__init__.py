"""`mindspore._extends`: the internal names MindSpore programs and tests import.

`cell_attr_register` decorates a Cell's `__init__` so that MindSpore records the arguments it was
built with; here it keeps them in `cell_init_args` and changes nothing else.
"""
from __future__ import annotations

import functools
import inspect

from . import parse

__all__ = ["cell_attr_register", "parse"]


def cell_attr_register(fn=None, attrs=None):
    """Decorator on a Cell's `__init__`: the call's arguments are kept in `cell_init_args`."""
    def decorate(init):
        signature = inspect.signature(init)

        @functools.wraps(init)
        def wrapper(self, *args, **kwargs):
            bound = signature.bind(self, *args, **kwargs)
            arguments = dict(list(bound.arguments.items())[1:])
            out = init(self, *args, **kwargs)
            object.__setattr__(self, "cell_init_args", f"{type(self).__name__}{arguments}")
            return out

        return wrapper

    return decorate(fn) if fn is not None else decorate
