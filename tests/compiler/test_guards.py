"""A compiled graph is rebuilt when anything it read at compile time changed."""
import numpy as np

from cellgraph import Parameter, Tensor, nn, ops

SCALE = 2.0


class Holder(nn.Cell):
    def __init__(self, inner):
        super().__init__()
        self.fc = inner

    def construct(self, x):
        return self.fc(x)


def _x(*shape):
    return Tensor(np.arange(1, 1 + int(np.prod(shape)), dtype=np.float32).reshape(shape))


def test_library_cell_weight_replaced_at_depth():
    net = Holder(nn.Dense(3, 2))
    net(_x(1, 3))
    net.fc.weight = Parameter(Tensor(np.ones((2, 3), np.float32)), name="weight")
    net.fc.bias = Parameter(Tensor(np.zeros(2, np.float32)), name="bias")
    np.testing.assert_allclose(net(_x(1, 3)).asnumpy(), [[6.0, 6.0]])


def test_library_cell_has_bias_switched_off():
    fc = nn.Dense(3, 2, weight_init="ones", bias_init="ones")
    net = Holder(fc)
    np.testing.assert_allclose(net(_x(1, 3)).asnumpy(), [[7.0, 7.0]])
    net.fc.has_bias = False
    np.testing.assert_allclose(net(_x(1, 3)).asnumpy(), [[6.0, 6.0]])


def test_dropout_keep_prob_changed():
    drop = nn.Dropout(keep_prob=0.5)
    net = Holder(drop)
    net.set_train(True)
    x = Tensor(np.ones((4, 64), np.float32))
    assert (net(x).asnumpy() == 0).any()
    drop.keep_prob = 1.0
    np.testing.assert_array_equal(net(x).asnumpy(), x.asnumpy())


def test_dense_activation_replaced():
    fc = nn.Dense(1, 1, weight_init="ones", bias_init="zeros", activation="relu")
    net = Holder(fc)
    x = Tensor(np.float32([[-1.0]]))
    np.testing.assert_allclose(net(x).asnumpy(), [[0.0]])
    fc.activation = nn.Tanh()
    np.testing.assert_allclose(net(x).asnumpy(), [[np.tanh(-1.0)]], rtol=1e-6)


class GlobalScaled(nn.Cell):
    def construct(self, x):
        return x * SCALE


def test_module_global_changed():
    global SCALE
    net = GlobalScaled()
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [2.0, 4.0])
    SCALE = 3.0
    try:
        np.testing.assert_allclose(net(_x(2)).asnumpy(), [3.0, 6.0])
    finally:
        SCALE = 2.0


def _closure_net():
    factor = 2.0

    def scaled(x):
        return x * factor

    class Net(nn.Cell):
        def construct(self, x):
            return scaled(x)

    def set_factor(value):
        nonlocal factor
        factor = value

    return Net(), set_factor


def test_closure_cell_changed():
    net, set_factor = _closure_net()
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [2.0, 4.0])
    set_factor(5.0)
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [5.0, 10.0])


def offset(x, by=1.0, *, times=1.0):
    return (x + by) * times


class DefaultsNet(nn.Cell):
    def construct(self, x):
        return offset(x)


def test_default_arguments_changed():
    net = DefaultsNet()
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [2.0, 3.0])
    saved = offset.__defaults__, offset.__kwdefaults__
    try:
        offset.__defaults__ = (10.0,)
        np.testing.assert_allclose(net(_x(2)).asnumpy(), [11.0, 12.0])
        offset.__kwdefaults__["times"] = 2.0
        np.testing.assert_allclose(net(_x(2)).asnumpy(), [22.0, 24.0])
    finally:
        offset.__defaults__, offset.__kwdefaults__ = saved[0], {"times": 1.0}


class Config:
    def __init__(self):
        self.scale = 2.0


class ConfigNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cfg = Config()

    def construct(self, x):
        return ops.mul(x, self.cfg.scale)


def test_plain_object_attribute_changed():
    net = ConfigNet()
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [2.0, 4.0])
    net.cfg.scale = 4.0
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [4.0, 8.0])


def test_unchanged_reads_do_not_recompile():
    net = ConfigNet()
    for _ in range(3):
        net(_x(2))
    assert len(net._graph_cache.entries) == 1


def _compiled(net):
    (entry,) = net._graph_cache.entries.values()
    return entry


class PropertyNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self._s = 2.0
        self.w = Parameter(Tensor(np.ones(2, np.float32)), name="w")

    @property
    def s(self):
        return self._s

    @property
    def doubled_w(self):
        return self.w * 2

    @property
    def shape_pair(self):
        return (int(self._s), 1)  # a new tuple at every read

    def construct(self, x):
        return x * self.s + self.doubled_w + self.shape_pair[0]


def test_property_reading_another_attribute():
    net = PropertyNet()
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [6.0, 8.0])
    net._s = 5.0
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [12.0, 17.0])


def test_property_computing_from_a_parameter_follows_it():
    net = PropertyNet()
    net(_x(2))
    net.w.set_data(Tensor(np.array([10.0, 20.0], np.float32)))
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [24.0, 46.0])


def test_property_values_rebuilt_equal_do_not_recompile():
    net = PropertyNet()
    net(_x(2))
    first = _compiled(net)
    net(_x(2))
    assert _compiled(net) is first


class Scaled:
    """A descriptor the front end cannot parse: its value is read again at each call."""

    def __get__(self, obj, objtype=None):
        return obj._scale if obj is not None else self


