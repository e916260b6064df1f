"""The executor: one compile per signature, guards that notice changed attributes (and only
those), the short path for Tensor arguments and the general path for everything else."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.runtime import executor


class Scaled(nn.Cell):
    factor = 2.0  # a class constant read in construct

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([3.0], np.float32)), name="w")
        self.relu = ops.ReLU()

    def helper(self, x):
        return x * self.factor

    def construct(self, x):
        return self.relu(self.helper(x) * self.w)


X = Tensor(np.array([1.0, -2.0, 3.0], np.float32))


def test_methods_and_class_constants_do_not_recompile_every_call(compiles):
    net = Scaled()
    for _ in range(3):
        np.testing.assert_allclose(net(X).asnumpy(), [6.0, 0.0, 18.0])
    assert compiles[0] == 1


def test_changed_instance_attribute_recompiles(compiles):
    net = Scaled()
    net(X)
    net.relu = ops.Abs()
    np.testing.assert_allclose(net(X).asnumpy(), [6.0, 12.0, 18.0])
    assert compiles[0] == 2


def test_class_attribute_changed_or_shadowed_recompiles(compiles):
    class Local(Scaled):
        pass

    net = Local()
    net(X)
    Local.factor = 3.0
    np.testing.assert_allclose(net(X).asnumpy(), [9.0, 0.0, 27.0])
    net.factor = 1.0  # now an instance attribute, shadowing the class one
    np.testing.assert_allclose(net(X).asnumpy(), [3.0, 0.0, 9.0])
    assert compiles[0] == 3


def test_parameter_values_are_read_at_every_call(compiles):
    net = Scaled()
    net(X)
    net.w.set_data(np.array([-1.0], np.float32))
    np.testing.assert_allclose(net(X).asnumpy(), [0.0, 4.0, 0.0])
    assert compiles[0] == 1


def test_a_new_shape_or_dtype_compiles_a_new_specialisation(compiles):
    net = Scaled()
    net(X)
    net(Tensor(np.ones((2, 2), np.float32)))
    net(Tensor(np.ones(3, np.float64)))
    net(X)
    assert compiles[0] == 3


def test_general_path_for_nested_and_static_arguments(compiles):
    @cellgraph.jit
    def f(pair, k):
        a, b = pair
        return (a * k, [b + k])

    for _ in range(2):
        out = f((X, X), 2)
        np.testing.assert_allclose(out[0].asnumpy(), [2.0, -4.0, 6.0])
        assert isinstance(out[1], list)
        np.testing.assert_allclose(out[1][0].asnumpy(), [3.0, 0.0, 5.0])
    f((X, X), 3)
    assert compiles[0] == 2


def test_the_entry_function_is_viewable():
    net = Scaled()
    net(X)
    (entry,) = net._graph_cache.entries.values()
    assert entry.entry_source.startswith("def run(leaves, check=2):")
    assert "graph_fn(a0._data, weight_0._data)" in entry.entry_source


def test_a_tensor_subclass_argument_takes_the_general_path(compiles):
    class MyTensor(Tensor):
        pass

    net = Scaled()
    for _ in range(2):
        np.testing.assert_allclose(net(MyTensor(X.asnumpy())).asnumpy(), [6.0, 0.0, 18.0])
    net(X)
    assert compiles[0] == 1


def test_switching_between_shapes_keeps_both_specialisations(compiles):
    net = Scaled()
    other = Tensor(np.ones((2, 2), np.float32))
    for _ in range(3):
        net(X)
        np.testing.assert_allclose(net(other).asnumpy(), np.full((2, 2), 6.0))
    assert compiles[0] == 2


def test_cache_lookup_without_running():
    net = Scaled()
    cache = executor.GraphCache()
    entry = cache.lookup(net, (X,))
    assert cache.lookup(net, (X,)) is entry
    np.testing.assert_allclose(entry([X]).asnumpy(), [6.0, 0.0, 18.0])
    np.testing.assert_allclose(entry.run((X,)).asnumpy(), [6.0, 0.0, 18.0])
    assert entry.run((X, X)) is executor.STALE  # a call with other arguments is not its own


def test_numpy_array_and_dict_arguments_are_inputs_not_constants():
    calls = []

    @cellgraph.jit
    def weighted(x, parts):
        calls.append(1)
        return x * parts["scale"] + parts["shift"]

    a = np.array([1.0, 2.0], np.float32)
    parts = {"scale": cellgraph.Tensor(np.float32(2.0)), "shift": cellgraph.Tensor(np.float32(1.0))}
    np.testing.assert_allclose(weighted(a, parts).asnumpy(), [3.0, 5.0])
    parts2 = {"scale": cellgraph.Tensor(np.float32(3.0)), "shift": cellgraph.Tensor(np.float32(0.0))}
    np.testing.assert_allclose(weighted(a + 1, parts2).asnumpy(), [6.0, 9.0])
    assert len(calls) == 1  # new values, same types: compiled once


def test_a_dict_returned_by_construct_reaches_the_caller_as_a_dict():
    class Named(nn.Cell):
        def construct(self, x):
            return {"double": x * 2, "pair": (x, 3)}

    out = Named()(Tensor(np.array([1.0, 2.0])))
    assert isinstance(out, dict) and list(out) == ["double", "pair"]
    np.testing.assert_allclose(out["double"].asnumpy(), [2.0, 4.0])
    assert out["pair"][1] == 3


class _Branchy(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return ops.gather(x, Tensor(np.array([5, 0], np.int32)), 0)  # fails when it runs
        return x * 2


def test_generated_functions_compile_when_first_called():
    net = _Branchy()
    x = Tensor(np.float32([-1.0, -2.0]))
    np.testing.assert_allclose(net(x).asnumpy(), [-2.0, -4.0])
    (entry,) = net._graph_cache.entries.values()
    module = entry.compiled.module
    pending = [n for n in module.functions
               if isinstance(entry.namespace[n], executor._CompileOnCall)]
    assert len(pending) == 1 and len(module.functions) == 3  # the branch not taken
    with pytest.raises(RuntimeError) as info:  # compiled now, its lines numbered as in the source
        net(Tensor(np.float32([1.0, 2.0])))
    assert "return ops.gather(x, Tensor(np.array([5, 0], np.int32)), 0)" in str(info.value)
    assert not any(isinstance(entry.namespace[n], executor._CompileOnCall)
                   for n in module.functions)


class _Identity(nn.Cell):
    def construct(self, x):
        return x


def _cycles():
    a = [1, 2]
    a += [a]
    d = {"1": 1}
    d["2"] = d
    b, c = [1, 2, 3], [4, 5, 6]
    b[0], c[0] = c, b
    return a, d, b, c


@pytest.mark.parametrize("index", range(4))
def test_an_argument_that_holds_itself_is_refused_as_mindspore_refuses_it(index):
    # MindSpore 2.10: RuntimeError "Detect recursion when converting python object."
    with pytest.raises(RuntimeError, match="Detect recursion when converting python object."):
        _Identity()(_cycles()[index])
    shared = [1, 2]  # the same list twice is no cycle
    assert _Identity()([shared, shared]) == [[1, 2], [1, 2]]


def test_precompile_only_compiles_and_returns_none(monkeypatch):
    """MS_DEV_PRECOMPILE_ONLY=1: a graph call compiles (errors included) and returns None
    without running, as MindSpore's does; unset, the next call runs."""
    @cellgraph.jit
    def forever(x):
        while x > 0:  # never ends when run
            x = x + 1
        return x

    @cellgraph.jit
    def bad(x):
        return x.no_such_method()

    monkeypatch.setenv("MS_DEV_PRECOMPILE_ONLY", "1")
    assert forever(Tensor(np.array(1.0, np.float32))) is None
    with pytest.raises(AttributeError):
        bad(Tensor(np.array(1.0, np.float32)))
    net = nn.Dense(2, 1)
    cellgraph.set_context(mode=cellgraph.GRAPH_MODE)
    assert net(Tensor(np.ones((1, 2), np.float32))) is None
    monkeypatch.delenv("MS_DEV_PRECOMPILE_ONLY")
    assert net(Tensor(np.ones((1, 2), np.float32))).shape == (1, 1)
