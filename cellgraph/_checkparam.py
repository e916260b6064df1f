"""`mindspore._checkparam`: the argument checks MindSpore's classes run on their arguments, which
programs written against MindSpore import (`from mindspore import _checkparam as validator`)
to check their own: each returns the value it was given, raises TypeError for a value of the
wrong type (a bool is not an int here) and ValueError for one out of range, with MindSpore's
messages. The relations are named as MindSpore's (EQ, GT, INC_LEFT, ...)."""
from __future__ import annotations

import functools
import inspect
import math
import re
from collections.abc import Iterable
from itertools import repeat

EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6
INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = 7, 8, 9, 10
IN, NOT_IN = 11, 12

_BINARY = {EQ: ("=", lambda a, b: a == b), NE: ("!=", lambda a, b: a != b),
           LT: ("<", lambda a, b: a < b), LE: ("<=", lambda a, b: a <= b),
           GT: (">", lambda a, b: a > b), GE: (">=", lambda a, b: a >= b),
           IN: ("in", lambda a, b: a in b), NOT_IN: ("not in", lambda a, b: a not in b)}
# (left bracket, right bracket, lower bound included, upper bound included)
_RANGES = {INC_NEITHER: ("(", ")", False, False), INC_LEFT: ("[", ")", True, False),
           INC_RIGHT: ("(", "]", False, True), INC_BOTH: ("[", "]", True, True)}


def _holds(value, bound, rel) -> bool:
    return rel in _BINARY and bool(_BINARY[rel][1](value, bound))


def _in_range(value, lower, upper, rel) -> bool:
    if rel not in _RANGES:
        return False
    _, _, low_in, high_in = _RANGES[rel]
    return (value >= lower if low_in else value > lower) and \
        (value <= upper if high_in else value < upper)


def _subject(arg_name, prim_name) -> str:
    who = f"For '{prim_name}', the " if prim_name else "The "
    return who + (f"'{arg_name}'" if arg_name else "input value")


def _is_number(value, arg_type) -> bool:
    return isinstance(value, arg_type) and not isinstance(value, bool)


def _check_number(arg_value, value, rel, arg_type=int, arg_name=None, prim_name=None):
    """`arg_value` of `arg_type`, finite, and `arg_value rel value`."""
    subject = _subject(arg_name, prim_name)
    if not isinstance(arg_value, arg_type):
        raise TypeError(f"{subject} must be {arg_type.__name__}, but got "
                        f"'{type(arg_value).__name__}'")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{subject} must be a legal value, but got '{arg_value}'.")
    is_bool = isinstance(arg_value, bool)  # an int to isinstance, refused after it as MindSpore
    if is_bool or not _holds(arg_value, value, rel):
        error = TypeError if is_bool else ValueError
        raise error(f"{subject} must be {arg_type.__name__} and must "
                    f"{_BINARY.get(rel, ('',))[0]} {value}, but got '{arg_value}' with type "
                    f"'{type(arg_value).__name__}'.")
    return arg_value


def check_is_number(arg_value, arg_type, arg_name=None, prim_name=None):
    """`arg_value` is a finite `arg_type` (not a bool)."""
    if not _is_number(arg_value, arg_type):
        who = f"For '{prim_name}', the" if prim_name else "The"
        name = f"'{arg_name}'" if arg_name else "input value"
        raise TypeError(f"{who} type of {name} must be '{arg_type.__name__}', but got "
                        f"'{type(arg_value).__name__}'.")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{_subject(arg_name, prim_name)} must be a legal float, but got "
                         f"'{arg_value}'.")
    return arg_value


def check_number_range(arg_value, lower_limit, upper_limit, rel, value_type, arg_name=None,
                       prim_name=None):
    """`arg_value` of `value_type` within the range `rel` names (INC_LEFT: [lower, upper))."""
    subject = _subject(arg_name, prim_name)
    if isinstance(arg_value, bool) or not isinstance(arg_value, value_type):
        raise TypeError(f"{subject} must be '{value_type.__name__}', but got "
                        f"'{type(arg_value).__name__}'.")
    if not _in_range(arg_value, lower_limit, upper_limit, rel):
        left, right = _RANGES.get(rel, ("", "", None, None))[:2]
        raise ValueError(f"{subject} must be in range of {left}{lower_limit}, {upper_limit}"
                         f"{right}, but got {arg_value} with type '{type(arg_value).__name__}'.")
    return arg_value


