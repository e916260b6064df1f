"""The ndarray methods NumPy's functions call on what `x.asnumpy()` gives in construct.

`np.max(a, axis=1)` on an object that is not an ndarray calls `a.max(axis=1, out=None)`;
`np.sum`, `np.mean`, `np.std` add `dtype=None`, `np.argmax` goes through `a.argmax(axis=1,
out=None)`. MindSpore runs these on the host array; here the array is a graph value, so each
method takes NumPy's extra keywords and runs the Tensor method of the same name.
"""
from __future__ import annotations

from cellgraph.primitives.errors import DTypeError

# name -> whether NumPy passes `dtype` to it
NUMPY_METHODS = {"max": False, "min": False, "sum": True, "mean": True,
                 "std": True, "var": True, "any": False, "all": False, "argmax": False,
                 "argmin": False, "cumsum": True}


def numpy_method(name: str, takes_dtype: bool):
    """The method `name` with NumPy's signature over the Tensor method `name`."""

    def method(self, *args, out=None, **kwargs):
        if out is not None:
            raise DTypeError(f"{name}(): an array made by asnumpy() in construct cannot write "
                             f"into 'out'; use the value {name}() returns")
        dtype = kwargs.pop("dtype", None) if takes_dtype else None
        if dtype is None:
            return getattr(super(NumpyArrayMethods, self), name)(*args, **kwargs)
        return getattr(self.astype(dtype), name)(*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"ndarray.{name} as NumPy's np.{name} calls it."
    return method


class NumpyArrayMethods:
    """Mixin placed before the Tracer in HostArray's bases."""

    __slots__ = ()

    max = numpy_method("max", NUMPY_METHODS["max"])
    min = numpy_method("min", NUMPY_METHODS["min"])
    sum = numpy_method("sum", NUMPY_METHODS["sum"])
    mean = numpy_method("mean", NUMPY_METHODS["mean"])
    std = numpy_method("std", NUMPY_METHODS["std"])
    var = numpy_method("var", NUMPY_METHODS["var"])
    any = numpy_method("any", NUMPY_METHODS["any"])
    all = numpy_method("all", NUMPY_METHODS["all"])
    argmax = numpy_method("argmax", NUMPY_METHODS["argmax"])
    argmin = numpy_method("argmin", NUMPY_METHODS["argmin"])
    cumsum = numpy_method("cumsum", NUMPY_METHODS["cumsum"])
