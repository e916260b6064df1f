"""The programs run as their authors wrote them; the suite's fixture already resets graph mode.
Each test restores the global seed so the programs do not disturb each other."""
import pytest

import cellgraph as ms


@pytest.fixture(autouse=True)
def _fresh_seed():
    ms.set_seed(0)
    yield
    ms.set_seed(0)
