"""The iterators' worker threads: they end with their iterator, threads may share an
iterator, and epochs neither lose nor repeat rows."""
import gc
import sys
import threading

import numpy as np
import pytest

import cellgraph.dataset as ds

WORKER = "cellgraph-dataset-prefetch"


def _workers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == WORKER]


def _wait_for_workers_to_end(deadline_s=30.0) -> list[threading.Thread]:
    """The workers still alive after each was given until the deadline to end."""
    gc.collect()
    for t in _workers():
        t.join(deadline_s)
    return _workers()


def _numbers(n):
    return ds.NumpySlicesDataset({"a": np.arange(n)}, shuffle=False)


def _counting(n):
    def rows():
        yield from ((np.array(i),) for i in range(n))

    return rows()


@pytest.fixture(autouse=True)
def _no_workers_left_before():
    assert _wait_for_workers_to_end() == []


def test_abandoned_iterators_end_their_threads():
    before = threading.active_count()
    data = _numbers(100).batch(2)
    for _ in range(100):
        it = data.create_tuple_iterator(output_numpy=True)
        next(it)  # the worker fills its channel and waits for room
    del it
    for _ in range(20):  # `for` loops left early, over fresh iterators
        for _row in data:
            break
    assert _wait_for_workers_to_end() == []
    assert threading.active_count() == before


def test_stop_ends_the_thread_and_the_iterator():
    it = _numbers(100).create_tuple_iterator(output_numpy=True)
    assert next(it)[0] == 0
    it.stop()
    assert _wait_for_workers_to_end() == []
    with pytest.raises(RuntimeError, match="dataset iterator: it was stopped"):
        next(it)


def test_a_loop_left_early_is_continued_by_the_next_loop():
    """`iter(it)` is `it` (as in MindSpore): a loop after `break` reads on in the same epoch;
    the epoch after starts with the next `next`."""
    it = _numbers(6).create_tuple_iterator(num_epochs=2, output_numpy=True)
    first = []
    for row in it:
        first.append(int(row[0]))
        if len(first) == 2:
            break
    first += [int(row[0]) for row in it]
    assert first == [0, 1, 2, 3, 4, 5]
    assert [int(row[0]) for row in it] == [0, 1, 2, 3, 4, 5]
    with pytest.raises(RuntimeError, match="beyond the specified number of epochs"):
        next(it)


def test_a_generator_object_loses_no_row_when_a_loop_restarts():
    ds.config.set_prefetch_size(4)
    try:
        data = ds.GeneratorDataset(_counting(50), ["a"], shuffle=False)
        it = data.create_tuple_iterator(num_epochs=3, output_numpy=True)
        seen = []
        for stop_after in (3, 7, 1):
            for row in it:
                seen.append(int(row[0]))
                if len(seen) % 10 == stop_after:
                    break
        seen += [int(row[0]) for row in it]
        assert seen == list(range(50))
        # every pass reads a generator object from its first row, as MindSpore's does
        assert [int(row[0]) for row in it] == list(range(50))
    finally:
        ds.config.set_prefetch_size(16)


def test_a_generator_object_is_read_whole_by_every_pass():
    data = ds.GeneratorDataset(_counting(30), ["a"], shuffle=False)
    assert data.output_shapes() == [[]] and data.get_dataset_size() == 30
    first = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    second = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    seen = {id(first): [], id(second): []}
    live = [first, second]
    while live:  # alternate: both workers read the one generator at once
        for it in list(live):
            try:
                seen[id(it)].append(int(next(it)[0]))
            except StopIteration:
                live.remove(it)
    assert list(seen.values()) == [list(range(30))] * 2


def test_iterators_over_one_iterator_source_share_its_rows():
    rows = iter([(np.array(i),) for i in range(200)])  # an iterator, not a generator
    data = ds.GeneratorDataset(rows, ["a"], shuffle=False)
    first = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    second = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    seen, live = [], [first, second]
    while live:  # alternate: both workers take rows from the one iterator at once
        for it in list(live):
            try:
                seen.append(int(next(it)[0]))
            except StopIteration:
                live.remove(it)
    assert sorted(seen) == list(range(200))


def _read_together(it, n_threads=4):
    rows, errors = [[] for _ in range(n_threads)], []
    all_reading = threading.Barrier(n_threads)

    def consume(out):
        try:
            out.append(int(next(it)[0]))
            all_reading.wait()  # every thread reads the epoch before any can see its end
            for row in it:
                out.append(int(row[0]))
        except BaseException as e:  # noqa: BLE001  (reported by the test)
            errors.append(e)

    threads = [threading.Thread(target=consume, args=(out,)) for out in rows]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        sys.setswitchinterval(interval)
    assert not any(t.is_alive() for t in threads), "a consumer thread hangs"
    return rows, errors


