"""MindSpore's wording for a Tensor method call that none of the method's overloads takes (its
functional_overload.cc), from the valid callings recorded from MindSpore (method_overloads.py).

Each calling is matched as MindSpore matches it: the number of arguments (a calling "fits by
count" when the call gives no more arguments than it has parameters and at least its
positional ones), then the keywords, then the positional arguments' types. When exactly one of
several callings fits by count, its own error is the message:

    x.max(0, 1, initial=None)  ->  max(): argument 'keepdims' (position 2) must be bool, not int.

Otherwise every calling is listed, and under each that fits by count, the keyword it does not
know or the argument types with a line under those from the first that failed:

    x.max(1, [1])   ->   Failed calling max with "max(int, list<int>)".
                         The valid calling should be:
                         "Tensor.max()"
                         "Tensor.max(dim=<int>, keepdim=<bool>)"
                             match failed because invalid types: (int, list<int>)
                                                                       ~~~~~~~~~~~
                         ...
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from . import dtype as dt

_INVALID_TYPES = "    match failed because invalid types: ("
# MindSpore's names for a parameter's type (its op definition's) and an argument's
_EXPECTED_NAMES = {"int": "int", "bool": "bool", "float": "float", "number": "Number",
                   "Tensor": "Tensor", "Tuple": "tuple of int", "List": "list of int",
                   "str": "str", "None": "None", "mstype": "TypeId", "any": "Any"}


@dataclass
class _Match:
    fits_count: bool
    message: str | None = None  # why the calling does not take the call
    keyword: bool = False  # the failure is an unknown keyword
    too_many: bool = False  # the failure is more positional arguments than it has
    first_failed: int | None = None  # the failing positional argument, self counting as 0


def overload_message(name: str, callings, args: tuple, kwargs: dict) -> str:
    matches = [_match(name, calling, args, kwargs) for calling in callings]
    fitting = [i for i, m in enumerate(matches) if m.fits_count]
    if len(callings) > 1 and len(fitting) == 1 and matches[fitting[0]].message is not None:
        return matches[fitting[0]].message
    described = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}"
                                                 for k, v in kwargs.items()]
    lines = [f'Failed calling {name} with "{name}({", ".join(described)})".',
             "The valid calling should be:"]
    keyword = any(m.keyword for m in matches)
    # (one position for all callings: MindSpore keeps the last one a calling failed at)
    first_failed = next((m.first_failed for m in reversed(matches)
                         if m.first_failed is not None), 0)
    for i, calling in enumerate(callings):
        lines.append(f'"{calling}"')
        if i not in fitting or not described:
            continue
        if keyword:
            if matches[i].message is not None:
                lines.append(f"\t{matches[i].message}")
            continue
        guide = " " * len(_INVALID_TYPES) + "".join(
            (" " if k + 1 < first_failed else "~") * (len(d) + 2)
            for k, d in enumerate(described))
        lines += [f"{_INVALID_TYPES}{', '.join(described)})", guide]
    return "\n".join(lines)


def refuses_scalars(callings, args: tuple, kwargs: dict) -> bool:
    """Whether no calling that could take the call's arguments (by position and keyword name;
    the recorded callings do not say which parameters have defaults) takes its Python numbers,
    strings and Nones. Tensors and sequences are left to the method, and so is a call no calling
    could take (sizes given one by one: MindSpore's `*shape`)."""
    takers = [m for m in (_match("", c, args, kwargs, scalars_only=True) for c in callings)
              if not m.keyword and not m.too_many]
    return bool(takers) and all(m.message is not None for m in takers)


def _match(name: str, calling: str, args: tuple, kwargs: dict,
           scalars_only: bool = False) -> _Match:
    """How `calling` takes the call, checked in MindSpore's order (with `scalars_only`, the
    types of Python scalars, strings and None only)."""
    fits = (lambda value, tags: not _is_scalar(value) or any(fits_tag(value, t) for t in tags)
            ) if scalars_only else (lambda value, tags: any(fits_tag(value, t) for t in tags))
    positional, keywords = _parameters(calling)
    params = positional + keywords
    names = [p for p, _ in params]
    given = len(args) + len(kwargs)
    found = _Match(fits_count=len(params) - len(keywords) <= given <= len(params))
    if len(args) > len(positional):
        was = "were" if given + 1 > 2 else "was"
        found.message = (f"{name}() takes {len(positional)} positional arguments but {given} "
                         f"{was} given.")
        found.too_many = True
        return found
    unknown = next((key for key in kwargs if key not in names), None)
    if unknown is not None:  # (before any type: MindSpore converts some types we cannot see)
        found.message = f"match failed because incorrect keyword name: {unknown}"
        found.keyword = True
        return found
    for key, value in kwargs.items():
        index = names.index(key)
        if index < len(args):
            found.message = (f"Mismatch: Primitive[{name}] got multiple values for argument "
                             f"'{key}'.")
            return found
        tags = params[index][1]
        if not fits(value, tags):
            found.message = (f"{name}(): argument '{key}' must be {_expected(tags)} but got "
                             f"{_given(value)}")
            return found
    for i, value in enumerate(args):
        pname, tags = positional[i]
        if not fits(value, tags):
            found.message = (f"{name}(): argument '{pname}' (position {i + 1}) must be "
                             f"{_expected(tags)}, not {_given(value)}.")
            found.first_failed = i + 1
            return found
    return found


def _is_scalar(value) -> bool:
    return value is None or isinstance(value, (bool, numbers.Number, str, np.generic))


def _parameters(calling: str) -> tuple[list, list]:
    """The positional-or-keyword and keyword-only parameters of a recorded calling, each
    (name, [type tags])."""
    inner = calling[calling.index("(") + 1:calling.rindex(")")]
    positional, keywords, depth, current = [], [], 0, ""
    target = positional
    for char in inner + ",":
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
        if char == "," and depth == 0:
            item = current.strip()
            current = ""
            if item == "*":
                target = keywords
            elif item:
                pname, _, tags = item.partition("=")
                target.append((pname, tags.strip("<>").split(",") if tags else ["any"]))
            continue
        current += char
    return positional, keywords


def _expected(tags) -> str:
    return _EXPECTED_NAMES.get(tags[0], tags[0])


def _given(value) -> str:
    """An argument's type as MindSpore's per-argument errors write it."""
    if isinstance(value, (tuple, list)):
        return f"{type(value).__name__} of Any"
    return _type_name(value)


def _type_name(value) -> str:
    """A value's type as MindSpore's overload errors write it."""
    if hasattr(value, "aval") and hasattr(value, "shape"):  # a Tensor or a graph value
        return "Tensor"
    if value is None:
        return "None"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_type_name(v) for v in value)
        return f"{type(value).__name__}<{inner}>"
    return {str: "string"}.get(type(value), type(value).__name__)