def check(arg_name, arg_value, value_name, value, rel=EQ, prim_name=None, excp_cls=ValueError):
    """`arg_value rel value`, else `excp_cls`."""
    if not _holds(arg_value, value, rel):
        who = f"For '{prim_name}', the" if prim_name else "The"
        name = f"'{arg_name}'" if " " not in arg_name else arg_name
        raise excp_cls(f"{who} {name} should be {_BINARY.get(rel, ('',))[0]} {value_name}: "
                       f"{value}, but got {arg_value}.")
    return arg_value


def check_int(arg_value, value, rel, arg_name=None, prim_name=None):
    return _check_number(arg_value, value, rel, int, arg_name, prim_name)


def check_is_int(arg_value, arg_name=None, prim_name=None):
    return check_is_number(arg_value, int, arg_name, prim_name)


def check_equal_int(arg_value, value, arg_name=None, prim_name=None):
    return _check_number(arg_value, value, EQ, int, arg_name, prim_name)


def check_positive_int(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, GT, int, arg_name, prim_name)


def check_negative_int(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, LT, int, arg_name, prim_name)


def check_non_positive_int(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, LE, int, arg_name, prim_name)


def check_non_negative_int(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, GE, int, arg_name, prim_name)


def _check_sequence(sequence, bound, rel, arg_type, arg_name, prim_name):
    for index, element in enumerate(sequence):
        _check_number(element, bound, rel, arg_type, f"{arg_name or 'arg_name'}[{index}]",
                      prim_name)
    return sequence


def check_positive_int_sequence(sequence, arg_name=None, prim_name=None):
    return _check_sequence(sequence, 0, GT, int, arg_name, prim_name)


def check_non_negative_int_sequence(sequence, arg_name=None, prim_name=None):
    return _check_sequence(sequence, 0, GE, int, arg_name, prim_name)


def check_positive_float_sequence(sequence, arg_name=None, prim_name=None):
    return _check_sequence(sequence, 0, GT, float, arg_name, prim_name)


def check_float(arg_value, value, rel, arg_name=None, prim_name=None):
    return _check_number(arg_value, value, rel, float, arg_name, prim_name)


def check_is_float(arg_value, arg_name=None, prim_name=None):
    return check_is_number(arg_value, float, arg_name, prim_name)


def check_positive_float(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, GT, float, arg_name, prim_name)


def check_negative_float(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, LT, float, arg_name, prim_name)


def check_non_positive_float(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, LE, float, arg_name, prim_name)


def check_non_negative_float(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, GE, float, arg_name, prim_name)


def check_number(arg_name, arg_value, value, rel, prim_name):
    """`arg_value rel value` (any comparable values), else ValueError."""
    if not _holds(arg_value, value, rel):
        raise ValueError(f"For '{prim_name}', the argument '{arg_name}' must "
                         f"{_BINARY.get(rel, ('',))[0]} {value}, but got {arg_value}.")
    return arg_value


def check_int_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    return check_number_range(arg_value, lower_limit, upper_limit, rel, int, arg_name, prim_name)


def check_float_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    return check_number_range(arg_value, lower_limit, upper_limit, rel, float, arg_name,
                              prim_name)


def check_isinstance(arg_name, arg_value, classes):
    """`arg_value` an instance of `classes`; MindSpore raises ValueError otherwise."""
    if not isinstance(arg_value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got "  # noqa: TRY004
                         f"{arg_value}.")
    return arg_value


def check_bool(arg_value, arg_name=None, prim_name=None):
    if not isinstance(arg_value, bool):
        raise TypeError(f"{_subject(arg_name, prim_name)} must be a bool, but got "
                        f"{type(arg_value).__name__}.")
    return arg_value


def check_string(arg_value, valid_values, arg_name=None, prim_name=None):
    if not (isinstance(arg_value, str) and arg_value in valid_values):
        who = f"For '{prim_name}', the" if prim_name else "The"
        raise ValueError(f"{who} '{arg_name or 'parameter'}' must be str and must be in "
                         f"'{valid_values}', but got '{arg_value}'.")
    return arg_value


_NAME_PATTERN = r"^\w+[0-9a-zA-Z\_\.]*$"  # a name: word characters, then also dots


def check_str_by_regular(target, reg=None, flag=re.ASCII, prim_name=None):
    """True when `target` matches `reg` (by default a name: a word character first, then
    letters, digits, '_' and '.'); ValueError otherwise."""
    reg = _NAME_PATTERN if reg is None else reg
    if re.match(reg, target, flag) is None:
        where = f"For '{prim_name}', the" if prim_name else "The"
        raise ValueError(f"{where} '{target}' is illegal, it must be match regular'{reg}' by "
                         f"flags'{flag}.'")
    return True


