"""The NumPy backend, the reference: the shared kernel table (runtime/kernels.py) on NumPy's
main namespace, which follows the array API from NumPy 2, plus the override table of kernels
that write into arrays (runtime/strided_kernels.py) and the host-only ones (`print`, and
`uniform_real` in runtime/rng.py)."""
from __future__ import annotations

import math

import numpy as np

from . import collective_kernels  # noqa: F401  (the collectives join the kernel table)
from .backend import Backend, register_backend
from .kernels import bind_kernels, namespace
from .strided_kernels import bind_overrides

_erf_f64 = []  # filled on first use: scipy's erf is imported only when an erf runs


def numpy_erf(x):
    """erf in the dtype of `x` (0-d arrays included): scipy.special.erf when scipy is installed,
    else the math module's, element by element."""
    if not _erf_f64:
        try:
            from scipy.special import erf
        except ImportError:  # scipy is optional
            erf = np.frompyfunc(math.erf, 1, 1)
        _erf_f64.append(erf)
    x = np.asarray(x)
    return np.asarray(_erf_f64[0](x), dtype=np.float64).astype(x.dtype, copy=False)


NAMESPACE = namespace(np, erf=numpy_erf)
numpy_backend = Backend("numpy", np, {**bind_kernels(NAMESPACE), **bind_overrides(np)},
                        device="CPU")
K = numpy_backend.kernels


@numpy_backend.register("print")
def _print(*values, template, sep=" ", end="\n"):
    from .tensor import format_print

    parts = [format_print(np.asarray(values[t])) if isinstance(t, int) else t for t in template]
    print(*parts, sep=sep, end=end)
    return ()


register_backend(numpy_backend)
