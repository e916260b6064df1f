"""cellgraph.mint.distributed as MindSpore 2.10's (its signatures, recorded from it, below), and
comm_func's gather_into_tensor, scatter_tensor and batch_isend_irecv: on 2 processes (Gloo on
loopback, the ranks meeting through init_method) against the collectives' definitions, and in
this process for the argument checks and a world of one."""
from __future__ import annotations

import inspect
import json
import socket

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor
from cellgraph.mint import distributed as dist

from . import distributed_worker as worker
from . import mint_distributed_worker

# inspect.signature of each name of mindspore.mint.distributed.__all__ (MindSpore 2.10)
MINDSPORE_SIGNATURES = {
    "init_process_group": "(backend='hccl', init_method=None, timeout=None, world_size=-1, "
                          "rank=-1, store=None, group_name='', pg_options=None, device_id=None)",
    "destroy_process_group": "(group=None)", "get_rank": "(group=None)",
    "get_world_size": "(group=None)",
    "new_group": "(ranks=None, timeout=None, backend=None, pg_options=None, "
                 "use_local_synchronization=False, group_desc=None)",
    "get_backend": "(group=None)", "get_global_rank": "(group, group_rank)",
    "get_process_group_ranks": "(group=None)", "get_group_rank": "(group, global_rank)",
    "all_reduce": "(tensor, op='sum', group=None, async_op=False)",
    "all_gather_into_tensor": "(output_tensor, input_tensor, group=None, async_op=False)",
    "all_gather_into_tensor_uneven": "(output, input, output_split_sizes=None, group=None, "
                                     "async_op=False)",
    "all_to_all": "(output_tensor_list, input_tensor_list, group=None, async_op=False)",
    "all_to_all_single": "(output, input, output_split_sizes=None, input_split_sizes=None, "
                         "group=None, async_op=False)",
    "reduce_scatter_tensor": "(output, input, op='sum', group=None, async_op=False)",
    "reduce_scatter_tensor_uneven": "(output, input, input_split_sizes=None, op='sum', "
                                    "group=None, async_op=False)",
    "isend": "(tensor, dst=0, group=None, tag=0)", "irecv": "(tensor, src=0, group=None, tag=0)",
    "send": "(tensor, dst=0, group=None, tag=0)", "recv": "(tensor, src=0, group=None, tag=0)",
    "send_object_list": "(object_list, dst, group=None, device=None)",
    "recv_object_list": "(object_list, src=0, group=None, device=None)",
    "gather": "(tensor, gather_list, dst=0, group=None, async_op=False)",
    "scatter": "(tensor, scatter_list, src=0, group=None, async_op=False)",
    "all_gather": "(tensor_list, tensor, group=None, async_op=False)",
    "reduce_scatter": "(output, input_list, op='sum', group=None, async_op=False)",
    "barrier": "(group=None, async_op=False, device_ids=None)",
    "broadcast": "(tensor, src, group=None, async_op=False)",
    "reduce": "(tensor, dst, op='sum', group=None, async_op=False)",
    "P2POp": "(op, tensor, peer, group=None, tag=0)", "batch_isend_irecv": "(p2p_op_list)",
    "all_gather_object": "(object_list, obj, group=None)",
    "broadcast_object_list": "(object_list, src=0, group=None, device=None)",
    "gather_object": "(obj, object_gather_list=None, dst=0, group=None)",
    "scatter_object_list": "(scatter_object_output_list, scatter_object_input_list, src=0, "
                           "group=None)",
    "is_available": "()", "is_initialized": "()",
}


def test_the_names_and_signatures_are_mindsporess():
    assert sorted(dist.__all__) == sorted(MINDSPORE_SIGNATURES)
    for name, expected in MINDSPORE_SIGNATURES.items():
        got = inspect.signature(getattr(dist, name)).replace(
            return_annotation=inspect.Signature.empty)
        assert str(got) == expected, name
    import cellgraph.mint

    assert cellgraph.mint.distributed is dist


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def mint_ranks(tmp_path_factory):
    pytest.importorskip("torch.distributed")
    out = tmp_path_factory.mktemp("mint_distributed")
    worker.launch("mint", out, script=mint_distributed_worker.__file__,
                  task_args=(f"tcp://127.0.0.1:{_free_port()}",))
    return [json.loads((out / f"mint_rank{r}.json").read_text()) for r in range(2)]


