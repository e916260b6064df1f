"""The auto-parallel context as MindSpore 2.10 keeps it: the keys set_auto_parallel_context
accepts beyond the ones cellgraph runs (read back, refused at compile), MindSpore's check that
the device_num set is the job's (RuntimeError at compile, before anything else), and the
private modules programs and MindSpore's tests import (`parallel._auto_parallel_context`,
`_cost_model_context`, `algo_parameter_config`, `_utils`). Expected values and messages are
MindSpore 2.10's."""
from __future__ import annotations

import re

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, context, nn, ops
from cellgraph.common.api import _cell_graph_executor
from cellgraph.parallel import _cost_model_context as cost_model
from cellgraph.parallel import get_algo_parameters, reset_algo_parameters, set_algo_parameters
from cellgraph.parallel._auto_parallel_context import auto_parallel_context
from cellgraph.parallel._utils import _get_full_batch, _is_in_auto_parallel_mode, _reset_op_id
from cellgraph.primitives.errors import UnsupportedError


@pytest.fixture(autouse=True)
def _fresh_context():
    context.reset_auto_parallel_context()
    yield
    context.reset_auto_parallel_context()
    cost_model.reset_cost_model_context()
    reset_algo_parameters()


class ShardedMul(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mul = ops.Mul().shard(((2, 1), (2, 1)))

    def construct(self, x):
        return self.mul(x, x)


X = Tensor(np.ones((8, 4), np.float32))


def test_defaults_read_back_as_mindspore():
    expected = {"dataset_strategy": "data_parallel", "search_mode": "recursive_programming",
                "pipeline_stages": 1, "enable_parallel_optimizer": False, "full_batch": False,
                "parallel_mode": "stand_alone", "device_num": 1, "global_rank": 0}
    for key, value in expected.items():
        assert context.get_auto_parallel_context(key) == value


@pytest.mark.parametrize("kwargs, key, value, full_batch", [
    ({"dataset_strategy": "full_batch"}, "dataset_strategy", "full_batch", True),
    ({"dataset_strategy": "data_parallel"}, "dataset_strategy", "data_parallel", False),
    ({"dataset_strategy": ((2, 1), (2, 1))}, "dataset_strategy", [[2, 1], [2, 1]], False),
    ({"full_batch": True}, "dataset_strategy", "full_batch", True),
    ({"search_mode": "sharding_propagation"}, "search_mode", "sharding_propagation", False),
    ({"search_mode": "dynamic_programming"}, "search_mode", "dynamic_programming", False),
    ({"pipeline_stages": 2}, "pipeline_stages", 2, False),
    ({"enable_parallel_optimizer": True}, "enable_parallel_optimizer", True, False),
    ({"parallel_mode": "auto_parallel"}, "parallel_mode", "auto_parallel", False),
])
def test_settings_read_back(kwargs, key, value, full_batch):
    context.set_auto_parallel_context(**kwargs)
    assert context.get_auto_parallel_context(key) == value
    assert context.get_auto_parallel_context("full_batch") is full_batch


@pytest.mark.parametrize("kwargs, error, message", [
    ({"dataset_strategy": "foo"}, ValueError,
     ("the argument 'dataset_strategy' must be 'full_batch' or 'data_parallel', but got the "
     "value : foo.")),
    ({"dataset_strategy": [[2, 1]]}, TypeError,
     ("the argument 'dataset_strategy' must be str or tuple type, but got the type : "
     "<class 'list'>.")),
    ({"search_mode": "foo"}, ValueError,
     ("'auto_parallel_search_mode' only support 'recursive_programming', "
     "'dynamic_programming' and 'sharding_propagation', but got the value: foo.")),
    ({"pipeline_stages": 0}, ValueError,
     "should be greater or equal 1, but got the value of stages : 0."),
    ({"pipeline_stages": True}, TypeError,
     "the argument 'pipeline_stages' must be int, but got the type : <class 'bool'>."),
    ({"enable_parallel_optimizer": 1}, TypeError, "enable_parallel_optimizer"),
])
def test_settings_refused_as_mindspore(kwargs, error, message):
    with pytest.raises(error) as info:
        context.set_auto_parallel_context(**kwargs)
    assert message in str(info.value)


def test_device_num_not_the_jobs_raises_runtime_error_at_compile():
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=8,
                                      global_rank=0)
    with pytest.raises(RuntimeError, match="The device_num 8 set in the context is not "
                                           "consist with 1 devices you have"):
        _cell_graph_executor.compile(ShardedMul(), X)
    context.set_auto_parallel_context(parallel_mode="auto_parallel")
    with pytest.raises(RuntimeError, match="The device_num 8"):
        _cell_graph_executor.compile(ShardedMul(), X)


