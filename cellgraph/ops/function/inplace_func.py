"""The in-place functions of MindSpore's `ops` (`ops.zero_(x)`, `ops.normal_(x)`, ...): each
computes its input's new value and writes it into the input (`compiler.effects.
update_in_place`, see ops/inplace.py, which makes the Tensor methods of them) and returns it."""
from __future__ import annotations

from cellgraph.compiler.builder import is_tensor_like
from cellgraph.compiler.effects import update_in_place
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.nn_functional import clamp

from .array_func.indexing import put_along

# the in-place functions MindSpore's ops has
OPS_FUNCTIONS = ["bernoulli_", "clamp_", "erfinv_", "exponential_", "inplace_sigmoid", "normal_",
                 "put_", "random_", "tanh_", "uniform_", "zero_"]


def by_operand(other, tensor_op: str, scalar_op: str) -> str:
    """MindSpore's in-place primitive for a Tensor operand `other`, or for a number."""
    return tensor_op if is_tensor_like(other) else scalar_op


def zero_(input):
    return update_in_place(input, 0, "InplaceZero")


def clamp_(input, min=None, max=None):
    return update_in_place(input, clamp(input, min, max),
                           "InplaceClampTensor" if is_tensor_like(min) or is_tensor_like(max)
                           else "InplaceClampScalar")


def tanh_(input):
    """`input = ops.tanh(input)`, in place."""
    return update_in_place(input, F.tanh(input), "InplaceTanh")


def erfinv_(input):
    """`input = ops.erfinv(input)`, in place."""
    return update_in_place(input, F.erfinv(input), "InplaceErfinv")


def sigmoid_(input):
    """`input = ops.sigmoid(input)`, in place."""
    return update_in_place(input, F.sigmoid(input), "InplaceSigmoid")


def inplace_sigmoid(input):
    """`input = ops.sigmoid(input)`, in place."""
    return sigmoid_(input)


# ----- random fills in place: the draws from mint's samplers (which take a `generator`) --------

def _mint():
    from cellgraph import mint  # above ops (it loads nn): read when called

    return mint


def _shape(input) -> tuple:
    return tuple(input.shape)


def normal_(input, mean=0, std=1, *, generator=None):
    """input filled with draws from N(mean, std^2), in place."""
    draws = _mint().normal(0.0, 1.0, _shape(input), generator=generator)
    return update_in_place(input, F.add(F.mul(draws, std), mean), "InplaceNormal")


def uniform_(input, from_=0, to=1, *, generator=None):
    """input filled with draws from U[from_, to), in place."""
    draws = _mint().rand(*_shape(input), generator=generator)
    return update_in_place(input, F.add(F.mul(draws, to - from_), from_), "InplaceUniform")


def exponential_(input, lambd=1, *, generator=None):
    """input filled with draws from the exponential distribution of rate `lambd`, in place:
    -log(1 - u) / lambd for u uniform in [0, 1)."""
    u = _mint().rand(*_shape(input), generator=generator)
    return update_in_place(input, F.div(F.neg(F.log(F.sub(1.0, u))), lambd),
                           "InplaceExponential")


def random_(input, from_=0, to=None, *, generator=None):
    """input filled with integers drawn uniformly from [from_, to), in place (to defaults to
    one past the largest value of input's dtype, 2^mantissa bits for a float dtype)."""
    import numpy as np

    dtype = input.dtype
    if to is None:
        to = (int(np.iinfo(dtype.np).max) + 1 if dtype.is_int
              else 2 ** (dt.finfo(dtype).nmant + 1) if dtype.is_float else 2)
    draws = _mint().randint(from_, to, _shape(input), generator=generator)
    return update_in_place(input, draws, "InplaceRandom")


def bernoulli_(input, p=0.5, *, generator=None):
    """input filled with 1 with probability p (a number or a Tensor broadcast to input), 0
    otherwise, in place."""
    probability = F.add(F.zeros_like(F.cast(input, dt.float32)), p)
    return update_in_place(input, _mint().bernoulli(probability, generator=generator),
                           by_operand(p, "InplaceBernoulliTensor", "InplaceBernoulliScalar"))


def put_(input, index, source, accumulate=False):
    """input, read as flat, with `source` written at the flat positions `index` (added with
    `accumulate`), in place."""
    return update_in_place(input, put_along(input, index, source, accumulate), "InplacePut")


