"""Dataset.device_que() gives MindSpore's TransferDataset: not iterable, sent with send(); the
messages are MindSpore 2.10's."""
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
