"""The seed documents' examples, run as MindSpore programs with `mindspore` -> `cellgraph`."""
import os
import subprocess
import sys

import pytest

SHARED = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared")
CHECKER = os.path.join(SHARED, "tools", "check_seed_examples.py")
EXAMPLES = os.path.join(SHARED, "seed_examples")
NAMES = sorted(n[:-3] for n in os.listdir(EXAMPLES) if n.endswith(".py")) if os.path.isdir(
    EXAMPLES) else []


@pytest.mark.skipif(not os.path.exists(CHECKER), reason="../shared is not beside the repo")
@pytest.mark.parametrize("name", NAMES)
def test_seed_example(name):
    proc = subprocess.run([sys.executable, CHECKER, "--python", sys.executable, "-k", name],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
