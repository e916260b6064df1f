"""Set-up shared by the fused-kernel tests."""
import pytest

import cellgraph as ms
from cellgraph.runtime import fused_kernels


@pytest.fixture
def kernel_cache(tmp_path, monkeypatch):
    """Fusion on, every call through the kernel, kernels compiled afresh into an empty cache
    folder (the process's compiled kernels set aside, so a kernel another test compiled is
    written here again)."""
    monkeypatch.setenv("CELLGRAPH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(fused_kernels, "ENABLED", True)
    monkeypatch.setattr(fused_kernels, "COMPILE_AFTER", 0)  # every call runs the kernel
    monkeypatch.setattr(fused_kernels, "_kernels", {})
    ms.set_context(mode=ms.GRAPH_MODE)
    return tmp_path / "cache"
