"""What a Cell's attributes may hold, as MindSpore 2.10 rules it: a Parameter or Cell set before
Cell.__init__ is refused, a name that has held a Parameter (or a Cell) keeps holding one, and
insert_child_to_cell / insert_param_to_cell check their arguments. The exception types and
messages are MindSpore's (recorded from it)."""
import types

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Parameter, Tensor, nn

T = Tensor(np.ones([2, 3]), cg.float32)


def _cell_setting(*values):
    class M(nn.Cell):
        def __init__(self):
            super().__init__()
            for v in values:
                self.x = v() if isinstance(v, (types.FunctionType, type)) else v

    return M


@pytest.mark.parametrize("values, error, text", [
    ((lambda: Parameter(T, name="w"), None, nn.ReLU), KeyError,
     "the x child cell already exists in the network"),
    ((lambda: Parameter(T, name="w"), 1), TypeError,
     "Parameter 'x' already exists in network, can not assign this type: '<class 'int'>'"),
    ((nn.ReLU, None, T), TypeError, "Sub cell 'x' already exists in network"),
    ((nn.ReLU, 1), TypeError, "Sub cell 'x' already exists in network"),
    ((nn.ReLU, None, lambda: Parameter(T, name="w")), KeyError,
     "the x parameter already exists in the network"),
])
def test_a_name_keeps_its_kind(values, error, text):
    with pytest.raises(error) as info:
        _cell_setting(*values)()
    assert text in str(info.value)


@pytest.mark.parametrize("values, kind", [
    ((1, nn.ReLU), nn.ReLU), ((1, lambda: Parameter(T, name="w")), Parameter),
    ((T, nn.ReLU), nn.ReLU), ((lambda: Parameter(T, name="w"), None), type(None))])
def test_other_changes_are_free(values, kind):
    assert isinstance(_cell_setting(*values)().x, kind)


def test_a_tensor_is_a_parameters_new_data_and_del_frees_the_name():
    m = _cell_setting(lambda: Parameter(T, name="w"), 2 * T)()
    assert isinstance(m.x, Parameter) and float(m.x.asnumpy()[0, 0]) == 2.0
    del m.x
    m.x = nn.ReLU()
    assert isinstance(m.x, nn.ReLU)


def test_before_init():
    class P(nn.Cell):
        def __init__(self):
            self.w = Parameter(T, name="w")
            super().__init__()

    class C(nn.Cell):
        def __init__(self):
            self.m = nn.ReLU()
            super().__init__()

    class Plain(nn.Cell):
        def __init__(self):
            self.a = 1

        def construct(self):
            return self.a

    with pytest.raises(AttributeError, match="please call Cell.__init__"):
        P()
    with pytest.raises(AttributeError, match="super"):
        C()
    net = Plain()
    assert net.a == 1
    with pytest.raises(AttributeError, match=r"super\(\).__init__\(\)"):
        net()


def test_insert_checks():
    m = nn.Cell()
    p = Parameter(T, name="weight")
    m.insert_param_to_cell("weight", p)
    assert m.weight is p
    with pytest.raises(TypeError, match="'child_cell' must be 'Cell' if not None"):
        m.insert_child_to_cell("network", p)
    with pytest.raises(TypeError, match="'child_name' must be str"):
        m.insert_child_to_cell(1, nn.ReLU())
    with pytest.raises(KeyError):
        m.insert_child_to_cell("a.b", nn.ReLU())
    with pytest.raises(KeyError):
        m.insert_child_to_cell("", nn.ReLU())
    with pytest.raises(KeyError, match="should not be None"):
        m.insert_param_to_cell("", p)
    with pytest.raises(TypeError, match="'param' must be 'Parameter' if not None"):
        m.insert_param_to_cell("w", T)
    m.insert_child_to_cell("relu", nn.ReLU())
    m.insert_child_to_cell("nothing", None)
    assert isinstance(m.relu, nn.ReLU) and m.nothing is None


