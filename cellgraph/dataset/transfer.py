"""TransferDataset (`Dataset.device_que()`): the end of a pipeline that sends its rows to the
device's data queue, where MindSpore's sink mode reads them. Sending runs the pipeline in a
thread, epoch after epoch as MindSpore's sender does, into a bounded queue (prefetch_size
rows) that a reader takes them from."""
from __future__ import annotations

import queue
import threading
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
        self._iterator, self._sender, self.data_queue = None, None, None
        self._sending = threading.Event()  # cleared by stop_send

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
        """Start sending: a thread runs the pipeline's `num_epochs` epochs (-1: until released)
        into `data_queue`, waiting while it is full or sending is stopped."""
        from .core import config
        from .iterators import TupleIterator

        self._iterator = TupleIterator(self.children[0], None, num_epochs, False, False)
        self._iterator._start_epoch()
        self._sending.set()
        self.data_queue = queue.Queue(maxsize=config.get_prefetch_size())
        self._sender = threading.Thread(target=self._send_rows, args=(self._iterator,),
                                        name="cellgraph-dataset-send", daemon=True)
        self._sender.start()

    def _send_rows(self, iterator) -> None:
        """Rows of every epoch into the data queue until the epochs are done or sending is
        released; the pipeline's error goes into the queue, for its reader to raise."""
        while self._iterator is iterator:
            if not self._sending.wait(timeout=0.05):
                continue
            try:
                row = next(iterator)
            except StopIteration:  # the epoch ended: the next call starts the next one
                if iterator.num_epochs is not None and \
                        iterator.epochs_started >= iterator.num_epochs:
                    return
                continue
            except Exception as error:  # noqa: BLE001  (handed to the reader, raised there)
                row = error
            if not self._put(iterator, row) or isinstance(row, Exception):
                return

    def _put(self, iterator, item) -> bool:
        """`item` into the data queue once it has room; False if sending was released."""
        while self._iterator is iterator:
            try:
                self.data_queue.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def stop_send(self):
        self._sending.clear()

    def continue_send(self):
        self._sending.set()

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
