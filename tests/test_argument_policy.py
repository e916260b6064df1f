"""The argument policy of the public API: an argument that changes results, files or security
acts or raises; one that is only a hint in MindSpore is accepted, listed in the README, and
changes nothing. The audit finds every argument never read; each is reviewed in its
allow-list. Expected values were checked against MindSpore 2.10 (CPU)."""
from __future__ import annotations

import importlib.util
import json
import pathlib
import re
import warnings

import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
import cellgraph.numpy as mnp
from cellgraph import mint, nn, ops
from cellgraph.primitives.errors import UnsupportedError

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _audit_module():
    spec = importlib.util.spec_from_file_location(
        "audit_ignored_arguments", ROOT / "tools" / "audit_ignored_arguments.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ----- the audit ----------------------------------------------------------------------------

def test_every_argument_never_read_is_reviewed():
    audit = _audit_module()
    new = audit.unreviewed(audit.audit())
    assert not new, ("arguments accepted and never read: make each act, raise for the values "
                     "that would change results, or (a true hint) add it to REVIEWED in "
                     "tools/audit_ignored_arguments.py and the README's table:\n  "
                     + "\n  ".join(new))


def test_every_hint_is_in_the_readme_table():
    audit = _audit_module()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Arguments that have no effect here", 1)[1].split("\n### ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    missing = []
    for defined, param in audit.HINTS:
        name = param if param != "kwargs" else "**kwargs"
        if not any(f"`{name}`" in row.split("|")[1] for row in rows):
            missing.append(f"{defined}({param})")
    assert not missing, f"hints missing from the README table: {missing}"


def test_the_audit_sees_an_argument_that_is_never_read():
    audit = _audit_module()

    def f(x, unused, stored, dropped=None):
        del dropped
        _ = unused
        return x

    assert audit.unread_parameters(f, set()) == ["unused", "stored", "dropped"]


# ----- ops ----------------------------------------------------------------------------------

def test_flatten_in_column_major_order():
    x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    np.testing.assert_array_equal(ops.flatten(x, order="F").asnumpy(), [
        [0, 12, 4, 16, 8, 20], [1, 13, 5, 17, 9, 21], [2, 14, 6, 18, 10, 22],
        [3, 15, 7, 19, 11, 23]])
    np.testing.assert_array_equal(ops.flatten(x, order="F", start_dim=0).asnumpy(),
                                  np.arange(24).reshape(2, 3, 4).ravel(order="F"))
    with pytest.raises(ValueError, match="order"):
        ops.flatten(x, order="K")


def test_max_and_min_with_initial_and_where():
    y = Tensor(np.array([[3., 1., 7., 2.], [0., 5., 2., 9.]], np.float32))
    where = Tensor(np.array([[0, 0, 1, 0], [1, 1, 0, 0]], bool))
    values, index = ops.max(y, axis=1, keepdims=True, initial=4)
    np.testing.assert_array_equal(values.asnumpy(), [[7], [9]])
    np.testing.assert_array_equal(index.asnumpy(), [[2], [3]])
    values, index = ops.max(y, axis=1, initial=4, where=where)
    np.testing.assert_array_equal(values.asnumpy(), [7, 5])
    np.testing.assert_array_equal(index.asnumpy(), [2, 1])
    values, index = ops.min(y, axis=0, initial=4, where=Tensor(np.array([[False], [True]])))
    np.testing.assert_array_equal(values.asnumpy(), [0, 4, 2, 4])
    np.testing.assert_array_equal(index.asnumpy(), [1, 0, 1, 0])
    with pytest.raises(ValueError, match="initial"):
        ops.max(y, axis=1, where=where)


def test_softplus_is_linear_above_the_threshold():
    out = ops.softplus(Tensor(np.array([0.5, 1.5, 3.0], np.float32)), beta=2, threshold=2)
    np.testing.assert_allclose(out.asnumpy(), [0.65663058, 1.5, 3.0], rtol=1e-6)


@pytest.mark.parametrize("call", [
    lambda: ops.ResizeNearestNeighbor((2, 2), half_pixel_centers=True),
])
def test_ops_arguments_that_would_change_results_raise(call):
    with pytest.raises(UnsupportedError):
        call()


def test_multi_head_attention_forward_refuses_is_causal():
    from cellgraph.ops.function.nn_func.attention import multi_head_attention_forward

    q = Tensor(np.ones((2, 1, 4), np.float32))
    w, b = Tensor(np.ones((12, 4), np.float32)), Tensor(np.zeros(12, np.float32))
    ow, ob = Tensor(np.ones((4, 4), np.float32)), Tensor(np.zeros(4, np.float32))
    with pytest.raises(UnsupportedError, match="is_causal"):
        multi_head_attention_forward(q, q, q, 4, 2, w, b, None, None, False, 0.0, ow, ob,
                                     is_causal=True)


def test_hypermap_takes_mindsporess_reverse_and_nothing_else():
    assert ops.HyperMap(None, True)(ops.square, (Tensor([2.0]),))[0].asnumpy() == 4.0
    with pytest.raises(TypeError):
        ops.HyperMap(reduce_output=True)


def test_jit_checks_mindsporess_option_values():
    double = ms.jit(lambda x: x * 2, jit_level="O1", fullgraph=True, capture_mode="ast")
    assert double(Tensor([1.0])).asnumpy() == 2.0
    with pytest.raises(ValueError, match="jit_level"):
        ms.jit(lambda x: x, jit_level="O3")
    with pytest.raises(ValueError, match="capture_mode"):
        ms.jit(lambda x: x, capture_mode="graph")
    with pytest.raises(TypeError, match="fullgraph"):
        ms.jit(lambda x: x, fullgraph=1)


def test_an_op_seed_gives_its_own_reproducible_stream():
    ms.set_seed(7)
    first = [ops.randn(3, seed=5).asnumpy(), ops.randn(3, seed=5).asnumpy()]
    unseeded = ops.rand(3).asnumpy()
    ms.set_seed(7)
    ops.rand(4)  # draws from the global generator leave the seed's stream alone
    again = [ops.randn(3, seed=5).asnumpy(), ops.randn(3, seed=5).asnumpy()]
    np.testing.assert_array_equal(first[0], again[0])
    np.testing.assert_array_equal(first[1], again[1])
    assert not np.array_equal(first[0], first[1])  # the stream goes on from call to call
    assert not np.array_equal(unseeded, ops.rand(3, seed=5).asnumpy())
    with pytest.raises(ValueError, match="seed"):
        ops.rand(2, seed=-1)


@pytest.mark.parametrize("draw", [
    lambda: ops.rand(3, seed=1), lambda: ops.rand_like(Tensor(np.ones(3, np.float32)), seed=1),
    lambda: ops.randn(3, seed=1), lambda: ops.randn_like(Tensor(np.ones(3, np.float32)), 1),
    lambda: ops.normal((3,), 0.0, 1.0, seed=1), lambda: ops.standard_normal((3,), 1),
    lambda: ops.uniform((3,), Tensor(0.0), Tensor(1.0), seed=1),
    lambda: ops.randint(0, 100, (3,), seed=1), lambda: ops.randperm(6, seed=1),
    lambda: ops.shuffle(Tensor(np.arange(6)), seed=1),
    lambda: ops.multinomial(Tensor(np.ones((1, 4), np.float32)), 3, seed=1),
    lambda: ops.bernoulli(Tensor(np.ones(8, np.float32)), 0.5, seed=1),
    lambda: ops.dropout(Tensor(np.ones(8, np.float32)), 0.5, True, 1),
    lambda: ops.StandardNormal(1, 2)((3,)), lambda: ops.UniformReal(1, 2)((3,)),
    lambda: ops.UniformInt(1, 2)((3,), Tensor(0), Tensor(100)),
])
def test_every_seeded_draw_repeats_after_set_seed(draw):
    ms.set_seed(3)
    once = draw().asnumpy()
    ms.set_seed(3)
    np.testing.assert_array_equal(draw().asnumpy(), once)


def test_a_distribution_samples_from_its_seed():
    from cellgraph.nn.probability import distribution as msd

    for dist in (msd.Normal(0.0, 1.0, seed=4), msd.Uniform(0.0, 1.0, seed=4),
                 msd.Bernoulli(0.5, seed=4)):
        ms.set_seed(1)
        first = dist.sample((16,)).asnumpy()
        ms.set_seed(1)
        ops.rand(5)  # the global generator's draws leave the distribution's stream alone
        np.testing.assert_array_equal(dist.sample((16,)).asnumpy(), first)


def test_a_seeded_draw_inside_a_compiled_function_goes_on_from_call_to_call():
    @ms.jit
    def noisy(x):
        return x + ops.rand(2, seed=9)

    ms.set_seed(11)
    zero = Tensor(np.zeros(2, np.float32))
    first, second = noisy(zero).asnumpy(), noisy(zero).asnumpy()
    # MindSpore 2.10 CPU's numbers: the graph's kernel keeps its generator, so after set_seed
    # the third call goes on from the second
    np.testing.assert_array_equal(first, np.float32([0.0163525995, 0.791297555]))
    np.testing.assert_array_equal(second, np.float32([0.319326043, 0.95766747]))
    ms.set_seed(11)
    np.testing.assert_array_equal(noisy(zero).asnumpy(), np.float32([0.00197839108, 0.112521656]))


def test_set_context_refuses_a_key_mindspore_does_not_know():
    with pytest.raises(ValueError, match="save_graph is not recognized"):
        ms.set_context(save_graph=True)
    with pytest.raises(ValueError, match="through parameter ascend_config"):
        ms.set_context(precision_mode="allow_fp32_to_fp16")
    before = ms.get_context("deterministic")
    ms.set_context(deterministic="ON")  # one of MindSpore's, kept for get_context
    assert ms.get_context("deterministic") == "ON"
    ms.set_context(deterministic=before)


# ----- numpy --------------------------------------------------------------------------------

def test_numpy_cross_along_any_axes():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    b = a[::-1] + 1
    np.testing.assert_array_equal(mnp.cross(mnp.asarray(a), mnp.asarray(b), axis=1).asnumpy(),
                                  np.cross(a, b, axis=1))
    at = np.ascontiguousarray(a.transpose(1, 0, 2))
    np.testing.assert_array_equal(
        mnp.cross(mnp.asarray(at), mnp.asarray(b), axisa=0, axisb=1, axisc=0).asnumpy(),
        np.cross(at, b, axisa=0, axisb=1, axisc=0))


def test_numpy_trace_over_any_plane():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(mnp.trace(mnp.asarray(a), 1, 1, 2).asnumpy(),
                                  np.trace(a, 1, 1, 2))
    np.testing.assert_array_equal(mnp.trace(mnp.asarray(a), 0, 2, 0).asnumpy(),
                                  np.trace(a, 0, 2, 0))
    assert mnp.trace(mnp.asarray(a[0]), 1, 1, 0).asnumpy() == np.trace(a[0], 1, 1, 0)


def test_numpy_meshgrid_sparse():
    x, y, z = np.array([1., 2., 3.]), np.array([4., 5.]), np.array([7., 8., 9., 10.])
    for indexing in ("xy", "ij"):
        got = mnp.meshgrid(mnp.asarray(x), mnp.asarray(y), mnp.asarray(z), sparse=True,
                           indexing=indexing)
        want = np.meshgrid(x, y, z, sparse=True, indexing=indexing)
        assert isinstance(got, list)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.asnumpy(), w)