# ------------------------------------------------------------------ a value's fit to a type tag
def is_tensor(value) -> bool:
    """A Tensor or a graph value (what has the Tensor methods)."""
    return hasattr(value, "aval") and hasattr(value, "shape") and not isinstance(value, type)


def _is_scalar_tensor(value) -> bool:
    """A graph value standing for a Python scalar (a 0-d tracer): it fits the scalar types."""
    return is_tensor(value) and value.aval.ndim == 0 and type(value).__name__ in (
        "Tracer", "RuntimeScalar")


def _is_sequence_tensor(value) -> bool:
    """A graph value standing for a tuple of ints (a `mutable` tuple passed to the graph: a
    1-D integer tracer): it fits the tuple and list types."""
    return is_tensor(value) and value.aval.ndim == 1 and value.aval.dtype.is_int and \
        type(value).__name__ == "Tracer"


def fits_tag(value, tag: str) -> bool:
    """Whether `value` has the type a recorded calling writes `<tag>`."""
    if tag == "any":
        return True
    if tag in ("Tuple", "List") and _is_sequence_tensor(value):
        return True
    if tag == "Tensor":
        return is_tensor(value)
    if tag == "None":
        return value is None
    if tag == "Tuple":
        return isinstance(value, tuple)
    if tag == "List":
        return isinstance(value, list)
    if tag == "str":
        return isinstance(value, str)
    if tag == "mstype":
        return isinstance(value, dt.DType) or (isinstance(value, type) and
                                                issubclass(value, np.generic))
    if _is_scalar_tensor(value):
        return tag in ("int", "float", "bool", "number")
    if tag == "bool":
        return isinstance(value, (bool, np.bool_))
    if tag == "int":
        return isinstance(value, (numbers.Integral, np.integer))
    if tag == "float":
        return isinstance(value, (numbers.Real, np.floating)) and not isinstance(value, bool)
    if tag == "number":
        return isinstance(value, (numbers.Number, np.number, np.bool_))
    return False
