"""dataset.serialize / deserialize / show / compare: MindSpore 2.10's JSON layout, round trips,
JSON written by MindSpore read here, and MindSpore's errors for what cannot be rebuilt."""
import json
import logging

import numpy as np
import pytest

import cellgraph.dataset as ds
import cellgraph.dataset.transforms as T
from cellgraph.common import dtype as mstype
from cellgraph.dataset import text, vision


@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("1,2,x\n3,4,y\n5,6,z\n7,8,w\n")
    return str(path)


def _pipeline(csv_file):
    data = ds.CSVDataset(csv_file, column_defaults=[0, 0, ""], column_names=["a", "b", "c"],
                         shuffle=False)
    data = data.project(["a", "b"]).rename(["b"], ["bb"]).skip(1)
    data = data.map([T.TypeCast(mstype.float32)], input_columns=["a"])
    data = data.map(T.OneHot(10), input_columns=["bb"]).take(3).batch(2).repeat(2)
    return data


def _rows(data):
    return [[c.tolist() for c in row]
            for row in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]


def test_layout_is_mindspores(csv_file):
    tree = ds.serialize(_pipeline(csv_file))
    # the nodes, outermost first, with the settings MindSpore 2.10 writes for them
    assert tree["op_type"] == "Repeat" and tree["count"] == 2
    batch = tree["children"][0]
    assert {k: batch[k] for k in ("op_type", "batch_size", "drop_remainder", "input_columns",
                                  "output_columns", "connector_queue_size")} == {
        "op_type": "Batch", "batch_size": 2, "drop_remainder": False, "input_columns": [],
        "output_columns": [], "connector_queue_size": 16}
    take = batch["children"][0]
    assert (take["op_type"], take["count"]) == ("Take", 3)
    onehot = take["children"][0]
    assert onehot["op_type"] == "Map" and onehot["input_columns"] == ["bb"]
    assert onehot["operations"] == [{"tensor_op_name": "OneHot",
                                     "tensor_op_params": {"num_classes": 10,
                                                          "smoothing_rate": 0.0}}]
    cast = onehot["children"][0]
    assert cast["operations"] == [{"tensor_op_name": "TypeCast",
                                   "tensor_op_params": {"data_type": "float32"}}]
    skip = cast["children"][0]
    rename = skip["children"][0]
    project = rename["children"][0]
    assert (skip["op_type"], skip["count"]) == ("Skip", 1)
    assert (rename["input_columns"], rename["output_columns"]) == (["b"], ["bb"])
    assert (project["op_type"], project["columns"]) == ("Project", ["a", "b"])
    source = project["children"][0]
    assert source["children"] == []
    assert {k: source[k] for k in ("op_type", "dataset_files", "column_names", "field_delim",
                                   "num_samples", "num_shards", "shard_id", "shuffle")} == {
        "op_type": "CSVDataset", "dataset_files": [csv_file], "column_names": ["a", "b", "c"],
        "field_delim": ",", "num_samples": 0, "num_shards": 1, "shard_id": 0, "shuffle": 0}


def test_round_trip_through_a_file(csv_file, tmp_path):
    data = _pipeline(csv_file)
    first, second = tmp_path / "p.json", tmp_path / "p_1.json"
    ds.serialize(data, str(first))
    text = first.read_text()
    # one line, keys sorted, as MindSpore writes it
    assert text.count("\n") == 1 and json.dumps(json.loads(text), sort_keys=True,
                                                separators=(",", ":")) + "\n" == text
    again = ds.deserialize(json_filepath=str(first))
    ds.serialize(again, str(second))
    assert second.read_text() == text
    expected = [[[3.0, 5.0], np.eye(10, dtype=int)[[4, 6]].tolist()],
                [[7.0], np.eye(10, dtype=int)[[8]].tolist()]] * 2
    assert _rows(data) == _rows(again) == expected
    # input_dict may be the dict, or the JSON file's path
    assert _rows(ds.deserialize(input_dict=ds.serialize(data))) == expected
    assert _rows(ds.deserialize(input_dict=str(first))) == expected
    assert ds.deserialize() is None
    assert ds.compare(data, again)
    assert not ds.compare(data, data.take(1))


