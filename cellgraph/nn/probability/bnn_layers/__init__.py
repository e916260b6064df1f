"""`mindspore.nn.probability.bnn_layers`: Bayesian layers trained by the reparameterisation
trick, and the loss cell that adds their KL divergence.

Each weight has a Gaussian posterior N(mean, std^2) with learnable `mean` and
`untransformed_std` (std = log(1 + exp(untransformed_std)) keeps it positive). Every forward
pass draws weight = mean + std * eps with eps ~ N(0, 1), so gradients reach both parameters
through the draw. `compute_kl_loss()` sums KL(posterior || prior) over the layer's weights,
against a fixed Gaussian prior (NormalPrior, N(0, 0.1^2) by default).
"""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph.common.initializer import Normal as NormalInit
from cellgraph.common.initializer import initializer
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import nn_functional as NF
from cellgraph.runtime.tensor import Parameter

from ...cell import Cell
from ...layer._checks import make_activation, positive_int
from ...layer.conv import Conv2d
from ..distribution import Normal

__all__ = ["ConvReparam", "DenseReparam", "NormalPosterior", "NormalPrior", "WithBNNLossCell",
           "normal_post_fn", "normal_prior_fn"]


class NormalPrior(Normal):
    """The fixed prior N(mean, std^2) of a Bayesian weight."""

    def __init__(self, mean=0, std=0.1, seed=None, dtype=dt.float32, name="NormalPrior"):
        super().__init__(mean, std, seed, dtype, name)


class NormalPosterior(Cell):
    """A learnable N(mean, softplus(untransformed_std)^2) of the given shape."""

    def __init__(self, name, shape, dtype=dt.float32, loc_mean=0, loc_std=0.1,
                 untransformed_scale_mean=-5, untransformed_scale_std=0.1):
        super().__init__()
        if not isinstance(name, str):
            raise TypeError(f"NormalPosterior: `name` must be a str, got {name!r}")
        self.shape = tuple(shape)
        self.mean = Parameter(initializer(NormalInit(loc_std, loc_mean), self.shape, dtype),
                              name=f"{name}_mean")
        self.untransformed_std = Parameter(
            initializer(NormalInit(untransformed_scale_std, untransformed_scale_mean),
                        self.shape, dtype), name=f"{name}_untransformed_std")
        self.normal = Normal(dtype=dtype)

    def std(self):
        return P.log1p(P.exp(self.untransformed_std))

    def sample(self):
        """One reparameterised draw: mean + std * eps."""
        eps = P.cast(P.standard_normal(self.shape), self.mean.dtype)
        return self.mean + self.std() * eps

    def kl_loss(self, prior: Normal):
        """KL(this posterior || prior), summed over the weight."""
        kl = self.normal.kl_loss("Normal", prior._mean, prior._sd, self.mean, self.std())
        return P.reduce_sum(kl)

    def construct(self, name, *args):
        return self.normal(name, *args, self.mean, self.std())


def normal_prior_fn():
    return NormalPrior()


def normal_post_fn(name, shape):
    return NormalPosterior(name=name, shape=shape)


def _distributions(owner, prefix: str, shape, prior_fn, posterior_fn):
    prior = prior_fn()
    if not isinstance(prior, Normal):
        raise TypeError(f"{type(owner).__name__}: the `{prefix}_prior_fn` must give a Normal "
                        f"distribution, got {type(prior).__name__}")
    posterior = posterior_fn(name=f"bnn_{prefix}", shape=shape)
    if not isinstance(posterior, NormalPosterior):
        raise TypeError(f"{type(owner).__name__}: the `{prefix}_posterior_fn` must give a "
                        f"NormalPosterior, got {type(posterior).__name__}")
    return prior, posterior