def test_full_batch_outside_semi_auto_and_auto_parallel_raises_at_compile():
    for mode in ("data_parallel", "stand_alone"):
        context.set_auto_parallel_context(parallel_mode=mode, full_batch=True)
        with pytest.raises(RuntimeError, match="full_batch could only be used under "
                                               "semi_auto_parallel or auto_parallel."):
            _cell_graph_executor.compile(ShardedMul(), X)
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
    _cell_graph_executor.compile(ShardedMul(), X)


def test_data_parallel_and_stand_alone_compile_whatever_device_num_says():
    context.set_auto_parallel_context(parallel_mode="data_parallel", device_num=8)
    _cell_graph_executor.compile(ShardedMul(), X)
    context.set_auto_parallel_context(parallel_mode="stand_alone")
    _cell_graph_executor.compile(ShardedMul(), X)


@pytest.mark.parametrize("kwargs, message", [
    ({"parallel_mode": "auto_parallel"}, "searches the operators' strategies"),
    ({"parallel_mode": "semi_auto_parallel", "pipeline_stages": 2}, "pipeline_stages=2"),
    ({"parallel_mode": "semi_auto_parallel", "enable_parallel_optimizer": True},
     "enable_parallel_optimizer=True"),
])
def test_settings_cellgraph_cannot_run_are_refused_at_compile(kwargs, message):
    context.set_auto_parallel_context(**kwargs)
    with pytest.raises(UnsupportedError, match=message):
        _cell_graph_executor.compile(ShardedMul(), X)


def test_auto_parallel_context_object():
    apc = auto_parallel_context()
    assert apc.get_device_num_is_set() is False
    apc.set_device_num(4)
    apc.set_global_rank(1)
    apc.set_gradients_mean(True)
    assert (apc.get_device_num(), apc.get_global_rank(), apc.get_gradients_mean()) == (4, 1, True)
    assert apc.get_device_num_is_set() is True
    assert apc.get_pipeline_stages() == 1
    with pytest.raises(TypeError, match="the argument 'enable_fusion' must be bool, but got the "
                                        "type : <class 'int'>."):
        apc.set_enable_all_reduce_fusion(1)
    apc.set_enable_all_reduce_fusion(enable_all_reduce_fusion=False)
    assert apc.get_enable_all_reduce_fusion() is False
    apc.reset()
    assert apc.get_device_num_is_set() is False
    context.set_auto_parallel_context(parallel_mode="auto_parallel", dataset_strategy="full_batch")
    assert _is_in_auto_parallel_mode() and _get_full_batch()
    assert _reset_op_id() is None


def test_all_reduce_fusion_off_reduces_each_gradient_alone():
    from cellgraph.auto_parallel import bucket_bytes
    from cellgraph.nn.wrap.grad_reducer import plan_buckets

    params = [ms.Parameter(Tensor(np.zeros(n, np.float32)), name=f"p{n}") for n in (3, 4, 5)]
    assert plan_buckets(params, bucket_bytes()) == ((0, 1, 2),)
    auto_parallel_context().set_enable_all_reduce_fusion(False)
    assert plan_buckets(params, bucket_bytes()) == ((0,), (1,), (2,))


