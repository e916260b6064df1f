"""ops.FusedAdaFactor and ops.FusedAdaFactorWithGlobalNorm: the Parameters after one step, as
MindSpore 2.10's CPU kernel leaves them (recorded below, rounded to 1e-6), in a graph, for
factored (rank >= 2) and unfactored parameters, each flag, and a global norm above and below
the kernel's 1e-30 floor."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Parameter, Tensor, nn, ops

NAMES = ("param", "exp_avg", "exp_avg_sq", "row", "col")
# (param shape, (enable_scale_parameter, enable_first_moment, enable_weight_decay),
#  global_norm or None for FusedAdaFactor, MindSpore's Parameters afterwards)
CASES = [
    ((2, 3, 2), (True, True, True), None, {"param": [1.918812, -0.264738, -1.544269, -0.087965, 1.025408, -1.506457, 1.704059, -1.281648, 1.313036, -1.27726, 0.648259, -2.51723], "exp_avg": [-0.295106, -0.346778, 1.016305, -0.984581, -0.160341, -0.794176, 0.040066, 0.520741, -0.994123, 1.027988, 0.813273, 0.457901], "exp_avg_sq": [0.018288, 0.750144, 0.988861, 0.748166, 0.280444, 0.789279, 0.103226, 0.447894, 0.908596, 0.293614, 0.287775, 0.130029], "row": [0.033179, 1.268451, 0.561797, 0.3928, 0.587814, 0.598522], "col": [0.989523, 0.344196, 0.583195, 1.068557]}),
    ((4, 5), (True, False, True), 10.0, {"param": [1.62636, -0.611364, -0.517639, -1.077929, 0.872129, -2.294627, 1.742216, -0.75376, 0.323019, -0.245055, 1.457954, -2.067823, -0.322529, -0.379994, 1.131106, -1.093705, -0.172268, -0.886644, 0.046062, 0.582565], "exp_avg": [-1.100619, 1.144724, 0.901591, 0.502494, 0.900856, -0.683728, -0.12289, -0.935769, -0.267888, 0.530355, -0.691661, -0.396754, -0.687173, -0.845206, -0.671246, -0.012665, -1.11731, 0.234416, 1.659802, 0.742044], "exp_avg_sq": [0.102334, 0.414056, 0.6944, 0.414179, 0.049953, 0.535896, 0.663795, 0.514889, 0.944595, 0.586555, 0.903402, 0.137475, 0.139276, 0.807391, 0.397677, 0.165354, 0.927509, 0.347766, 0.750812, 0.725998], "row": [0.710904, 0.500721, 0.603594, 0.280037], "col": [0.216713, 0.719464, 0.346221, 0.774681, 0.53292]}),
    ((3,), (False, False, False), 0.0, {"param": [1.640738, -0.609939, -0.478897], "exp_avg": [-1.072969, 0.865408, -2.301539], "exp_avg_sq": [0.370093, 0.548809, 1.076228], "row": [0.878117], "col": [0.027388, 0.670468, 0.417305]}),
    ((2, 3, 2), (False, False, False), 10.0, {"param": [1.631619, -0.609821, -0.52188, -1.082488, 0.874822, -2.292832, 1.742592, -0.756179, 0.322478, -0.246668, 1.456978, -2.079644], "exp_avg": [-0.322417, -0.384054, 1.133769, -1.099891, -0.172428, -0.877858, 0.042214, 0.582815, -1.100619, 1.144724, 0.901591, 0.502494], "exp_avg_sq": [0.018288, 0.750144, 0.988861, 0.748166, 0.280444, 0.789279, 0.103226, 0.447894, 0.908596, 0.293614, 0.287775, 0.130029], "row": [0.01567, 0.550322, 0.173227, 0.214241, 0.395204, 0.048248], "col": [0.464596, 0.119651, 0.472562, 0.564894]}),
]


class Step(nn.Cell):
    def __init__(self, shape, flags, with_norm):
        super().__init__()
        self.opt = (ops.FusedAdaFactorWithGlobalNorm if with_norm else ops.FusedAdaFactor)(*flags)
        r = np.random.RandomState(1)
        self.param = Parameter(Tensor(r.randn(*shape).astype(np.float32)), name="param")
        self.exp_avg = Parameter(Tensor(r.randn(*shape).astype(np.float32)), name="exp_avg")
        self.exp_avg_sq = Parameter(Tensor(r.rand(*shape).astype(np.float32)), name="exp_avg_sq")
        self.row = Parameter(Tensor(np.asarray(r.rand(*shape[:-1]), np.float32).reshape(
            shape[:-1] or (1,))), name="row")
        self.col = Parameter(Tensor(np.asarray(r.rand(*(shape[:-2] + shape[-1:])), np.float32)),
                             name="col")

    def construct(self, grad, *global_norm):
        return self.opt((1e-30, 1e-3), 1.0, 0.9, 0.8, 1e-2, 0.03, grad, self.param,
                        self.exp_avg, self.row, self.col, self.exp_avg_sq, *global_norm)


@pytest.mark.parametrize("shape, flags, global_norm, expected", CASES)
def test_one_step_as_mindspore(shape, flags, global_norm, expected):
    net = Step(shape, flags, global_norm is not None)
    grad = Tensor(np.random.RandomState(2).randn(*shape).astype(np.float32))
    out = net(grad) if global_norm is None else net(grad, global_norm)
    assert isinstance(out, tuple) and len(out) == 1 and out[0].shape == shape
    for name in NAMES:
        np.testing.assert_allclose(getattr(net, name).asnumpy().reshape(-1), expected[name],
                                   rtol=1e-5, atol=2e-6, err_msg=name)


def test_state_must_be_parameters_or_tensors():
    with pytest.raises(TypeError, match="`param` must be a Parameter or Tensor"):
        ops.FusedAdaFactor()((1e-30, 1e-3), 1.0, 0.9, 0.8, 1e-2, 0.03, Tensor(np.ones(3)),
                             np.ones(3, np.float32),
                             *(Tensor(np.ones(3, np.float32)) for _ in range(4)))
