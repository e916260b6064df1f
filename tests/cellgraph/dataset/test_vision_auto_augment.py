"""AutoAugment, RandAugment and TrivialAugmentWide against pixels recorded from MindSpore 2.10
(tests/data/vision_augment.npz, written by tools/oracle/make_vision_augment_fixtures.py): the
same draws from the dataset seed and the same OpenCV arithmetic, so the same bytes."""
from pathlib import Path

import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision
from cellgraph.dataset.vision import AutoAugmentPolicy, Inter
from cellgraph.dataset.vision.auto_augment import linspace

RECORDED = np.load(Path(__file__).resolve().parents[2] / "data" / "vision_augment.npz")
# the same spellings as the fixture script's
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
SCOPE = {"vision": vision, "AutoAugmentPolicy": AutoAugmentPolicy, "Inter": Inter}


@pytest.fixture
def one_worker():
    workers, seed = ds.config.get_num_parallel_workers(), ds.config.get_seed()
    ds.config.set_num_parallel_workers(1)
    yield
    ds.config.set_num_parallel_workers(workers)
    ds.config.set_seed(seed)


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_seeded_pipeline_gives_mindspores_pixels(name, one_worker):
    ds.config.set_seed(123)
    data = ds.NumpySlicesDataset(RECORDED["images"], ["image"], shuffle=False)
    data = data.map(operations=[eval("vision." + POLICIES[name], SCOPE)], input_columns=["image"])
    got = np.stack([row["image"] for row in data.create_dict_iterator(num_epochs=1,
                                                                      output_numpy=True)])
    np.testing.assert_array_equal(got, RECORDED["policy_" + name])


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_direct_call_after_set_seed_gives_mindspores_pixels(name, one_worker):
    ds.config.set_seed(7)
    op = eval("vision." + POLICIES[name], SCOPE)
    first = op(RECORDED["images"][0])
    np.testing.assert_array_equal(first, RECORDED["eager_" + name])
    np.testing.assert_array_equal(op(RECORDED["images"][0]), first)  # each call from the seed


@pytest.mark.parametrize("spelled", ["AdjustSaturation(0.1)", "AdjustSaturation(1.3)",
                                     "AdjustContrast(0.73)", "AdjustContrast(1.3)",
                                     "AdjustSharpness(1.3)", "Equalize()"])
def test_shared_colour_arithmetic_is_opencvs(spelled):
    # 15-bit grey weights and addWeighted's fused multiply-add, as MindSpore's OpenCV computes
    if spelled.startswith("AdjustSharpness"):
        pytest.importorskip("PIL")
    out = eval("vision." + spelled)(RECORDED["adjust_image"])
    np.testing.assert_array_equal(out, RECORDED["adjust_" + spelled])


def test_posterize_bins_round_half_to_even():
    # MindSpore's Linspace(0, 9, 10, -4/9, 8, round): 8 - i * 4/9, rounded
    assert [float(v) for v in linspace(0.0, 9, 10, np.float32(-4) / np.float32(9), 8, True)] \
        == [8, 8, 7, 7, 6, 6, 5, 5, 4, 4]


def test_policy_enum_and_defaults():
    assert AutoAugmentPolicy.CIFAR10 == "cifar10"
    op = vision.AutoAugment()
    assert (op.policy, op.interpolation, op.fill_value) == (AutoAugmentPolicy.IMAGENET,
                                                            Inter.NEAREST, (0, 0, 0))
    op = vision.RandAugment()
    assert (op.num_ops, op.magnitude, op.num_magnitude_bins) == (2, 9, 31)
    assert vision.TrivialAugmentWide().num_magnitude_bins == 31


ERRORS = [  # MindSpore 2.10's types and words
    ("AutoAugment(policy='x')", TypeError,
     ("Argument policy with value x is not of type [<enum 'AutoAugmentPolicy'>], but got "
     "<class 'str'>.")),
    ("AutoAugment(interpolation='invalid')", TypeError,
     ("Argument interpolation with value invalid is not of type [<enum 'Inter'>], but got "
     "<class 'str'>.")),
    ("AutoAugment(fill_value=(1, 2))", TypeError,
     "fill_value should be a single integer or a 3-tuple."),
    ("AutoAugment(fill_value=256)", ValueError,
     "Input fill_value is not within the required interval of [0, 255]."),
    ("AutoAugment(fill_value=(1, 2, 300))", ValueError,
     "Input fill_value[2] is not within the required interval of [0, 255]."),
    ("RandAugment(magnitude=31)", ValueError,
     "Input magnitude is not within the required interval of [0, 31)."),
    ("RandAugment(num_ops=-1)", ValueError,
     "Input num_ops is not within the required interval of [0, 16777216]."),
    ("RandAugment(2, 5, 3)", ValueError,
     "Input magnitude is not within the required interval of [0, 3)."),
    ("TrivialAugmentWide(1)", ValueError,
     "Input num_magnitude_bins is not within the required interval of [2, 16777216]."),
]


@pytest.mark.parametrize("spelled, error, message", ERRORS)
def test_arguments_are_checked_with_mindspores_words(spelled, error, message):
    with pytest.raises(error) as info:
        eval("vision." + spelled, SCOPE)
    assert str(info.value) == message


@pytest.mark.parametrize("op", ["RandAugment", "TrivialAugmentWide"])
@pytest.mark.parametrize("image, words", [
    (np.zeros((6, 6, 3), np.float32), ("the data type of image tensor does not match the "
                                       "requirement of operator. Expecting tensor in type of "
                                       "(uint8). But got type float32.")),
    (np.zeros((6, 6, 4), np.uint8), ("the channel of image tensor does not match the "
                                     "requirement of operator. Expecting tensor in channel of "
                                     "(3). But got channel 4.")),
    (np.zeros((6, 6), np.uint8), ("the dimension of image tensor does not match the "
                                  "requirement of operator. Expecting tensor in dimension of "
                                  "(3), in shape of <H, W, C>. But got dimension 2.")),
])
def test_images_are_checked_as_mindspore_checks_them(op, image, words):
    with pytest.raises(RuntimeError) as info:
        getattr(vision, op)()(image)
    assert str(info.value) == f"{op}: {words}"


def test_auto_augment_checks_rank_and_channels():
    with pytest.raises(RuntimeError, match="AutoAugment: channel of input image should be 3, "
                                           "but got: 4"):
        vision.AutoAugment()(np.zeros((6, 6, 4), np.uint8))
    with pytest.raises(RuntimeError, match=r"AutoAugment: input tensor is not in shape of "
                                           r"<H,W,C>, but got rank: 2"):
        vision.AutoAugment()(np.zeros((6, 6), np.uint8))


def test_serialized_as_mindspore_writes_them():
    data = ds.NumpySlicesDataset(np.zeros((1, 4, 4, 3), np.uint8), ["image"], shuffle=False)
    data = data.map(operations=[vision.TrivialAugmentWide(7, Inter.BILINEAR, 5),
                                vision.AutoAugment(AutoAugmentPolicy.SVHN)],
                    input_columns=["image"])
    trivial, auto = ds.serialize(data)["operations"]
    assert trivial == {"tensor_op_name": "TrivialAugmentWide", "tensor_op_params": {
        "num_magnitude_bins": 7, "interpolation": 0, "fill_value": [5, 5, 5]}}
    assert auto["tensor_op_params"] == {"policy": 2, "interpolation": 1,
                                        "fill_value": [0, 0, 0]}