def test_algo_parameters_as_mindspore():
    assert [get_algo_parameters(k) for k in (
        "fully_use_devices", "elementwise_op_strategy_follow", "enable_algo_approxi",
        "algo_approxi_epsilon", "tensor_slice_align_enable", "tensor_slice_align_size")] == \
        [False, False, False, 0.10000000149011612, False, 16]
    set_algo_parameters(tensor_slice_align_size=3, fully_use_devices=True)
    assert get_algo_parameters("tensor_slice_align_size") == 3
    assert get_algo_parameters("fully_use_devices") is True
    with pytest.raises(ValueError, match="Set context keyword foo is not recognized!"):
        set_algo_parameters(foo=1)
    with pytest.raises(ValueError, match=r"Align_size must be in \[1, 1024\], but got 2000"):
        set_algo_parameters(tensor_slice_align_size=2000)
    with pytest.raises(TypeError, match="The parameter 'fully_use_devices' must be "
                                        "<class 'bool'>, but got <class 'int'>"):
        set_algo_parameters(fully_use_devices=1)
    with pytest.raises(RuntimeError, match=r"'epsilon' must be in \(0, 1\]"):
        set_algo_parameters(algo_approxi_epsilon=2.0)
    with pytest.raises(ValueError, match="Get context keyword foo is not recognized!"):
        get_algo_parameters("foo")
    reset_algo_parameters()
    assert get_algo_parameters("tensor_slice_align_size") == 16


def test_cost_model_context_as_mindspore():
    expected = {"device_memory_capacity": 17179869184.0, "costmodel_alpha": 1.0,
                "costmodel_beta": 400.0, "costmodel_gamma": 0.0010000000474974513,
                "costmodel_communi_threshold": 2048.0, "costmodel_communi_const": 3072.0,
                "costmodel_communi_bias": 1024.0, "run_phase": 0,
                "costmodel_allreduce_fusion_algorithm": 0,
                "costmodel_allreduce_fusion_times": 0,
                "costmodel_allreduce_fusion_tail_percent": 0.1}
    for key, value in expected.items():
        assert cost_model.get_cost_model_context(key) == pytest.approx(value, rel=1e-7)
    assert (cost_model._get_multi_subgraphs(), cost_model._get_algo_single_loop(),
            cost_model._get_rp_matmul_mem_coef()) == (False, False, 0.10000000149011612)
    cost_model.set_cost_model_context(costmodel_beta=10.0, run_phase=1)
    assert cost_model.get_cost_model_context("costmodel_beta") == 10.0
    assert cost_model.get_cost_model_context("run_phase") == 1
    with pytest.raises(ValueError, match="Set context keyword foo is not recognized!"):
        cost_model.set_cost_model_context(foo=1.0)
    with pytest.raises(TypeError, match="The parameter 'costmodel_alpha' must be "
                                        "<class 'float'>, but got <class 'int'>"):
        cost_model.set_cost_model_context(costmodel_alpha=1)
    with pytest.raises(ValueError, match="the argument 'phase' must be '0' or '1', but got 2"):
        cost_model.set_cost_model_context(run_phase=2)
    with pytest.raises(RuntimeError, match="'costmodel_alpha' must be positive."):
        cost_model.set_cost_model_context(costmodel_alpha=-1.0)
    with pytest.raises(ValueError, match="Get context keyword foo is not recognized!"):
        cost_model.get_cost_model_context("foo")
    cost_model._set_algo_single_loop(True)
    assert cost_model._get_algo_single_loop() is True
    cost_model.reset_cost_model_context()
    assert cost_model.get_cost_model_context("costmodel_beta") == 400.0


