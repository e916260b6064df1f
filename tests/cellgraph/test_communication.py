"""cellgraph.communication, the auto-parallel context and the collective primitives.

* On 2 processes (Gloo on loopback): each collective's forward, gradient and gradient of order
  2 against its definition, where the global loss is the sum of the ranks' losses (the
  reference is NumPy over every rank's inputs, differentiated by central differences).
* In this process, as a world of one: init, ranks and groups, collectives in construct and in
  the IR, bucketed gradient reduction (one all_reduce per bucket).
* Without PyTorch: init names the package to install; before init, collectives say to init
  and rank queries give the launcher's environment (MindSpore's defaults without one).
"""
from __future__ import annotations

import json
import re
import sys

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, communication, nn, ops
from cellgraph.common.api import _cell_graph_executor
from cellgraph.nn.wrap.grad_reducer import plan_buckets
from cellgraph.primitives.errors import ArgumentValueError, CommunicationError
from cellgraph.runtime import distributed

from . import distributed_worker as worker


@pytest.fixture(autouse=True)
def _stand_alone_after():
    yield
    ms.reset_auto_parallel_context()  # no test leaves another in DATA_PARALLEL


CHECKS = [f"{name}/{what}" for name in worker.COLLECTIVES for what in ("forward", "grad", "grad2")]


@pytest.fixture(scope="module")
def two_ranks(tmp_path_factory):
    pytest.importorskip("torch.distributed")
    out = tmp_path_factory.mktemp("collectives")
    worker.launch("collectives", out)
    return [json.loads((out / f"collectives_rank{r}.json").read_text()) for r in range(2)]


@pytest.mark.parametrize("check", CHECKS + ["bucket/float", "bucket/int", "parameter_broadcast"])
def test_collective_matches_its_definition_on_two_ranks(two_ranks, check):
    for rank, errors in enumerate(two_ranks):
        assert errors[check] < 1e-7, f"rank {rank} {check}: relative error {errors[check]}"


@pytest.fixture
def world_of_one():
    pytest.importorskip("torch.distributed")
    communication.init()
    yield
    communication.release()
    ms.reset_auto_parallel_context()


def test_init_alone_is_a_world_of_one(world_of_one):
    assert (communication.get_rank(), communication.get_group_size()) == (0, 1)
    assert communication.get_local_rank() == 0
    assert communication.GlobalComm.INITED
    assert communication.GlobalComm.WORLD_COMM_GROUP == "mccl_world_group"
    assert communication.get_rank(communication.GlobalComm.WORLD_COMM_GROUP) == 0
    assert ms.get_auto_parallel_context("device_num") == 1


def test_global_comm_at_mindspore_internal_path():
    """MindSpore's tests read and set the settings through
    `communication._comm_helper.GlobalComm`: the same class `init()` and `release()` set."""
    from cellgraph.communication._comm_helper import GlobalComm

    assert GlobalComm is communication.GlobalComm
    assert not GlobalComm.INITED
    assert GlobalComm.WORLD_COMM_GROUP == communication.GlobalComm.WORLD_COMM_GROUP


