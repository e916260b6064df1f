"""`mindspore.experimental.optim`: optimizers with parameter groups (`param_groups`, each with
its own "lr" and hyper-parameters) and the schedulers in `lr_scheduler` that change them.

An optimizer is a Cell called with one gradient per parameter (`optimizer(grads)`), so it
compiles into the training step. Each group's learning rate is a Parameter: a scheduler
assigns a new value between steps, and the compiled graph reads it without recompiling.
"""
from . import lr_scheduler
from .optimizer import SGD, Adam, AdamW, Optimizer

__all__ = ["SGD", "Adam", "AdamW", "Optimizer", "lr_scheduler"]