def test_algo_parameters_are_top_level_names_too():
    """MindSpore 2.10 exports set/get/reset_algo_parameters from the package."""
    import cellgraph as ms
    from cellgraph.parallel import algo_parameter_config as config

    assert ms.set_algo_parameters is config.set_algo_parameters
    ms.set_algo_parameters(fully_use_devices=True)
    try:
        assert ms.get_algo_parameters("fully_use_devices") is True
    finally:
        ms.reset_algo_parameters()
    assert ms.get_algo_parameters("fully_use_devices") is False


def test_comm_fusion_reads_back_every_kind_as_mindspore():
    context.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 32}})
    context.set_auto_parallel_context(comm_fusion={"allgather": {"mode": "size", "config": 16}})
    assert context.get_auto_parallel_context("comm_fusion") == {
        "openstate": True, "allreduce": {"mode": "size", "config": 32},
        "allgather": {"mode": "size", "config": 16},
        "reducescatter": {"mode": "auto", "config": None}}
    context.set_auto_parallel_context(comm_fusion={"openstate": False})
    assert context.get_auto_parallel_context("comm_fusion")["openstate"] is False
    assert auto_parallel_context().get_enable_all_reduce_fusion() is False
    context.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "index",
                                                                 "config": [2, 4]}})
    assert context.get_auto_parallel_context("all_reduce_fusion_config") == [2, 4]
    assert auto_parallel_context().get_enable_all_reduce_fusion() is True
    assert auto_parallel_context().get_comm_fusion()["allreduce"] == {"mode": "index",
                                                                       "config": [2, 4]}
    context.reset_auto_parallel_context()
    assert context.get_auto_parallel_context("comm_fusion") == {
        "openstate": True, **{k: {"mode": "auto", "config": None}
                              for k in ("allreduce", "allgather", "reducescatter")}}


@pytest.mark.parametrize("config, error, message", [
    ({"foo": 1}, KeyError, ("comm fusion type must be openstate,allreduce, allgather or "
                            "reducescatter, but got foo")),
    ({"allreduce": 3}, TypeError, ("the 'allreduce' config must be dict, but got the type : "
                                   "<class 'int'>.")),
    ({"allreduce": {"mode": "x", "config": 1}}, KeyError,
     "fusion method mode must be auto, index or size, but got x"),
    ({"allgather": {"mode": "index", "config": [1]}}, KeyError,
     "fusion method mode must be auto or size, but got index"),
    ({"allreduce": {"config": 1}}, KeyError, "the key 'mode' should be contained."),
    ({"allreduce": {"mode": "size"}}, KeyError, "the key 'config' should be contained."),
    ({"allreduce": {"mode": "size", "config": -1}}, ValueError,
     "fusion threshold must be larger than 0, but got -1"),
    ({"allreduce": {"mode": "size", "config": "30.12"}}, TypeError, "must be an int"),
    ({"allreduce": {"mode": "size", "config": 2.5}}, TypeError, "must be an int"),
    ({"openstate": "True"}, TypeError, ("the 'openstate' must be bool, but got the type : "
                                        "<class 'str'>.")),
    ({"allreduce": {"mode": "index", "config": []}}, ValueError, "can not be empty"),
    ({"allreduce": {"mode": "index", "config": [3, 1]}}, ValueError,
     "must be sorted in ascending order"),
    ([1], TypeError, "The parameter 'comm_fusion' must be <class 'dict'>"),
])
def test_comm_fusion_errors_as_mindspore(config, error, message):
    """MindSpore 2.10's exception types (and messages) for each kind of bad comm_fusion."""
    with pytest.raises(error, match=re.escape(message)):
        context.set_auto_parallel_context(comm_fusion=config)
    assert context.get_auto_parallel_context("comm_fusion")["allreduce"] == {"mode": "auto",
                                                                             "config": None}


