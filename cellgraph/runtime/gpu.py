"""Finding a GPU backend: PyTorch, CuPy or JAX (in that order), when installed and a device is
visible."""
from __future__ import annotations


def find_gpu_backend() -> tuple[str | None, str]:
    """(backend name, "") when one is usable, else (None, what is missing)."""
    reasons = []
    try:
        import torch

        if torch.cuda.is_available():
            return "torch_cuda", ""
        reasons.append("PyTorch is installed but sees no CUDA device")
    except ImportError:
        reasons.append("PyTorch is not installed")
    except Exception as e:  # noqa: BLE001 - a broken install (no CUDA libraries) fails here
        reasons.append(f"PyTorch cannot be imported ({type(e).__name__})")
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            return "cupy", ""
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
            return True
        reasons.append("JAX sees no GPU")
    except ImportError:
        reasons.append("JAX is not installed")
    except Exception as e:  # noqa: BLE001 - a broken install (no CUDA plugin) fails here
        reasons.append(f"JAX cannot be initialised ({type(e).__name__})")
    return False
