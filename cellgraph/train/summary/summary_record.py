"""`mindspore.train.summary.summary_record`: the module MindSpore defines SummaryRecord in, with
the step cache programs fill by name (`_cache_summary_tensor_data`) and read back
(`_record_summary_tensor_data`, then `_get_summary_tensor_data`)."""
from .record import (
    SummaryRecord,
    _cache_summary_tensor_data,  # noqa: F401  (MindSpore's tests import these)
    _get_summary_tensor_data,  # noqa: F401
    _record_summary_tensor_data,  # noqa: F401
)

# The export options MindSpore's SummaryRecord takes, each with its allowed values (cellgraph
# refuses `export_options`: it writes no .npy files beside the summary).
_DEFAULT_EXPORT_OPTIONS = {"tensor_format": {"npy", None}}

__all__ = ["SummaryRecord"]
