"""The argument builders and references of tools/oracle/make_gen_ops_fixtures.py's cases (run
under MindSpore 2.10)."""
import mindspore as ms
import numpy as np


def t(values, dtype="float32"):
    """A Tensor argument (a complex one's imaginary parts apart: JSON has no complex)."""
    array = np.asarray(values, dtype)
    if array.dtype.kind == "c":
        return {"tensor": array.real.tolist(), "imag": array.imag.tolist(), "dtype": dtype}
    return {"tensor": array.tolist(), "dtype": dtype}


def dt(name):
    """A dtype argument (mindspore.int32)."""
    return {"dtype": name}


def tup(*items):
    """A tuple argument (JSON has lists only)."""
    return {"tuple": list(items)}


def keywords_at_end(name, *keywords):
    """A reference: `ops.name` with the trailing arguments given as `keywords`."""
    def call(*args):
        split = len(args) - len(keywords)
        return getattr(ms.ops, name)(*args[:split], **dict(zip(keywords, args[split:])))

    call.__doc__ = f"ops.{name}"
    return call


def reference(doc, function):
    """A reference written out: `function` of the call arguments, described by `doc`."""
    function.__doc__ = doc
    return function


def as_int64(name, *, output=None):
    """A reference: `ops.name`, its result (or its `output`-th result) as int64, the dtype
    MindSpore's infer function gives the class (ops/infer/ops_func_impl)."""
    def call(*args):
        out = getattr(ms.ops, name)(*args)
        if output is None:
            return out.astype(ms.int64)
        return tuple(o.astype(ms.int64) if i == output else o for i, o in enumerate(out))

    call.__doc__ = f"ops.{name} as int64"
    return call
