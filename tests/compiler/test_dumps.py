"""Graph dumps (`save_graphs`) and what a compiled Cell notices when its state changes."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Parameter, Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.z = Parameter(Tensor(np.array([2.0], np.float32)), name="z")

    def construct(self, x, y):
        x = x * self.z
        return self.matmul(x, y)


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 2.0
        self.w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")

    def construct(self, x):
        return x * self.w * self.scale


X = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))


def only_entry(cell):
    """The one compiled specialisation in the Cell's cache."""
    entries = list(cell._graph_cache.entries.values())
    assert len(entries) == 1
    return entries[0]


def test_save_graphs_writes_one_file_per_stage(tmp_path):
    cellgraph.set_context(save_graphs=True, save_graphs_path=str(tmp_path))
    Net()(X, X)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "00_parse_construct.ir", "01_shard_operators_construct.ir",
        "02_expand_grad_construct.ir", "03_optimize_construct.ir", "04_codegen_construct.py"]
    parsed = (tmp_path / "00_parse_construct.ir").read_text()
    assert parsed.startswith("graph @construct(%x: f32[2,2], %y: f32[2,2], %z: f32[1]) -> "
                             "f32[2,2] {   # test_dumps.py:15\n")
    assert "  %1 = mul(%x, %z)  : f32[2,2]   # test_dumps.py:16  x = x * self.z\n" in parsed
    assert (tmp_path / "03_optimize_construct.ir").read_text() == parsed
    code = (tmp_path / "04_codegen_construct.py").read_text()
    assert code.startswith("def construct(x, y, z):\n    _v1 = _k_mul(x, z)\n")


def test_save_graphs_names_gradient_graphs_after_the_function(tmp_path):
    cellgraph.set_context(save_graphs=True, save_graphs_path=str(tmp_path))
    cellgraph.grad(Net())(X, X)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "00_parse_grad_construct.ir", "01_shard_operators_grad_construct.ir",
        "02_expand_grad_grad_construct.ir", "03_optimize_grad_construct.ir",
        "04_codegen_grad_construct.py"]
    expanded = (tmp_path / "02_expand_grad_grad_construct.ir").read_text()
    assert "grad(" not in expanded and "matmul(%3, %y) {transpose_b=True}" in expanded
    assert "grad(%x, %y, %z) {graph=@construct, wrt=(0,)" in (
        tmp_path / "00_parse_grad_construct.ir").read_text()


def test_no_files_without_save_graphs(tmp_path):
    cellgraph.set_context(save_graphs_path=str(tmp_path))
    Net()(X, X)
    assert list(tmp_path.iterdir()) == []


def test_changed_attribute_is_read_by_the_next_call():
    net = Scaled()
    np.testing.assert_allclose(net(X).asnumpy(), [[2.0, 8.0], [6.0, 16.0]])
    first = only_entry(net)
    net.scale = 3.0
    np.testing.assert_allclose(net(X).asnumpy(), [[3.0, 12.0], [9.0, 24.0]])
    assert only_entry(net) is not first  # recompiled: the constant 2.0 was baked in


def test_changed_parameter_value_is_seen_without_recompiling():
    net = Scaled()
    np.testing.assert_allclose(net(X).asnumpy(), [[2.0, 8.0], [6.0, 16.0]])
    first = only_entry(net)
    net.w.set_data(Tensor(np.array([-1.0, 0.5], np.float32)))
    np.testing.assert_allclose(net(X).asnumpy(), [[-2.0, 2.0], [-6.0, 4.0]])
    assert only_entry(net) is first


def test_graphs_of_the_same_name_get_their_own_files(tmp_path):
    cellgraph.set_context(save_graphs=True, save_graphs_path=str(tmp_path))
    Net()(X, X)
    Scaled()(X[0])
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "00_parse_construct.ir" in names and "00_parse_construct_2.ir" in names
    assert "x * self.w * self.scale" in (tmp_path / "00_parse_construct_2.ir").read_text()


def test_dumps_replace_symbolic_links_instead_of_following_them(tmp_path):
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me")
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    (dumps / "00_parse_construct.ir").symlink_to(target)
    cellgraph.set_context(save_graphs=True, save_graphs_path=str(dumps))
    Net()(X, X)
    assert target.read_text() == "keep me"
    link = dumps / "00_parse_construct.ir"
    assert not link.is_symlink() and link.read_text().startswith("graph @construct")


def test_a_bad_dump_path_fails_at_set_context(tmp_path):
    a_file = tmp_path / "file.txt"
    a_file.write_text("")
    with pytest.raises(ValueError, match="is not a folder"):
        cellgraph.set_context(save_graphs=True, save_graphs_path=str(a_file / "graphs"))
    assert cellgraph.get_context("save_graphs_path") != str(a_file / "graphs")


def test_save_graphs_replaces_planted_symlinks_and_keeps_modes(tmp_path):
    import os

    victim = tmp_path.parent / f"{tmp_path.name}-victim.txt"
    victim.write_text("precious")
    (tmp_path / "00_parse_construct.ir").symlink_to(victim)
    (tmp_path / "02_expand_grad_construct.ir").write_text("old")
    os.chmod(tmp_path / "02_expand_grad_construct.ir", 0o640)
    cellgraph.set_context(save_graphs=True, save_graphs_path=str(tmp_path))
    try:
        Net()(X, X)
    finally:
        cellgraph.set_context(save_graphs=False)
    assert victim.read_text() == "precious"
    assert (tmp_path / "00_parse_construct.ir").read_text().startswith("graph @construct")
    assert os.stat(tmp_path / "02_expand_grad_construct.ir").st_mode & 0o777 == 0o640
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".")]