def test_image_folder_sampler_and_enums(tmp_path):
    for name in ("cat", "dog"):
        (tmp_path / name).mkdir()
        for i in range(3):
            (tmp_path / name / f"{i}.jpg").write_bytes(bytes([i, 1, 2]))
    sampler = ds.WeightedRandomSampler([1.0, 0.5, 0.2, 0.3, 0.4, 0.1], 4)
    sampler.add_child(ds.SequentialSampler())
    data = ds.ImageFolderDataset(str(tmp_path), sampler=sampler)
    data = data.map([vision.Resize((4, 5), vision.Inter.NEAREST),
                     vision.Pad(1, padding_mode=vision.Border.EDGE)], input_columns=["image"])
    tree = ds.serialize(data)
    source = tree["children"][0]
    assert source["sampler"] == {"sampler_name": "WeightedRandomSampler",
                                 "weights": [1.0, 0.5, 0.2, 0.3, 0.4, 0.1], "num_samples": 4,
                                 "replacement": True,
                                 "child_sampler": [{"sampler_name": "SequentialSampler",
                                                    "start_index": None, "num_samples": None}]}
    # MindSpore's settings of a source it writes but does not take as arguments, and its
    # codes for interpolation and border modes (Inter.NEAREST 1, Border.EDGE 1)
    assert (source["recursive"], source["extensions"], source["class_indexing"]) == \
        (False, [], {})
    resize, pad = tree["operations"]
    assert resize["tensor_op_params"] == {"size": [4, 5], "interpolation": 1,
                                          "device_target": "CPU"}
    assert pad["tensor_op_params"]["padding_mode"] == 1
    rebuilt = ds.deserialize(input_dict=tree)
    assert ds.serialize(rebuilt) == tree
    (mapped,) = rebuilt.children  # the pipeline read, under the deserialized node
    ops = mapped.operations
    assert ops[0].interpolation is vision.Inter.NEAREST
    assert ops[1].padding_mode is vision.Border.EDGE
    assert mapped.children[0].sampler.child_sampler is not None


def test_reads_mindspores_json(csv_file):
    # written by MindSpore 2.10 for CSVDataset(...).project(["a", "b"]).take(3).batch(2)
    # (without column_defaults, as MindSpore writes it, the columns are strings)
    tree = {"children": [{"children": [{"children": [{"children": [],
            "column_names": ["a", "b", "c"], "connector_queue_size": 16,
            "dataset_files": [csv_file], "field_delim": ",", "num_parallel_workers": 2,
            "num_samples": 0, "num_shards": 1, "op_type": "CSVDataset", "shard_id": 0,
            "shuffle": 0}], "columns": ["a", "b"], "op_type": "Project"}],
            "count": 3, "op_type": "Take"}], "batch_size": 2, "connector_queue_size": 16,
            "drop_remainder": False, "input_columns": [], "num_parallel_workers": 2,
            "op_type": "Batch", "output_columns": []}
    data = ds.deserialize(input_dict=tree)
    assert _rows(data) == [[["1", "3"], ["2", "4"]], [["5"], ["6"]]]


def test_python_functions_are_named_only():
    def fun1(x):
        return x

    class Fun3:
        def __call__(self, x):
            return x

    class Holder:
        def fun4(self, x):
            return x + 1

    for function, name in ((fun1, "fun1"), (lambda x: x + 1, "<lambda>"), (Fun3(), "Fun3"),
                           (Holder.fun4, "fun4"), (Holder().fun4, "fun4")):
        tree = ds.serialize(ds.GeneratorDataset([1, 2, 3], ["data1"]).map(function))
        assert tree["operations"][0]["tensor_op_name"] == name
        assert "tensor_op_params" not in tree["operations"][0]


