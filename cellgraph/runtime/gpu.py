"""Finding a GPU backend: PyTorch, CuPy or JAX (in that order), when installed and a device is
visible."""
from __future__ import annotations


def find_gpu_backend() -> tuple[str | None, str]:
    """(backend name, "") when one is usable, else (None, what is missing)."""
    reasons = []
    try:
        import torch

        if torch.cuda.is_available() and _loads("torch_cuda", reasons):
            return "torch_cuda", ""
        if not torch.cuda.is_available():
            reasons.append("PyTorch is installed but sees no CUDA device")
    except ImportError:
        reasons.append("PyTorch is not installed")
    except Exception as e:  # noqa: BLE001 - a broken install (no CUDA libraries) fails here
        reasons.append(f"PyTorch cannot be imported ({type(e).__name__})")
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            if _loads("cupy", reasons):
                return "cupy", ""
        else:
            reasons.append("CuPy sees no CUDA device")
    except ImportError:
        reasons.append("CuPy is not installed")
    except Exception as e:  # noqa: BLE001 - CuPy's own errors when no driver is present
        reasons.append(f"CuPy cannot reach a device ({type(e).__name__})")
    if _jax_sees_a_gpu(reasons):
        return "jax", ""
    return None, "no GPU backend is available (" + "; ".join(reasons) + ")"


def _jax_sees_a_gpu(reasons: list) -> bool:
    """Whether JAX's default device is a GPU (the jax backend runs there); else say why not."""
    try:
        import jax

        if jax.devices()[0].platform == "gpu":
            return _loads("jax", reasons)
        reasons.append("JAX sees no GPU")
    except ImportError:
        reasons.append("JAX is not installed")
    except Exception as e:  # noqa: BLE001 - a broken install (no CUDA plugin) fails here
        reasons.append(f"JAX cannot be initialised ({type(e).__name__})")
    return False


def _loads(name: str, reasons: list) -> bool:
    """Whether backend `name` loads (its other packages, such as array-api-compat, are there);
    else say why not."""
    from .backend import get_backend

    try:
        get_backend(name)
        return True
    except (ImportError, KeyError) as e:
        reasons.append(f"the {name} backend cannot load ({e})")
        return False