def check_value_type(arg_name, arg_value, valid_types, prim_name=None):
    """`arg_value` an instance of one of `valid_types` (a bool only where bool is listed; a
    float given where float is not listed comes back rounded to 6 places, as MindSpore's)."""
    valid_types = tuple(valid_types) if isinstance(valid_types, Iterable) else (valid_types,)

    def refuse():
        names = [getattr(t, "__name__", str(t)) for t in valid_types]
        who = f"For '{prim_name}', the" if prim_name else "The"
        expected = f"one of '{names}'" if len(names) > 1 else f"'{names[0]}'"
        raise TypeError(f"{who} type of '{arg_name}' should be {expected}, but got type "
                        f"'{type(arg_value).__name__}'.")

    if isinstance(arg_value, bool) and bool not in valid_types:
        refuse()
    if isinstance(arg_value, float) and float not in valid_types:
        arg_value = round(arg_value, 6)
    if not isinstance(arg_value, valid_types):
        refuse()
    return arg_value


def check_element_type_of_iterable(arg_name, arg_value, valid_types, prim_name=None):
    """A list or tuple whose elements are all of `valid_types`."""
    check_value_type(arg_name, arg_value, [tuple, list], prim_name)
    names = [getattr(t, "__name__", str(t)) for t in valid_types]
    for element in arg_value:
        if not isinstance(element, tuple(valid_types)):
            who = f"For '{prim_name}', the" if prim_name else "The"
            raise TypeError(f"{who} element of '{arg_name}' should be {names}, but got "
                            f"'{type(element).__name__}'.")
    return arg_value


def _expand_tuple(n_dimensions):
    """An int as a tuple of `n_dimensions` copies; a tuple of that many ints as it is."""

    def convert(m):
        if not isinstance(m, tuple):
            if isinstance(m, int) and not isinstance(m, bool):
                return tuple(repeat(m, n_dimensions))
            raise TypeError(f"When expanding an int number to tuple, input type must be integer "
                            f"or tuple[int], but got {type(m)}")
        if len(m) != n_dimensions:
            raise TypeError(f"When expanding an int number to tuple, input tuple dimension must "
                            f"be {n_dimensions}, but got {m}")
        for i in m:
            if not isinstance(i, int) or isinstance(i, bool):
                raise TypeError(f"When expanding an int number to tuple, the type of element in "
                                f"input tuple must be an integer, but got {type(i)}.")
        return m

    return convert


def _expand_sequence_to_tuple(n_dimensions):
    """As `_expand_tuple`, a list of ints taken too (as a tuple)."""

    def convert(m):
        if not isinstance(m, (tuple, list)):
            if isinstance(m, int) and not isinstance(m, bool):
                return tuple(repeat(m, n_dimensions))
            raise TypeError(f"When expanding an input to tuple, input type must be integer or "
                            f"tuple[int]/list[int], but got {type(m)}")
        if len(m) != n_dimensions:
            raise TypeError(f"When expanding an sequence to tuple, input sequence dimension must "
                            f"be {n_dimensions}, but got {m}")
        for i in m:
            if not isinstance(i, int) or isinstance(i, bool):
                raise TypeError(f"When expanding an sequence to tuple, the type of element in "
                                f"input sequence must be an integer, but got {type(i)}.")
        return tuple(m)

    return convert


twice = _expand_tuple(2)
triple = _expand_tuple(3)
once_sequence = _expand_sequence_to_tuple(1)
twice_sequence = _expand_sequence_to_tuple(2)
triple_sequence = _expand_sequence_to_tuple(3)


def check_input_format(input_param):
    """The data format of an image operation: only "NCHW" is accepted."""
    if input_param == "NCHW":
        return input_param
    raise ValueError(f"The data format must be NCHW, but got {input_param}.")


def args_type_check(*type_args, **type_kwargs):
    """Decorator: each call checks the arguments named in `type_args`/`type_kwargs` (bound to
    the function's parameters as a call would bind them) against those types; None passes."""

    def type_check(func):
        signature = inspect.signature(func)
        expected = signature.bind_partial(*type_args, **type_kwargs).arguments
        var_keyword = next((p.name for p in signature.parameters.values()
                            if p.kind is inspect.Parameter.VAR_KEYWORD), None)
        if var_keyword in expected:  # types of the names **kwargs collects
            expected = expected[var_keyword]

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            given = signature.bind(*args, **kwargs).arguments
            if var_keyword in given:
                given = given[var_keyword]
            for name, value in given.items():
                if name in expected and value is not None and \
                        not isinstance(value, expected[name]):
                    raise TypeError(f"The parameter '{name}' must be {expected[name]}, but got "
                                    f"{type(value)}")
            return func(*args, **kwargs)

        return wrapper

    return type_check