class DescriptorNet(nn.Cell):
    scale = Scaled()

    def __init__(self):
        super().__init__()
        self._scale = 2.0

    def construct(self, x):
        return x * self.scale


def test_descriptor_value_changed():
    net = DescriptorNet()
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [2.0, 4.0])
    net._scale = 3.0
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [3.0, 6.0])


class GetattrNet(nn.Cell):
    """Serves configuration values from a dict through __getattr__."""

    def __init__(self, config):
        super().__init__()
        self.__dict__["_config"] = config

    def __getattr__(self, name):
        config = self.__dict__.get("_config", {})
        if name in config:
            return config[name]
        raise AttributeError(name)

    def construct(self, x):
        return x * self.k


def test_getattr_served_dict_replaced_or_changed():
    net = GetattrNet({"k": 2.0})
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [2.0, 4.0])
    net.__dict__["_config"] = {"k": 7.0}
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [7.0, 14.0])
    net._config["k"] = 3.0
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [3.0, 6.0])
    first = _compiled(net)
    net(_x(2))
    assert _compiled(net) is first


INTERACTIVE_SOURCE = '''
scale = 3.0


def helper(x):
    return x * scale


class Direct(nn.Cell):
    def construct(self, x):
        return abs(x) * scale


class ThroughHelper(nn.Cell):
    def construct(self, x):
        return helper(x)
'''


def _run_interactively(filename, registered: bool):
    """The source run as IPython runs a cell (its text registered with linecache under a
    `<...>` name) or as `exec` of a string runs it (no source anywhere)."""
    import linecache

    if registered:
        lines = INTERACTIVE_SOURCE.splitlines(True)
        linecache.cache[filename] = (len(INTERACTIVE_SOURCE), None, lines, filename)
    namespace = {"nn": nn, "__name__": "__main__"}
    exec(compile(INTERACTIVE_SOURCE, filename, "exec"), namespace)  # noqa: S102
    return namespace


def test_globals_of_code_from_an_ipython_cell_or_exec():
    import linecache

    for filename, registered in (("<ipython-input-3-5f0c>", True), ("<string>", False)):
        try:
            namespace = _run_interactively(filename, registered)
            direct, through = namespace["Direct"](), namespace["ThroughHelper"]()
            np.testing.assert_allclose(direct(_x(2)).asnumpy(), [3.0, 6.0])
            np.testing.assert_allclose(through(_x(2)).asnumpy(), [3.0, 6.0])
            namespace["scale"] = 9.0
            np.testing.assert_allclose(direct(_x(2)).asnumpy(), [9.0, 18.0])
            np.testing.assert_allclose(through(_x(2)).asnumpy(), [9.0, 18.0])
            namespace["abs"] = lambda v: v * 0  # a global now shadows the builtin
            np.testing.assert_allclose(direct(_x(2)).asnumpy(), [0.0, 0.0])
        finally:
            linecache.cache.pop(filename, None)


def test_a_library_property_building_a_new_list_of_the_same_items_does_not_recompile():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.rnn = nn.RNN(2, 3)

        def construct(self, x):
            return x * len(self.rnn.w_ih_list)

    net = Net()
    np.testing.assert_allclose(net(_x(2)).asnumpy(), [1.0, 2.0])
    first = _compiled(net)
    net(_x(2))
    assert _compiled(net) is first


# ----- reads that vanish: a key gone from a dict, an emptied cell, defaults removed ------------

def _stale(fn, *args):
    """The compiled graph's guard check for `fn(*args)`: () -> True once a read changed."""
    from cellgraph.compiler.guards import stale_checker
    from cellgraph.compiler.pipeline import compile_callable

    return stale_checker(compile_callable(fn, args).guards)


OFFSET = 1.0


class OffsetNet(nn.Cell):
    bias = 3.0

    def construct(self, x):
        return x + OFFSET + self.bias + abs(x)


def test_deleted_global_and_class_attribute_are_stale():
    net = OffsetNet()
    stale = _stale(net, _x(2))
    assert not stale()
    offset = globals().pop("OFFSET")
    try:
        assert stale()
    finally:
        globals()["OFFSET"] = offset
    assert not stale()  # the same object is back
    del OffsetNet.bias
    try:
        assert stale()
    finally:
        OffsetNet.bias = 3.0


def test_a_builtin_shadowed_by_a_new_global_is_stale():
    net = OffsetNet()
    stale = _stale(net, _x(2))
    globals()["abs"] = lambda x: x
    try:
        assert stale()
    finally:
        del globals()["abs"]
    assert not stale()


def scaled_offset(x, *, times=2.0):
    return x * times


class KeywordDefaultNet(nn.Cell):
    def construct(self, x):
        return scaled_offset(x)


def test_removed_keyword_defaults_are_stale():
    net = KeywordDefaultNet()  # guards hold it weakly: a graph of a dead Cell is stale
    stale = _stale(net, _x(2))
    saved = scaled_offset.__kwdefaults__
    try:
        scaled_offset.__kwdefaults__ = None
        assert stale()
        scaled_offset.__kwdefaults__ = {}
        assert stale()
    finally:
        scaled_offset.__kwdefaults__ = saved
    assert not stale()


def test_an_emptied_closure_cell_is_stale():
    factor = 2.0

    class Net(nn.Cell):
        def construct(self, x):
            return x * factor

    net = Net()
    stale = _stale(net, _x(2))
    assert not stale()
    del Net.construct.__closure__[0].cell_contents  # as `del factor` here would
    assert stale()
