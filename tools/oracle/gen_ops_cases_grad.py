"""make_gen_ops_fixtures.py's cases of gen_ops_prim's gradient classes
(cellgraph/ops/auto_generate/grad_classes.py). Where MindSpore's CPU build cannot run a class,
the reference is MindSpore's own reverse mode through the forward operation (mindspore.vjp)."""
import mindspore as ms
import numpy as np
from gen_ops_case_values import reference, t

RNG = np.random.default_rng(11)
X = t([[0.5, -1.5, 2.0], [3.0, 0.25, -1.0]])
DOUT = t([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]])
PROB = t([[0.2, 0.7, 0.9], [0.4, 0.1, 0.6]])
TARGET = t([[0.0, 1.0, 1.0], [1.0, 0.0, 0.5]])
F = ms.ops


def _vjp(doc, forward, grad_at=0, dout_at=0):
    """A reference: mindspore.vjp of `forward(x, *rest)` at the argument in position
    `grad_at`, for the output gradient in position `dout_at`; the other arguments are
    forward's, in order."""
    def call(*args):
        x, dout = args[grad_at], args[dout_at]
        rest = [a for i, a in enumerate(args) if i not in (grad_at, dout_at)]
        _, pullback = ms.vjp(lambda v: forward(v, *rest), x)
        out = pullback(dout)
        return out[0] if isinstance(out, tuple) else out

    return reference(f"mindspore.vjp of {doc}", call)


def _selu_grad(dout, result):
    """SELU's derivative, scale or scale * alpha * exp(x), at the input x the result came from
    (MindSpore 2.10's own CPU vjp of ops.selu is wrong for negative inputs: 0.32 at x = -0.5,
    where the derivative is 1.07)."""
    scale, alpha = 1.0507009873554805, 1.6732632423543772
    x = F.log(result / (scale * alpha) + 1)
    return F.select(result > 0, dout * scale, dout * scale * alpha * F.exp(x))


