"""The nn package follows MindSpore's module tree: each class is defined in the module whose
MindSpore path names it (`mindspore.nn.layer.basic.Dense` is `cellgraph.nn.layer.basic.Dense`),
so a MindSpore import path finds the definition. The table was recorded from MindSpore 2.10's
`__module__` of each public `nn` name that cellgraph provides."""
import importlib

import pytest

from cellgraph import nn

MINDSPORE_MODULES = {
    "cell": "Cell",
    "dynamic_lr": ("cosine_decay_lr exponential_decay_lr inverse_decay_lr natural_exp_decay_lr "
                   "piecewise_constant_lr polynomial_decay_lr warmup_lr"),
    "grad.cell_grad": "Jvp Vjp",
    "layer.activation": ("CELU ELU FastGelu GELU GLU HShrink HSigmoid HSwish Hardtanh LeakyReLU "
                         "LogSigmoid LogSoftmax Mish PReLU RReLU ReLU ReLU6 SeLU SiLU Sigmoid "
                         "SoftShrink Softmax Softmax2d Softmin Softsign Tanh Tanhshrink "
                         "Threshold get_activation"),
    "layer.basic": ("ClipByNorm Dense Dropout Dropout1d Dropout2d Dropout3d Flatten Identity "
                    "L1Regularizer Linear Norm OneHot Pad Roll Tril Triu Unflatten Unfold "
                    "Upsample"),
    "layer.channel_shuffle": "ChannelShuffle",
    "layer.combined": "Conv2dBnAct DenseBnAct",
    "layer.container": "CellDict CellList SequentialCell",
    "layer.conv": "Conv1d Conv1dTranspose Conv2d Conv2dTranspose Conv3d Conv3dTranspose",
    "layer.dense": "BiDense",
    "layer.embedding": "Embedding EmbeddingLookup",
    "layer.image": "CentralCrop PSNR PixelShuffle PixelUnshuffle SSIM",
    "layer.math": "DiGamma LGamma MatDet MatInverse MatMul Moments Range ReduceLogSumExp",
    "layer.normalization": ("BatchNorm1d BatchNorm2d BatchNorm3d GroupNorm InstanceNorm1d "
                            "InstanceNorm2d InstanceNorm3d LayerNorm SyncBatchNorm"),
    "layer.padding": ("ConstantPad1d ConstantPad2d ConstantPad3d ReflectionPad1d ReflectionPad2d "
                      "ReflectionPad3d ReplicationPad1d ReplicationPad2d ReplicationPad3d "
                      "ZeroPad2d"),
    "layer.pooling": ("AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d "
                      "AdaptiveMaxPool2d AdaptiveMaxPool3d AvgPool1d AvgPool2d AvgPool3d "
                      "FractionalMaxPool2d FractionalMaxPool3d LPPool1d LPPool2d MaxPool1d "
                      "MaxPool2d MaxPool3d MaxUnpool1d MaxUnpool2d MaxUnpool3d"),
    "layer.rnn_cells": "GRUCell LSTMCell RNNCell",
    "layer.rnns": "GRU LSTM RNN",
    "layer.timedistributed": "TimeDistributed",
    "layer.transformer": ("MultiheadAttention Transformer TransformerDecoder "
                          "TransformerDecoderLayer TransformerEncoder TransformerEncoderLayer"),
    "learning_rate_schedule": ("CosineDecayLR ExponentialDecayLR InverseDecayLR "
                               "NaturalExpDecayLR PolynomialDecayLR WarmUpLR"),
    "loss.loss": ("BCELoss BCEWithLogitsLoss CTCLoss CosineEmbeddingLoss CrossEntropyLoss "
                  "DiceLoss FocalLoss GaussianNLLLoss HingeEmbeddingLoss HuberLoss KLDivLoss "
                  "L1Loss LossBase MAELoss MSELoss MarginRankingLoss MultiClassDiceLoss "
                  "MultiLabelSoftMarginLoss MultiMarginLoss NLLLoss PoissonNLLLoss RMSELoss "
                  "SmoothL1Loss SoftMarginLoss SoftmaxCrossEntropyWithLogits TripletMarginLoss "
                  "TripletMarginWithDistanceLoss"),
    "optim.ada_grad": "Adagrad",
    "optim.adadelta": "Adadelta",
    "optim.adafactor": "AdaFactor",
    "optim.adam": "Adam AdamWeightDecay",
    "optim.adamax": "AdaMax",
    "optim.ftrl": "FTRL",
    "optim.lamb": "Lamb",
    "optim.lazyadam": "LazyAdam",
    "optim.momentum": "Momentum",
    "optim.optimizer": "Optimizer",
    "optim.proximal_ada_grad": "ProximalAdagrad",
    "optim.rmsprop": "RMSProp",
    "optim.rprop": "Rprop",
    "optim.sgd": "SGD",
    "utils.init": "no_init_parameters",
    "wrap.cell_wrapper": ("ForwardValueAndGrad ParameterUpdate TrainOneStepCell WithEvalCell "
                          "WithGradCell WithLossCell"),
    "wrap.grad_reducer": "DistributedGradReducer",
    "wrap.loss_scale": ("DynamicLossScaleUpdateCell FixedLossScaleUpdateCell "
                        "TrainOneStepWithLossScaleCell"),
}


@pytest.mark.parametrize("module", sorted(MINDSPORE_MODULES))
def test_each_name_is_defined_at_its_mindspore_path(module):
    imported = importlib.import_module(f"cellgraph.nn.{module}")
    for name in MINDSPORE_MODULES[module].split():
        obj = getattr(nn, name)
        assert obj.__module__ == imported.__name__, (name, obj.__module__)
        assert getattr(imported, name) is obj


def test_packages_export_their_modules_names():
    assert nn.optim.Momentum is nn.optim.momentum.Momentum is nn.Momentum
    assert nn.layer.Dense is nn.Dense and nn.loss.MSELoss is nn.MSELoss
    assert nn.wrap.TrainOneStepCell is nn.TrainOneStepCell and nn.grad.Jvp is nn.Jvp
    assert set(nn.layer.__all__) <= set(nn.__all__) and set(nn.optim.__all__) <= set(nn.__all__)
