"""Without the onnx package, export names the extra to install and writes nothing."""
import sys

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn


def test_export_names_the_extra_when_onnx_is_missing(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnx", None)  # `import onnx` raises ImportError
    with pytest.raises(NotImplementedError, match=r"cellgraph\[onnx\]"):
        ms.export(nn.Dense(2, 2), Tensor(np.ones((1, 2), np.float32)),
                  file_name=str(tmp_path / "m"), file_format="ONNX")
    assert not list(tmp_path.iterdir())
