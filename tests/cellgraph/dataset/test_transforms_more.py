"""transforms.PadEnd and transforms.Fill."""
import numpy as np

from cellgraph.dataset import transforms


def test_pad_end_and_fill():
    np.testing.assert_array_equal(transforms.PadEnd([4])(np.array([1, 2])), [1, 2, 0, 0])
    np.testing.assert_array_equal(transforms.PadEnd([1, 3], -1)(np.ones((2, 2))),
                                  [[1, 1, -1]])
    assert transforms.PadEnd([3])(np.array(["a"])).tolist() == ["a", "", ""]
    filled = transforms.Fill(7)(np.zeros((2, 2), np.int32))
    assert filled.dtype == np.int32 and (filled == 7).all()