def test_groups(world_of_one):
    communication.create_group("solo", [0])
    assert communication.get_group_size("solo") == 1
    assert communication.get_world_rank_from_group_rank("solo", 0) == 0
    assert communication.get_group_rank_from_world_rank(0, "solo") == 0
    assert communication.get_process_group_ranks("solo") == [0]
    x = Tensor(np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(ops.AllReduce(group="solo")(x).asnumpy(), x.asnumpy())
    communication.destroy_group("solo")
    with pytest.raises(CommunicationError, match="unknown communication group 'solo'"):
        communication.get_rank("solo")
    with pytest.raises(ArgumentValueError, match="distinct ranks"):
        communication.create_group("bad", [0, 3])


class Collectives(nn.Cell):
    def __init__(self):
        super().__init__()
        self.all_reduce = ops.AllReduce(ops.ReduceOp.MAX)
        self.all_gather = ops.AllGather()
        self.barrier = ops.Barrier()

    def construct(self, x):
        unused = self.all_reduce(x * 3)  # noqa: F841 - every rank must still meet it
        self.barrier()
        return self.all_gather(x + 1)


def test_collectives_in_construct_are_kept_and_shown(world_of_one):
    x = Tensor(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(Collectives()(x).asnumpy(), np.full((2, 3), 2.0))
    text = ms.dump_ir(Collectives(), x)
    calls = [re.match(r"\s*(?:%\d+(?:, %\d+)* = )?(\w+)\(", line).group(1)
             for line in text.splitlines()[1:-2]]
    # the all_reduce runs as a start and a done (overlap_collectives), in the program's order
    assert calls == ["mul", "all_reduce_start", "all_reduce_done", "barrier", "add",
                     "all_gather"]
    assert "{op='max', group='hccl_world_group'}" in text
    grad_text = ms.dump_ir(ms.grad(Collectives()), x)
    assert "reduce_scatter(" in grad_text  # AllGather's gradient


def test_gradients_travel_in_buckets(world_of_one):
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True,
                                 comm_fusion={"allreduce": {"mode": "index", "config": [2, 4]}})
    net = nn.SequentialCell(nn.Dense(20, 10), nn.Dense(10, 10), nn.Dense(10, 2))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.SGD(net.trainable_params(), 0.1))
    buckets = step.grad_reducer.buckets
    assert buckets == ((0, 1), (2, 3), (4, 5))
    x, y = Tensor(np.ones((4, 20), np.float32)), Tensor(np.ones((4, 2), np.float32))
    text = ms.dump_ir(step, x, y)
    assert text.count("= all_reduce_start(") == len(buckets)
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    step(x, y)
    assert all(np.any(p.asnumpy() != b) for p, b in zip(net.trainable_params(), before))


def test_bucket_plan_keeps_dtypes_apart_and_sizes_bounded():
    params = [ms.Parameter(np.zeros(n, dtype), name=f"p{i}") for i, (n, dtype) in enumerate(
        [(100, np.float32), (100, np.float32), (10, np.float64), (300, np.float32),
         (50, np.float32)])]
    assert plan_buckets(params, 800) == ((0, 1), (2,), (3,), (4,))
    assert plan_buckets(params, 10**6) == ((0, 1, 3, 4), (2,))
    assert plan_buckets(params, 10**6, splits=[3]) == ((0, 1), (2,), (3, 4))


def test_auto_parallel_context():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True, device_num=4)
    assert ms.context.get_auto_parallel_context("parallel_mode") == "data_parallel"
    assert ms.get_auto_parallel_context("gradients_mean") is True
    assert ms.get_auto_parallel_context("device_num") == 4
    ms.context.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == ms.context.ParallelMode.STAND_ALONE
    assert ms.get_auto_parallel_context("gradients_mean") is False
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", full_batch=True)
    assert ms.get_auto_parallel_context("parallel_mode") == "semi_auto_parallel"
    ms.context.reset_auto_parallel_context()
    with pytest.raises(ValueError, match="parallel_mode 'hybrid_parallel' is not supported"):
        ms.set_auto_parallel_context(parallel_mode="hybrid_parallel")
    ms.set_auto_parallel_context(all_reduce_fusion_config=[2, 5])
    assert ms.get_auto_parallel_context("all_reduce_fusion_config") == [2, 5]
    with pytest.raises(ValueError, match="must be sorted in ascending order"):
        ms.set_auto_parallel_context(all_reduce_fusion_config=[5, 2])
    with pytest.raises(TypeError, match="gradients_mean must be a bool"):
        ms.set_auto_parallel_context(gradients_mean=1)
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"


def test_init_without_pytorch_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch.distributed", None)
    with pytest.raises(CommunicationError, match=r"pip install 'cellgraph\[distributed\]'"):
        communication.init()
    assert not distributed.is_initialized()


