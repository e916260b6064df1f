"""Loads a script of tools/oracle (not a package) as a module, for its tests."""
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load(name: str):
    # a script imports its neighbours (program_harness.py its synthetic data) as a program
    # started from that folder does
    if str(ROOT / "tools" / "oracle") not in sys.path:
        sys.path.insert(0, str(ROOT / "tools" / "oracle"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / "oracle" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