# ----- mint ---------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda x: mint.randn(2, generator=object()),
    lambda x: mint.rand(2, generator=object()),
    lambda x: mint.normal(0.0, 1.0, (2,), generator=object()),
    lambda x: mint.randint(0, 4, (2,), generator=object()),
    lambda x: mint.randperm(4, generator=object()),
    lambda x: mint.bernoulli(x, generator=object()),
    lambda x: mint.multinomial(x, 1, generator=object()),
])
def test_mint_takes_only_a_generator_as_generator(call):
    with pytest.raises(AttributeError, match="Generator"):  # MindSpore's, from its _step
        call(Tensor(np.array([0.2, 0.7], np.float32)))


@pytest.mark.parametrize("call", [
    lambda x: mint.nn.functional.elu(x, inplace=True),
    lambda x: mint.nn.functional.relu6(x, inplace=True),
    lambda x: mint.nn.functional.dropout(x, inplace=True),
    lambda x: mint.nn.functional.silu(x, inplace=True),
    lambda x: mint.nn.functional.hardtanh(x, inplace=True),
    lambda x: mint.nn.Dropout(0.5, inplace=True),
    lambda x: mint.nn.LeakyReLU(inplace=True),
    lambda x: mint.nn.SiLU(inplace=True),
])
def test_mint_refuses_writing_in_place(call):
    with pytest.raises(UnsupportedError):
        call(Tensor(np.array([0.2, 0.7], np.float32)))