def test_collectives_before_init_say_to_call_init():
    x = Tensor(np.ones(3, np.float32))
    with pytest.raises(CommunicationError, match=r"call cellgraph.communication.init\(\) first"):
        ops.AllGather()(x)
    with pytest.raises(CommunicationError, match="init"):
        ops.AllReduce()(x)


@pytest.mark.parametrize("backend", ["numpy", "xp_numpy", "torch"])
def test_collective_kernels_keep_each_backends_arrays(world_of_one, backend):
    """The one kernel table serves every backend: NumPy arrays and torch tensors go to
    torch.distributed without a copy and come back as the backend's own arrays."""
    from cellgraph.runtime import backend as rb
    from cellgraph.runtime import cupy_kernels

    if backend == "xp_numpy" and "xp_numpy" not in rb.available_backends():
        rb.register_backend(cupy_kernels.make_backend(np, "xp_numpy", device="CPU"))
    active = rb.set_backend(backend)
    try:
        x = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
        outs = [ops.AllReduce()(x), ops.AllGather()(x), ops.ReduceScatter()(x),
                ops.Broadcast(0)((x,))[0]]
        for out in outs:
            assert type(out._data) is type(active.from_host(np.zeros(1)))
            np.testing.assert_array_equal(out.asnumpy(), x.asnumpy())
    finally:
        rb.set_backend("numpy")


def test_arrays_reach_torch_without_a_copy():
    pytest.importorskip("torch")
    from cellgraph.runtime.collective_kernels import as_torch, like

    array = np.arange(6, dtype=np.float32).reshape(2, 3)
    shared = as_torch(array)
    shared[0, 0] = 9.0
    assert array[0, 0] == 9.0  # the same memory
    assert np.shares_memory(like(shared, array), array)
    strided = array[:, ::2]  # no contiguous layout to share: copied
    copied = as_torch(strided)
    copied[0, 0] = -1.0
    assert strided[0, 0] == 9.0


def test_collectives_batch_under_vmap(world_of_one):
    xs = Tensor(np.arange(24, dtype=np.float32).reshape(4, 3, 2))
    for collective in (ops.AllReduce(), ops.AllGather(), ops.ReduceScatter()):
        out = ms.vmap(collective, in_axes=0, out_axes=0)(xs)
        np.testing.assert_array_equal(out.asnumpy(), xs.asnumpy())
    out = ms.vmap(ops.AllGather(), in_axes=1, out_axes=1)(xs)
    np.testing.assert_array_equal(out.asnumpy(), xs.asnumpy())


class LoopAllReduce(nn.Cell):
    """An all-reduce inside a Tensor `while` loop and a Tensor `if`."""

    def __init__(self):
        super().__init__()
        self.all_reduce = ops.AllReduce()

    def construct(self, x, n):
        i = 0
        while i < n:
            x = self.all_reduce(ops.sin(x)) * 0.5 + x
            i += 1
        if x.sum() > 0:
            x = self.all_reduce(x * x)
        return x.sum()


def test_collectives_in_loops_and_branches_differentiate(world_of_one):
    """In a world of one each all-reduce is the identity: the derivative is the loop's own."""
    x, n = Tensor(np.array([0.3, -0.2, 0.9], np.float64)), Tensor(np.array(3))

    def reference(v):
        for _ in range(3):
            v = np.sin(v) * 0.5 + v
        return (v * v).sum()

    np.testing.assert_allclose(LoopAllReduce()(x, n).asnumpy(), reference(x.asnumpy()))
    step = 1e-6
    expected = [(reference(x.asnumpy() + step * e) - reference(x.asnumpy() - step * e)) /
                (2 * step) for e in np.eye(3)]
    np.testing.assert_allclose(ms.grad(LoopAllReduce())(x, n).asnumpy(), expected, rtol=1e-6)


