"""gen_ops_prim's gradient classes of operations cellgraph has: each is the pullback of its
forward operation at the given input applied to the incoming gradient (reverse mode over the
forward's own graph), with MindSpore's call arguments. A class whose forward is computed from
its result (`is_result`, SeluGrad's `result`) recovers the input where the activation is
invertible, or uses the derivative written in terms of the result."""
from cellgraph import ops
from cellgraph.forward import vjp
from cellgraph.ops.primitive_class import define_class
from cellgraph.primitives.exports import REQUIRED

from ._mint_lookup import functional

MODULE = "cellgraph.ops.auto_generate.gen_ops_prim"


def pullback(forward, cotangent, *inputs):
    """The gradients of `forward` at `inputs` for the output gradient `cotangent` (one tensor
    for one input)."""
    _, pull = vjp(forward, *inputs)
    grads = pull(cotangent)
    return grads[0] if len(inputs) == 1 else grads


def _abs_grad(x, dout):
    return pullback(ops.abs, dout, x)


def _fast_gelu_grad(dy, x):
    return pullback(ops.fast_gelu, dy, x)


def _hswish_grad(y_grad, x):
    return pullback(ops.hardswish, y_grad, x)


def _silu_grad(dout, x):
    return pullback(ops.silu, dout, x)


def _gelu_grad(grad, input, approximate="none"):
    return pullback(lambda x: functional().gelu(x, approximate), grad, input)


def _elu_grad(dout, x_or_out, alpha=1.0, is_result=False):
    """ELU's gradient at x, or, given its result y (`is_result`), where y > 0 the slope is 1
    and elsewhere y + alpha."""
    if is_result:
        return ops.select(x_or_out > 0, dout, dout * (x_or_out + alpha))
    return pullback(lambda x: functional().elu(x, alpha), dout, x_or_out)


def _leaky_relu_grad(dy, input, negative_slope=0.01, is_result=False):
    """The slope is 1 where the input (or the result, of the same sign when the slope is
    positive) is positive, else negative_slope."""
    return ops.select(input > 0, dy, dy * negative_slope)


def _softplus_grad(dout, x, beta=1, threshold=20):
    return pullback(lambda v: functional().softplus(v, beta, threshold), dout, x)


def _hardtanh_grad(dout, input, min_val=-1, max_val=1):
    return pullback(lambda v: functional().hardtanh(v, min_val, max_val), dout, input)


def _threshold_grad(grad_output, input, threshold):
    """The gradient passes where the input is above the threshold."""
    return ops.select(input > threshold, grad_output, ops.zeros_like(grad_output))


def _mish_grad(dout, x):
    return pullback(functional().mish, dout, x)


def _log_sigmoid_grad(dy, input, buffer):
    """d logsigmoid(x) = sigmoid(-x) dy (`buffer`, the Ascend kernel's scratch, is unused)."""
    return pullback(functional().logsigmoid, dy, input)


def _selu_grad(gradient, result):
    """SELU's gradient from its result y: scale where y > 0, else y + scale * alpha."""
    scale, alpha = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717
    return ops.select(result > 0, gradient * scale, gradient * (result + scale * alpha))


def _softmax_backward(dout, out, dim=-1):
    """Softmax's gradient from its result: out * (dout - sum(dout * out) along dim)."""
    return out * (dout - (dout * out).sum(dim, keepdims=True))


def _log_softmax_grad(logits, grad, axis=-1):
    """LogSoftmax's gradient from its result `logits`: grad - exp(logits) * sum(grad)."""
    return grad - ops.exp(logits) * grad.sum(axis, keepdims=True)


def _swiglu_grad(grad_output, input, dim=-1):
    return pullback(lambda x: ops.swiglu(x, dim), grad_output, input)


def _l1_loss_grad(grad_output, input, target, reduction="mean"):
    return pullback(lambda x: functional().l1_loss(x, target, reduction), grad_output, input)


def _mse_loss_grad(dout, x, target, reduction="mean"):
    return pullback(lambda v: functional().mse_loss(v, target, reduction), dout, x)


