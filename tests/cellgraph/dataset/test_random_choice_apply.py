"""RandomChoice, RandomApply and RandomOrder draw as MindSpore 2.10 runs them once a dataset
seed is set: as C++ (their transforms all C++) from the op's mt19937 (std::uniform_int for the
pick, a std::uniform_real<double> draw at most `prob` to apply), as Python from Python's
`random` module (random.choice, `prob` below random.random() skips, random.shuffle of the list
in place), which the Python implementations of the flips and RandomCrop on Pillow images draw
from too. The picks were recorded from MindSpore 2.10."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import transforms, vision

Image = pytest.importorskip("PIL.Image")  # the Pillow paths, and the grey reference

IMAGE = (np.arange(4 * 5 * 3).reshape(4, 5, 3) * 13 % 256).astype(np.uint8)
FLIPPED, UPSIDE_DOWN, INVERTED = IMAGE[:, ::-1], IMAGE[::-1], 255 - IMAGE
GREY = np.dstack([np.asarray(Image.fromarray(IMAGE).convert("L"))] * 3)


def _rows(op, seed, count=8):
    ds.config.set_seed(seed)
    data = ds.NumpySlicesDataset({"image": np.stack([IMAGE] * count)}, shuffle=False)
    data = data.map(op, "image", num_parallel_workers=1)
    return [row[0] for row in data.create_tuple_iterator(output_numpy=True)]


def _which(rows, candidates):
    return [next(i for i, c in enumerate(candidates) if np.array_equal(row, c))
            for row in rows]


def test_cpp_choice_and_apply():
    choice = transforms.RandomChoice([vision.Invert(), vision.HorizontalFlip(),
                                      vision.VerticalFlip()])
    assert _which(_rows(choice, 11), [INVERTED, FLIPPED, UPSIDE_DOWN]) == [0, 0, 0, 1, 1, 0, 2, 2]
    apply = transforms.RandomApply([vision.Invert()], 0.3)
    assert _which(_rows(apply, 3), [IMAGE, INVERTED]) == [1, 0, 1, 0, 0, 1, 1, 1]


def test_python_choice_apply_and_order():
    choice = transforms.RandomChoice([vision.Grayscale(3), vision.RandomHorizontalFlip(1.0),
                                      vision.RandomVerticalFlip(1.0)])
    rows = _rows([vision.ToPIL(), choice, np.asarray], 5)
    assert _which(rows, [GREY, FLIPPED, UPSIDE_DOWN]) == [2, 1, 2, 2, 1, 0, 2, 0]
    apply = transforms.RandomApply([vision.RandomVerticalFlip(1.0)], 0.4)
    rows = _rows([vision.ToPIL(), apply, np.asarray], 5)
    assert _which(rows, [IMAGE, UPSIDE_DOWN]) == [0, 0, 0, 0, 0, 0, 1, 0]
    order = transforms.RandomOrder([vision.RandomVerticalFlip(1.0), vision.Grayscale(3),
                                    vision.RandomCrop((3, 5))])
    rows = _rows([vision.ToPIL(), order, np.asarray], 7)
    assert _which(rows, [GREY[:3], GREY[1:], GREY[::-1][:3], GREY[::-1][1:]]) == [
        2, 2, 2, 2, 3, 2, 3, 2]


def test_pillow_crop_and_flip_draw_from_pythons_random():
    rows = _rows([vision.ToPIL(), vision.RandomCrop((3, 4), padding=1),
                  vision.RandomHorizontalFlip(), np.asarray], 3, 5)
    assert [int(r.sum()) for r in rows] == [4218, 2799, 3856, 2887, 2923]
    assert rows[0][..., 0].tolist() == [[117, 78, 39, 0], [56, 17, 234, 195],
                                        [251, 212, 173, 134]]
