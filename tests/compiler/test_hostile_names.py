"""User strings (attribute, parameter, keyword, dict-key, function and graph names) reach
generated code and file names only as bound values: no name, however hostile, changes what
the generated source does or where a file is written."""
import os

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.compiler import guards
from cellgraph.compiler.pipeline import compile_callable, write_stages

HOSTILE = [
    "{0!r:.1}, 0) or open('PWNED','w').write('x') and 0 or o.__dict__.get({0!r:.1}",
    "{", "}", "{}", "{{0}}", "a'b", 'a"b', "a\nb", "a\\b", "../../ESCAPED", "x/../../ESCAPED",
    "é名前", "x²", "__import__('os').system('touch PWNED')", "", " ", "#", "0abc", "class",
]


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
        self.scale = 2.0

    def construct(self, x):
        return self.fc(x) * self.scale


def _not_a_name(name):
    """Holds a character that no generated Python name has: it must not be in the source."""
    return any(not (c.isascii() and (c.isalnum() or c == "_")) for c in name) and len(name) > 1


def _sources(fn, args):
    """Every piece of source generated for `fn(*args)`: the graph's module and its guards."""
    compiled = compile_callable(fn, args)
    env: dict = {}
    return [compiled.module.source, "\n".join(guards.guard_source(compiled.guards, env))]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_attribute_names_are_values(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    net = Scaled()
    setattr(net.fc, name, 1)  # a library Cell's whole __dict__ is guarded
    setattr(net, name, 1)
    x = Tensor(np.float32([[1.0, 2.0]]))
    np.testing.assert_allclose(net(x).asnumpy(), [[6.0, 6.0]])
    setattr(net.fc, name, 2)  # a changed attribute recompiles: its guard still works
    np.testing.assert_allclose(net(x).asnumpy(), [[6.0, 6.0]])
    assert not os.listdir(tmp_path)
    if _not_a_name(name):
        for source in _sources(net.construct, (x,)):
            assert name not in source


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_keyword_default_names(name):
    def f(x, **kw):
        return x * 2.0

    f.__kwdefaults__ = {name: 1.0}
    x = Tensor(np.float32([1.0]))
    np.testing.assert_allclose(cg.jit(f)(x).asnumpy(), [2.0])


@pytest.mark.parametrize("name", [n for n in HOSTILE if n])
def test_hostile_parameter_and_function_names(tmp_path, name):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.float32([3.0])), name=name)

        def construct(self, x):
            return {name: x * self.w, "k": ops.einsum("i,i->i", x, self.w)}

    Net.construct.__name__ = name
    net = Net()
    x = Tensor(np.float32([2.0]))
    out = net(x)
    assert list(out) == [name, "k"]
    np.testing.assert_allclose(out[name].asnumpy(), [6.0])
    np.testing.assert_allclose(cg.grad(net, weights=net.trainable_params())(x)[1][0].asnumpy(),
                               [4.0])  # both outputs, x * w, summed
    if _not_a_name(name):
        for source in _sources(net.construct, (x,)):
            assert name not in source
    folder = tmp_path / "dumps"
    compiled = compile_callable(net.construct, (x,), keep_stages=True)
    paths = write_stages(compiled.stages, str(folder), name)
    for path in paths:
        assert os.path.dirname(os.path.realpath(path)) == os.path.realpath(folder)
    assert sorted(os.listdir(tmp_path)) == ["dumps"]


def test_save_graphs_keeps_a_hostile_function_name_in_its_folder(tmp_path):
    def f(x):
        return x + 1.0

    f.__name__ = f.__qualname__ = "x/../../ESCAPED"
    folder = tmp_path / "a" / "b"
    cg.set_context(save_graphs=True, save_graphs_path=str(folder))
    try:
        cg.jit(f)(Tensor(np.float32([1.0])))
    finally:
        cg.set_context(save_graphs=False)
    assert sorted(os.listdir(tmp_path)) == ["a"]
    assert os.listdir(tmp_path / "a") == ["b"]
    assert os.listdir(folder)
