"""The arguments an object of the dataset API was made with, kept for the pipeline
serializer (`dataset.serialize`): sources, samplers and transforms are written as their
class's name and these arguments, and rebuilt by calling the class with them."""
from __future__ import annotations

import functools
import inspect


def record_arguments(cls) -> None:
    """Make `cls.__init__` (where `cls` defines one) keep the arguments of the outermost
    construction as `self._arguments` (name -> value, defaults filled in; a `**kwargs`
    parameter's entries merged), in the signature's order."""
    init = cls.__dict__.get("__init__")
    if init is None or getattr(init, "_records_arguments", False):
        return
    try:
        signature = inspect.signature(init)
    except (TypeError, ValueError):
        return

    @functools.wraps(init)
    def recording(self, *args, **kwargs):
        if "_arguments" not in self.__dict__:
            try:
                bound = signature.bind(self, *args, **kwargs)
            except TypeError:
                pass  # the call's own error follows
            else:
                bound.apply_defaults()
                arguments = {}
                for name, value in list(bound.arguments.items())[1:]:
                    kind = signature.parameters[name].kind
                    if kind is inspect.Parameter.VAR_KEYWORD:
                        arguments.update(value)
                    elif kind is not inspect.Parameter.VAR_POSITIONAL:
                        arguments[name] = value
                self.__dict__["_arguments"] = arguments
        init(self, *args, **kwargs)

    recording._records_arguments = True
    cls.__init__ = recording


def arguments_of(obj) -> dict | None:
    """The arguments `obj` was made with, or None for an object that kept none."""
    return obj.__dict__.get("_arguments") if hasattr(obj, "__dict__") else None
