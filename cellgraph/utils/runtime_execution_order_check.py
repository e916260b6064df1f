"""`mindspore.utils.runtime_execution_order_check`: record the order in which each rank runs its
collectives, and check the records of all ranks against one another.

`comm_exec_order_check("start")` / `("end")` turn the record on and off (it is written to
`<save_graphs_path>/rank_<r>/execute_order/comm_execute_order.csv`).
`runtime_execution_order_check(folders)` reads those files back and checks them:

* each row becomes a key that every rank taking part writes the same way: a collective by its
  primitive, group and member ranks; a Send and its Receive both as
  `Send_Receive_<group>_(<sender>)->(<receiver>)_<shape>`; a rooted collective with its roots;
  then `_<n>th`, the how-manieth time the rank ran that key;
* every rank a key names must have the key too (`parse_and_validate`, logged as errors);
* the ranks' orders, laid end to end as edges key -> next key, must form no cycle, since a
  cycle is a set of ranks each waiting for another's later collective: a hang
  (`detect_cycle_in_graph`, the first cycle found by a depth-first walk from the keys in the
  order they were first seen).
"""
from __future__ import annotations

import csv
import os
import re
from collections import defaultdict
from itertools import pairwise
from typing import ClassVar

import cellgraph.log as logger
from cellgraph._c_expression import CommExecOrderChecker
from cellgraph.runtime.execute_order import COLUMNS

__all__ = ["CommExecOrderCheck", "ExecuteOrder", "RankFolderParser", "comm_exec_order_check",
           "detect_cycle_in_graph", "determine_all_rank", "modify_execute_orders",
           "output_cycle_results", "parse_and_validate", "runtime_execution_order_check"]

_SENDS = ("Send", "DistCommIsend", "InnerCommIsend")
_RECEIVES = ("Receive", "DistCommIrecv", "InnerCommIrecv")


def comm_exec_order_check(action):
    """Start ("start") or stop and write ("end") the record of this rank's collectives."""
    if not isinstance(action, str):
        raise TypeError("The 'action' parameter must be a string.")
    CommExecOrderCheck()(action)


class CommExecOrderCheck:
    """The one switch of the record (a singleton): "start" twice, or "end" without a "start",
    is logged as an error and does nothing."""

    _instance = None

    def __new__(cls, *args, **kwargs):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __init__(self):
        if getattr(self, "initialized", False):
            return
        self.action = None
        self.order_checker = CommExecOrderChecker.get_instance()
        self.is_collecting = False
        self.initialized = True

    def __call__(self, action):
        self.action = action
        if action == "start":
            self.start_function()
        elif action == "end":
            self.end_function()
        else:
            raise ValueError("Invalid action. Please use 'start' or 'end'.")

    def start_function(self):
        if self.is_collecting:
            logger.error("The 'start' action cannot be called twice.")
            return
        self.is_collecting = True
        self.order_checker.start_collect_exec_order()

    def end_function(self):
        if not self.is_collecting:
            logger.error("The 'end' action cannot be called before the 'start' action.")
            return
        self.is_collecting = False
        self.order_checker.stop_collect_exec_order()


class ExecuteOrder:
    """One row of a comm_execute_order.csv file."""

    def __init__(self, index: str, group: str, comm_rank: str, primitive: str, src_rank: str = "",
                 dest_rank: str = "", root_rank: str = "", input_shape: str = "",
                 output_shape: str = ""):
        self.index = index
        self.group = group
        self.comm_rank = comm_rank.split()
        self.primitive = primitive
        self.src_rank = src_rank
        self.dest_rank = dest_rank
        self.root_rank = root_rank
        self.input_shape = input_shape
        self.output_shape = output_shape

    def generate_base_key(self, rank: str) -> str:
        """The key every rank taking part writes for this operation, run on `rank`."""
        members = ",".join(self.comm_rank)
        if not (self.src_rank or self.dest_rank or self.root_rank):
            return f"{self.primitive}_{self.group}_({members})"
        if self.primitive in _SENDS:
            return f"Send_Receive_{self.group}_({rank})->({self.dest_rank})_{self.input_shape}"
        if self.primitive in _RECEIVES:
            return f"Send_Receive_{self.group}_({self.src_rank})->({rank})_{self.output_shape}"
        parts = [f"{self.primitive}_{self.group}", f"commRank:({members})"]
        parts += [f"{label}:({value})" for label, value in (
            ("srcRank", self.src_rank), ("destRank", self.dest_rank),
            ("rootRank", self.root_rank)) if value]
        return "_".join(parts)

    def generate_key(self, rank: str, count: int) -> str:
        return f"{self.generate_base_key(rank)}_{count}th"


