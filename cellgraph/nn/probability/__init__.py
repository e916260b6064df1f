"""`mindspore.nn.probability`: probability distributions (`distribution`), bijectors
(`bijector`) and Bayesian layers (`bnn_layers`)."""
from . import bijector, bnn_layers, distribution

__all__ = ["bijector", "bnn_layers", "distribution"]