def test_a_parameter_attribute_given_a_graph_value_is_assigned_not_replaced():
    """`self.g = dout + self.g` with a graph value goes to the Parameter (an assignment), never
    replaces it by the graph value; inside a gradient hook it runs when the gradient reaches
    the hook, once per backward pass, and `g` stays a Parameter (MindSpore 2.10's values, in
    graph and PyNative mode)."""
    grad_by_list = cg.ops.GradOperation(get_by_list=True)

    class Mul(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.ones([2, 2], np.float32)), name="w")
            self.g = Parameter(Tensor(np.zeros([2, 2], np.float32)), name="g")
            self.hook = cg.ops.InsertGradientOf(self.save)

        def save(self, dout):
            self.g = dout + self.g
            return dout

        def construct(self, x):
            return self.hook(x * self.w) * 2

    class GradNet(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.weights = cg.ParameterTuple([net.w])

        def construct(self, x):
            return grad_by_list(self.net, self.weights)(x)

    class Update(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = Parameter(Tensor(np.zeros([2], np.float32)), name="p")

        def construct(self, x):
            self.p = self.p + x
            return self.p

    for mode in (cg.GRAPH_MODE, cg.PYNATIVE_MODE):
        cg.set_context(mode=mode)
        net = Mul()
        x = Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
        for step in (1, 2):
            (grad,) = GradNet(net)(x)
            np.testing.assert_array_equal(grad.asnumpy(), [[0, 2], [4, 6]])
            np.testing.assert_array_equal(net.g.asnumpy(), np.full((2, 2), 2.0 * step))
        assert isinstance(net.g, Parameter)
    cg.set_context(mode=cg.GRAPH_MODE)
    update = Update()
    update(Tensor(np.ones([2], np.float32)))
    assert isinstance(update.p, Parameter)
    np.testing.assert_array_equal(update.p.asnumpy(), [1.0, 1.0])


def test_names_follow_mindspores_tables():
    """MindSpore 2.10's walk: cells_and_names gives every path (also below wrappers built with
    auto_prefix=False); a Cell attached with auto_prefix names each Parameter below it by its
    path, whatever name it had; a ParameterTuple's Parameters are keyed by their names;
    update_parameters_name(prefix) names each Parameter prefix + its path."""
    import cellgraph as ms
    from cellgraph import Parameter, ParameterTuple, Tensor, nn

    def param(name):
        return Parameter(Tensor(np.ones(2, np.float32)), name=name)

    class A(nn.Cell):
        def __init__(self):
            super().__init__()
            self.plist = [param("p0"), param("p1")]
            self.ptup = ParameterTuple([param("t0")])
            self.w = param("www")

        def construct(self, x):
            return x

    class B(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = A()

        def construct(self, x):
            return self.a(x)

    b = B()
    assert [(n, p.name) for n, p in b.parameters_and_names()] == [("a.t0", "a.t0"),
                                                                   ("a.w", "a.w")]
    b.a.late = param(None)
    assert [(n, p.name) for n, p in b.parameters_and_names()][-1] == ("a.late", "late")
    b.update_parameters_name("zz.")
    assert [p.name for p in b.get_parameters()] == ["zz.a.t0", "zz.a.w", "zz.a.late"]

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Dense(3, 4)
            self.layers = [nn.Dense(2, 2)]  # a plain list: not a child

        def construct(self, x):
            return self.conv(x)

    loss = nn.WithLossCell(Net(), nn.MSELoss())
    assert [n for n, _ in loss.cells_and_names()] == ["", "_backbone", "_backbone.conv",
                                                      "_loss_fn"]
    assert [(n, p.name) for n, p in loss.parameters_and_names()] == [
        ("_backbone.conv.weight", "conv.weight"), ("_backbone.conv.bias", "conv.bias")]

    class Step(nn.Cell):  # auto_prefix: the optimizer's names win, as in MindSpore
        def __init__(self, net, opt):
            super().__init__()
            self.network = net
            self.optimizer = opt

    net = nn.Dense(2, 2)
    step = Step(net, nn.Momentum(net.trainable_params(), 0.1, 0.9))
    assert [(n, p.name) for n, p in step.parameters_and_names()][:3] == [
        ("network.weight", "optimizer.weight"), ("network.bias", "optimizer.bias"),
        ("optimizer.global_step", "optimizer.global_step")]
    assert ms.float32 == step.optimizer.momentum.dtype


def test_params_table_of_a_cell():
    fc = nn.Dense(2, 3)
    assert list(fc._params) == ["weight", "bias"] and fc._params["weight"] is fc.weight


def test_batchnorm_parameter_names_as_mindspore():
    """MindSpore 2.10: a BatchNorm's running statistics are named "mean" and "variance" until
    the layer is attached ("bn.moving_mean" then); BatchNorm3d holds a BatchNorm2d `bn2d`."""
    bn = nn.BatchNorm2d(3)
    assert [(n, p.name) for n, p in bn.parameters_and_names()] == [
        ("moving_mean", "mean"), ("moving_variance", "variance"), ("gamma", "gamma"),
        ("beta", "beta")]
    net = nn.SequentialCell(nn.Dense(2, 3), nn.BatchNorm1d(3))
    assert [p.name for p in net.get_parameters()] == [
        "0.weight", "0.bias", "1.moving_mean", "1.moving_variance", "1.gamma", "1.beta"]
    bn3 = nn.BatchNorm3d(3)
    assert [n for n, _ in bn3.cells_and_names()] == ["", "bn2d"]
    assert [p.name for p in bn3.get_parameters()] == [
        "bn2d.moving_mean", "bn2d.moving_variance", "bn2d.gamma", "bn2d.beta"]
