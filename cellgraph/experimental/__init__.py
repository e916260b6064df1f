"""`mindspore.experimental`: the PyTorch-style optimizers and learning-rate schedulers."""
from . import optim  # noqa: F401