def test_ranks_that_disagree_on_a_shape_get_an_error_naming_it_on_every_rank(tmp_path):
    """Rank 0 passes a (2, 3) tensor, rank 1 a (3, 3) one: both raise ValueError naming the
    collective, the group and each rank's shape (not a transport abort blaming a dead peer),
    and the job goes on: a later collective the ranks agree on works."""
    pytest.importorskip("torch.distributed")
    worker.launch("mismatch", tmp_path)
    for rank in range(2):
        result = json.loads((tmp_path / f"mismatch_rank{rank}.json").read_text())
        errors = result["errors"]
        assert errors["all_reduce"] == (
            "ValueError: AllReduce on group 'hccl_world_group': the ranks disagree on the "
            "input's shapes (rank 0: [2, 3] float32; rank 1: [3, 3] float32); every rank must "
            "pass the same shapes and dtypes")
        # compiled: one check before the first bucket covers both, naming the user's line
        assert errors["compiled_all_reduce"].startswith(
            "ValueError: AllReduce on group 'hccl_world_group': the ranks disagree on the "
            "inputs' shapes (rank 0: [2, 3] float32, [2, 3] float32; rank 1: [3, 3] float32, "
            "[3, 3] float32); every rank must pass the same shapes and dtypes")
        assert "return ops.AllReduce()(x * 2) + ops.AllReduce()(x)" in \
            errors["compiled_all_reduce"]
        assert errors["all_gather"].startswith("ValueError: AllGather on group")
        assert "rank 0: [2, 3] float32; rank 1: [3, 3] float32" in errors["all_gather"]
        assert errors["broadcast"].startswith("ValueError: Broadcast on group")
        assert "disagree on the input's dtypes (rank 0: [4, 3] float32; rank 1: [4, 3] " \
               "float64)" in errors["all_reduce_dtype"]
        assert errors["all_to_all"] == (
            "ValueError: AllToAll on group 'mccl_world_group': rank 0 sends 1 rows to rank 1, "
            "which expects 2 (rows sent per rank: [[1, 1], [2, 2]]; rows expected per rank: "
            "[[1, 1], [2, 2]])")
        assert result["after"] == [2.0, 2.0]


def test_comm_func_collectives_on_two_processes(tmp_path):
    """communication.comm_func as MindSpore's: (tensor, handle) from all_reduce (two in flight
    at once with async_op=True), the gathers and scatters (a handle only with async_op=True), world ranks for src and dst; send/recv,
    isend/irecv started on both ranks before either waits, all-to-all in equal and uneven parts
    (its gradient sends the cotangents back) and of a list of tensors."""
    pytest.importorskip("torch.distributed")
    worker.launch("comm_func", tmp_path)
    for rank in range(2):
        got = json.loads((tmp_path / f"comm_func_rank{rank}.json").read_text())
        assert got["all_reduce"] == [[3.0] * 3] * 2 and got["sync_handle"] is None
        assert got["async_all_reduce"] == [[[3.0] * 3] * 2, [[6.0] * 3] * 2]
        assert got["max"] == [[2.0] * 3] * 2
        assert got["all_gather"] == [[1.0] * 3] * 2 + [[2.0] * 3] * 2
        full = np.arange(12, dtype=np.float32).reshape(4, 3) * 3
        assert got["reduce_scatter"] == full[2 * rank:2 * rank + 2].tolist()
        assert got["broadcast"] == [[2.0] * 3] * 2
        assert got["reduce"] == ([[3.0] * 3] * 2 if rank == 1 else [[0.0] * 3] * 2)
        assert got["grad_all_gather"] == [[2.0] * 3] * 2
        if rank == 1:
            assert got["recv"] == [[5.0] * 3] * 2
        assert got["irecv"] == [10.0 + 1 - rank] * 3
        assert got["all_to_all"] == ([0.0, 1.0, 10.0, 11.0] if rank == 0 else
                                     [2.0, 3.0, 12.0, 13.0])
        # rank 0 sends rows (1, 3) and rank 1 rows (2, 2): rank 0 gets 1 + 2, rank 1 3 + 2
        assert got["uneven"] == ([0.0, 10.0, 11.0] if rank == 0 else
                                 [1.0, 2.0, 3.0, 12.0, 13.0])
        assert got["grad_uneven"] == [2.0 * (v + 10 * rank) for v in range(4)]
        assert got["all_to_all_list"] == ([[[0.0, 0.0]], [[10.0, 10.0]]] if rank == 0 else
                                          [[1.0, 1.0], [11.0, 11.0]])


