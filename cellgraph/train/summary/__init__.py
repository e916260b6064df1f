"""`mindspore.train.summary`: SummaryRecord (JSON-lines summary files, see record.py), the
summary operations and the SummaryCollector callback."""
from .collector import SummaryCollector
from .ops import HistogramSummary, ImageSummary, ScalarSummary, TensorSummary
from .record import SummaryRecord, read_summary

__all__ = ["HistogramSummary", "ImageSummary", "ScalarSummary", "SummaryCollector",
           "SummaryRecord", "TensorSummary", "read_summary"]
