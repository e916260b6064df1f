"""Recovery after a failure: an iterator reset to a global step delivers, from there, what an
iterator started at step 0 delivers (dataset.engine.datasets._reset_training_dataset, as
MindSpore's Model calls it), shuffles included; its errors are MindSpore's."""
import numpy as np
import pytest

from cellgraph import dataset as ds
from cellgraph.dataset.engine import datasets as engine


def _pipeline():
    ds.config.set_seed(7)
    data = ds.NumpySlicesDataset(np.arange(10), ["x"], shuffle=True)
    return data.map(lambda x: x * 2, ["x"]).batch(3)


def _run(failure_point, num_epochs=3):
    data = _pipeline()
    size = data.get_dataset_size()
    iterator = data.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
    engine._set_training_dataset(iterator)
    rows, step = [], 0
    for _ in range(num_epochs):
        for row in iterator:
            rows.append(row[0].tolist())
            step += 1
            if step == failure_point:
                engine._reset_training_dataset(failure_point, size)
                break
        if step >= failure_point:
            break
    for _ in range(failure_point // size, num_epochs):
        rows += [row[0].tolist() for row in iterator]
    with pytest.raises(RuntimeError, match="beyond the specified number of epochs"):
        next(iterator)
    return rows


@pytest.mark.parametrize("failure_point", [1, 4, 5, 9])
def test_reset_replays_from_the_step(failure_point):
    straight = _run(10 ** 6)  # no failure: three epochs of four batches, each shuffled anew
    assert len(straight) == 12 and straight[:4] != straight[4:8]
    assert _run(failure_point) == straight


def test_reset_errors():
    data = _pipeline()
    iterator = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    engine._set_training_dataset(iterator)
    with pytest.raises(RuntimeError, match="reset step must be >= 0"):
        engine._reset_training_dataset(-1, 4)
    with pytest.raises(RuntimeError, match="reset step must be less than dataset_size \\* "
                                           "num_epochs"):
        engine._reset_training_dataset(8, 4)
    engine._set_training_dataset(None)
    with pytest.raises(RuntimeError, match="Training dataset is not set"):
        engine._reset_training_dataset(1, 4)
