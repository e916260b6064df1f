"""`mindspore.Symbol` (also `mindspore.common.symbol` and `mindspore.graph.symbol`): what a
dimension of unknown size is known to be, for `Tensor(shape=(None, s1), dtype=...)`, the
input signature `Cell.set_inputs` takes. cellgraph compiles such a dimension as unknown (-1),
like `None`; the symbol's facts (range, divisor, unique) are kept and read back."""
from __future__ import annotations

__all__ = ["Symbol"]


class Symbol:
    """A dimension of size `divisor * N + remainder` (N >= 1) in [min, max]; `unique`: every
    dimension given this symbol has one size."""

    _is_shape_symbol = True  # what Tensor(shape=...) looks for: an unknown size

    def __init__(self, max=0, min=1, divisor=1, remainder=0, unique=False, **kwargs):
        if kwargs:
            raise TypeError(f"For 'Symbol', unexpected arguments {sorted(kwargs)}")
        for name, value in (("max", max), ("min", min), ("divisor", divisor),
                            ("remainder", remainder)):
            if not isinstance(value, int):
                raise TypeError(f"For 'Symbol', the argument '{name}' must be int, but got "
                                f"{type(value)}")
        if not isinstance(unique, bool):
            raise TypeError(f"For 'Symbol', the argument 'unique' must be bool, but got "
                            f"{type(unique)}")
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got "
                             f"{divisor}")
        if remainder < 0 or remainder >= divisor:
            raise ValueError(f"For 'Symbol', the 'remainder' value should be in the range "
                             f"'[0, {divisor})', but got {remainder}")
        self.max, self.min, self.divisor = max, min, divisor
        self.remainder, self.unique = remainder, unique
        self.id = id(self)

    def __str__(self):
        return str(self.to_dict())

    def to_dict(self) -> dict:
        """The facts that say more than "any size": MindSpore's form of the symbol."""
        facts = {}
        if self.max > self.min:
            facts["max"] = self.max
        if self.min > self.divisor + self.remainder:  # d * N + r with N >= 1 says the rest
            facts["min"] = self.min
        if self.divisor != 1:
            facts["divisor"] = self.divisor
        if self.remainder != 0:
            facts["remainder"] = self.remainder
        if self.unique:
            facts["id"] = self.id
        return facts