def test_all_reduce_fusion_config_errors_as_mindspore():
    with pytest.raises(TypeError, match="'indices' must be list"):
        context.set_auto_parallel_context(all_reduce_fusion_config=(1, 2))
    with pytest.raises(TypeError, match="'index' must be int"):
        context.set_auto_parallel_context(all_reduce_fusion_config=[1, True])
    with pytest.raises(ValueError, match="The indices has duplicate elements"):
        context.set_auto_parallel_context(all_reduce_fusion_config=[1, 1])


def test_pipeline_and_communication_keys_read_back_as_mindspore():
    """MindSpore 2.10's defaults, read-backs and exception types of gradient_fp32_sync,
    communi_parallel_mode, optimizer_weight_shard_aggregated_save and pipeline_config."""
    apc = auto_parallel_context()
    assert context.get_auto_parallel_context("gradient_fp32_sync") is True
    assert context.get_auto_parallel_context("communi_parallel_mode") == "all_group_parallel"
    assert apc.get_optimizer_weight_shard_aggregated_save() is False
    assert (apc.get_pipeline_interleave(), apc.get_pipeline_scheduler()) == (False, "1f1b")
    assert apc.get_parameter_broadcast_is_set() is False
    context.set_auto_parallel_context(gradient_fp32_sync=False, parameter_broadcast=False,
                                      communi_parallel_mode="same_server_group_parallel",
                                      pipeline_config={"pipeline_interleave": True,
                                                       "pipeline_scheduler": "gpipe"})
    apc.set_optimizer_weight_shard_aggregated_save(True)
    assert apc.get_gradient_fp32_sync() is False
    assert apc.get_communi_parallel_mode() == "same_server_group_parallel"
    assert apc.get_optimizer_weight_shard_aggregated_save() is True
    assert (apc.get_pipeline_interleave(), apc.get_pipeline_scheduler()) == (True, "gpipe")
    assert apc.get_parameter_broadcast_is_set() is True
    context.reset_auto_parallel_context()
    assert apc.get_gradient_fp32_sync() is True and apc.get_parameter_broadcast_is_set() is False
    assert (apc.get_pipeline_interleave(), apc.get_pipeline_scheduler()) == (False, "1f1b")


@pytest.mark.parametrize("kwargs, error, message", [
    ({"gradient_fp32_sync": 1}, TypeError,
     "The parameter 'gradient_fp32_sync' must be <class 'bool'>, but got <class 'int'>"),
    ({"communi_parallel_mode": "x"}, ValueError, "only support 'ALL_GROUP_PARALLEL'"),
    ({"communi_parallel_mode": 1}, TypeError, "must be <class 'str'>"),
    ({"optimizer_weight_shard_aggregated_save": 1}, TypeError, "must be <class 'bool'>"),
    ({"pipeline_config": {"pipeline_interleave": True}}, KeyError, "pipeline_scheduler"),
    ({"pipeline_config": {"pipeline_interleave": True, "pipeline_scheduler": "zz"}},
     ValueError, "but got 'zz'."),
    ({"pipeline_config": {"pipeline_interleave": 1, "pipeline_scheduler": "gpipe"}},
     TypeError, "the 'pipeline_interleave' must be a bool, but got int."),
    ({"pipeline_config": {"pipeline_interleave": False, "pipeline_scheduler": "gpipe"}},
     TypeError, "When pipeline_interleave is False, 'gpipe' is not supported"),
    ({"pipeline_config": {"foo": 1}}, ValueError, "Unknown config: ['foo']"),
    ({"global_rank": 4096}, ValueError, "'global_rank' must be in [0, 4095]"),
])
def test_pipeline_and_communication_key_errors_as_mindspore(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        context.set_auto_parallel_context(**kwargs)


def test_comm_fusion_switches_each_kind_of_fusion_as_mindspore():
    apc = auto_parallel_context()
    kinds = (apc.get_enable_all_gather_fusion, apc.get_enable_reduce_scatter_fusion)
    assert [get() for get in kinds] == [False, False]
    context.set_auto_parallel_context(comm_fusion={"allgather": {"mode": "auto", "config": None}})
    assert [get() for get in kinds] == [True, False]
    context.set_auto_parallel_context(comm_fusion={"openstate": False})
    assert [get() for get in kinds] == [False, False]
    assert apc.get_enable_all_reduce_fusion() is False
    apc.set_enable_reduce_scatter_fusion(True)
    assert apc.get_enable_reduce_scatter_fusion() is True
    with pytest.raises(TypeError, match="set_enable_all_gather_fusion', the argument "
                                        "'enable_fusion' must be bool"):
        apc.set_enable_all_gather_fusion(1)


def test_a_dynamic_shape_compile_checks_the_device_num_first():
    """A network compiled for `Tensor(shape=[None, 4], ...)` in semi_auto_parallel meets the
    same check as any other compile: RuntimeError for a device_num the job does not have."""
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=8)
    with pytest.raises(RuntimeError, match="The device_num 8 set in the context is not consist"):
        _cell_graph_executor.compile(ShardedMul(), Tensor(shape=[None, 4], dtype=ms.float32))


