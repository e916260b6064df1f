"""dataset.core.config (the module `dataset.config` names): MindSpore's settings with its checks
and errors, `load` of a JSON configuration file, and the error samples mode of map (the rows it
gives were recorded from MindSpore 2.10)."""
import json

import pytest

import cellgraph.dataset as ds
from cellgraph.dataset.core import config

M = config.ErrorSamplesMode


@pytest.fixture(autouse=True)
def _restore():
    saved = dict(config._state)
    yield
    config._state.clear()
    config._state.update(saved)


def test_one_module_under_both_names():
    import cellgraph.dataset.config as by_old_name

    assert ds.config is config and by_old_name is config
    assert config.get_error_samples_mode() is M.RETURN


def test_defaults_and_round_trips():
    assert (config.get_monitor_sampling_interval(), config.get_auto_num_workers(),
            config.get_enable_watchdog(), config.get_multiprocessing_timeout_interval(),
            config.get_fast_recovery(), config.get_iterator_mode(),
            config.get_multiprocessing_start_method(), config.get_video_backend()) == \
        (1000, False, True, 300, True, {"do_copy": False, "parallel_convert": False}, "fork",
         "CPU")
    config.set_monitor_sampling_interval(45)
    config.set_fast_recovery(False)
    config.set_error_samples_mode(M.SKIP)
    config.set_multiprocessing_timeout_interval(1000)
    assert (config.get_monitor_sampling_interval(), config.get_fast_recovery(),
            config.get_error_samples_mode(), config.get_multiprocessing_timeout_interval()) == \
        (45, False, M.SKIP, 1000)


@pytest.mark.parametrize("setter, value, error, message", [
    (config.set_seed, True, TypeError, "seed isn't of type int."),
    (config.set_seed, 2 ** 32, ValueError,
     "seed given is not within the required range [0, UINT32_MAX(4294967295)]."),
    (config.set_prefetch_size, 0, ValueError,
     "size is not within the required range (0, INT32_MAX(2147483647)]."),
    (config.set_num_parallel_workers, True, TypeError, "num isn't of type int."),
    (config.set_monitor_sampling_interval, True, TypeError, "interval isn't of type int."),
    (config.set_callback_timeout, 0, ValueError, "Timeout given is not within the required range."),
    (config.set_sending_batches, True, TypeError, "batch_num must be an int dtype."),
    (config.set_multiprocessing_timeout_interval, 2 ** 31, ValueError,
     "Interval given is not within the required range (0, INT32_MAX(2147483647))."),
    (config.set_fast_recovery, 0, TypeError, "fast_recovery must be a boolean dtype."),
    (config.set_enable_watchdog, 1, TypeError, "enable must be a boolean dtype."),
    (config.set_auto_num_workers, [1, 2], TypeError, "enable must be of type bool."),
    (config.set_error_samples_mode, 1, TypeError,
     ("Argument error_samples_mode with value 1 is not of type [<enum 'ErrorSamplesMode'>], but "
     "got <class 'int'>.")),
    (config.set_multiprocessing_start_method, "x", ValueError,
     "Input start_method is not within the valid set of ['fork', 'spawn']."),
])
def test_mindspores_errors(setter, value, error, message):
    with pytest.raises(error) as info:
        setter(value)
    assert str(info.value) == message


def test_more_workers_than_cpus_is_refused(monkeypatch):
    monkeypatch.setattr(config.os, "cpu_count", lambda: 2)
    with pytest.raises(RuntimeError, match="num_parallel_workers exceeds the boundary between 1 "
                                           "and 2, as got 3."):
        config.set_num_parallel_workers(3)


def test_load(tmp_path):
    path = tmp_path / "ds.cfg"
    path.write_text(json.dumps({"logFilePath": "/tmp", "numParallelWorkers": 1, "seed": -1,
                                "opConnectorSize": 9, "monitorSamplingInterval": 33,
                                "fast_recovery": False, "error_samples_mode": 2}))
    config.load(str(path))
    # MindSpore keeps the seed as a uint32
    assert (config.get_num_parallel_workers(), config.get_seed(), config.get_prefetch_size(),
            config.get_monitor_sampling_interval(), config.get_fast_recovery(),
            config.get_error_samples_mode()) == (1, 4294967295, 9, 33, False, M.SKIP)
    with pytest.raises(RuntimeError, match="settings file:.*missing.cfg is not exist"):
        config.load(str(tmp_path / "missing.cfg"))
    path.write_text("not json")
    with pytest.raises(RuntimeError, match=r"Client file failed to load\."):
        config.load(str(path))
    path.write_text('{"seed": "a"}')
    with pytest.raises(RuntimeError, match="type must be number, but is string"):
        config.load(str(path))


def _rows(func, count, mode, epochs=1):
    config.set_error_samples_mode(mode)
    data = ds.GeneratorDataset(lambda: iter(range(count)), ["data"]).map(func)
    it = data.create_dict_iterator(num_epochs=epochs, output_numpy=True)
    return [[int(row["data"]) for row in it] for _ in range(epochs)]


def _odd(x):
    if x % 2:
        raise ValueError("odd")
    return x


def _first3(x):
    if x < 3:
        raise ValueError("first")
    return x


def _last(x):
    if x > 20:
        raise ValueError("last")
    return x * 10


def test_replace_pays_failed_rows_from_a_cache_of_16():
    assert _rows(_odd, 40, M.REPLACE) == [[
        0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 0, 32, 2, 34, 4, 36, 6, 38,
        8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38]]


def test_replace_keeps_its_cache_across_epochs():
    assert _rows(_first3, 5, M.REPLACE, epochs=2) == [[3, 4, 3, 4, 3], [3, 4, 4, 3, 4]]
    tens = list(range(0, 210, 10))
    assert _rows(_last, 24, M.REPLACE, epochs=2) == [tens + [0, 10, 20], tens + [30, 40, 50]]


def test_replace_with_no_good_row_raises():
    with pytest.raises(RuntimeError, match="All data is garbage and cannot be replaced."):
        _rows(lambda x: 1 / 0, 3, M.REPLACE)


def test_skip_and_return():
    assert _rows(_odd, 9, M.SKIP, epochs=2) == [[0, 2, 4, 6, 8]] * 2
    with pytest.raises(RuntimeError, match="odd"):
        _rows(_odd, 3, M.RETURN)


def test_debug_mode_ignores_the_error_samples_mode():
    with pytest.warns(UserWarning, match="debug mode is enabled"):
        config.set_debug_mode(True)
    for mode in (M.REPLACE, M.SKIP):
        with pytest.raises(RuntimeError, match="odd"):
            _rows(_odd, 3, mode)


def test_a_wrong_count_of_outputs_is_not_replaced():
    config.set_error_samples_mode(M.REPLACE)
    data = ds.GeneratorDataset(lambda: iter(range(3)), ["data"]).map(lambda x: (x, x))
    with pytest.raises(RuntimeError, match="Invalid columns"):
        list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))


def test_set_seed_restarts_a_transforms_draws():
    from cellgraph.dataset import transforms

    choice = transforms.RandomChoice([lambda x: x + 1, lambda x: x + 2, lambda x: x + 3])
    config.set_seed(0)
    first = [choice(0) for _ in range(8)]
    config.set_seed(0)
    assert [choice(0) for _ in range(8)] == first