def test_mint_defaults_keep_working():
    x = Tensor(np.array([-1.0, 2.0], np.float32))
    np.testing.assert_allclose(mint.nn.functional.elu(x).asnumpy(), [np.expm1(-1.0), 2.0],
                               rtol=1e-6)
    assert mint.randn(3, generator=None).shape == (3,)
    assert mint.nn.Hardtanh(inplace=False)(x).shape == (2,)


# ----- nn -----------------------------------------------------------------------------------

def test_cell_flags_and_the_dot_check_of_insert_param_to_cell():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__(flags={"for_test": True})
            self.fc, self.act = nn.Dense(2, 2), nn.ReLU()

    net = Net()
    assert net.get_flags() == {"for_test": True}
    with pytest.raises(KeyError, match="should not contain"):
        net.insert_param_to_cell("a.b", ms.Parameter(Tensor([1.0])))
    net.insert_param_to_cell("a.b", ms.Parameter(Tensor([1.0])), check_name_contain_dot=False)
    assert [name for name, _ in net.cells_and_names()] == ["", "fc", "act"]
    assert [name for name, _ in net.cells_and_names(cells={net.fc})] == ["", "act"]


def test_batchnorm3d_parameters_take_dtype():
    bn = nn.BatchNorm3d(2, dtype=ms.float16)
    assert bn.bn2d.gamma.dtype == ms.float16 and bn.bn2d.moving_mean.dtype == ms.float16


