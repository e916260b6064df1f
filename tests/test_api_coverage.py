"""How much of MindSpore's public API, weighted by how often real code uses each name, resolves
under `cellgraph` (../shared/mindspore_api_usage.tsv). The figure and the most-used missing
names are printed on every run; the test checks the measurement, not a threshold."""
from __future__ import annotations

import contextlib
import importlib
import io
from pathlib import Path

import pytest

USAGE = Path(__file__).resolve().parents[2] / "shared" / "mindspore_api_usage.tsv"


def read_usage(path: Path) -> list[tuple[int, str]]:
    rows = []
    for line in path.read_text().splitlines():
        if line.startswith(("#", "files\t")) or not line.strip():
            continue
        count, name = line.split("\t")
        rows.append((int(count), name))
    return rows


class Resolver:
    """`mindspore.a.b.C` -> does `cellgraph.a.b` import and have `C` (or import as a module)?"""

    def __init__(self):
        self.modules: dict = {}

    def load(self, name: str):
        if name not in self.modules:
            try:
                with contextlib.redirect_stdout(io.StringIO()), \
                        contextlib.redirect_stderr(io.StringIO()):
                    self.modules[name] = importlib.import_module(name)
            except (ImportError, AttributeError, TypeError, ValueError):  # what is measured
                self.modules[name] = None
        return self.modules[name]

    def present(self, ms_name: str) -> bool:
        path = "cellgraph" + ms_name[len("mindspore"):]
        module, _, attr = path.rpartition(".")
        loaded = self.load(module)
        return (loaded is not None and hasattr(loaded, attr)) or self.load(path) is not None


@pytest.mark.filterwarnings("ignore")
def test_report_api_coverage(capsys):
    if not USAGE.exists():
        pytest.skip(f"{USAGE} is not available")
    rows = read_usage(USAGE)
    resolver = Resolver()
    have = [resolver.present(name) for _, name in rows]
    total = sum(count for count, _ in rows)
    covered = sum(count for (count, _), ok in zip(rows, have) if ok)
    missing = [(count, name) for (count, name), ok in zip(rows, have) if not ok]
    with capsys.disabled():
        print(f"\nMindSpore API coverage: {100 * covered / total:.1f}% weighted by use; "
              f"{sum(have)}/{len(rows)} names; top 300: {sum(have[:300])}/300")
        print("most-used missing: " + ", ".join(f"{name} ({count})"
                                                  for count, name in missing[:15]))
    # The measurement itself must be sound: the core names resolve, a made-up one does not.
    for name in ("mindspore.nn.Cell", "mindspore.ops.matmul", "mindspore.Tensor",
                 "mindspore.common.dtype.float32", "mindspore.ops.composite.HyperMap"):
        assert resolver.present(name), name
    assert not resolver.present("mindspore.nn.NoSuchLayerAnywhere")
    assert len(rows) > 1000 and 0 < covered <= total
