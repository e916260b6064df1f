"""Builders of research/audio networks of mindspore-ai/models for zoo_program.py, by the rule
and with the helpers of zoo_networks.py (its docstring says what a builder returns)."""

import numpy as np
from mindspore import Tensor, nn
from zoo_networks import BATCH, SEQ, WIDTH, Run, classifier_step, default_config, ids, normal


def dscnn():
    from src.ds_cnn import DSCNN
    from src.loss import CrossEntropy

    config = default_config()
    # the settings the folder's config module derives from its YAML (1 s clips, MFCC frames)
    samples = config.sample_rate * config.clip_duration_ms // 1000
    window = int(config.sample_rate * config.window_size_ms / 1000)
    stride = int(config.sample_rate * config.window_stride_ms / 1000)
    config.model_setting_spectrogram_length = 1 + (samples - window) // stride
    config.model_setting_dct_coefficient_count = config.dct_coefficient_count
    config.model_setting_label_count = len(config.wanted_words.split(",")) + 2
    config.model_setting_dropout1 = 1.0
    # two layers of the configured form: a full convolution, then a separable one
    layers = [2, WIDTH, 10, 4, 2, 1, WIDTH, 3, 3, 2, 2]
    net = DSCNN(config, layers)
    inputs = (normal((BATCH, 1, config.model_setting_spectrogram_length,
                      config.dct_coefficient_count), 3),)
    classes = config.model_setting_label_count
    train, train_inputs = classifier_step(net, inputs, ids((BATCH,), classes, 4),
                                          CrossEntropy(num_classes=classes))
    return Run(net, inputs, train, train_inputs)


def ctcmodel():
    from src.loss import CTC_Loss
    from src.model import CTCModel
    from src.model_for_train import TrainingWrapper, WithCtcLossCell

    config = default_config()
    frames, labels = 2 * SEQ, 3
    net = CTCModel(input_size=config.feature_dim, batch_size=BATCH, hidden_size=WIDTH,
                   num_class=config.n_class, num_layers=config.n_layer)
    with_loss = WithCtcLossCell(net, CTC_Loss(batch_size=BATCH, max_label_length=labels))
    # the train script: Adam (eps 1e-3), gradients clipped to the configured global norm
    step = TrainingWrapper(with_loss, nn.Adam(net.trainable_params(), learning_rate=0.001,
                                              eps=1e-3), clip_global_norm_value=config.clip_value)
    feature = normal((BATCH, frames, config.feature_dim), 3)
    masks = Tensor(np.ones((BATCH, frames, 2 * WIDTH), np.float32))
    # full-length utterances (MindSpore's CPU CTCLoss leaves the gradient past an utterance's
    # length unset) and labels without the blank (the last class)
    label = ids((BATCH, labels), config.n_class - 1, 4)
    lengths = Tensor(np.full((BATCH,), frames, np.int32))
    return Run(net, (feature, masks), step, (feature, masks, label, lengths))


BUILDERS = {"dscnn": dscnn, "ctcmodel": ctcmodel}
