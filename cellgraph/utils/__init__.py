"""`mindspore.utils`: tools around a run. `comm_exec_order_check` records the order in which
this rank runs its collectives and `runtime_execution_order_check` checks the records of all
ranks for orders that cannot complete together (runtime_execution_order_check.py);
`MsDispatchMode` intercepts the operations PyNative runs (ms_dispatch.py)."""
from .ms_dispatch import MsDispatchMode
from .runtime_execution_order_check import comm_exec_order_check, runtime_execution_order_check

__all__ = ["MsDispatchMode", "comm_exec_order_check", "runtime_execution_order_check"]
