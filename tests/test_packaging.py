"""Every folder of Python files in the cellgraph package is a package (has `__init__.py`), so
pyproject.toml's package discovery (`cellgraph*`) puts all of it in a wheel."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_source_folder_is_a_package():
    folders = {p.parent for p in (ROOT / "cellgraph").rglob("*.py")
               if "__pycache__" not in p.parts}
    missing = sorted(str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").exists())
    assert not missing, f"add __init__.py to: {missing}"


def test_discovery_finds_every_package():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '[tool.setuptools.packages.find]\ninclude = ["cellgraph*"]' in text
