"""dataset.config's shared-memory switch (deprecated in MindSpore 2.8): on by default, a bool
only, as in MindSpore 2.10."""
import pytest

from cellgraph import dataset as ds


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_shared_mem_flag():
    assert ds.config.get_enable_shared_mem() is True
    ds.config.set_enable_shared_mem(False)
    try:
        assert ds.config.get_enable_shared_mem() is False
        with pytest.raises(TypeError, match="enable must be of type bool."):
            ds.config.set_enable_shared_mem(0)
    finally:
        ds.config.set_enable_shared_mem(True)


def test_shared_mem_is_deprecated():
    with pytest.warns(DeprecationWarning, match="deprecated from version 2.8.0"):
        ds.config.get_enable_shared_mem()