class RankFolderParser:
    """Reads rank_<r>/execute_order/comm_execute_order.csv under the given folders: each a
    rank_<r> folder or a folder holding them (absolute paths; a rank twice is an error)."""

    REQUIRED_COLUMNS: ClassVar[list] = list(COLUMNS)

    def __init__(self, folders):
        self.folders = [folders] if isinstance(folders, str) else folders
        self._validate_paths()
        self.result_map: dict = {}

    def _validate_paths(self):
        seen: set = set()

        def add(rank_name, where=""):
            if rank_name in seen:
                raise ValueError(f"Duplicate rank folder detected: {rank_name}{where}. Each "
                                 f"rank_x folder must be unique. Please remove duplicates.")
            seen.add(rank_name)

        for path in self.folders:
            if not os.path.isabs(path):
                raise ValueError(f"Invalid path: {path}. Please provide an absolute path, e.g., "
                                 f"'/absolute/path/to/folder' or '/absolute/path/to/rank_x'.")
            if not os.path.exists(path):
                raise ValueError(f"Path does not exist: {path}. Ensure the path exists and is "
                                 f"accessible.")
            if not os.path.isdir(path):
                raise ValueError(f"Invalid path: {path}. Paths must either be rank_x folders or "
                                 f"directories containing rank_x folders.")
            if os.path.basename(path).startswith("rank_"):
                add(os.path.basename(path))
                continue
            ranks = [d for d in os.listdir(path)
                     if d.startswith("rank_") and os.path.isdir(os.path.join(path, d))]
            if not ranks:
                raise ValueError(f"No rank_x folders found in {path}. Ensure the directory "
                                 f"contains at least one folder named 'rank_x', where x is an "
                                 f"integer.")
            for name in ranks:
                add(name, f" in {path}")

    def parse(self) -> dict:
        """{rank id: [ExecuteOrder, ...]} of every rank folder with a readable file."""
        for path in self.folders:
            try:
                self.result_map.update(self._parse_path(path))
            except FileNotFoundError as e:
                logger.error(f"File not found: {e}. Please ensure all required files are "
                             f"present.")
            except ValueError as e:
                logger.error(f"Value error: {e}. Please check the file contents or paths.")
        return self.result_map

    def _parse_path(self, path: str) -> dict:
        name = os.path.basename(path)
        folders = [(name, path)] if name.startswith("rank_") else [
            (d, os.path.join(path, d)) for d in sorted(os.listdir(path)) if d.startswith("rank_")]
        result = {}
        for folder_name, folder in folders:
            rank_id = folder_name.split("_")[1]
            orders_dir = os.path.join(folder, "execute_order")
            if not os.path.exists(orders_dir):
                raise FileNotFoundError(f"Execute order folder does not exist: {orders_dir} "
                                        f"for rank_{rank_id} folder.")
            _, orders = self.parse_rank_folder(orders_dir, rank_id)
            if orders:
                result[rank_id] = orders
        return result

    def parse_rank_folder(self, rank_folder_path: str, rank_id: str):
        """(rank_id, its ExecuteOrders), or (rank_id, None) with an error logged when the file
        is missing or its header is not MindSpore's."""
        path = os.path.join(rank_folder_path, "comm_execute_order.csv")
        if not os.path.exists(path):
            logger.error(f"No execute_order.csv found in {rank_folder_path}. Skipping this "
                         f"folder. Ensure the rank_{rank_id} folder contains a valid "
                         f"comm_execute_order.csv file.")
            return rank_id, None
        try:
            with open(path, encoding="utf-8", newline="") as f:
                reader = csv.DictReader(f)
                if reader.fieldnames != self.REQUIRED_COLUMNS:
                    logger.error(f"Invalid header in {path}. Skipping this file. Expected "
                                 f"columns: {self.REQUIRED_COLUMNS}. Ensure the file contains "
                                 f"the correct column names.")
                    return rank_id, None
                orders = [ExecuteOrder(
                    index=row["index"], group=row["group"], comm_rank=row["comm_rank"],
                    primitive=row["primitive"], src_rank=row["src_rank"],
                    dest_rank=row["dest_rank"], root_rank=row["root_rank"],
                    input_shape=row["input_shape"], output_shape=row["output_shape"])
                    for row in reader]
        except FileNotFoundError as e:
            logger.error(f"File not found: {path}. Ensure the file exists and is accessible. "
                         f"Error: {e}")
            return rank_id, None
        return rank_id, orders


