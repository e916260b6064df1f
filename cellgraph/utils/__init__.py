"""`mindspore.utils`: tools around a run. `comm_exec_order_check` records the order in which
this rank runs its collectives and `runtime_execution_order_check` checks the records of all
ranks for orders that cannot complete together (runtime_execution_order_check.py)."""
from .runtime_execution_order_check import comm_exec_order_check, runtime_execution_order_check

__all__ = ["comm_exec_order_check", "runtime_execution_order_check"]
