"""`mindspore.SummaryCollector`: a callback that records the loss, and the network's summary
operations, every `collect_freq` steps of Model.train (to a SummaryRecord in summary_dir)."""
from __future__ import annotations

from cellgraph.train.callback import Callback
from cellgraph.train.callback._monitors import loss_value

from .record import SummaryRecord


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
        self.record = None

    def on_train_begin(self, run_context):
        self.record = SummaryRecord(self.summary_dir)

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        step = cb_params.cur_step_num
        if step % self.collect_freq:
            return
        loss = loss_value(cb_params.net_outputs)
        if loss is not None:
            self.record.add_value("scalar", "loss", loss)
        self.record.record(step)

    def on_train_end(self, run_context):
        self.record.close()
