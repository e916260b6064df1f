"""`mindspore.train.summary.summary_record`: the module MindSpore defines SummaryRecord in, with
the step cache programs fill by name (`_cache_summary_tensor_data`) and read back
(`_record_summary_tensor_data`, then `_get_summary_tensor_data`)."""
from .record import (
    _DEFAULT_EXPORT_OPTIONS,  # noqa: F401
    SummaryRecord,
    _cache_summary_tensor_data,  # noqa: F401  (MindSpore's tests import these)
    _get_summary_tensor_data,  # noqa: F401
    _record_summary_tensor_data,  # noqa: F401
    process_export_options,  # noqa: F401
)

__all__ = ["SummaryRecord"]
