"""`ops.auto_generate.pyboost_inner_prim`: `<name>_impl`, MindSpore's argument order with every
argument given at call time, as the classes' generated call functions take them
(`softmax_impl(input, axis)`)."""
from cellgraph import ops as _ops
from cellgraph.ops.function.array_func.attributes import known as _known
from cellgraph.ops.function.array_func.indexing import (
    unique_consecutive_all as _unique_consecutive_all,
)
from cellgraph.ops.function.nn_func.attention import flash_attention_score_impl  # noqa: F401
from cellgraph.ops.function.nn_func.image import grid_sampler_impl
from cellgraph.ops.function.nn_func.loss import checked_labels as _checked_labels
from cellgraph.ops.function.nn_func.loss import nll_loss as _nll_loss
from cellgraph.primitives import functional as _core


def argmax_with_value_impl(input, axis=0, keep_dims=False):
    return _ops.ArgMaxWithValue(axis, keep_dims)(input)


def argmin_with_value_impl(input, axis=0, keep_dims=False):
    return _ops.ArgMinWithValue(axis, keep_dims)(input)


def softmax_impl(input, axis=(-1,)):
    return _ops.softmax(input, axis[0] if isinstance(axis, (tuple, list)) else axis)


def reduce_max_impl(input, axis=(), keep_dims=False):
    return _core.reduce_max(input, axis, keep_dims)


def meshgrid_impl(inputs, indexing="xy"):
    return _ops.meshgrid(*inputs, indexing=indexing)


def binary_cross_entropy_with_logits_impl(input, target, weight=None, posWeight=None,
                                          reduction="mean"):
    return _ops.binary_cross_entropy_with_logits(input, target, weight, posWeight, reduction)


def nllloss_impl(logits, labels, weight, reduction="mean", ignore_index=-100):
    """NLLLoss's (loss, total_weight): total_weight sums the class weights of the targets
    that are not ignored, the divisor of the mean."""
    labels = _checked_labels("NLLLoss", labels, logits.shape[1], ignore_index)
    loss = _nll_loss(logits, labels, weight, ignore_index, reduction)
    kept = _ops.cast(_ops.not_equal(labels, ignore_index), weight.dtype)
    safe = _ops.select(_ops.not_equal(labels, ignore_index), labels, _ops.zeros_like(labels))
    return loss, _ops.reduce_sum(_ops.gather(weight, safe, 0) * kept)


def elu_ext_impl(input, alpha=1.0):
    return _ops.elu(input, alpha)


def glu_impl(x, axis=-1):
    return _ops.glu(x, axis)


def rms_norm_impl(x, gamma, epsilon=1e-6):
    return _ops.RmsNorm(epsilon)(x, gamma)


def cross_impl(input, other, dim=-65530):
    """-65530 is the generated call's "dim not given": the first axis of size 3."""
    return _ops.cross(input, other, None if dim == -65530 else dim)


def unique_consecutive_impl(input, return_inverse=False, return_counts=False, dim=None):
    """(values, inverse, counts) always, as MindSpore's primitive returns them; _ops.
    unique_consecutive picks from them."""
    return _unique_consecutive_all(input, dim)


def one_hot_ext_impl(tensor, num_classes=-1):
    """int64 one-hot rows over a new last axis; num_classes=-1 takes max(tensor) + 1, which
    needs the tensor's values (an eager Tensor)."""
    if num_classes == -1:
        num_classes = int(_known(tensor, "tensor", "one_hot").max()) + 1
    return _ops.one_hot(tensor, num_classes, 1, 0, -1)


concat_impl, stack_ext_impl, squeeze_impl = _ops.concat, _ops.stack, _ops.squeeze
reduce_all_impl, reduce_any_impl, reverse_v2_impl = _ops.all, _ops.any, _ops.flip
isclose_impl, roll_impl, triu_impl = _ops.isclose, _ops.roll, _ops.triu
grid_sampler_2d_impl = grid_sampler_3d_impl = grid_sampler_impl

__all__ = sorted(name for name in globals() if name.endswith("_impl"))  # noqa: PLE0605
