"""The base of the distributions of z = (x - loc) / scale (Cauchy, Logistic)."""
from __future__ import annotations

from . import Distribution, parameter_property
from ._checks import greater_zero


class LocationScale(Distribution):
    """Parameters `loc` and `scale` (> 0, checked as MindSpore checks it); `_z` standardises a
    value with the given or the distribution's own parameters."""

    param_names = ("loc", "scale")
    loc, scale = parameter_property("loc"), parameter_property("scale")

    def __init__(self, loc, scale, seed, dtype, name):
        super().__init__(seed, dtype, name, {"param_dict": {"loc": loc, "scale": scale}})
        greater_zero(scale, "scale")

    def _z(self, value, loc, scale):
        loc, scale = self._params((loc, scale))
        return (value - loc) / scale, scale