def test_parallel_optimizer_config_read_back_as_mindspore():
    apc = auto_parallel_context()
    read = (apc.get_grad_accumulation_shard, apc.get_parallel_optimizer_threshold,
            apc.get_optimizer_weight_shard_size)
    assert [get() for get in read] == [False, -1, -1]
    context.set_auto_parallel_context(parallel_optimizer_config={
        "parallel_optimizer_threshold": 0, "optimizer_weight_shard_size": 3})
    context.set_auto_parallel_context(parallel_optimizer_config={"optimizer_level": "level2"})
    assert [get() for get in read] == [True, 0, 3]
    with pytest.raises(ValueError, match="Get context keyword parallel_optimizer_config is not "
                                         "recognized!"):
        context.get_auto_parallel_context("parallel_optimizer_config")
    context.reset_auto_parallel_context()
    assert [get() for get in read] == [False, -1, -1]


@pytest.mark.parametrize("config, error, message", [
    ({"parallel_optimizer_threshold": -1}, ValueError,
     ("For 'parallel_optimizer_threshold', the input value must be int and must >= 0, but got "
     "'-1' with type 'int'.")),
    ({"parallel_optimizer_threshold": 1.5}, TypeError, ("the input value must be int, but got "
                                                       "'float'")),
    ({"optimizer_weight_shard_size": 0}, ValueError, "must be int and must > 0, but got '0'"),
    ({"gradient_accumulation_shard": 1}, TypeError,
     "the 'gradient_accumulation_shard' must be a bool, but got int."),
    ({"optimizer_level": "level4"}, ValueError, ("Optimizer level should in ['level1', "
                                                "'level2', 'level3'], but got level4")),
    ({"foo": 1}, ValueError, "Unknown config: ['foo']"),
    ([1], TypeError, "The parameter 'parallel_optimizer_config' must be <class 'dict'>"),
])
def test_parallel_optimizer_config_errors_as_mindspore(config, error, message):
    with pytest.raises(error, match=re.escape(message)):
        context.set_auto_parallel_context(parallel_optimizer_config=config)


def test_optimizers_refuse_the_parallel_optimizer_where_mindspore_does():
    """MindSpore 2.10's RuntimeErrors: stand-alone, and data parallel off Ascend; in
    semi_auto_parallel the optimizer is made (the compile refuses the setting)."""
    net = nn.Dense(3, 2)
    context.set_auto_parallel_context(enable_parallel_optimizer=True)
    with pytest.raises(RuntimeError, match="parallel optimizer is not supported in stand_alone"):
        nn.Lamb(net.trainable_params(), learning_rate=0.1)
    context.set_auto_parallel_context(parallel_mode="data_parallel")
    with pytest.raises(RuntimeError, match='parallel optimizer only supports "Ascend" in data '
                                           'parallel mode, but got CPU.'):
        nn.Adam(net.trainable_params(), learning_rate=0.1)
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
    assert nn.Adam(net.trainable_params(), learning_rate=0.1).use_parallel is False


