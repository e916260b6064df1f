"""Every dataset test leaves the dataset seed as it found it."""
import pytest

import cellgraph.dataset as ds


@pytest.fixture(autouse=True)
def keep_seed():
    seed = ds.config.get_seed()
    yield
    ds.config.set_seed(seed)
