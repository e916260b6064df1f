"""The CuPy backend's kernels: the shared array-API table (runtime/kernels.py) on
`array_api_compat.cupy`, the NumPy-like override table (runtime/strided_kernels.py) on `cupy`,
and the host fallbacks.

Nothing here imports CuPy until `make_backend(cupy)` runs, so the same composition also runs
with `numpy` as the module: that is how the conformance tests check it on machines without a
GPU (`make_backend(numpy, "xp_numpy")`).
"""
from __future__ import annotations

import numpy as np

from .backend import Backend, with_host_fallbacks
from .blocked_kernels import NAMESPACE
from .kernels import bind_kernels, namespace
from .strided_kernels import bind_overrides


def _cupy_erf(x):
    """CuPy's erf, in the input's dtype (for float16 it computes and returns float64)."""
    import cupyx.scipy.special  # imported when an erf first runs on the GPU

    out = cupyx.scipy.special.erf(x)
    return out.astype(x.dtype) if out.dtype != x.dtype and x.dtype.kind == "f" else out


def array_namespace(module):
    """The array-API namespace of `module` (NumPy's main namespace is one), with `erf`."""
    if module is np:
        return NAMESPACE
    import array_api_compat.cupy as xp

    return namespace(xp, erf=_cupy_erf)


def make_backend(module, name: str = "cupy", device: str = "GPU") -> Backend:
    """A backend running this composition on `module` (`cupy`, or `numpy` in tests)."""
    to_host = getattr(module, "asnumpy", np.asarray)
    kernels = {**bind_kernels(array_namespace(module)), **bind_overrides(module)}
    with_host_fallbacks(kernels, to_host, module.asarray)
    return Backend(name, module, kernels, to_host=to_host, from_host=module.asarray,
                   device=device)