def test_what_cannot_be_rebuilt(csv_file, tmp_path):
    def data():  # a node feeds one pipeline only
        return ds.CSVDataset(csv_file, column_defaults=[0, 0, ""], column_names=["a", "b", "c"],
                             shuffle=False)

    # a Python function's code is not in the JSON: the pipeline it comes back in cannot run it
    # nor be written again
    udf = data().map(lambda a: a * 2, input_columns=["a"])
    back = ds.deserialize(input_dict=ds.serialize(udf))
    with pytest.raises(RuntimeError, match="Failed to find key 'tensor_op_params' in "
                                           "PyFuncOp' JSON file or input dict"):
        ds.serialize(back)
    with pytest.raises(RuntimeError, match="cannot run"):
        _rows(back)
    # the pipeline is read when it is used, as in MindSpore: the errors come then
    filtered = ds.deserialize(input_dict=ds.serialize(
        data().filter(lambda a: a < 4, input_columns=["a"])))
    with pytest.raises(RuntimeError, match="Invalid data, unsupported operation type: Filter"):
        filtered.get_dataset_size()
    generated = ds.deserialize(input_dict=ds.serialize(ds.GeneratorDataset([1, 2], ["x"])))
    with pytest.raises(RuntimeError, match="unsupported operation type: GeneratorDataset"):
        _rows(generated)
    # the transforms MindSpore's serdes does not rebuild
    adjusted = ds.deserialize(input_dict=ds.serialize(
        data().map(vision.AdjustBrightness(2.0), input_columns=["a"])))
    with pytest.raises(RuntimeError, match="Invalid data, unsupported operation: "
                                           "AdjustBrightness"):
        adjusted.get_col_names()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RuntimeError, match="Invalid file, failed to parse json file"):
        ds.serialize(ds.deserialize(json_filepath=str(bad)))
    with pytest.raises(RuntimeError, match="Invalid file, failed to open json file"):
        _rows(ds.deserialize(json_filepath=str(tmp_path / "missing.json")))


def test_deserialize_reads_the_pipeline_when_it_is_used(csv_file, tmp_path):
    path = tmp_path / "later.json"
    missing = ds.deserialize(str(path))  # a path as `input_dict`, as MindSpore takes it
    assert isinstance(missing, ds.Dataset)
    repeated = missing.repeat(2)  # nodes that need no columns are built on it unread
    with pytest.raises(RuntimeError, match="Invalid file, failed to open json file"):
        repeated.get_dataset_size()
    source = ds.CSVDataset(csv_file, column_defaults=[0, 0, ""], column_names=["a", "b", "c"],
                           shuffle=False).take(3)
    ds.serialize(source, str(path))  # the file written after deserialize: read now
    assert repeated.get_dataset_size() == 6
    assert _rows(ds.deserialize(str(path)).project(["a"])) == [[1], [3], [5]]
    assert ds.serialize(ds.deserialize(json_filepath=str(path))) == ds.serialize(source)


def test_show_logs_the_json(csv_file, caplog):
    data = ds.CSVDataset(csv_file, column_defaults=[0, 0, ""], column_names=["a", "b", "c"])
    with caplog.at_level(logging.INFO, logger="cellgraph"):
        ds.show(data, indentation=None)
    assert any('"op_type": "CSVDataset"' in record.getMessage() for record in caplog.records)


def test_autotune_writes_the_pipeline_it_ran(tmp_path, monkeypatch):
    monkeypatch.setenv("RANK_ID", "3")
    prefix = str(tmp_path / "tuned")
    ds.config.set_enable_autotune(True, prefix)
    try:
        data = ds.NumpySlicesDataset(np.arange(20), ["x"], shuffle=False)
        data = data.map(lambda x: x + 1, ["x"]).batch(5)
        iterator = data.create_tuple_iterator(num_epochs=2)
        for _ in iterator:
            pass
    finally:
        ds.config.set_enable_autotune(False)
    report = json.loads((tmp_path / "tuned_3.json").read_text())
    # MindSpore's AutoTune file: a remark, the operations from the source up, and the tree
    assert report["remark"].endswith("No configuration changes were made by Dataset AutoTune.")
    assert report["summary"] == [
        "GeneratorOp(ID:2)   (num_parallel_workers: 1, prefetch_size:16)",
        "MapOp(ID:1)         (num_parallel_workers: 2, prefetch_size:16)",
        "BatchOp(ID:0)       (num_parallel_workers: 2, prefetch_size:16)"]
    assert report["tree"] == ds.serialize(data)
    assert report["tree"]["children"][0]["children"][0]["op_type"] == "GeneratorDataset"
    assert ds.config.get_enable_autotune() is False



