"""RandomPosterize: the bits MindSpore 2.10's C++ op draws once a dataset seed is set, and its
argument checks (types and words recorded from MindSpore 2.10)."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision


@pytest.fixture
def seed_55_one_worker():
    seed, workers = ds.config.get_seed(), ds.config.get_num_parallel_workers()
    ds.config.set_seed(55)
    ds.config.set_num_parallel_workers(1)
    yield
    ds.config.set_seed(seed)
    ds.config.set_num_parallel_workers(workers)


def _first_pixels(bits):
    images = np.full((6, 2, 2, 3), 255, np.uint8)
    data = ds.NumpySlicesDataset(images, ["image"], shuffle=False)
    data = data.map(vision.RandomPosterize(bits), input_columns="image")
    return [int(r[0][0, 0, 0]) for r in data.create_tuple_iterator(output_numpy=True)]


def test_seeded_draws_are_mindspores(seed_55_one_worker):
    assert _first_pixels((1, 8)) == [128, 252, 255, 255, 240, 192]
    assert _first_pixels([3, 5]) == [224, 248, 248, 248, 240, 224]
    op = vision.RandomPosterize((2, 7))  # called directly: each call starts from the seed
    assert [int(op(np.full((2, 2, 3), 255, np.uint8))[0, 0, 0]) for _ in range(3)] == \
        [192, 192, 192]


def test_a_fixed_number_of_bits_draws_nothing(seed_55_one_worker):
    assert _first_pixels(3) == [224] * 6
    assert _first_pixels((6, 6)) == [252] * 6


@pytest.mark.parametrize("bits, error, message", [
    ((1, 9), ValueError, "Input is not within the required interval of [1, 8]."),
    ((0, 7), ValueError, "Input is not within the required interval of [1, 8]."),
    ((8, 1), ValueError, "Input is not within the required interval of [1, 8]."),
    (9, ValueError, "Input is not within the required interval of [1, 8]."),
    ((1, 300), ValueError, "Input bits is not within the required interval of [0, 255]."),
    (1.1, TypeError, ("Argument bits with value 1.1 is not of type [<class 'list'>, "
                      "<class 'tuple'>, <class 'int'>], but got <class 'float'>.")),
    ((1, 1, 1), TypeError, ("Size of bits should be a single integer or a list/tuple (min, max) "
                            "of length 2.")),
    ((1, True), TypeError, ("Argument bits with value True is not of type (<class 'int'>,), but "
                            "got <class 'bool'>.")),
])
def test_argument_checks(bits, error, message):
    with pytest.raises(error) as caught:
        vision.RandomPosterize(bits)
    assert str(caught.value) == message


def test_bits_are_kept_as_given():
    assert vision.RandomPosterize([2, 3]).bits == [2, 3]
    assert vision.RandomPosterize(3).bits == 3