def _kl_div_grad(grad_output, input, target, reduction="mean", log_target=False):
    return pullback(lambda x: functional().kl_div(x, target, reduction, log_target),
                     grad_output, input)


def _binary_cross_entropy_grad(input, target, grad_output, weight=None, reduction="mean"):
    return pullback(lambda x: functional().binary_cross_entropy(x, target, weight, reduction),
                     grad_output, input)


def _bce_with_logits_grad(grad_output, input, target, weight=None, posWeight=None,
                          reduction="mean"):
    return pullback(lambda x: functional().binary_cross_entropy_with_logits(
        x, target, weight, reduction, posWeight), grad_output, input)


def _smooth_l1_loss_grad(prediction, target, dout, beta=1.0, reduction="none"):
    return pullback(lambda x: functional().smooth_l1_loss(x, target, reduction, beta), dout,
                     prediction)


def _soft_margin_loss_grad(predict, label, dout, reduction="mean"):
    return pullback(lambda x: functional().soft_margin_loss(x, label, reduction), dout,
                     predict)


def _gather_d_grad(x, dim, index, dout):
    """dout added into zeros of x's shape at `index` along `dim` (GatherD's gradient)."""
    return ops.tensor_scatter_elements(ops.zeros_like(x), index, dout, dim, "add")


def _masked_select_grad(input, mask, grad):
    """grad's elements written, in order, where the mask (broadcast to the input) is True;
    zeros elsewhere."""
    mask = ops.broadcast_to(mask, tuple(input.shape))
    return ops.masked_scatter(ops.zeros_like(input), mask, grad)


def _glu_grad(grads, x, axis=REQUIRED):
    return pullback(lambda v: ops.glu(v, axis), grads, x)


def _dropout_grad(input, mask, p):
    """The incoming gradient where the mask kept, scaled by 1 / (1 - p)."""
    scale = 0.0 if p >= 1 else 1.0 / (1.0 - p)
    return input * ops.cast(mask, input.dtype) * scale


_TABLE = {
    "AbsGrad": _abs_grad, "FastGeLUGrad": _fast_gelu_grad, "HSwishGrad": _hswish_grad,
    "SiLUGrad": _silu_grad, "GeluGradExt": _gelu_grad, "EluGradExt": _elu_grad,
    "LeakyReLUGradExt": _leaky_relu_grad, "SoftplusGradExt": _softplus_grad,
    "HardtanhGrad": _hardtanh_grad, "ThresholdGrad": _threshold_grad,
    "MishGradExt": _mish_grad, "LogSigmoidGrad": _log_sigmoid_grad, "SeluGrad": _selu_grad,
    "SoftmaxBackward": _softmax_backward, "SwigluGrad": _swiglu_grad,
    "L1LossBackwardExt": _l1_loss_grad, "MSELossGradExt": _mse_loss_grad,
    "KLDivGrad": _kl_div_grad, "BinaryCrossEntropyWithLogitsBackward": _bce_with_logits_grad,
    "GatherDGradV2": _gather_d_grad, "MaskedSelectGrad": _masked_select_grad,
    "DropoutGradExt": _dropout_grad,
}
# classes whose constructor takes some of the arguments: name -> (function, init defaults)
_CONFIGURED = {
    "LogSoftmaxGrad": (_log_softmax_grad, {"axis": -1}),
    "BinaryCrossEntropyGrad": (_binary_cross_entropy_grad, {"reduction": "mean"}),
    "SmoothL1LossGrad": (_smooth_l1_loss_grad, {"beta": 1.0, "reduction": "none"}),
    "SoftMarginLossGrad": (_soft_margin_loss_grad, {"reduction": "mean"}),
    "GluGrad": (_glu_grad, {"axis": REQUIRED}),
}

CLASSES = {name: define_class(name, fn, None, MODULE) for name, fn in _TABLE.items()}
CLASSES.update({name: define_class(name, fn, init, MODULE)
                for name, (fn, init) in _CONFIGURED.items()})
