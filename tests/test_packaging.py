"""Every package folder in the source tree is listed in pyproject.toml, so a wheel install
carries all of it (the top-level ops/, compiler/ and runtime/ folders install under cellgraph.)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAPPED = {"cellgraph": "cellgraph", "ops": "cellgraph.ops", "compiler": "cellgraph.compiler",
          "runtime": "cellgraph.runtime"}


def _listed_packages() -> set:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = re.search(r"^packages\s*=\s*\[(.*?)\]", text, re.DOTALL | re.MULTILINE).group(1)
    return set(re.findall(r'"([^"]+)"', block))


def test_every_package_folder_is_listed():
    found = set()
    for folder, name in MAPPED.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name,) + rel))
    missing = found - _listed_packages()
    assert not missing, f"add these to [tool.setuptools] packages in pyproject.toml: {missing}"
