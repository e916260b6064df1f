"""utils.runtime_execution_order_check: the keys, the checks and the record, with the values
MindSpore 2.10 gives for the same inputs."""
import csv
import logging

import numpy as np
import pytest

import cellgraph as cg
from cellgraph._c_expression import CommExecOrderChecker
from cellgraph.runtime.execute_order import RECORDER
from cellgraph.utils.runtime_execution_order_check import (
    ExecuteOrder,
    RankFolderParser,
    detect_cycle_in_graph,
    modify_execute_orders,
    runtime_execution_order_check,
)


def test_keys_pair_sends_with_receives_and_number_repeats():
    send = ExecuteOrder("1", "B", "0", "Send", src_rank="0", dest_rank="1", input_shape="(2)")
    recv = ExecuteOrder("2", "B", "0 1", "Receive", src_rank="0", dest_rank="1",
                        output_shape="(2)")
    gather = ExecuteOrder("3", "A", "0 1 2 3", "AllGather")
    bcast = ExecuteOrder("4", "C", "0 1", "Broadcast", root_rank="0")
    keys = modify_execute_orders({"0": [send, send, gather, bcast], "1": [recv], "2": None})
    assert keys == {
        "0": ["Send_Receive_B_(0)->(1)_(2)_1th", "Send_Receive_B_(0)->(1)_(2)_2th",
              "AllGather_A_(0,1,2,3)_1th", "Broadcast_C_commRank:(0,1)_rootRank:(0)_1th"],
        "1": ["Send_Receive_B_(0)->(1)_(2)_1th"],
        "2": []}


@pytest.mark.parametrize("ranks, path, edges", [
    ({"1": ["A", "B", "C"], "2": ["C", "D", "E"], "3": ["E", "A"]},
     ["A", "B", "C", "D", "E", "A"],
     ["1 A -> B", "1 B -> C", "2 C -> D", "2 D -> E", "3 E -> A"]),
    ({"1": ["A", "B", "C"], "2": ["D", "E", "D"]}, ["D", "E", "D"], ["2 D -> E", "2 E -> D"]),
    ({"1": ["A", "B"], "2": ["B", "C"], "3": ["C", "B"]}, ["B", "C", "B"],
     ["2 B -> C", "3 C -> B"]),
    ({"1": ["A", "A"]}, ["A", "A"], ["1 A -> A"]),
    ({"1": ["A", "B"], "2": ["B", "C"], "3": ["C", "D"]}, None, None),
    ({str(r): list("ABCDEFGHI") for r in range(8)}, None, None),
])
def test_cycles(ranks, path, edges):
    assert detect_cycle_in_graph(ranks) == (path, edges)


def test_folders_must_exist_and_hold_ranks(tmp_path):
    with pytest.raises(ValueError, match="Path does not exist"):
        RankFolderParser(str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match="No rank_x folders found"):
        RankFolderParser(str(tmp_path))
    with pytest.raises(ValueError, match="absolute path"):
        RankFolderParser("relative/rank_0")


def _write(folder, rank, rows):
    RECORDER.start()
    for row in rows:
        RECORDER.record(*row[:3], np.zeros(row[3], np.float32), np.zeros(row[3], np.float32),
                        **row[4])
    return RECORDER.stop(str(folder / f"rank_{rank}" / "execute_order" /
                             "comm_execute_order.csv"))


def test_the_record_reads_back_and_a_crossed_send_is_a_cycle(tmp_path, caplog):
    # rank 0 sends then receives, rank 1 does the same: each waits for the other's receive
    _write(tmp_path, 0, [("Send", "g", [0, 1], (2,), {"dest": 1}),
                         ("Receive", "g", [0, 1], (2,), {"src": 1})])
    path = _write(tmp_path, 1, [("Send", "g", [0, 1], (2,), {"dest": 0}),
                                ("Receive", "g", [0, 1], (2,), {"src": 0})])
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[0] == {"index": "0", "group": "g", "comm_rank": "0 1", "primitive": "Send",
                       "src_rank": "", "dest_rank": "0", "root_rank": "",
                       "input_shape": "(2)", "input_type": "Float32", "output_shape": "(2)",
                       "output_type": "Float32", "input_size": "8", "output_size": "8"}
    with caplog.at_level(logging.WARNING, logger="cellgraph"):
        runtime_execution_order_check(str(tmp_path))
    assert "Cycle detected:" in caplog.text
    assert "Send_Receive_g_(0)->(1)_(2)_1th" in caplog.text


def test_the_switch_records_only_between_start_and_end(tmp_path):
    cg.set_context(save_graphs_path=str(tmp_path))
    try:
        checker = CommExecOrderChecker.get_instance()
        RECORDER.record("AllReduce", "g", [0], np.zeros(1), np.zeros(1))
        checker.start_collect_exec_order()
        RECORDER.record("AllReduce", "g", [0], np.zeros(3), np.zeros(3))
        path = checker.stop_collect_exec_order()
        RECORDER.record("AllReduce", "g", [0], np.zeros(1), np.zeros(1))
    finally:
        cg.set_context(save_graphs_path=".")
    assert path == str(tmp_path / "rank_0" / "execute_order" / "comm_execute_order.csv")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["primitive"], r["input_shape"], r["input_size"]) for r in rows] == [
        ("AllReduce", "(3)", "24")]