def test_celldict_refuses_unknown_keywords():
    assert list(nn.CellDict({"a": nn.ReLU()}, auto_prefix=False).keys()) == ["a"]
    with pytest.raises(TypeError, match="auto_prefx"):
        nn.CellDict({"a": nn.ReLU()}, auto_prefx=False)


# ----- training -----------------------------------------------------------------------------

def _model_data():
    x = np.random.default_rng(0).normal(size=(8, 2)).astype(np.float32)
    return ds.NumpySlicesDataset((x, x[:, :1]), ["x", "y"], shuffle=False).batch(4)


def test_checkpoint_config_hands_format_and_crc_to_each_save(tmp_path):
    net = nn.Dense(2, 1)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))
    config = ms.CheckpointConfig(save_checkpoint_steps=2, format="safetensors", crc_check=True)
    checkpoint = ms.ModelCheckpoint("net", str(tmp_path), config)
    model.train(1, _model_data(), callbacks=[checkpoint])
    saved = sorted(p.name for p in tmp_path.iterdir())
    assert saved == ["net-1_2.safetensors"]
    loaded = ms.load_checkpoint(str(tmp_path / saved[0]), format="safetensors")
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), net.weight.asnumpy())


def test_checkpoint_config_encrypts_each_save(tmp_path):
    pytest.importorskip("cryptography")
    key = bytes(range(16))
    net = nn.Dense(2, 1)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))
    config = ms.CheckpointConfig(save_checkpoint_steps=2, enc_key=key, enc_mode="AES-GCM")
    model.train(1, _model_data(), callbacks=[ms.ModelCheckpoint("net", str(tmp_path), config)])
    path = str(tmp_path / "net-1_2.ckpt")
    with pytest.raises(Exception, match="dec_key"):
        ms.load_checkpoint(path)
    loaded = ms.load_checkpoint(path, dec_key=key, dec_mode="AES-GCM")
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), net.weight.asnumpy())
    merged = ms.load_distributed_checkpoint(None, [path], dec_key=key, return_param_dict=True)
    np.testing.assert_array_equal(merged["weight"].asnumpy(), net.weight.asnumpy())


@pytest.mark.parametrize("kwargs", [{"exception_save": True}, {"remove_redundancy": True},
                                    {"incremental": True}])
def test_checkpoint_config_refuses_what_it_cannot_do(kwargs):
    with pytest.raises(UnsupportedError, match=next(iter(kwargs))):
        ms.CheckpointConfig(**kwargs)


def test_boost_levels_raise():
    net = nn.Dense(2, 1)
    with pytest.raises(UnsupportedError, match="boost_level"):
        ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01), boost_level="O1")
    with pytest.raises(ValueError, match="boost_level"):
        ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01), boost_level="O5")


def test_time_monitor_reports_data_time(capsys):
    net = nn.Dense(2, 1)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))
    model.train(1, _model_data(), callbacks=[ms.TimeMonitor(data_time=True)])
    assert re.search(r"per step time: [\d.]+ ms \(data time: [\d.]+ ms\)", capsys.readouterr().out)
    with pytest.raises(TypeError, match="data_time"):
        ms.TimeMonitor(data_time=1)