class _ReparamLayer(Cell):
    """What the two layers share: posteriors and priors for the weight (and bias), the KL."""

    def _bayesian(self, weight_shape, out_channels, has_bias, priors, posteriors):
        self.has_bias = bool(has_bias)
        self.weight_prior, self.weight_posterior = _distributions(
            self, "weight", weight_shape, priors[0], posteriors[0])
        if self.has_bias:
            self.bias_prior, self.bias_posterior = _distributions(
                self, "bias", (out_channels,), priors[1], posteriors[1])

    def _bias(self):
        return self.bias_posterior.sample() if self.has_bias else None

    def compute_kl_loss(self):
        kl = self.weight_posterior.kl_loss(self.weight_prior)
        if self.has_bias:
            kl = kl + self.bias_posterior.kl_loss(self.bias_prior)
        return kl


class DenseReparam(_ReparamLayer):
    """A Bayesian Dense layer: y = activation(x W^T + b) with W and b drawn anew each call."""

    def __init__(self, in_channels, out_channels, activation=None, has_bias=True,
                 weight_prior_fn=NormalPrior, weight_posterior_fn=normal_post_fn,
                 bias_prior_fn=NormalPrior, bias_posterior_fn=normal_post_fn):
        super().__init__()
        self.in_channels = positive_int(in_channels, "DenseReparam", "in_channels")
        self.out_channels = positive_int(out_channels, "DenseReparam", "out_channels")
        self._bayesian((self.out_channels, self.in_channels), self.out_channels, has_bias,
                       (weight_prior_fn, bias_prior_fn),
                       (weight_posterior_fn, bias_posterior_fn))
        self.activation = make_activation(activation, "DenseReparam")

    def construct(self, x):
        out = P.matmul(x, P.transpose(self.weight_posterior.sample(), (1, 0)))
        if self.has_bias:
            out = out + self._bias()
        return out if self.activation is None else self.activation(out)


class ConvReparam(_ReparamLayer):
    """A Bayesian Conv2d (NCHW): the convolution of nn.Conv2d with its weight (and bias)
    drawn anew each call."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False,
                 weight_prior_fn=NormalPrior, weight_posterior_fn=normal_post_fn,
                 bias_prior_fn=NormalPrior, bias_posterior_fn=normal_post_fn):
        super().__init__()
        conv = Conv2d(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                      dilation, group)  # checks and normalises the arguments
        for name in ("in_channels", "out_channels", "kernel_size", "stride", "pad_mode",
                     "padding", "dilation", "group"):
            setattr(self, name, getattr(conv, name))
        shape = (self.out_channels, self.in_channels // self.group) + self.kernel_size
        self._bayesian(shape, self.out_channels, has_bias, (weight_prior_fn, bias_prior_fn),
                       (weight_posterior_fn, bias_posterior_fn))

    def construct(self, x):
        return NF.conv2d(x, self.weight_posterior.sample(), self._bias(), self.stride,
                         self.pad_mode, self.padding, self.dilation, self.group)


class WithBNNLossCell(Cell):
    """loss = dnn_factor * loss_fn(backbone(x), label) + bnn_factor * (the KL of every
    Bayesian layer in the backbone)."""

    def __init__(self, backbone, loss_fn, dnn_factor=1, bnn_factor=1):
        super().__init__(auto_prefix=False)
        for name, value in (("dnn_factor", dnn_factor), ("bnn_factor", bnn_factor)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"WithBNNLossCell: `{name}` must be an int or float, got "
                                f"{value!r}")
        self._backbone, self._loss_fn = backbone, loss_fn
        self.dnn_factor, self.bnn_factor = float(dnn_factor), float(bnn_factor)
        self.kl_layers = [cell for _, cell in backbone.cells_and_names()
                          if isinstance(cell, _ReparamLayer)]

    def construct(self, x, label):
        loss = self._loss_fn(self._backbone(x), label) * self.dnn_factor
        for layer in self.kl_layers:
            loss = loss + layer.compute_kl_loss() * self.bnn_factor
        return loss

    @property
    def backbone_network(self):
        return self._backbone
