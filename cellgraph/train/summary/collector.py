"""`mindspore.SummaryCollector`: a callback that records the loss, and the network's summary
operations, every `collect_freq` steps of Model.train (to a SummaryRecord in summary_dir)."""
from __future__ import annotations

from cellgraph.primitives.errors import UnsupportedError
from cellgraph.train.callback import Callback
from cellgraph.train.callback._monitors import loss_value

from .record import SummaryRecord

# MindSpore's collect_specified_data keys; cellgraph collects the loss (collect_metric) and
# the values of the summary operations
_KEYS = ("collect_metric", "collect_graph", "collect_train_lineage", "collect_eval_lineage",
         "collect_input_data", "collect_dataset_graph", "histogram_regular", "collect_landscape")


def _collects_loss(specified, keep_default_action) -> bool:
    if specified is None:
        return True
    if not isinstance(specified, dict):
        raise TypeError(f"SummaryCollector: collect_specified_data must be a dict, got "
                        f"{specified!r}")
    unknown = sorted(set(specified) - set(_KEYS))
    if unknown:
        raise ValueError(f"SummaryCollector: unknown collect_specified_data key(s) {unknown}; "
                         f"expected some of {list(_KEYS)}")
    asked = sorted(k for k, v in specified.items() if k != "collect_metric" and v)
    if asked:
        raise UnsupportedError(f"SummaryCollector: collecting {asked} is not supported (only "
                               f"collect_metric: the loss)")
    return bool(specified.get("collect_metric", keep_default_action))


class SummaryCollector(Callback):
    """Record the loss as scalar "loss" (with the summary operations' values) every
    `collect_freq` steps."""

    def __init__(self, summary_dir, collect_freq=10, num_process=32,
                 collect_specified_data=None, keep_default_action=True,
                 custom_lineage_data=None, collect_tensor_freq=None, max_file_size=None,
                 export_options=None):
        if isinstance(collect_freq, bool) or not isinstance(collect_freq, int) or \
                collect_freq <= 0:
            raise ValueError(f"SummaryCollector: collect_freq must be a positive int, got "
                             f"{collect_freq!r}")
        self.summary_dir, self.collect_freq = summary_dir, collect_freq
        self.collect_loss = _collects_loss(collect_specified_data, keep_default_action)
        for name, value in (("custom_lineage_data", custom_lineage_data),
                            ("collect_tensor_freq", collect_tensor_freq),
                            ("export_options", export_options)):
            if value is not None:  # lineage files, tensor sampling, .npy exports
                raise UnsupportedError(f"SummaryCollector: {name}={value!r} is not supported")
        self.max_file_size = max_file_size
        self.record = None

    def on_train_begin(self, run_context):
        self.record = SummaryRecord(self.summary_dir, max_file_size=self.max_file_size)

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        step = cb_params.cur_step_num
        if step % self.collect_freq:
            return
        loss = loss_value(cb_params.net_outputs) if self.collect_loss else None
        if loss is not None:
            self.record.add_value("scalar", "loss", loss)
        self.record.record(step)

    def on_train_end(self, run_context):
        self.record.close()