def _rows(value, shape=(2, 3)) -> list:
    return np.full(shape, value).tolist()


def test_groups_and_ranks(mint_ranks):
    for rank, got in enumerate(mint_ranks):
        assert (got["rank"], got["size"], got["ranks"]) == (rank, 2, [0, 1])
        assert got["initialized"] and got["available"] and got["backend"] == "hccl"
        name = "hccl_2_" + __import__("hashlib").sha1(b"0_1").hexdigest()
        assert got["new_group"] == got["new_group_again"] == name
        assert got["group_rank"] == got["global_rank"] == rank
        assert got["all_reduce_in_group"] == _rows(3.0)


def test_collectives_write_their_results_in_place(mint_ranks):
    for rank, got in enumerate(mint_ranks):
        assert got["all_reduce_returns"] is None
        assert got["all_reduce"] == _rows(3.0)
        assert got["all_reduce_avg"] == _rows(1.5)
        assert got["all_reduce_max_async"] == _rows(2.0)
        assert got["all_gather_into_tensor"] == _rows(1.0) + _rows(2.0)
        assert got["all_gather_uneven"] == [[1.0, 1.0], [2.0, 2.0], [2.0, 2.0]]
        total = np.arange(12).reshape(4, 3) * 2.0
        assert got["reduce_scatter_tensor"] == total[2 * rank:2 * rank + 2].tolist()
        total = np.arange(6).reshape(3, 2) * 2.0
        assert got["reduce_scatter_uneven"] == (total[:1] if rank == 0 else total[1:]).tolist()
        assert got["reduce"] == _rows(3.0 if rank == 1 else 1.0)  # rank 0's stays as it was
        assert got["broadcast"] == _rows(6.0)
        assert got["all_gather"] == [_rows(1.0), _rows(2.0)]
        assert got["reduce_scatter"] == _rows(3.0 + 2 * rank)
        assert got["scatter"] == _rows(10.0 + rank)
        assert got["gather"] == ([_rows(1.0), _rows(2.0)] if rank == 1 else [])
        assert got["all_to_all"] == ([[[1.0, 1.0]], [11.0, 11.0]] if rank == 0 else
                                     [[[2.0, 2.0]], [12.0, 12.0]])
        assert got["all_to_all_single"] == [[float(rank)], [10.0 + rank]]


def test_point_to_point_and_objects(mint_ranks):
    for rank, got in enumerate(mint_ranks):
        peer = 1 - rank
        if rank == 1:
            assert got["recv"] == [7.0, 7.0] and got["recv_returns"] == 0
            assert got["recv_object_list"] == [{"a": 1}, "b"]
        assert got["irecv"] == [20.0 + peer] * 2
        assert got["batch_isend_irecv"] == [30.0 + peer] * 2
        assert got["all_gather_object"] == [{"rank": 0, "name": "r0"},
                                            {"rank": 1, "name": "r1"}]
        assert got["broadcast_object_list"] == ["from 1", [1, [1, 2]]]  # JSON makes lists
        assert got["gather_object"] == ([{"r": 0}, {"r": 1}] if rank == 0 else None)
        assert got["scatter_object_list"] == [{"to": rank}]


def test_ranks_that_disagree_on_a_shape_are_told_so(mint_ranks):
    for got in mint_ranks:
        assert "the ranks disagree on the input's shapes (rank 0: [2, 3] float32; rank 1: " \
               "[3, 3] float32)" in got["mismatch"]


def test_comm_func_gather_scatter_and_batch_isend_irecv(tmp_path):
    """gather_into_tensor to rank 1 (rank 0 gets MindSpore's [1] placeholder), scatter_tensor
    from rank 1, the gradient of each (the other one), and batch_isend_irecv with a received
    shape given as a tuple and recv_dtype."""
    pytest.importorskip("torch.distributed")
    worker.launch("comm_func", tmp_path, script=mint_distributed_worker.__file__)
    for rank in range(2):
        got = json.loads((tmp_path / f"comm_func_rank{rank}.json").read_text())
        xs = [np.arange(4.0).reshape(2, 2) + 10 * r for r in range(2)]
        assert got["gather_into_tensor"] == (np.concatenate(xs).tolist() if rank == 1 else [0.0])
        assert got["scatter_tensor"] == (np.arange(8.0).reshape(4, 2) + 100)[
            2 * rank:2 * rank + 2].tolist()
        # d/dx_r sum(w * gather(x)) on rank 1: rows 2r, 2r + 1 of w = arange(8).reshape(4, 2)
        assert got["grad_gather"] == np.arange(8.0).reshape(4, 2)[2 * rank:2 * rank + 2].tolist()
        # only rank 0's tensor is scattered: its gradient holds each rank's v = rank + 1
        assert got["grad_scatter"] == ([[1.0] * 2] * 2 + [[2.0] * 2] * 2 if rank == 0 else
                                       [[0.0] * 2] * 4)
        peer = 1 - rank
        assert got["batch"] == [[[], "Float32", 0.0], [[], "Float32", peer + 1.0],
                                [[], "Float32", 0.0], [[2], "Float32", [peer + 5.0] * 2]]