def test_threads_sharing_an_iterator_get_each_row_once_and_all_see_the_end():
    it = _numbers(2000).create_tuple_iterator(num_epochs=1, output_numpy=True)
    rows, errors = _read_together(it)
    assert errors == []
    assert sorted(r for part in rows for r in part) == list(range(2000))
    with pytest.raises(RuntimeError, match="beyond the specified number of epochs"):
        next(it)


def test_threads_sharing_an_iterator_all_see_the_pipeline_error():
    def broken(a):
        if a == 500:
            raise KeyError("row 500")
        return a

    it = _numbers(2000).map(broken, input_columns="a").create_tuple_iterator(
        num_epochs=1, output_numpy=True)
    rows, errors = _read_together(it)
    # MindSpore reports a map function's error as a RuntimeError carrying its traceback
    assert errors and all(isinstance(e, RuntimeError) and "KeyError: " in str(e)
                          for e in errors)
    assert sorted(r for part in rows for r in part) == list(range(500))


def test_cleanup_releases_every_live_iterator_and_sets_the_flag():
    """MindSpore's test suites call `_cleanup` after each test: the iterators still alive are
    released, and `check_iterator_cleanup` says so until unset. (Reading a released iterator
    again raises RuntimeError here; MindSpore fails there with an AttributeError of its
    internals, not a behaviour to copy.)"""
    from cellgraph.dataset.engine.iterators import (
        _cleanup,
        _unset_iterator_cleanup,
        check_iterator_cleanup,
    )

    data = ds.NumpySlicesDataset([1, 2, 3], column_names=["x"], shuffle=False)
    iterator = data.create_tuple_iterator(output_numpy=True)
    assert int(next(iterator)[0]) == 1
    _unset_iterator_cleanup()
    assert not check_iterator_cleanup()
    _cleanup()
    assert check_iterator_cleanup()
    with pytest.raises(RuntimeError):
        next(iterator)
    _unset_iterator_cleanup()
    assert not check_iterator_cleanup()


def test_iterators_list_holds_a_weak_reference_to_each_live_iterator():
    """MindSpore's ITERATORS_LIST: one weak reference per iterator, gone when it is collected."""
    from cellgraph.dataset.engine.iterators import ITERATORS_LIST

    ITERATORS_LIST.clear()
    data = ds.NumpySlicesDataset([1, 2, 3], column_names=["x"], shuffle=False)
    first = data.create_tuple_iterator(num_epochs=1)
    second = data.create_tuple_iterator(num_epochs=1)
    assert len(ITERATORS_LIST) == 2 and [r() for r in ITERATORS_LIST] == [first, second]
    del first
    gc.collect()
    assert [r() for r in ITERATORS_LIST] == [second]
    del second
    gc.collect()
    assert ITERATORS_LIST == []


def test_numpy_outputs_are_c_contiguous():
    """Arrays over MindSpore's tensors are C-contiguous, whatever view a transform returned."""
    data = ds.NumpySlicesDataset({"a": np.zeros((2, 3, 4), np.float32)}, shuffle=False)
    data = data.map(lambda x: x.T, input_columns=["a"])
    row = next(data.create_tuple_iterator(output_numpy=True, num_epochs=1))
    assert row[0].shape == (4, 3) and row[0].flags["C_CONTIGUOUS"]


def test_a_pipeline_error_reaches_the_loop_worded_as_mindspores():
    """MindSpore 2.10: an engine error met while iterating comes under its status's summary,
    with the message under "Dataset Pipeline Error Message" and the framework's location
    under its call-stack heading; a crop larger than the image is its shape mismatch."""
    import cellgraph.dataset as ds
    from cellgraph.dataset import vision

    rule = "-" * 66

    def rows():
        yield (np.ones(2),)
        yield (np.ones((2, 3)),)

    batched = ds.GeneratorDataset(rows, ["image"]).batch(2)
    with pytest.raises(RuntimeError) as info:
        list(batched.create_dict_iterator(output_numpy=True, num_epochs=1))
    message = str(info.value)
    assert message.startswith(
        f"Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. "
        f"\n\n{rule}\n- Dataset Pipeline Error Message: \n{rule}\n[ERROR] Cannot batch tensors "
        f"with different shapes in column 0. First element had shape <2> and this element had "
        f"shape <2,3>\n\n{rule}\n- C++ Call Stack: (For framework developers) \n{rule}\n")
    assert "Python Call Stack" not in message
    cropped = ds.NumpySlicesDataset([np.ones((5, 5, 3), np.uint8)], ["image"], shuffle=False)
    cropped = cropped.map(vision.RandomCrop((8, 8)), input_columns=["image"])
    with pytest.raises(RuntimeError) as info:
        list(cropped.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert str(info.value).startswith(
        f"Shape is incorrect. \n\n{rule}\n- Dataset Pipeline Error Message: \n{rule}\n[ERROR] "
        f"map operation: [RandomCrop] failed. RandomCrop: invalid crop size, crop size is "
        f"bigger than the image dimensions, got crop height: 8, crop width: 8\n\n")
