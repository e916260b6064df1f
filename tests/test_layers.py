"""The layers hold at run time: importing the op core loads none of the API layer, and a plain
`import cellgraph` loads neither (the rest loads on first use). Checked in fresh interpreters,
since this process has loaded everything already."""
import json
import subprocess
import sys

import pytest

API = ("cellgraph.ops", "cellgraph.nn", "cellgraph.train", "cellgraph.dataset", "cellgraph.mint",
       "cellgraph.numpy", "cellgraph.amp", "cellgraph.common", "cellgraph.experimental",
       "cellgraph.communication", "cellgraph.parallel", "cellgraph.profiler",
       "cellgraph.mindrecord", "cellgraph.boost")


def _loaded_after(code: str) -> set:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\n"
                          "print(json.dumps(sorted(m for m in sys.modules "
                          "if m.startswith('cellgraph'))))"],
                         capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.splitlines()[-1]))


def _api(modules: set) -> list:
    return sorted(m for m in modules if m.startswith(API) and (m in API or
                                                                m.split(".")[1] in
                                                                {a.split(".")[1] for a in API}))


@pytest.mark.parametrize("core", ["cellgraph.primitives", "cellgraph.compiler.pipeline",
                                  "cellgraph.runtime.executor", "cellgraph.runtime.tensor"])
def test_importing_the_core_loads_no_api_module(core):
    assert _api(_loaded_after(f"import {core}")) == []


def test_plain_import_loads_no_api_module():
    loaded = _loaded_after("import cellgraph")
    assert _api(loaded) == []
    assert "cellgraph.compiler.pipeline" not in loaded


def test_a_first_gradient_loads_no_training_or_data_modules():
    loaded = _loaded_after("import numpy as np, cellgraph as ms\n"
                           "ms.grad(lambda x: ms.ops.sum(ms.ops.tanh(x) * x))"
                           "(ms.Tensor(np.ones(3, np.float32)))")
    heavy = ("cellgraph.train", "cellgraph.dataset", "cellgraph.amp", "cellgraph.mindrecord",
             "cellgraph.profiler", "cellgraph.experimental", "cellgraph.boost")
    assert [m for m in loaded if m.startswith(heavy)] == []


def test_lazy_names_resolve_to_their_definitions():
    import cellgraph
    from cellgraph.autograd import grad
    from cellgraph.runtime.tensor import Tensor

    assert cellgraph.grad is grad and cellgraph.Tensor is Tensor
    assert cellgraph.from_numpy is Tensor.from_numpy
    assert set(cellgraph.__all__) <= set(dir(cellgraph))
    for name in cellgraph.__all__:
        getattr(cellgraph, name)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        cellgraph.no_such_name  # noqa: B018


def test_import_linter_contracts_hold():
    """The contracts in pyproject.toml, which count the imports made inside functions too."""
    import shutil
    from pathlib import Path

    lint = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(lint).exists():
        pytest.skip("import-linter is not installed (it comes with the dev extra)")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([lint], cwd=root, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