# (case id, class, constructor keyword arguments, call arguments, reference or None)
CASES = [
    ("abs_grad", "AbsGrad", {}, [X, DOUT], None),
    ("fast_gelu_grad", "FastGeLUGrad", {}, [DOUT, X], None),
    ("hswish_grad", "HSwishGrad", {}, [DOUT, X], None),
    ("silu_grad", "SiLUGrad", {}, [DOUT, X], None),
    ("gelu_grad_ext", "GeluGradExt", {}, [DOUT, X],
     _vjp("ops.gelu", lambda x: F.gelu(x, "none"), 1, 0)),
    ("gelu_grad_ext_tanh", "GeluGradExt", {}, [DOUT, X, "tanh"],
     _vjp("ops.gelu(tanh)", lambda x, a: F.gelu(x, a), 1, 0)),
    ("elu_grad_ext", "EluGradExt", {}, [DOUT, X], _vjp("ops.elu", F.elu, 1, 0)),
    ("elu_grad_ext_result", "EluGradExt", {}, [DOUT, t([[0.5, -0.7769, 2.0], [3.0, 0.25, -0.6321]]),
                                             1.0, True],
     reference("1 where y > 0, else y + alpha", lambda d, y, a, r: F.select(y > 0, d, d * (y + a)))),
    ("leaky_relu_grad_ext", "LeakyReLUGradExt", {}, [DOUT, X, 0.2],
     _vjp("ops.leaky_relu", lambda x, s: F.leaky_relu(x, s), 1, 0)),
    ("softplus_grad_ext", "SoftplusGradExt", {}, [DOUT, X, 2, 3],
     _vjp("ops.softplus", lambda x, b, th: F.softplus(x, b, th), 1, 0)),
    ("hardtanh_grad", "HardtanhGrad", {}, [DOUT, X, -0.5, 1.5],
     _vjp("ops.hardtanh", lambda x, lo, hi: F.hardtanh(x, lo, hi), 1, 0)),
    ("threshold_grad", "ThresholdGrad", {}, [DOUT, X, 0.4],
     _vjp("ops.threshold", lambda x, th: F.threshold(x, th, 0.0), 1, 0)),
    ("mish_grad_ext", "MishGradExt", {}, [DOUT, X], _vjp("ops.mish", F.mish, 1, 0)),
    ("log_sigmoid_grad", "LogSigmoidGrad", {}, [DOUT, X, X],
     _vjp("ops.logsigmoid", lambda x, buffer: F.logsigmoid(x), 1, 0)),
    ("selu_grad", "SeluGrad", {}, [DOUT, t([[0.5254, -1.3290, 2.1014], [3.1521, 0.2627, -1.1113]])],
     reference("scale * alpha * exp(x) at the input the result came from", _selu_grad)),
    ("softmax_backward", "SoftmaxBackward", {}, [DOUT, t([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]]), 1],
     None),
    ("log_softmax_grad", "LogSoftmaxGrad", {"axis": 0}, [t(np.log([[0.2, 0.3, 0.5], [0.8, 0.7, 0.5]])),
                                                       DOUT], None),
    ("swiglu_grad", "SwigluGrad", {}, [t([[1.0, -2.0], [0.5, 3.0]]), t(RNG.standard_normal((2, 4)))],
     reference("mindspore.vjp of a * sigmoid(a) * b", lambda d, x: ms.vjp(
         lambda v: F.split(v, 2, -1)[0] * F.sigmoid(F.split(v, 2, -1)[0]) * F.split(v, 2, -1)[1],
         x)[1](d)[0])),
    ("l1_loss_backward_ext", "L1LossBackwardExt", {}, [t(2.0), X, TARGET],
     _vjp("ops.l1_loss", lambda x, y: F.l1_loss(x, y), 1, 0)),
    ("mse_loss_grad_ext", "MSELossGradExt", {}, [DOUT, X, TARGET, "none"],
     _vjp("ops.mse_loss", lambda x, y, r: F.mse_loss(x, y, r), 1, 0)),
    ("kl_div_grad", "KLDivGrad", {}, [t(1.5), X, PROB, "sum"],
     _vjp("ops.kl_div", lambda x, y, r: F.kl_div(x, y, r), 1, 0)),
    ("binary_cross_entropy_grad", "BinaryCrossEntropyGrad", {"reduction": "sum"},
     [PROB, TARGET, t(2.0)], _vjp("ops.binary_cross_entropy",
                                 lambda x, y: F.binary_cross_entropy(x, y, reduction="sum"), 0, 2)),
    ("bce_with_logits_backward", "BinaryCrossEntropyWithLogitsBackward", {},
     [DOUT, X, TARGET, None, None, "none"], None),
    ("smooth_l1_loss_grad", "SmoothL1LossGrad", {"beta": 0.5}, [X, TARGET, DOUT], None),
    ("soft_margin_loss_grad", "SoftMarginLossGrad", {}, [X, t([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]]),
                                                       t(1.0)],
     _vjp("mean(log(1 + exp(-y x)))", lambda x, y: F.log(1 + F.exp(-y * x)).mean(), 0, 2)),
    ("gather_d_grad_v2", "GatherDGradV2", {}, [X, 1, t([[0, 0], [2, 1]], "int64"),
                                             t([[1.0, 2.0], [3.0, 4.0]])], None),
    ("masked_select_grad", "MaskedSelectGrad", {}, [X, t([[True, False, True], [False, True, True]],
                                                       "bool"), t([1.0, 2.0, 3.0, 4.0])], None),
    ("glu_grad", "GluGrad", {"axis": 1}, [t([[1.0], [2.0]]), t([[0.5, -1.0], [2.0, 0.3]])], None),
    ("dropout_grad_ext", "DropoutGradExt", {}, [DOUT, t([[True, False, True], [True, True, False]],
                                                      "bool"), 0.25],
     reference("input * mask / (1 - p)", lambda d, m, p: d * m.astype(d.dtype) / (1 - p))),
]