def test_autotune_warns_when_it_overwrites_and_skips_offloaded_pipelines(tmp_path, caplog,
                                                                         monkeypatch):
    monkeypatch.setenv("RANK_ID", "0")
    prefix = str(tmp_path / "tuned")
    (tmp_path / "tuned_0.json").write_text("old")
    ds.config.set_enable_autotune(True, prefix)
    try:
        data = ds.NumpySlicesDataset(np.arange(4), ["x"], shuffle=False)
        with caplog.at_level(logging.WARNING, logger="cellgraph"):
            list(data.create_tuple_iterator(num_epochs=1))
        assert f"File: <{prefix}_0.json> already exists. File will be overwritten with the " \
               f"AutoTuned data pipeline configuration." in caplog.text
        assert json.loads((tmp_path / "tuned_0.json").read_text())["tree"]["op_type"] == \
            "GeneratorDataset"
        caplog.clear()
        ds.config.set_enable_autotune(True, str(tmp_path / "offloaded"))
        offloaded = data.map(lambda x: x, ["x"], offload=True)
        with caplog.at_level(logging.WARNING, logger="cellgraph"):
            list(offloaded.create_tuple_iterator(num_epochs=1))
        assert "Some nodes have been offloaded. AutoTune is unable to write the autotune " \
               "configuration to disk." in caplog.text
        assert not (tmp_path / "offloaded_0.json").exists()
    finally:
        ds.config.set_enable_autotune(False)


def test_transform_params_as_mindspore_names_them(csv_file):
    # MindSpore 2.10 writes Rotate's angle as "degree", Fill's value as a tensor and Decode's
    # colour order as "rgb"; what it writes for arguments not given ([] for center) reads back
    from cellgraph.dataset.engine.serializer_deserializer import _make_operation

    written = [{"tensor_op_name": "Rotate", "tensor_op_params": {
                   "center": [], "degree": 90.0, "device_target": "CPU", "expand": False,
                   "fill_value": [0, 0, 0], "resample": 1}},
               {"tensor_op_name": "Fill", "tensor_op_params": {"data": [7], "shape": [],
                                                               "type": "int64"}}]
    rotate, fill = (_make_operation(op) for op in written)
    image = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    np.testing.assert_array_equal(rotate(image), vision.Rotate(90, vision.Inter.NEAREST)(image))
    assert fill(np.zeros(2, np.int32)).tolist() == [7, 7]
    data = ds.CSVDataset(csv_file, column_defaults=[0, 0, ""], column_names=["a", "b", "c"])
    data = data.map(T.Fill(7), ["a"]).map(vision.Rotate(30), ["b"]).map(vision.Decode(), ["c"])
    tree = ds.serialize(data)
    assert tree["operations"][0]["tensor_op_params"]["rgb"] is True
    assert tree["children"][0]["operations"][0]["tensor_op_params"]["degree"] == 30
    assert tree["children"][0]["children"][0]["operations"] == [
        {"tensor_op_name": "Fill", "tensor_op_params": {"data": [7], "shape": [],
                                                        "type": "int64"}}]
    assert ds.serialize(ds.deserialize(input_dict=tree)) == tree


def test_text_transforms_serialized_without_params():
    """The text transforms whose MindSpore JSON has "tensor_op_params": null (MindSpore
    2.10's JSON), and one that has them."""
    def data():  # a node feeds one pipeline only
        return ds.NumpySlicesDataset(["a b"], column_names=["text"], shuffle=False)

    for op in (text.WhitespaceTokenizer(True), text.RegexReplace("a", "b"), text.Ngram(2),
               text.SlidingWindow(2)):
        operations = ds.serialize(data().map(operations=op))["operations"]
        assert operations == [{"tensor_op_name": type(op).__name__, "tensor_op_params": None}]
    operations = ds.serialize(data().map(operations=text.AddToken("x")))["operations"]
    assert operations[0]["tensor_op_params"] == {"begin": True, "token": "x"}