def test_summary_record_stops_at_max_file_size(tmp_path):
    def write_ten_steps():
        with ms.SummaryRecord(str(tmp_path), max_file_size=200) as record:
            for step in range(10):
                record.add_value("scalar", "loss", Tensor(np.float32(step)))
                record.record(step)
            return record.path

    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        path = write_ten_steps()
    assert len([w for w in warned if "max_file_size" in str(w.message)]) == 1
    size = pathlib.Path(path).stat().st_size
    assert 0 < size <= 200
    lines = pathlib.Path(path).read_text().splitlines()
    assert [json.loads(line)["step"] for line in lines] == list(range(len(lines)))
    with pytest.raises(UnsupportedError, match="export_options"):
        ms.SummaryRecord(str(tmp_path), export_options={"tensor_format": "npy"})


def test_summary_collector_collects_only_what_it_can(tmp_path):
    logs = str(tmp_path)
    collector = ms.SummaryCollector(logs, collect_specified_data={"collect_metric": False})
    assert collector._collect_specified_data["collect_metric"] is False
    assert ms.SummaryCollector(logs, collect_specified_data={"collect_graph": False},
                               keep_default_action=False)._collect_specified_data == {
        "collect_graph": False}
    with pytest.raises(UnsupportedError, match="collect_graph"):
        ms.SummaryCollector(logs, collect_specified_data={"collect_graph": True})
    with pytest.raises(ValueError, match="are unsupported"):
        ms.SummaryCollector(logs, collect_specified_data={"collect_everything": True})
    with pytest.raises(UnsupportedError, match="custom_lineage_data"):
        ms.SummaryCollector(logs, custom_lineage_data={"a": 1})


def test_profiler_analyse_pretty_indents_the_trace(tmp_path):
    from cellgraph.profiler import report

    report.write_trace([], [], str(tmp_path / "plain.json"))
    report.write_trace([], [], str(tmp_path / "pretty.json"), pretty=True)
    plain, pretty = ((tmp_path / f"{n}.json").read_text() for n in ("plain", "pretty"))
    assert json.loads(plain) == json.loads(pretty) and "\n" in pretty and "\n" not in plain


# ----- dataset ------------------------------------------------------------------------------

def _rows():
    for i in range(2):
        yield (np.array([i, 1.5], dtype=np.float64),)


def test_generator_dataset_checks_column_types():
    good = ds.GeneratorDataset(_rows, column_names=["a"], column_types=[ms.float64])
    assert [row[0].dtype for row in good.create_tuple_iterator()] == [ms.float64] * 2
    bad = ds.GeneratorDataset(_rows, column_names=["a"], column_types=[ms.float32])
    with pytest.raises(RuntimeError, match="column_types"):
        list(bad.create_tuple_iterator())
    # schema= takes a Schema or a schema file, as MindSpore's does; anything else is its error
    with pytest.raises(ValueError, match="schema should be a path to schema file or a schema "
                                         "object."):
        ds.GeneratorDataset(_rows, schema=object())


def test_map_callbacks_must_be_dataset_callbacks():
    # map(callbacks=) runs DSCallbacks (dataset.callback); anything else is MindSpore's TypeError
    with pytest.raises(TypeError, match="callbacks"):
        ds.NumpySlicesDataset(np.arange(4.0)).map(lambda x: x, callbacks=[object()])


def test_image_folder_refuses_decrypt(tmp_path):
    (tmp_path / "cat").mkdir()
    with pytest.raises(UnsupportedError, match="decrypt"):
        ds.ImageFolderDataset(str(tmp_path), decrypt=lambda data: data)


def test_batch_takes_mindsporess_keywords_only():
    data = ds.NumpySlicesDataset(np.arange(6.0), ["a"], shuffle=False)
    assert data.batch(2, python_multiprocessing=True, max_rowsize=4).get_dataset_size() == 3
    with pytest.raises(TypeError):
        ds.BatchDataset(data, 2, no_such_keyword=True)


Tensor = ms.Tensor


def test_a_keyword_a_primitive_does_not_take_is_named_in_a_type_error():
    x = ms.Tensor(np.array([-3, 3], np.int32))
    with pytest.raises(TypeError, match=r"Div\(\) got an unexpected keyword argument "
                                        r"'round' \(its keyword arguments: none\)"):
        ops.Div()(x, x, round=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'sorted'"):
        ops.cummax(ms.Tensor(np.ones(3, np.float32)), axis=0, sorted=True)
    assert ops.cummax(ms.Tensor(np.ones(3, np.float32)), axis=0)[1].tolist() == [0, 1, 2]
