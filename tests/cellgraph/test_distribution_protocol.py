"""A distribution written to MindSpore's protocol (Distribution.__init__(seed, dtype, name,
param) with the parameters under param["param_dict"]; methods it does not define raise
NotImplementedError, in construct too) and the _utils helpers, as MindSpore 2.10 has them."""
import numpy as np
import pytest

import cellgraph as cg
import cellgraph.nn.probability.distribution as msd
from cellgraph import Tensor, nn
from cellgraph.nn.probability.distribution._utils.utils import (
    CheckTensor,
    CheckTuple,
    set_param_type,
)


class MyExponential(msd.Distribution):
    def __init__(self, rate=None, seed=None, dtype=cg.float32, name="MyExponential"):
        param = dict(locals())
        param["param_dict"] = {"rate": rate}
        super().__init__(seed, dtype, name, param)


class Net(nn.Cell):
    def __init__(self, method):
        super().__init__()
        self.dist = MyExponential()
        self.method = method

    def construct(self, *args):
        return self.dist(self.method, *args)


@pytest.mark.parametrize("method", ["prob", "log_prob", "cdf", "log_cdf", "survival_function",
                                    "log_survival", "sd", "var", "mode", "mean", "entropy",
                                    "kl_loss", "cross_entropy", "sample"])
def test_undefined_methods_raise_not_implemented(method):
    with pytest.raises(NotImplementedError):
        Net(method)(Tensor([0.2], cg.float32))


def test_protocol_attributes():
    d = MyExponential(rate=0.5, seed=3)
    assert (d.name, d.seed, d.dtype) == ("MyExponential", 3, cg.float32)
    assert d.parameters["rate"] == 0.5 and "self" not in d.parameters
    with pytest.raises(TypeError):
        MyExponential(name=1.0)
    with pytest.raises(TypeError):
        msd.Categorical([0.1], seed="seed")  # before the probabilities are checked
    with pytest.raises(TypeError):
        msd.Categorical([0.1], name=1.0)


def test_set_param_type():
    f32, f64 = Tensor(0.1, cg.float32), Tensor(0.1, cg.float64)
    i32, a32 = Tensor(1, cg.int32), np.array(1.0, np.float32)
    assert set_param_type({"a": f32, "b": 1.0}, cg.float16) == cg.float32
    assert set_param_type({"a": i32, "b": i32}, cg.float16) == cg.float32
    assert set_param_type({"a": a32, "c": f32}, cg.float16) == cg.float32
    assert set_param_type({"a": 1.0}, cg.float16) == cg.float16
    assert set_param_type({"a": 1.0}, cg.int32) == cg.float32
    assert set_param_type({"a": Tensor(0.1, cg.float16)}, cg.float32) == cg.float16
    assert set_param_type({"a": f64, "b": np.array(1.0)}, cg.float32) == cg.float32
    for bad in ({"a": f32, "c": f64}, {"a": a32, "c": np.array(1, np.int32)}):
        with pytest.raises(TypeError, match="same dtype as other arguments"):
            set_param_type(bad, cg.float32)


class Checks(nn.Cell):
    def __init__(self, value):
        super().__init__()
        self.value = value
        self.tuple, self.tensor = CheckTuple(), CheckTensor()

    def construct(self, x):
        return self.tuple(self.value, "value"), self.tensor(x, "x")


def test_checks_in_construct():
    out = Checks((1, 2))(Tensor(1.0))
    assert out[0] == (1, 2)
    with pytest.raises(TypeError, match="must be a tuple"):
        Checks("tuple")(Tensor(1.0))
    with pytest.raises(TypeError, match="must be a Tensor"):
        CheckTensor()(1.0, "x")
