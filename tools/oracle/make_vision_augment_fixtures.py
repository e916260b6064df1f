"""Record MindSpore's pixels for the augmentation policies and warps of dataset.vision (run with
a Python that has MindSpore 2.10 and Pillow, from outside the repository):

    python tools/oracle/make_vision_augment_fixtures.py tests/data/vision_augment.npz

Writes: AutoAugment, RandAugment and TrivialAugmentWide over a seeded pipeline of small images
(`POLICIES`), RandomRotation the same way (`ROTATIONS`) and Rotate, Perspective of uint8 and float32 arrays and of a Pillow image, RandomPerspective
of Pillow images after set_seed, and the colour adjustments whose OpenCV arithmetic the
policies share. tests/cellgraph/dataset/test_vision_auto_augment.py and
test_vision_perspective.py compare cellgraph's bit for bit (float32 within rounding).
"""
import sys

import mindspore.dataset as ds
import numpy as np
from mindspore.dataset import vision
from mindspore.dataset.vision import AutoAugmentPolicy, Inter

# name -> the transform, spelled as the tests spell it
POLICIES = {
    "imagenet_nearest": "AutoAugment(AutoAugmentPolicy.IMAGENET, Inter.NEAREST, 0)",
    "cifar10_bilinear": "AutoAugment(AutoAugmentPolicy.CIFAR10, Inter.BILINEAR, (10, 200, 30))",
    "svhn_bicubic": "AutoAugment(AutoAugmentPolicy.SVHN, Inter.BICUBIC, 77)",
    "rand_default": "RandAugment()",
    "rand_3_10_15": "RandAugment(3, 10, 15, Inter.BILINEAR, (5, 100, 250))",
    "rand_4_1_2": "RandAugment(4, 1, 2, Inter.AREA, 20)",
    "trivial_default": "TrivialAugmentWide()",
    "trivial_bicubic": "TrivialAugmentWide(31, Inter.BICUBIC, (1, 2, 3))",
    "trivial_5_bilinear": "TrivialAugmentWide(5, Inter.BILINEAR, 20)",
}
CORNERS = ([[0, 0], [12, 0], [12, 10], [0, 10]], [[2, 1], [11, 3], [9, 10], [1, 8]])
PERSPECTIVE_INTER = {"nearest": Inter.NEAREST, "bilinear": Inter.BILINEAR,
                     "bicubic": Inter.BICUBIC, "area": Inter.AREA}
ROTATIONS = {
    "plain": "RandomRotation(30)",
    "bilinear_range": "RandomRotation((10, 80), Inter.BILINEAR, False, None, (10, 20, 30))",
    "bicubic_expand": "RandomRotation(170, Inter.BICUBIC, True, None, 40)",
    "centre": "RandomRotation((-5, 355), Inter.NEAREST, False, (3, 4), (1, 2, 3))",
    "wrapping_area": "RandomRotation((350, 370), Inter.AREA, True)",
}
TURNS = [(33.3, True), (-71, True), (90, True), (12, False)]
ADJUST = ["AdjustSaturation(0.1)", "AdjustSaturation(1.3)", "AdjustContrast(0.73)",
          "AdjustContrast(1.3)", "AdjustSharpness(1.3)", "Equalize()"]


def images() -> np.ndarray:
    rng = np.random.default_rng(1)
    batch = rng.integers(0, 256, (12, 11, 13, 3), dtype=np.uint8)
    batch[::3] = batch[::3] // 3 + 40  # low contrast, so autocontrast and equalize matter
    return batch


def main(path: str) -> None:
    ds.config.set_num_parallel_workers(1)
    batch = images()
    out = {"images": batch}
    scope = {"vision": vision, "AutoAugmentPolicy": AutoAugmentPolicy, "Inter": Inter}
    for name, spelled in POLICIES.items():
        ds.config.set_seed(123)
        data = ds.NumpySlicesDataset(batch, ["image"], shuffle=False)
        data = data.map(operations=[eval("vision." + spelled, scope)], input_columns=["image"])
        out["policy_" + name] = np.stack([row["image"] for row in data.create_dict_iterator(
            num_epochs=1, output_numpy=True)])
        ds.config.set_seed(7)  # called directly: every call starts from the seed
        out["eager_" + name] = eval("vision." + spelled, scope)(batch[0])
    floats = batch[1].astype(np.float32) / 255
    out["float_image"] = floats
    for name, inter in PERSPECTIVE_INTER.items():
        out["perspective_u8_" + name] = vision.Perspective(*CORNERS, inter)(batch[1])
        out["perspective_f32_" + name] = vision.Perspective(*CORNERS, inter)(floats)
    from PIL import Image

    out["perspective_pil"] = np.asarray(vision.Perspective(*CORNERS, Inter.BILINEAR)(
        Image.fromarray(batch[2])))
    ds.config.set_seed(5)
    op = vision.RandomPerspective(0.6, 0.7, Inter.BILINEAR)
    out["random_perspective"] = np.stack([np.asarray(op(Image.fromarray(batch[i])))
                                          for i in range(4)])
    for name, spelled in ROTATIONS.items():
        ds.config.set_seed(99)
        data = ds.NumpySlicesDataset(batch[:6], ["image"], shuffle=False)
        data = data.map(operations=[eval("vision." + spelled, scope)], input_columns=["image"])
        for i, row in enumerate(data.create_dict_iterator(num_epochs=1, output_numpy=True)):
            out[f"rotation_{name}_{i}"] = row["image"]  # shapes differ when expanded
    for i, (degrees, expand) in enumerate(TURNS):
        out[f"rotate_rgb_{i}"] = vision.Rotate(degrees, Inter.BILINEAR, expand, None,
                                               (10, 20, 30))(batch[1])
        out[f"rotate_grey_{i}"] = vision.Rotate(degrees, Inter.NEAREST, expand, (2.5, 3),
                                                (10, 20, 30))(batch[1][..., 0].copy())
    big = np.random.default_rng(5).integers(0, 256, (23, 31, 3), dtype=np.uint8)
    out["adjust_image"] = big
    for spelled in ADJUST:
        out["adjust_" + spelled] = eval("vision." + spelled)(big)
    np.savez_compressed(path, **out)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "vision_augment.npz")
