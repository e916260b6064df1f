"""GumbelCDF, Softplus and Invert bijectors, and the protocol user bijectors follow
(_add_parameter, _check_value_dtype, cast_param_by_value, _forward), against MindSpore 2.10's
values for the same inputs."""
import numpy as np
import pytest

import cellgraph as cg
import cellgraph.nn.probability.bijector as msb
from cellgraph import Tensor, nn

X = Tensor(np.array([-1.0, 0.5, 2.0], np.float32))
Y = Tensor(np.array([0.2, 0.5, 0.9], np.float32))

MINDSPORE = {  # bijector -> method -> values
    "GumbelCDF": {
        "forward": [0.06598812341690063, 0.2769203186035156, 0.5452392101287842],
        "inverse": [0.048229992389678955, 1.7330257892608643, 5.500734329223633],
        "forward_log_jacobian": [-2.4114270210266113, -1.7271722555160522, -1.7996776103973389],
        "inverse_log_jacobian": [1.8267000913619995, 1.7528072595596313, 3.048874855041504]},
    "Softplus": {
        "forward": [0.0634639710187912, 0.6566305756568909, 2.009075403213501],
        "inverse": [np.nan, 0.27066242694854736, 1.9907573461532593],
        "forward_log_jacobian": [-2.1269285678863525, -0.3132612407207489,
                                 -0.018149957060813904],
        "inverse_log_jacobian": [np.nan, 0.4586751461029053, 0.018485307693481445]},
    "InvertScalarAffine": {
        "forward": [-1.0, -0.25, 0.5], "inverse": [-1.0, 2.0, 5.0],
        "forward_log_jacobian": -0.6931471824645996,
        "inverse_log_jacobian": 0.6931471824645996},
}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("bijector", [
    msb.GumbelCDF(1.0, 2.0), msb.Softplus(2.0),
    msb.Invert(msb.ScalarAffine(scale=2.0, shift=1.0))], ids=lambda b: b.name)
def test_values(bijector):
    for method, expected in MINDSPORE[bijector.name].items():
        value = Y if method.startswith("inverse") and bijector.name == "GumbelCDF" else X
        got = getattr(bijector, method)(value).asnumpy()
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6, equal_nan=True)


def test_arguments():
    assert msb.Invert(msb.Exp()).name == "InvertExp"
    assert msb.Invert(msb.Exp(), name="back").name == "back"
    with pytest.raises(ValueError, match="scale must be greater than zero"):
        msb.GumbelCDF(scale=0.0)
    for make in (lambda: msb.GumbelCDF(loc="loc"), lambda: msb.Softplus(sharpness="s"),
                 lambda: msb.Softplus(name=0.1), lambda: msb.Invert(0.1),
                 lambda: msb.Invert(msb.Exp(), name=0.1)):
        with pytest.raises(TypeError):
            make()


class Affine(msb.Bijector):
    """A user's bijector, written to MindSpore's protocol."""

    def __init__(self, a, b, dtype=None):
        super().__init__(name="Affine", dtype=dtype, param={"a": a, "b": b})
        self._a = self._add_parameter(a, "a")
        self._b = self._add_parameter(b, "b")

    def _forward(self, value):
        value = self._check_value_dtype(value)
        return value * self.cast_param_by_value(value, self._a) + \
            self.cast_param_by_value(value, self._b)


class Net(nn.Cell):
    def __init__(self, dtype=None):
        super().__init__()
        self.b = Affine(np.array(2.0, np.float32), np.array(1.0, np.float32), dtype)

    def construct(self, x):
        return self.b.forward(x)


def test_user_bijector_protocol():
    net = Net()
    assert net.b.parameter_names == ["a", "b"]
    for bad in (None, 1.0, Tensor(1, cg.int32)):
        with pytest.raises(TypeError):
            net(bad)
    out = net(Tensor(1.5, cg.float16))
    assert out.dtype == cg.float16 and float(out.asnumpy()) == 4.0
    typed = Net(cg.float32)
    assert float(typed(Tensor(1.0, cg.float32)).asnumpy()) == 3.0
    with pytest.raises(TypeError):
        typed(Tensor(1.0, cg.float16))
    with pytest.raises(TypeError, match="cannot be type"):
        Affine(True, 1.0)
    with pytest.raises(TypeError, match="same dtype as other arguments"):
        Affine(np.float32(1.0), np.float64(1.0))
    with pytest.raises(TypeError, match="same dtype as the bijector's dtype"):
        Affine(np.float64(1.0), np.float64(1.0), cg.float32)
