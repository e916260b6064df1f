"""Dataset debug mode (config.set_debug_mode) and the debug hooks: what MindSpore 2.10 prints
and returns for the same programs (recorded from it)."""
import numpy as np
import pytest

from cellgraph import dataset as ds
from cellgraph.dataset import debug


@pytest.fixture(autouse=True)
def _debug_off():
    saved = dict(ds.config._state)
    yield
    ds.config.set_debug_mode(False)
    ds.config._state.update(saved)


def plus(x):
    return x + 1


def test_flag_and_argument_checks():
    assert ds.config.get_debug_mode() is False
    with pytest.warns(UserWarning):
        ds.config.set_debug_mode(True)
    assert ds.config.get_debug_mode() is True
    with pytest.raises(TypeError, match="debug_mode_flag isn't of type boolean."):
        ds.config.set_debug_mode(1)
    with pytest.raises(TypeError, match="debug_hook_list is not a list."):
        ds.config.set_debug_mode(True, 3)
    with pytest.raises(TypeError, match="must be of type DebugHook"):
        ds.config.set_debug_mode(True, [plus])


@pytest.mark.filterwarnings("ignore:Dataset pipeline debug mode")
def test_default_hook_prints_metadata_around_each_operation(capsys):
    ds.config.set_debug_mode(True)
    data = ds.NumpySlicesDataset({"a": np.arange(4).reshape(2, 2)}, shuffle=False)
    data = data.map([plus, lambda x: x * 2], input_columns=["a"])
    assert [r["a"].tolist() for r in data.create_dict_iterator(output_numpy=True)] == \
        [[2, 4], [6, 8]]
    meta = "Column 0. The dtype is [int64]. The shape is [(2,)]."
    one_row = ["[Dataset debugger] Print the [INPUT] of the operation [plus].", meta,
               "[Dataset debugger] Print the [OUTPUT] of the operation [plus].", meta,
               "[Dataset debugger] Print the [OUTPUT] of the operation [<lambda>].", meta]
    assert capsys.readouterr().out.splitlines() == one_row * 2


class Seen(debug.DebugHook):
    def compute(self, *args):
        print("seen", [np.asarray(v).tolist() for v in args[0]])


@pytest.mark.filterwarnings("ignore:Dataset pipeline debug mode")
def test_user_hook_in_the_operations_passes_columns_on(capsys):
    ds.config.set_debug_mode(True, [Seen()])
    data = ds.NumpySlicesDataset({"a": [1, 2]}, shuffle=False).map([plus, Seen()],
                                                                    input_columns=["a"])
    assert [int(r["a"]) for r in data.create_dict_iterator(output_numpy=True)] == [2, 3]
    assert capsys.readouterr().out.splitlines()[:6] == [
        "[Dataset debugger] Print the [INPUT] of the operation [plus].", "seen [1]",
        "[Dataset debugger] Print the [OUTPUT] of the operation [plus].", "seen [2]",
        "seen [2]", "[Dataset debugger] Print the [OUTPUT] of the operation [Seen]."]


def test_hook_outside_debug_mode_is_refused():
    with pytest.raises(ValueError, match="not allowed to inject DebugHook object in non-debug"):
        ds.NumpySlicesDataset({"a": [1, 2]}).map([Seen()])


def test_hook_without_compute_cannot_be_made():
    with pytest.raises(TypeError):
        debug.DebugHook()


@pytest.mark.filterwarnings("ignore:Dataset pipeline debug mode")
def test_debug_mode_seeds_an_unseeded_pipeline_with_1():
    ds.config._state.update(seed=5489, seeded=False)
    ds.config.set_debug_mode(True)
    assert ds.config.get_seed() == 5489  # until a pipeline starts
    data = ds.NumpySlicesDataset(np.arange(10), ["a"], shuffle=True)
    assert [int(r["a"]) for r in data.create_dict_iterator(output_numpy=True)] == \
        [9, 0, 2, 5, 7, 4, 6, 3, 1, 8]
    assert ds.config.get_seed() == 1
    ds.config.set_seed(7)  # a seed the program set stays
    data = ds.NumpySlicesDataset(np.arange(10), ["a"], shuffle=True)
    assert [int(r["a"]) for r in data.create_dict_iterator(output_numpy=True)] == \
        [2, 7, 6, 8, 1, 5, 3, 0, 4, 9]
