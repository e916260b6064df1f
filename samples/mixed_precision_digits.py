"""The digits LeNet in float16 mixed precision (amp_level="O2"), against float32.

`Model(..., amp_level="O2", loss_scale_manager=DynamicLossScaleManager(...))` runs the network
in float16 while the weights stay float32 master copies (batch normalisation, if any, would
stay float32 too), multiplies the loss by a scale before differentiating so that small
gradients survive float16, skips any step whose gradients overflow and then halves the scale,
and doubles it again after a run of clean steps. The sample trains the same network in float32
and in float16 over the same dataset pipeline and prints both accuracies (within a point of
each other) and the loss scale the run settled on.
"""
from model_digits import build_model, create_dataset, load_digit_images

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph.train import DynamicLossScaleManager, LossMonitor


def train_once(amp_level, data, epochs, batch_size, learning_rate, seed, verbose):
    ms.set_seed(seed)
    ds.config.set_seed(seed)
    (x_train, y_train), (x_test, y_test) = data
    train_set = create_dataset(x_train, y_train, batch_size, training=True)
    test_set = create_dataset(x_test, y_test, 128, training=False)
    steps = train_set.get_dataset_size()
    extra = {} if amp_level == "O0" else {"loss_scale_manager": DynamicLossScaleManager(
        init_loss_scale=2 ** 16, scale_factor=2, scale_window=200)}
    model = build_model(learning_rate, epochs * steps, amp_level=amp_level, **extra)
    if verbose:
        print(f"-- amp_level {amp_level} "
              f"({'float32' if amp_level == 'O0' else 'float16 compute, float32 weights'})")
    model.train(epochs, train_set, callbacks=[LossMonitor(steps)] if verbose else [])
    accuracy = model.eval(test_set)["accuracy"]
    step = model.train_network
    scale = float(step.scale_sense.asnumpy()) if hasattr(step, "scale_sense") else None
    return accuracy, scale


def main(epochs=20, batch_size=32, learning_rate=0.05, train_size=None, seed=0, verbose=True):
    """Return {"float32_accuracy", "float16_accuracy", "loss_scale"}."""
    ms.set_context(mode=ms.GRAPH_MODE)
    (x_train, y_train), test = load_digit_images(seed=seed)
    if train_size is not None:
        x_train, y_train = x_train[:train_size], y_train[:train_size]
    data = ((x_train, y_train), test)
    full, _ = train_once("O0", data, epochs, batch_size, learning_rate, seed, verbose)
    half, scale = train_once("O2", data, epochs, batch_size, learning_rate, seed, verbose)
    if verbose:
        print(f"float32 accuracy {100 * full:.2f}%, float16 (O2) accuracy {100 * half:.2f}%, "
              f"loss scale {scale:g}")
    return {"float32_accuracy": full, "float16_accuracy": half, "loss_scale": scale}


if __name__ == "__main__":
    main()
