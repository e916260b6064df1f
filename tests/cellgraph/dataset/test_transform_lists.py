"""The transforms list of Compose, RandomApply and RandomChoice and RandomApply's prob,
checked with MindSpore 2.10's errors (recorded from it)."""
import pytest

from cellgraph.common import dtype as mstype
from cellgraph.dataset import transforms as t


@pytest.mark.parametrize("cls", [t.Compose, t.RandomApply, t.RandomChoice])
@pytest.mark.parametrize("arg, error, message", [
    (None, TypeError, (r"Argument transforms list with value None is not of type \[<class "
                      r"'list'>\], but got <class 'NoneType'>.")),
    ([], ValueError, "transforms list can not be empty."),
    ([1], TypeError, (r"transforms\[0\] is neither a transforms op \(TensorOperation\) nor a "
                     r"callable pyfunc.")),
    ((abs,), TypeError, r"is not of type \[<class 'list'>\], but got <class 'tuple'>."),
])
def test_transforms_list(cls, arg, error, message):
    with pytest.raises(error, match=message):
        cls(arg)


def test_random_apply_prob():
    with pytest.raises(ValueError, match=r"Input prob is not within the required interval of "
                                         r"\[0, 1\]."):
        t.RandomApply([t.TypeCast(mstype.int32)], 1.1)
    with pytest.raises(TypeError, match=r"Argument prob with value None is not of type \[<class "
                                        r"'float'>, <class 'int'>\]"):
        t.RandomApply([t.TypeCast(mstype.int32)], None)
    assert t.RandomApply([t.TypeCast(mstype.int32)], 1).prob == 1.0


def test_random_crop_larger_than_the_image():
    import numpy as np

    from cellgraph.dataset import vision

    image = np.zeros((20, 30, 3), np.uint8)
    with pytest.raises(RuntimeError, match="RandomCrop: invalid crop size, crop size is bigger "
                                           "than the image dimensions, got crop height: 10, crop "
                                           "width: 40"):
        vision.RandomCrop((10, 40))(image)
    pil = pytest.importorskip("PIL.Image")
    with pytest.raises(ValueError, match=r"Crop size \(10, 40\) is larger than input image size "
                                         r"\(20, 30\)."):
        vision.RandomCrop((10, 40))(pil.fromarray(image))


def test_random_order_runs_every_transform_once():
    import numpy as np

    order = t.RandomOrder([lambda x: x * 2, lambda x: x + 1])
    results = {int(order(np.array(3))) for _ in range(40)}
    assert results == {7, 8}  # (3 * 2) + 1 or (3 + 1) * 2
    with pytest.raises(ValueError, match="transforms list can not be empty."):
        t.RandomOrder([])


@pytest.mark.parametrize("bits", [(1, 9), 9, (0, 8), (2, 1)])
def test_random_posterize_bits(bits):
    from cellgraph.dataset import vision

    with pytest.raises(ValueError, match=r"^Input is not within the required interval of "
                                         r"\[1, 8\].$"):
        vision.RandomPosterize(bits)


def test_pillow_path_error_in_a_map_is_a_runtime_error():
    import numpy as np

    from cellgraph import dataset as ds
    from cellgraph.dataset import vision

    pytest.importorskip("PIL")
    data = ds.NumpySlicesDataset({"image": np.zeros((1, 20, 30, 3), np.uint8)}, shuffle=False)
    data = data.map(t.Compose([vision.ToPIL(), vision.RandomCrop(50), vision.ToTensor()]),
                    ["image"])
    with pytest.raises(RuntimeError, match=r"(?s)Exception thrown from user defined Python "
                                           r"function in dataset.*Crop size \(50, 50\) is larger"):
        next(data.create_dict_iterator())


def test_an_eager_compose_returns_what_mindspores_does():
    """MindSpore 2.10: a Compose holding a Python transform (ToPIL, RandomGrayscale, Decode with
    to_pil...) or given one Pillow image returns a tuple; otherwise its transforms' outputs
    become arrays between them (a function's Pillow image too) and one output comes alone."""
    image_module = pytest.importorskip("PIL.Image")
    import numpy as np

    from cellgraph.dataset import vision

    def shown(value):
        if isinstance(value, tuple):
            return tuple(shown(v) for v in value)
        return ("array", value.shape) if isinstance(value, np.ndarray) else ("image", value.size)

    array = np.ones((31, 102, 3), dtype=np.uint8)
    pil = image_module.fromarray(array)
    cases = [
        (t.Compose([vision.HorizontalFlip()]), array, ("array", (31, 102, 3))),
        (t.Compose([vision.Resize((30, 30)), vision.CenterCrop((20, 20))]), pil,
         (("image", (20, 20)),)),
        (t.Compose([vision.ToPIL(), vision.RandomGrayscale(prob=0.2)]), array,
         (("image", (102, 31)),)),
        (t.Compose([vision.Resize((30, 30)), vision.ToPIL()]), array, (("image", (30, 30)),)),
        (t.Compose([lambda x: x, image_module.fromarray]), array, ("array", (31, 102, 3))),
        (t.Compose([t.RandomOrder([vision.HorizontalFlip()])]), array,
         (("array", (31, 102, 3)),)),
    ]
    for compose, value, expected in cases:
        assert shown(compose(value)) == expected
    # a function's image reaches the next Compose as an array (MindSpore's executor)
    inner = t.Compose([vision.Resize((30, 30))])
    outer = t.Compose([image_module.fromarray, lambda a: image_module.fromarray(inner(a))])
    assert shown(outer(array)) == ("array", (30, 30, 3))
