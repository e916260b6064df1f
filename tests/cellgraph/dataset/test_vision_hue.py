"""AdjustHue and RandomColorAdjust's hue on uint8 images as MindSpore 2.10's kernel: OpenCV's
full-range 8-bit HSV, the hue byte turned, and OpenCV's HSV -> RGB as its AVX2 build runs it
row by row (hue times 6 / 255; whole vectors of 32 pixels with fused multiply-adds, truncated;
the rest of a row by the scalar loop, rounded). The image is 35 wide: 32 vector pixels and a
scalar tail in each row. The values were recorded from MindSpore 2.10."""
import numpy as np

import cellgraph.dataset as ds
from cellgraph.dataset import vision

IMAGE = (np.arange(2 * 35 * 3).reshape(2, 35, 3) * 37 % 256).astype(np.uint8)


def test_adjust_hue_is_mindspores_on_vector_and_scalar_pixels():
    assert vision.AdjustHue(0.0)(IMAGE)[0, 28:35].tolist() == [
        [35, 72, 110], [147, 183, 221], [2, 38, 76], [112, 149, 187], [224, 5, 36],
        [79, 116, 153], [188, 227, 8]]
    assert vision.AdjustHue(-0.3)(IMAGE)[1, 0:5].tolist() == [
        [65, 119, 44], [176, 230, 156], [31, 85, 10], [143, 196, 122], [29, 13, 233]]


def test_seeded_colour_jitter_with_hue_is_mindspores():
    ds.config.set_seed(11)
    data = ds.NumpySlicesDataset({"image": np.stack([IMAGE] * 4)}, shuffle=False)
    data = data.map(vision.RandomColorAdjust(0.4, 0.4, 0.4, 0.1), "image",
                    num_parallel_workers=1)
    rows = [row[0] for row in data.create_tuple_iterator(output_numpy=True)]
    assert [int(r.sum()) for r in rows] == [31871, 25691, 28592, 31640]
    assert rows[2][0, 30:34].tolist() == [[9, 8, 70], [147, 145, 208], [214, 102, 47],
                                          [107, 104, 167]]