def test_comm_func_checks_its_arguments_as_mindspore(world_of_one):
    from cellgraph.communication import comm_func

    x = Tensor(np.ones((2, 2), np.float32))
    with pytest.raises(TypeError, match="For all_reduce, the input tensor must be tensor"):
        comm_func.all_reduce(np.ones(2))
    with pytest.raises(TypeError, match="the input op value must be one of sum, prod, min"):
        comm_func.all_reduce(x, op="mean")
    with pytest.raises(TypeError, match="For broadcast, the src must be int"):
        comm_func.broadcast(x, src="0")
    out, handle = comm_func.reduce_scatter_tensor(x, async_op=True)
    assert handle.wait() is None
    np.testing.assert_array_equal(out.asnumpy(), x.asnumpy())  # a world of one
    total, _ = comm_func.all_reduce(x, group=None)
    np.testing.assert_array_equal(total.asnumpy(), x.asnumpy())

    @ms.jit
    def in_graph(t):
        return comm_func.all_gather_into_tensor(comm_func.all_reduce(t)[0] * 2)[0]

    np.testing.assert_array_equal(in_graph(x).asnumpy(), 2 * x.asnumpy())
    np.testing.assert_array_equal(ms.grad(in_graph)(x).asnumpy(), np.full((2, 2), 2.0))

    @ms.jit
    def isend_in_graph(t):
        return comm_func.isend(t, dst=0)

    with pytest.raises(NotImplementedError, match="isend: runs outside compiled graphs only"):
        isend_in_graph(x)
    with pytest.raises(ValueError, match="rank 0 sends 2 rows to rank 0, which expects 3"):
        comm_func.all_to_all_single_with_output_shape((3, 2), x, group=None)  # x has 2 rows


def test_rank_queries_before_init_read_the_launcher_s_environment(monkeypatch):
    # MindSpore 2.10, before init(): RANK_ID / RANK_SIZE / LOCAL_RANK / LOCAL_RANK_SIZE, else
    # 0, 1, 0, 1, for any group name
    assert not distributed.is_initialized()
    for group in ("hccl_world_group", "mygroup"):
        assert communication.get_rank(group) == 0
        assert communication.get_group_size(group) == 1
        assert communication.get_local_rank(group) == 0
        assert communication.get_local_rank_size(group) == 1
    monkeypatch.setenv("RANK_ID", "2")
    monkeypatch.setenv("RANK_SIZE", "4")
    assert (communication.get_rank(), communication.get_group_size()) == (2, 4)
    with pytest.raises(TypeError, match="group"):
        communication.get_rank(5)
    with pytest.raises(CommunicationError, match="init"):
        communication.create_group("g", [0])


def test_neighbor_exchange_on_two_processes(tmp_path):
    """NeighborExchange sends each tensor to its rank (a rank's own tensors to itself) and its
    gradient sends the cotangents back to where the tensors came from."""
    pytest.importorskip("torch.distributed")
    worker.launch("neighbor_exchange", tmp_path)
    expected = {0: {"received": [[11.0, 11.0], [0.0, 1.0, 2.0]],
                    "grads": [[2.0, 2.0], [1.0, 1.0, 1.0]]},
                1: {"received": [[1.0, 1.0], [1.0, 2.0, 3.0]],
                    "grads": [[1.0, 1.0], [2.0, 2.0, 2.0]]}}
    for rank in range(2):
        got = json.loads((tmp_path / f"neighbor_exchange_rank{rank}.json").read_text())
        assert got == expected[rank]


