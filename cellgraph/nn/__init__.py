"""cellgraph.nn: Cell and the layers, losses, optimizers and wrappers built on it."""
from .cell import Cell  # noqa: F401
from .grad_cells import Jvp, Vjp  # noqa: F401
from .activation import (GELU, LeakyReLU, LogSoftmax, ReLU, ReLU6, Sigmoid, SiLU,  # noqa: F401
                         Softmax, Softplus, Tanh, get_activation)
from .container import CellList, SequentialCell  # noqa: F401
from .conv import AvgPool2d, Conv2d, MaxPool2d  # noqa: F401
from .layers import Dense, Dropout, Embedding, Flatten, Identity  # noqa: F401
from .learning_rate_schedule import (CosineDecayLR, ExponentialDecayLR,  # noqa: F401
                                     LearningRateSchedule, PolynomialDecayLR, WarmUpLR)
from .loss import (BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, LossBase, MSELoss,  # noqa: F401
                   NLLLoss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits)
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm  # noqa: F401
from .optim import SGD, Adam, AdamW, AdamWeightDecay, Momentum, Optimizer  # noqa: F401
from .wrap import TrainOneStepCell, WithEvalCell, WithLossCell  # noqa: F401
