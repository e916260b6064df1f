"""DatasetHelper: what `Model` iterates to feed its training step, usable in a hand-written
loop. MindSpore's sink mode pushes batches to the device queue ahead of the step; on
cellgraph's backends the prefetching iterator plays that part, so sink mode hands out the
same batches, `sink_size` of them per loop."""
from __future__ import annotations

import numbers

__all__ = ["DatasetHelper"]


class DatasetHelper:
    """Iterates `dataset` batch by batch (a list of Tensors per step); `epoch_num` epochs are
    allowed. In sink mode each `for` over it runs one sink: `sink_size` batches (-1: the
    whole dataset), continuing across epochs."""

    def __init__(self, dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1):
        if not hasattr(dataset, "create_tuple_iterator"):
            raise TypeError(f"DatasetHelper: `dataset` must be a dataset, got "
                            f"{type(dataset).__name__}")
        # MindSpore's checks: a bool sink mode and an int sink size (TypeError), -1 or
        # positive (ValueError)
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"DatasetHelper: `dataset_sink_mode` must be a bool, got "
                            f"{type(dataset_sink_mode).__name__} {dataset_sink_mode!r}")
        if isinstance(sink_size, bool) or not isinstance(sink_size, numbers.Integral):
            raise TypeError(f"DatasetHelper: `sink_size` must be an int, got "
                            f"{type(sink_size).__name__} {sink_size!r}")
        if sink_size < 1 and sink_size != -1:
            raise ValueError(f"DatasetHelper: `sink_size` must be -1 or a positive int, got "
                             f"{sink_size!r}")
        self.dataset, self.dataset_sink_mode = dataset, bool(dataset_sink_mode)
        self._sink_size, self.epoch_num = int(sink_size), epoch_num
        self.iter = dataset.create_tuple_iterator(num_epochs=-1)
        self._stream, self._stopped = None, False

    def sink_size(self) -> int:
        """Batches per loop: `sink_size` in sink mode (-1: the dataset size), else 1."""
        if not self.dataset_sink_mode:
            return 1
        return self.dataset.get_dataset_size() if self._sink_size == -1 else self._sink_size

    def __len__(self) -> int:
        """Steps in one pass over the helper."""
        return self.sink_size() if self.dataset_sink_mode else self.dataset.get_dataset_size()

    def _next(self):
        if self._stream is None:
            self._stream = iter(self.iter)
        try:
            return next(self._stream)
        except StopIteration:  # a sink may run past an epoch's end into the next
            self._stream = iter(self.iter)
            return next(self._stream)

    def __iter__(self):
        if not self.dataset_sink_mode:
            return iter(self.iter)
        return (self._next() for _ in range(self.sink_size()))

    def types_shapes(self):
        """([dtype per column], [shape per column]) of a batch."""
        return self.dataset.output_types(), self.dataset.output_shapes()

    def get_data_info(self):
        return self.types_shapes()

    def continue_send(self):
        """Resume feeding after `stop_send`, from the start of an epoch (batches are otherwise
        read on demand)."""
        if self._stopped:
            self.iter = self.dataset.create_tuple_iterator(num_epochs=-1)
            self._stream, self._stopped = None, False

    def stop_send(self):
        """Stop the prefetching thread (and the iterator; `continue_send` makes a new one)."""
        self.iter.stop()
        self._stopped = True

    def release(self):
        self.stop_send()