class _Exchange(nn.Cell):
    def __init__(self, **attrs):
        super().__init__()
        settings = {"send_rank_ids": [0], "recv_rank_ids": [1, 2],
                    "recv_shapes": ([32, 32], [32, 64]), "send_shapes": ([32, 16],),
                    "recv_type": ms.float32, **attrs}
        self.exchange = ops.operations.comm_ops.NeighborExchange(**settings)

    def construct(self, x):
        return self.exchange((x,))[0]


@pytest.mark.parametrize("attrs, error, message", [
    ({"send_rank_ids": (0,)}, TypeError, "attr 'send_rank_ids' must be a list[int, int, ...]."),
    ({"send_rank_ids": [1.0]}, TypeError, "attr 'send_rank_ids' must be a list[int, int, ...]."),
    ({"recv_rank_ids": (1, 2)}, TypeError, "attr 'recv_rank_ids' must be a list[int, int, ...]."),
    ({"send_shapes": [[32, 16]]}, TypeError, "attr 'send_shapes' must be a tuple(list, list, "),
    ({"recv_type": np.float32}, TypeError, "attr 'recv_type' must be a mindspore data type"),
    ({"group": ("a",)}, TypeError, "attr 'group' must be a str"),
    ({"recv_shapes": ([32, 32],)}, ValueError,
     ("attr 'recv_shapes' size must be equal to attr  'recv_rank_ids' size, but got attr "
     "'recv_shapes' size: 1, attr 'recv_rank_ids' size: 2")),
    ({"send_rank_ids": [0, 1]}, ValueError,
     "attr 'send_shapes' size must be equal to attr  'send_rank_ids' size"),
    ({"send_shapes": ([16, 16],)}, RuntimeError,
     ("input[0] shape must be equal to attr shape, but got input[0] shape: [32,16], attr shape "
     ": [16,16].")),
    ({"send_rank_ids": [0, 1], "send_shapes": ([32, 16], [32, 16])}, RuntimeError,
     ("input tuple size must be equal to attr 'send_shapes' size, but got input tuple size: 1, "
     "attr 'send_shapes' size: 2.")),
])
def test_neighbor_exchange_checks_its_attributes_as_mindspore(attrs, error, message):
    """MindSpore 2.10 checks these when it compiles the graph (its infer), with these types."""
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(error, match=re.escape(message)):
        _cell_graph_executor.compile(_Exchange(**attrs), Tensor(np.ones((32, 16), np.float32)))


def test_comm_fusion_groups_keep_gradients_apart_as_mindspore():
    """Cell.set_comm_fusion and Parameter.comm_fusion (MindSpore 2.10's default 1, checks and
    error types); gradients of different fusion groups travel in different buckets, group 0's
    each alone."""
    net = nn.SequentialCell(nn.Dense(4, 3), nn.Dense(3, 2))
    assert [p.comm_fusion for p in net.trainable_params()] == [1, 1, 1, 1]
    assert plan_buckets(net.trainable_params(), 2**20) == ((0, 1, 2, 3),)
    assert net[1].set_comm_fusion(2) is net[1]
    assert [p.comm_fusion for p in net.trainable_params()] == [1, 1, 2, 2]
    assert plan_buckets(net.trainable_params(), 2**20) == ((0, 1), (2, 3))
    net[0].set_comm_fusion(0)
    assert plan_buckets(net.trainable_params(), 2**20) == ((0,), (1,), (2, 3))
    assert net[0].weight.clone().comm_fusion == 0
    with pytest.raises(ValueError, match="must be int and must >= 0, but got '-1'"):
        net.set_comm_fusion(-1)
    with pytest.raises(TypeError, match="The input value must be int, but got 'float'"):
        net[0].weight.comm_fusion = 2.0
