"""Loads a script of tools/oracle (not a package) as a module, for its tests."""
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load(name: str):
    # a script finds the modules beside it (its folder is first on its path when it runs)
    folder = str(ROOT / "tools" / "oracle")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / "oracle" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
