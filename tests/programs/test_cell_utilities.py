"""Cell and Parameter utilities that training scripts call around the model: parameters_dict,
update_parameters_name, Cell.apply for initialisation, forward hooks for feature extraction,
Parameter.clone for an EMA copy, lazily initialised Tensors (init_data), and the other
optimizers and callbacks scripts pick by name."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.common.initializer import One, initializer


def small_net():
    return nn.SequentialCell(nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2))


def test_parameters_dict_and_renaming():
    net = small_net()
    params = net.parameters_dict()
    assert list(params) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    net.update_parameters_name("backbone.")
    assert net.trainable_params()[0].name == "backbone.0.weight"
    assert list(net.parameters_dict())[:2] == ["backbone.0.weight", "backbone.0.bias"]


def test_apply_init_and_forward_hook():
    net = small_net()

    def init(cell):
        if isinstance(cell, nn.Dense):
            cell.weight.set_data(initializer(One(), cell.weight.shape, cell.weight.dtype))

    net.apply(init)
    assert np.all(net[0].weight.asnumpy() == 1)
    features = []
    handle = net[1].register_forward_hook(lambda cell, inputs, output: features.append(output))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net(Tensor(np.ones((2, 3), np.float32)))
    handle.remove()
    assert features and features[0].shape == (2, 4)


def test_ema_copy_and_lazy_tensors():
    net = small_net()
    ema = [p.clone() for p in net.trainable_params()]
    for copy in ema:
        copy.name = "ema." + copy.name
    assert ema[0].name == "ema.0.weight"
    net[0].weight.set_data(Tensor(np.zeros((4, 3), np.float32)))
    assert np.any(ema[0].asnumpy() != 0)  # a copy, not a view
    lazy = Tensor(shape=(2, 3), dtype=ms.float32, init=One())
    np.testing.assert_array_equal(lazy.init_data().asnumpy(), np.ones((2, 3)))


def test_other_optimizers_and_plateau_callback():
    net = small_net()
    for opt in (nn.RMSProp(net.trainable_params(), learning_rate=0.01),
                nn.Adagrad(net.trainable_params(), learning_rate=0.01)):
        train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
        x, y = Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32))
        losses = [float(train(x, y).asnumpy()) for _ in range(20)]
        assert losses[-1] < losses[0]
    assert ms.train.ReduceLROnPlateau(monitor="eval_loss", factor=0.5, patience=2)


def test_imagenet_style_augmentation():
    pytest.importorskip("PIL")  # the resized crop and colour transforms decode with Pillow
    import cellgraph.dataset as ds
    from cellgraph.dataset import vision

    images = np.random.default_rng(0).integers(0, 255, size=(6, 20, 20, 3)).astype(np.uint8)
    data = ds.NumpySlicesDataset({"image": images, "label": np.arange(6)}, shuffle=False)
    data = data.filter(lambda label: label % 2 == 0, input_columns=["label"])
    data = data.map([vision.RandomResizedCrop(16, scale=(0.5, 1.0)),
                     vision.RandomColorAdjust(brightness=0.4, contrast=0.4),
                     vision.RandomRotation(10), vision.HWC2CHW()], input_columns="image")
    batch = next(data.batch(3).create_tuple_iterator(output_numpy=True))
    assert batch[0].shape == (3, 3, 16, 16) and batch[1].tolist() == [0, 2, 4]
