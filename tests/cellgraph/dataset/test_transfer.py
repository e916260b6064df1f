"""Dataset.device_que() gives MindSpore's TransferDataset: not iterable, sent with send(); the
messages are MindSpore 2.10's."""
import time

import numpy as np
import pytest

import cellgraph.dataset as ds


def _data(**kwargs):
    return ds.NumpySlicesDataset({"a": np.arange(6, dtype=np.int32)},
                                 shuffle=False).batch(2).device_que(**kwargs)


def test_transfer_dataset_is_not_iterable():
    data = _data()
    assert type(data).__name__ == "TransferDataset" and data.queue_name
    assert data.column_name == ["a"]
    for call, text in ((data.create_dict_iterator, "TransferDataset is not iterable."),
                       (data.create_tuple_iterator, "TransferDataset is not iterable."),
                       (data.output_shapes, "does not support obtaining output_shapes."),
                       (data.get_data_info, "Calling get_data_info with bad state.")):
        with pytest.raises(RuntimeError, match=text):
            call()


def test_send_runs_the_pipeline():
    data = _data()
    data.send()
    with pytest.raises(RuntimeError, match="DataInfo queue is not created."):
        data.get_data_info()
    data.stop_send()
    data.continue_send()
    data.release()
    data = _data(create_data_info_queue=True)
    data.send(num_epochs=1)
    assert data.get_data_info() == ([np.dtype(np.int32)], [[2]])
    data.release()


def test_send_runs_every_epoch_and_waited_callbacks_follow_training():
    """MindSpore 2.10's order for a WaitedDSCallback on a sent pipeline of four rows over two
    epochs, training's step_end/epoch_end called by hand (its test_callbacks_sink_simulation)."""
    class Waited(ds.WaitedDSCallback):
        def __init__(self, events):
            super().__init__(1)
            self.events = events

        def sync_epoch_begin(self, train_run_context, ds_run_context):
            self.events.append(f"ds_epoch_begin_{ds_run_context.cur_epoch_num}_"
                               f"{ds_run_context.cur_step_num}")

        def sync_step_begin(self, train_run_context, ds_run_context):
            self.events.append(f"ds_step_begin_{ds_run_context.cur_epoch_num}_"
                               f"{ds_run_context.cur_step_num}")

    events = []
    callback = Waited(events)
    data = ds.NumpySlicesDataset([1, 2, 3, 4], shuffle=False)
    data = data.map(operations=(lambda x: x), callbacks=callback).device_que()
    data.send(num_epochs=2)
    for epoch in range(2):
        for step in range(4):
            time.sleep(0.05)
            events.append(f"ms_step_end_{epoch + 1}_{epoch * 4 + step + 1}")
            callback.step_end(run_context=0)
        events.append(f"ms_epoch_end_{epoch + 1}_{(epoch + 1) * 4}")
        callback.epoch_end(run_context=0)
    assert events == [
        "ms_step_end_1_1", "ds_step_begin_1_2", "ms_step_end_1_2", "ds_step_begin_1_3",
        "ms_step_end_1_3", "ds_step_begin_1_4", "ms_step_end_1_4", "ms_epoch_end_1_4",
        "ds_epoch_begin_2_4", "ds_step_begin_2_5", "ms_step_end_2_5", "ds_step_begin_2_6",
        "ms_step_end_2_6", "ds_step_begin_2_7", "ms_step_end_2_7", "ds_step_begin_2_8",
        "ms_step_end_2_8", "ms_epoch_end_2_8"]
    rows = [int(data.data_queue.get(timeout=5)[0]) for _ in range(8)]
    assert rows == [1, 2, 3, 4, 1, 2, 3, 4]
    data.release()


def test_a_pipeline_error_reaches_the_queue_reader():
    def broken(x):
        raise ValueError("bad row")

    data = ds.NumpySlicesDataset([1, 2], shuffle=False).map(broken).device_que()
    data.send(num_epochs=1)
    error = data.data_queue.get(timeout=5)
    assert isinstance(error, RuntimeError) and "bad row" in str(error)
    data.release()
