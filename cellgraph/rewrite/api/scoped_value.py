"""`ScopedValue`: a value a node reads or writes, with the scope it is looked up in
(`self.conv` is the name `conv` in the scope `self`), as MindSpore's rewrite keeps it."""
from __future__ import annotations

from enum import Enum


class ValueType(Enum):
    """What a ScopedValue holds: a constant, a container of ScopedValues, a name, another
    object, or an expression rewrite does not take apart."""

    ConstantValue = 0
    TupleValue = 20
    ListValue = 21
    DictValue = 22
    NamingValue = 40
    CustomObjValue = 41
    UnsupportedValue = 50


_CONSTANT_TYPES = (type(None), int, float, str, bool)


def _check_type(owner: str, name: str, value, types) -> None:
    if not isinstance(value, types):
        wanted = " or ".join(t.__name__ for t in (types if isinstance(types, tuple) else (types,)))
        raise TypeError(f"For '{owner}', the type of '{name}' should be {wanted}, "
                        f"but got {type(value).__name__}.")


class ScopedValue:
    """A value with its scope: the target of an assignment, the callee of a call, or an
    argument."""

    def __init__(self, arg_type: ValueType, scope: str = "", value=None):
        _check_type("ScopedValue", "arg_type", arg_type, ValueType)
        _check_type("ScopedValue", "scope", scope, str)
        self.type = arg_type
        self.scope = scope
        self.value = value

    @classmethod
    def create_variable_value(cls, value) -> ScopedValue:
        """A ScopedValue for a Python value: a constant, a tuple, list or dict of them, or any
        other object (CustomObjValue)."""
        if isinstance(value, _CONSTANT_TYPES):
            return cls(ValueType.ConstantValue, "", value)
        if isinstance(value, tuple):
            return cls(ValueType.TupleValue, "", tuple(cls.create_variable_value(v) for v in value))
        if isinstance(value, list):
            return cls(ValueType.ListValue, "", [cls.create_variable_value(v) for v in value])
        if isinstance(value, dict):
            return cls(ValueType.DictValue, "", {cls.create_variable_value(k):
                                                 cls.create_variable_value(v)
                                                 for k, v in value.items()})
        return cls(ValueType.CustomObjValue, "", value)

    @classmethod
    def create_naming_value(cls, name: str, scope: str = "") -> ScopedValue:
        """A reference to the variable `name` (in `scope`, e.g. "self")."""
        _check_type("ScopedValue", "name", name, str)
        _check_type("ScopedValue", "scope", scope, str)
        return cls(ValueType.NamingValue, scope, name)

    @staticmethod
    def create_name_values(names, scopes=None) -> list:
        """Naming values for `names`, each in the scope at the same index of `scopes`."""
        _check_names("names", names)
        if scopes is not None:
            _check_names("scopes", scopes)
            if len(names) != len(scopes):
                raise ValueError("Length of names should be equal to length of scopes")
        return [ScopedValue.create_naming_value(name, scopes[i] if scopes is not None else "")
                for i, name in enumerate(names)]

    def __str__(self):
        if self.type == ValueType.ConstantValue:
            return str(self.value)
        if self.type == ValueType.NamingValue:
            return f"{self.scope}.{self.value}" if self.scope else str(self.value)
        if self.type == ValueType.CustomObjValue:
            return f"CustomObj: {self.value}"
        return f"Illegal ValueType: {self.type}"

    def __repr__(self):
        return str(self)

    def __eq__(self, other):
        if self is other:
            return True
        if not isinstance(other, ScopedValue):
            return False
        return self.type == other.type and self.scope == other.scope and self.value == other.value

    def __hash__(self):
        return hash((self.type, self.scope, _hashable(self.value)))


def _hashable(value):
    if isinstance(value, (list, dict)):
        return id(value)
    try:
        hash(value)
    except TypeError:
        return id(value)
    return value


def _check_names(what: str, names) -> None:
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise TypeError(f"For 'ScopedValue', '{what}' should be a list or tuple of str, "
                        f"but got {names!r}.")
