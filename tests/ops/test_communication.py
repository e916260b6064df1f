"""cellgraph.ops.communication as MindSpore 2.10's: its names and signatures, the switch
between the in-place and returning forms, TCPStore's checks, and (on 2 processes meeting
through a TCPStore) the in-place gather_into_tensor, scatter_tensor and all_to_all_v_c and the
returning collectives."""
from __future__ import annotations

import inspect
import json
import socket

import numpy as np
import pytest

from cellgraph import Tensor
from cellgraph.mint import distributed as dist
from cellgraph.ops import communication as comm

from ..cellgraph import distributed_worker as worker
from ..cellgraph import mint_distributed_worker

# inspect.signature of the names mindspore.ops.communication adds to mint.distributed's
MINDSPORE_EXTRA = {
    "set_comm_ops_inplace": "(is_enable, func_list=None)",
    "all_to_all_v_c": "(output, input, send_count_matrix, group=None, async_op=False)",
    "gather_into_tensor": "(output_tensor, input_tensor, dst=0, group=None, async_op=False)",
    "scatter_tensor": "(output_tensor, input_tensor, src=0, group=None, async_op=False)",
    "TCPStore": "(host_name, port, world_size=None, is_master=False, "
                "timeout=datetime.timedelta(seconds=300), wait_for_workers=True, "
                "multi_tenant=False, master_listen_fd=None, use_libuv=True)",
}


def _signature(fn) -> str:
    return str(inspect.signature(fn).replace(return_annotation=inspect.Signature.empty))


def test_names_and_signatures_are_mindsporess():
    assert sorted(comm.__all__) == sorted(set(dist.__all__) | set(MINDSPORE_EXTRA))
    for name in dist.__all__:
        assert _signature(getattr(comm, name)) == _signature(getattr(dist, name)), name
    for name, expected in MINDSPORE_EXTRA.items():
        assert _signature(getattr(comm, name)) == expected, name
    assert dist.TCPStore is comm.TCPStore and "TCPStore" not in dist.__all__


def test_the_switch_checks_its_arguments_and_forms_without_a_returning_one_refuse():
    with pytest.raises(TypeError, match="'is_enable' must be type of bool"):
        comm.set_comm_ops_inplace(1)
    with pytest.raises(TypeError, match="Expected list or tuple"):
        comm.set_comm_ops_inplace(False, "all_reduce")
    with pytest.raises(ValueError, match="must be correct, but got all_reduce_"):
        comm.set_comm_ops_inplace(False, ["all_reduce", "all_reduce_"])
    assert comm._INPLACE["all_reduce"]  # nothing changed by a refused list
    comm.set_comm_ops_inplace(False, ["broadcast"])
    try:
        with pytest.raises(ValueError, match="Non-inplace mode is currently not supported"):
            comm.broadcast(Tensor(np.ones(2, np.float32)), 0)
    finally:
        comm.set_comm_ops_inplace(True)


def test_tcp_store_checks_as_mindspore_does():
    with pytest.raises(TypeError, match="'host_name' must be type of string"):
        comm.TCPStore(127, 1)
    with pytest.raises(TypeError, match="'port' must be type of int"):
        comm.TCPStore("127.0.0.1", "1")
    with pytest.raises(ValueError, match="'port' must be legal"):
        comm.TCPStore("127.0.0.1", 70000)
    with pytest.raises(ValueError, match="'world_size' must be legal"):
        comm.TCPStore("127.0.0.1", 1, world_size=0)


def test_tcp_store_in_one_process():
    pytest.importorskip("torch.distributed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = comm.TCPStore("127.0.0.1", port, is_master=True)
    store.set("k", "v")
    assert store.get("k") == b"v"
    assert store.add("n", 2) == 2 and store.add("n", 3) == 5
    assert store.delete_key("k") is True and store.delete_key("k") is False
    with pytest.raises(TypeError, match="'value' must be type of string or bytes"):
        store.set("k", 1)
    with pytest.raises(ValueError, match="Only one of init_method and store"):
        comm.init_process_group(init_method="tcp://127.0.0.1:1", store=store, world_size=1,
                                rank=0)


def test_on_two_processes(tmp_path):
    pytest.importorskip("torch.distributed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    worker.launch("ops_comm", tmp_path, script=mint_distributed_worker.__file__,
                  task_args=(port,))
    for rank in range(2):
        got = json.loads((tmp_path / f"ops_comm_rank{rank}.json").read_text())
        assert got["gather_into_tensor_returns"] is None
        assert got["gather_into_tensor"] == ([[1.0] * 2] * 2 + [[2.0] * 2] * 2 if rank == 1
                                             else [[-1.0] * 2] * 4)  # untouched off dst
        assert got["scatter_tensor"] == np.arange(8.0).reshape(4, 2)[2 * rank:2 * rank + 2] \
            .tolist()
        rows = [np.arange(6.0).reshape(3, 2) + 10 * r for r in range(2)]
        expected = (np.concatenate([rows[0][:1], rows[1]]) if rank == 0 else rows[0][1:])
        assert got["all_to_all_v_c"] == expected.tolist()
        assert got["all_reduce"] == np.full((2, 3), 3.0).tolist()
        assert got["all_reduce_handle"] is None
        assert got["input_kept"] == np.full((2, 3), rank + 1.0).tolist()
        assert got["all_reduce_avg"] == np.full((2, 3), 1.5).tolist()
        assert got["all_gather_into_tensor"] == (np.full((2, 3), 1.0).tolist()
                                                 + np.full((2, 3), 2.0).tolist())
        total = np.arange(12.0).reshape(4, 3) * 2
        assert got["reduce_scatter_tensor"] == total[2 * rank:2 * rank + 2].tolist()
        # slot j: rank j's input_tensor_list[rank], in this rank's output shapes
        assert got["all_to_all"] == [[[1.0 + 10 * rank] * 2], [2.0 + 10 * rank] * 2]
        assert got["all_to_all_single"] == [[10.0 * rank], [10.0 * rank + 1]]  # row r to rank r
        if rank == 1:
            assert got["recv"] == [7.0, 7.0]
        assert got["broadcast_error"] == "Non-inplace mode is currently not supported."
        assert got["all_reduce_again_returns"] is None
        assert got["all_reduce_again"] == np.full((2, 3), 3.0).tolist()
