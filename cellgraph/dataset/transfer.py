"""TransferDataset (`Dataset.device_que()`): the end of a pipeline that sends its rows to the
device's data queue, where MindSpore's sink mode reads them. cellgraph's backends read the
rows from the prefetching iterator, so sending runs the pipeline into that iterator's queue."""
from __future__ import annotations

import uuid

from .engine import Dataset

__all__ = ["TransferDataset"]


class TransferDataset(Dataset):
    """`input_dataset` sent to a data queue named `queue_name` (a new unique name when
    empty). `send(num_epochs)` starts the pipeline (its rows fill the prefetch queue);
    `stop_send`/`continue_send` pause and resume the reading of rows from it; `release`
    ends it. Like MindSpore's, it cannot be iterated."""

    def __init__(self, input_dataset, send_epoch_end=True, create_data_info_queue=False,
                 queue_name=""):
        super().__init__([input_dataset])
        self.queue_name = queue_name or str(uuid.uuid1())
        self._send_epoch_end = True if send_epoch_end is None else send_epoch_end
        self._create_data_info_queue = create_data_info_queue
        self.column_name = input_dataset.get_col_names()
        self._iterator, self._paused = None, False

    def rows(self, state):
        return self.children[0].rows(state)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=False):
        raise RuntimeError("TransferDataset is not iterable.")

    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False,
                              do_copy=False):
        raise RuntimeError("TransferDataset is not iterable.")

    def __iter__(self):
        raise RuntimeError("TransferDataset is not iterable.")

    def output_shapes(self, estimate=False):
        raise RuntimeError("TransferDataset does not support obtaining output_shapes.")

    def output_types(self):
        raise RuntimeError("TransferDataset does not support obtaining output_types.")

    def send(self, num_epochs=-1):
        """Start sending: the pipeline runs `num_epochs` epochs (-1: until released) into the
        queue that the consumer reads."""
        from .iterators import TupleIterator

        self._iterator = TupleIterator(self.children[0], None, num_epochs, False, False)
        self._iterator._start_epoch()
        self._paused = False

    def stop_send(self):
        self._paused = True

    def continue_send(self):
        self._paused = False

    def get_data_info(self):
        """The dtypes (NumPy's) and shapes of the rows sent, where the dataset was made with
        `create_data_info_queue=True`."""
        if self._iterator is None:
            raise RuntimeError("Calling get_data_info with bad state.")
        if not self._create_data_info_queue:
            raise RuntimeError("Exception thrown from dataset pipeline. Refer to 'Dataset "
                               "Pipeline Error Message'. \n\n- Dataset Pipeline Error Message: "
                               "\n[ERROR] [Internal ERROR] DataInfo queue is not created.")
        child = self.children[0]
        return child.output_types(), child.output_shapes()

    def release(self):
        """End the sending; the pipeline stops."""
        iterator, self._iterator = self._iterator, None
        if iterator is not None and hasattr(iterator, "stop"):
            iterator.stop()