def modify_execute_orders(execute_orders_map: dict) -> dict:
    """{rank: [key, ...]}: each rank's orders as keys numbered by repetition (`_1th`, `_2th`,
    ...); a rank whose orders are None has none."""
    result = {}
    for rank, orders in execute_orders_map.items():
        counts: dict = defaultdict(int)
        keys = []
        for order in orders or ():
            base = order.generate_base_key(rank)
            counts[base] += 1
            keys.append(order.generate_key(rank, counts[base]))
        result[rank] = keys
    return result


def parse_and_validate(data: dict, all_rank: bool = True):
    """Log an error for each key whose ranks (in its first two parenthesised groups) are not
    all present (when `all_rank`), or do not all hold the key."""
    if not isinstance(data, dict):
        logger.error("Input must be a dictionary with string keys and lists of strings as "
                     "values.")
        return

    def well_formed(values):
        return isinstance(values, list) and all(isinstance(v, str) for v in values)

    keys = {key: set(values) for key, values in data.items() if well_formed(values)}
    for key, values in data.items():
        if not well_formed(values):
            logger.error(f"Values for key '{key}' must be a list of strings.")
            continue
        for value in values:
            groups = re.findall(r"\((.*?)\)", value)[:2]
            ranks = {item.strip() for group in groups for item in group.split(",")}
            if all_rank:
                missing = ranks - keys.keys()
                if missing:
                    logger.error(f"The following keys are missing for value '{value}': "
                                 f"{missing}")
                    continue
            for rank in (ranks if all_rank else ranks & keys.keys()):
                if value not in keys[rank]:
                    logger.error(f"Key '{rank}' is missing the value '{value}'.")


def detect_cycle_in_graph(ranks_map):
    """(cycle_path, cycle_ranks) of the first cycle in the graph whose edges are each rank's
    consecutive keys, or (None, None). cycle_path repeats its first key at the end;
    cycle_ranks says, per edge, "<rank> <from> -> <to>"."""
    graph: dict = defaultdict(list)
    edge_rank = {}
    for rank, nodes in ranks_map.items():
        for u, v in pairwise(nodes):
            graph[u].append(v)
            edge_rank[(u, v)] = rank

    visited: set = set()
    path: list = []
    on_path: dict = {}  # node -> its position in path
    for start in list(graph):
        if start in visited:
            continue
        stack = [(start, False)]
        while stack:
            node, leaving = stack.pop()
            if leaving:
                path.pop()
                del on_path[node]
                continue
            if node in on_path:
                cycle = path[on_path[node]:] + [node]
                return cycle, [f"{edge_rank[(u, v)]} {u} -> {v}"
                               for u, v in pairwise(cycle)]
            if node in visited:
                continue
            visited.add(node)
            on_path[node] = len(path)
            path.append(node)
            stack.append((node, True))
            stack.extend((n, False) for n in reversed(graph[node]))
    return None, None


def determine_all_rank(folders_):
    """True for one folder (a string or a one-element list), False for several, None for
    anything else."""
    if isinstance(folders_, str) and folders_:
        return True
    if isinstance(folders_, list) and folders_:
        return len(folders_) == 1
    return None


def output_cycle_results(cycle_path, cycle_ranks):
    if cycle_path:
        logger.error("Cycle detected:")
        logger.error(" -> ".join(cycle_path) + f" -> {cycle_path[0]}")
        logger.error("Involving ranks:")
        for line in cycle_ranks:
            logger.error(line)
    else:
        logger.warning("Cycle Check success. There is no cycle in the graph.")


def runtime_execution_order_check(folders_, all_rank=None):
    """Check the records under `folders_` (a rank_<r> folder, a folder holding them, or a
    list of either): every key's ranks hold it (all of them when `all_rank`, which defaults to
    True for one folder and False for several), and no cycle runs through the ranks' orders.
    The findings are logged."""
    if all_rank is None:
        all_rank = determine_all_rank(folders_)
    if folders_ is None:
        logger.error("Invalid input. `folders_` must be a non-empty string or a list with at "
                     "least one string element.")
        return
    orders = modify_execute_orders(RankFolderParser(folders_).parse())
    parse_and_validate(orders, all_rank)
    output_cycle_results(*detect_cycle_in_graph(orders))