def test_argument_checks_read_as_mindsporess():
    x = Tensor(np.ones(2, np.float32))
    with pytest.raises(TypeError, match="For all_reduce, the input tensor must be tensor"):
        dist.all_reduce(np.ones(2))
    with pytest.raises(TypeError, match="one of sum, prod, min, max, avg"):
        dist.all_reduce(x, op="mean")
    with pytest.raises(TypeError, match="The argument 'async_op' must be a bool"):
        dist.all_reduce(x, async_op=1)
    with pytest.raises(TypeError, match="The argument 'group' must be type of string"):
        dist.broadcast(x, 0, group=3)
    with pytest.raises(TypeError, match="Expected op to be of type isend or irecv"):
        dist.P2POp("send", x, 1)
    with pytest.raises(TypeError, match="For P2POp, the peer must be int"):
        dist.P2POp("isend", x, "1")
    with pytest.raises(NotImplementedError, match="tag is not support yet"):
        dist.P2POp("isend", x, 1, tag=3)
    with pytest.raises(TypeError, match="p2p_op_list can not be empty list"):
        dist.batch_isend_irecv([])
    with pytest.raises(TypeError, match="ranks must be list"):
        dist.new_group((0, 1))
    with pytest.raises(ValueError, match="Only support hccl now"):
        dist.init_process_group(backend="tcp")
    with pytest.raises(ValueError, match="world_size must be a positive integer"):
        dist.init_process_group(init_method="tcp://127.0.0.1:1")
    from cellgraph.communication import comm_func

    with pytest.raises(ValueError, match="Expected ``op`` to be of type ``isend`` or `irecv``"):
        comm_func.P2POp("send", x, 1)
    with pytest.raises(TypeError, match="For scatter_tensor, the src must be int"):
        comm_func.scatter_tensor(x, src=0.5)


def test_before_init_ranks_are_the_stand_alone_ones(recwarn):
    # MindSpore 2.10 before init: 0 and 1 (the launcher's RANK_ID / RANK_SIZE when set), no
    # warning; -1 is its answer to a query that fails
    assert not dist.is_initialized()
    assert (dist.get_rank(), dist.get_world_size()) == (0, 1)
    assert (dist.get_rank("mygroup"), dist.get_world_size("mygroup")) == (0, 1)
    assert not [w for w in recwarn if "init" in str(w.message)]


@pytest.fixture
def world_of_one():
    pytest.importorskip("torch.distributed")
    dist.init_process_group(group_name="solo_world")
    yield
    dist.destroy_process_group()
    ms.reset_auto_parallel_context()


def test_a_world_of_one(world_of_one):
    assert dist.is_initialized()
    assert (dist.get_rank(), dist.get_world_size("solo_world")) == (0, 1)
    x = Tensor(np.arange(3, dtype=np.float32))
    handle = dist.all_reduce(x, op="avg", async_op=True)
    handle.wait()
    np.testing.assert_array_equal(x.asnumpy(), np.arange(3))
    out = Tensor(np.zeros(3, np.float32))
    with pytest.raises(TypeError, match=r"the output shape should be \(3,\), but got \(2,\)"):
        dist.all_gather_into_tensor(Tensor(np.zeros(2, np.float32)), x)
    assert dist.all_gather_into_tensor(out, x) is None
    np.testing.assert_array_equal(out.asnumpy(), x.asnumpy())
    with pytest.raises(ValueError, match="destination rank should not be the same"):
        dist.send(x, dst=0)
    with pytest.warns(UserWarning, match="`device_ids` takes no effect"):
        dist.barrier(device_ids=[0])
