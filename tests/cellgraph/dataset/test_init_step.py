"""Dataset.set_init_step (resuming a pipeline at a step) and the iterators over a seeded
pipeline repeating one another, as in MindSpore 2.10."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision


@pytest.fixture
def seed():
    old = ds.config.get_seed()
    ds.config.set_seed(3)
    yield
    ds.config.set_seed(old)


def _epochs(data, num_epochs):
    iterator = data.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
    out = []
    try:
        for _ in range(num_epochs):
            out.append([row[0].tolist() for row in iterator])
    except RuntimeError:
        out.append("RuntimeError")
    return out


# MindSpore 2.10's batches of GeneratorDataset(range(10), shuffle=True).map(x * 10).batch(3)
# over three epochs with seed 3
_EPOCHS = [[[30, 10, 80], [50, 20, 60], [90, 70, 0], [40]],
           [[30, 70, 20], [80, 60, 50], [10, 40, 0], [90]],
           [[80, 0, 50], [20, 60, 10], [40, 70, 90], [30]]]


def test_set_init_step_resumes_over_epochs(seed):
    data = ds.GeneratorDataset(list(range(10)), ["x"], shuffle=True)
    data = data.map(lambda x: x * 10, ["x"]).batch(3)
    assert data.get_init_step() == 0
    assert _epochs(data, 3) == _EPOCHS
    data.set_init_step(2)
    assert data.get_init_step() == 2
    assert _epochs(data, 3) == [_EPOCHS[0][2:], _EPOCHS[1], _EPOCHS[2]]
    # the epochs before the step count among the iterator's num_epochs (MindSpore's values)
    data.set_init_step(5)
    assert _epochs(data, 3) == [_EPOCHS[1][1:], _EPOCHS[2], "RuntimeError"]
    data.set_init_step(7)
    assert _epochs(data, 3) == [_EPOCHS[1][3:], _EPOCHS[2], "RuntimeError"]
    data.set_init_step(4)
    assert _epochs(data, 3) == [_EPOCHS[1], _EPOCHS[2], "RuntimeError"]


def test_get_init_step_from_the_only_child(seed):
    def data():  # a node feeds one pipeline only
        source = ds.GeneratorDataset(list(range(10)), ["x"], shuffle=False)
        source.set_init_step(7)
        return source

    assert data().take(2).batch(1).get_init_step() == 7
    other = ds.GeneratorDataset(list(range(10)), ["y"], shuffle=False)
    assert ds.zip((data(), other)).get_init_step() == 0  # several children: from the start
    # the getters are not moved by it
    assert data().take(5).get_dataset_size() == 5


def test_debug_mode_ignores_init_step(seed):
    data = ds.GeneratorDataset(list(range(4)), ["x"], shuffle=False)
    data.set_init_step(2)
    old = ds.config.get_debug_mode()
    ds.config.set_debug_mode(True)
    try:
        assert [int(r[0]) for r in data.create_tuple_iterator(num_epochs=1)] == [0, 1, 2, 3]
    finally:
        ds.config.set_debug_mode(old)
    assert [int(r[0]) for r in data.create_tuple_iterator(num_epochs=1)] == [2, 3]


def test_iterators_over_a_seeded_pipeline_repeat(seed):
    """MindSpore seeds a pipeline's shuffles and random transforms anew whenever an iterator
    builds it: two iterators over a seeded pipeline give the same rows."""
    images = np.arange(24, dtype=np.uint8).reshape(8, 1, 3, 1)
    data = ds.NumpySlicesDataset(images, ["x"], shuffle=True)
    data = data.map(vision.RandomHorizontalFlip(), ["x"])
    data = data.map(vision.RandomVerticalFlip(), ["x"])
    first = _epochs(data, 2)
    assert first == _epochs(data, 2)
    assert first[0] != first[1]  # epochs still differ
    flips = [np.array(row).ravel().tolist() for row in first[0]]
    assert any(f[0] > f[2] for f in flips) and any(f[0] < f[2] for f in flips)
    # a resumed iterator draws as the one from step 0 did at that step
    data.set_init_step(11)
    assert _epochs(data, 2) == [first[1][3:], "RuntimeError"]
    # called directly on an array with a seed set, a flip draws as a new C++ op seeded with
    # it, every time the same (as in MindSpore 2.10)
    flip = vision.RandomHorizontalFlip()
    draws = {tuple(flip(images[0]).ravel()) for _ in range(20)}
    assert len(draws) == 1


def test_image_folder_num_classes(tmp_path):
    for name in ("cat", "dog", "eel"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.jpg").write_bytes(b"\xff\xd8")
    assert ds.ImageFolderDataset(str(tmp_path)).num_classes() == 3
    data = ds.ImageFolderDataset(str(tmp_path), class_indexing={"cat": 0, "dog": 5})
    assert data.num_classes() == 2
    assert data.skip(1).batch(1).num_classes() == 2
