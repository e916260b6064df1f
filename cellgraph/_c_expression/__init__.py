"""`mindspore._c_expression`: the parts of MindSpore's native module that programs and tests
call directly: `TensorPy`, the class every Tensor (and Parameter) is an instance of, and the
monad classes behind `mindspore.common._monad`, and `CreationType`, the kinds of view Tensor
MindSpore's eager autograd tells apart (its values as MindSpore numbers them).

`CommExecOrderChecker` turns on and off the record of the collectives this rank runs, in order
(runtime/execute_order.py); stopping writes it to
`<save_graphs_path>/rank_<rank>/execute_order/comm_execute_order.csv`, the file
`utils.runtime_execution_order_check` reads.

`RuntimeConf.get_instance()` reads back the launch settings of `mindspore.runtime`
(runtime/launch_settings.py).

`security.enable_security()` says whether the build leaves out the debugging features (dump,
summary); cellgraph's never does. `_random_normal`, `_random_uniform` and `_truncated_normal`
fill a float32 NumPy array in place with MindSpore's random initial values from a seed (its
Philox generator and transforms, reproduced in common/_random_init.py)."""
from __future__ import annotations

import enum

import numpy as np

from cellgraph.common._monad import IOMonad, UMonad
from cellgraph.runtime.launch_settings import RuntimeConf
from cellgraph.runtime.tensor import Tensor as TensorPy

from . import security

__all__ = ["CommExecOrderChecker", "CreationType", "IOMonad", "RuntimeConf", "TensorPy", "UMonad", "_random_normal", "_random_uniform",
           "_truncated_normal", "security"]


class CreationType(enum.IntEnum):
    """How a view Tensor was made: by an ordinary operation, with gradients off, as one output
    of a multi-output operation, or as the output of a Cell with its own bprop."""

    DEFAULT = 0
    NO_GRAD_MODE = 1
    MULTI_OUTPUT = 2
    CUSTOM_BPROP = 3


class CommExecOrderChecker:
    """The one recorder of the collectives' execution order (`get_instance()`)."""

    _instance = None

    @classmethod
    def get_instance(cls) -> CommExecOrderChecker:
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def start_collect_exec_order(self) -> None:
        from cellgraph.runtime.execute_order import RECORDER

        RECORDER.start()

    def stop_collect_exec_order(self):
        """Stop, and write what was recorded; returns the file's path (None when no collective
        ran)."""
        import os

        from cellgraph import context
        from cellgraph.runtime import distributed
        from cellgraph.runtime.execute_order import RECORDER

        rank = distributed.torch_distributed().get_rank() if distributed.is_initialized() else 0
        path = os.path.join(context.get_context("save_graphs_path") or ".", f"rank_{rank}",
                            "execute_order", "comm_execute_order.csv")
        return RECORDER.stop(path)


def _fill(arr, values) -> None:
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"expected a numpy.ndarray to fill, got {type(arr).__name__}")
    arr[...] = values


def _random_normal(seed, arr, mean, sigma) -> None:
    """Fill `arr` with N(mean, sigma^2) values drawn from `seed`."""
    from cellgraph.common import _random_init

    _fill(arr, _random_init.normal(int(seed), arr.shape, mean, sigma))


def _random_uniform(seed, arr, a, b) -> None:
    """Fill `arr` with U(a, b) values drawn from `seed`."""
    from cellgraph.common import _random_init

    _fill(arr, _random_init.uniform(int(seed), arr.shape, a, b))


def _truncated_normal(seed, arr, a, b, mean, sigma) -> None:
    """Fill `arr` with N(mean, sigma^2) values cut to [a, b], drawn from `seed`."""
    from cellgraph.common import _random_init

    _fill(arr, _random_init.truncated_normal(int(seed), arr.shape, a, b, mean, sigma))