def test_dataset_strategy_of_layouts_and_its_element_checks_as_mindspore():
    from cellgraph.parallel import Layout

    layout = Layout((2, 4), ("dp", "mp"))
    try:
        context.set_auto_parallel_context(dataset_strategy=(layout("dp", "mp"),
                                                            layout("mp", "None")))
        kept = context.get_auto_parallel_context("dataset_strategy")
        assert [item.to_dict()["tensor_map"] for item in kept] == [(1, 0), (0, -1)]
        interleaved = Layout((2, 2, 2), ("dp", "mp", "interleaved_parallel"))
        with pytest.raises(ValueError, match="layout does not support interleaved_parallel"):
            context.set_auto_parallel_context(dataset_strategy=(interleaved("dp", "mp"),))
        with pytest.raises(TypeError, match="All the dataset_strategy elements should be "
                                            "Layout, but got <class 'tuple'>"):
            context.set_auto_parallel_context(dataset_strategy=(layout("dp", "mp"), (1, 2)))
        with pytest.raises(TypeError, match="the element of argument 'dataset_strategy' must "
                                            "be tuple, but got the type : <class 'list'> ."):
            context.set_auto_parallel_context(dataset_strategy=((2, 1), [1]))
        with pytest.raises(TypeError, match="the element of argument 'dataset_strategy' must "
                                            "be int type, but got the type : <class 'float'> ."):
            context.set_auto_parallel_context(dataset_strategy=((2, 1.0),))
    finally:
        context.reset_auto_parallel_context()


class _MulByWeight(nn.Cell):
    def __init__(self, rows):
        super().__init__()
        self.mul = ops.Mul()
        self.w = ms.Parameter(Tensor(np.ones((rows, 4), np.float32)), "w")

    def construct(self, x):
        return self.mul(x, self.w)


@pytest.mark.parametrize("settings, error", [
    # each process's share of the batch: the job's size is asked before any shape is inferred
    ({}, RuntimeError),
    ({"dataset_strategy": "full_batch"}, ValueError),
    ({"dataset_strategy": ((1, 1),)}, ValueError),
])
def test_a_split_batch_meets_the_device_num_check_before_shapes(settings, error):
    """x (2, 4) times a (16, 4) weight fits only the whole batch of 8 devices: MindSpore
    refuses the job of one process first when each process reads its share, and infers the
    shapes first (ValueError) when every process reads the whole batch."""
    ms.set_context(mode=ms.GRAPH_MODE)
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=8,
                                      global_rank=0, **settings)
    try:
        with pytest.raises(error) as info:
            _cell_graph_executor.compile(_MulByWeight(16), Tensor(np.ones((2, 4), np.float32)))
        if error is RuntimeError:
            assert "The device_num 8 set in the context is not consist with 1" in str(info.value)
    finally:
        context.reset_auto_parallel_context()


def test_set_op_strategy_config_checks_as_mindspore(tmp_path):
    from cellgraph.auto_parallel import _state
    from cellgraph.parallel import set_op_strategy_config

    for mode, path in [("SAVE", "./rel/strategy.json"), ("LOAD", str(tmp_path / "s.yaml")),
                       ("READ", str(tmp_path / "s.json"))]:
        with pytest.raises(KeyError):
            set_op_strategy_config(mode=mode, path=path)
    target = tmp_path / "made" / "strategy.json"
    try:
        set_op_strategy_config(mode="LOAD", path=str(target))
        assert target.parent.is_dir()
        assert _state["ops_strategy_json_config"] == ("LOAD", str(target), "all")
    finally:
        context.reset_auto_parallel_context()
    assert _state["ops_strategy_json_config"] is None
