"""SummaryCollector, SummaryRecord and the summary operations check their arguments as
MindSpore 2.10 does: the same error types and messages (recorded from MindSpore), the same
merge of collect_specified_data over the defaults, and the collector's helpers that MindSpore's
own tests call (_get_loss, _get_optimizer, _collect_histogram, _check_callbacks)."""
import re

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, SummaryCollector, SummaryRecord, Tensor, nn, ops
from cellgraph.nn.optim.optimizer import Optimizer
from cellgraph.primitives.errors import UnsupportedError
from cellgraph.train.callback import _InternalCallbackParam
from cellgraph.train.summary.enums import ModeEnum, PluginEnum

# (arguments, error type, message) as MindSpore 2.10 gives them
COLLECTOR_ERRORS = [
    ({"summary_dir": 1234}, TypeError, "The summary_dir is invalid, the type should be string."),
    ({"summary_dir": ""}, ValueError, "The summary_dir is invalid, it should be non-blank."),
    ({"collect_freq": 0}, ValueError,
     'For "SummaryCollector", the value of `collect_freq` should be greater than 0, but got `0`.'),
    ({"collect_freq": 0.5}, TypeError,
     "For `collect_freq` the type should be a valid type of ['int'], but got float."),
    ({"keep_default_action": 1}, TypeError,
     "For `keep_default_action` the type should be a valid type of ['bool'], but got int."),
    ({"collect_specified_data": [1]}, TypeError,
     ("For `collect_specified_data` the type should be a valid type of ['dict', 'NoneType'], "
     "but got list.")),
    ({"collect_specified_data": {1: True}}, TypeError,
     "For `1` the type should be a valid type of ['str'], but got int."),
    ({"collect_specified_data": {"collect_metric": None}}, TypeError,
     "For `collect_metric` the type should be a valid type of ['bool'], but got NoneType."),
    ({"collect_specified_data": {"histogram_regular": "*"}}, ValueError,
     ("For `collect_specified_data`, the value of `histogram_regular` is not a valid regular "
     "expression. Detail: nothing to repeat at position 0.")),
    ({"custom_lineage_data": {"a": None}}, TypeError,
     ("For `the value of custom_lineage_data -> a` the type should be a valid type of "
     "['int', 'str', 'float'], but got NoneType.")),
    ({"collect_specified_data": {"collect_landscape": {"unit": "day"}}}, ValueError,
     ('For "SummaryCollector", unit in collect_specified_data should be step or epoch, but got '
     'the: day.')),
    ({"collect_specified_data": {"collect_landscape": {"intervals": [[1, 2]]}}}, ValueError,
     ('For "SummaryCollector", the length of each list in "intervals" should not be less than '
     'three, but got the: [1, 2]')),
    ({"max_file_size": 0}, ValueError,
     ('For "SummaryCollector", the value of `max_file_size` should be greater than 0, but got '
     '`0`.')),
]


@pytest.mark.parametrize("kwargs, error, message", COLLECTOR_ERRORS)
def test_collector_arguments_fail_as_mindspores(tmp_path, kwargs, error, message):
    arguments = {"summary_dir": str(tmp_path)}
    arguments.update(kwargs)
    with pytest.raises(error) as exc:
        SummaryCollector(**arguments)
    assert str(exc.value) == message


def test_collector_unknown_keys_and_export_formats(tmp_path):
    with pytest.raises(ValueError, match=re.escape(
            "the keys {'nope'} of `collect_specified_data` are unsupported")):
        SummaryCollector(str(tmp_path), collect_specified_data={"nope": True})
    with pytest.raises(ValueError, match=re.escape(
            "the export_format {'npz'} of \"export_options\" are unsupported for tensor_format")):
        SummaryCollector(str(tmp_path), export_options={"tensor_format": "npz"})
    (tmp_path / "file").write_text("x")
    with pytest.raises(NotADirectoryError):
        SummaryCollector(str(tmp_path / "file"))


def test_collector_merges_specified_data_over_the_defaults(tmp_path):
    defaults = SummaryCollector._DEFAULT_SPECIFIED_DATA
    merged = SummaryCollector(str(tmp_path), collect_specified_data={"collect_metric": False})
    assert merged._collect_specified_data == {**defaults, "collect_metric": False}
    alone = SummaryCollector(str(tmp_path), keep_default_action=False,
                             collect_specified_data={"collect_metric": True})
    assert alone._collect_specified_data == {"collect_metric": True}
    assert SummaryCollector(str(tmp_path), keep_default_action=False)._collect_specified_data == {}
    assert (tmp_path / "new").is_dir() is False
    SummaryCollector(str(tmp_path / "new"))  # made, as MindSpore makes it
    assert (tmp_path / "new").is_dir()


def test_collector_refuses_what_only_mindinsight_reads(tmp_path):
    for key in ("collect_graph", "collect_train_lineage", "collect_dataset_graph"):
        with pytest.raises(UnsupportedError, match=key):
            SummaryCollector(str(tmp_path), collect_specified_data={key: True})
    SummaryCollector(str(tmp_path), collect_specified_data={"collect_graph": False})


@pytest.mark.parametrize("output, parsed", [
    (None, False), (1, True), (1.5, True), ([Tensor(1)], True), ({}, False),
    (Tensor(np.array([[1, 2], [3, 4]], np.float32)), True)])
def test_get_loss(tmp_path, output, parsed):
    cb_params = _InternalCallbackParam()
    cb_params.net_outputs = output
    collector = SummaryCollector(str(tmp_path))
    with pytest.warns(UserWarning) if not parsed else _no_warning():
        loss = collector._get_loss(cb_params)
    assert collector._is_parse_loss_success is parsed
    if parsed and isinstance(output, Tensor):
        assert float(loss.asnumpy()) == 2.5  # the mean of the output's values


class _no_warning:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_optimizer_found_once_and_histograms_by_name(tmp_path, monkeypatch):
    params = [Parameter(Tensor(np.float32(i)), name) for i, name in enumerate(
        ["conv1.w", "conv2.w", "conv1.b", "conv3.b", "conv5.b", "conv6.b"])]
    cb_params = _InternalCallbackParam()
    cb_params.optimizer = Optimizer(learning_rate=0.1, parameters=params)
    added = []
    monkeypatch.setattr(SummaryRecord, "add_value",
                        lambda self, plugin, name, value: added.append((plugin, name)))
    with SummaryCollector(str(tmp_path)) as collector:
        collector._collect_histogram(cb_params)  # histogram_regular None: the first five
        collector._collect_specified_data["histogram_regular"] = "conv1|conv2"
        collector._collect_histogram(cb_params)
    assert added == [(PluginEnum.HISTOGRAM.value, f"{n}/auto") for n in (
        "conv1.w", "conv2.w", "conv1.b", "conv3.b", "conv5.b", "conv1.w", "conv2.w", "conv1.b")]

    class NoOptimizer(nn.Cell):
        def construct(self, x):
            return x

    cb_params = _InternalCallbackParam(optimizer=None, train_network=NoOptimizer(),
                                       mode=ModeEnum.TRAIN.value)
    collector = SummaryCollector(str(tmp_path))
    with pytest.warns(UserWarning, match="Can not find optimizer"):
        assert collector._get_optimizer(cb_params) is None
    assert collector._temp_optimizer == "Failed"


def test_one_collector_per_run(tmp_path):
    cb_params = _InternalCallbackParam()
    cb_params.list_callback = [SummaryCollector(str(tmp_path)), SummaryCollector(str(tmp_path))]
    with pytest.raises(ValueError, match="more than one SummaryCollector instance"):
        SummaryCollector(str(tmp_path))._check_callbacks(cb_params)


RECORD_ERRORS = [
    ({"log_dir": ""}, ValueError, "The log_dir is invalid, it should be non-blank."),
    ({"raise_exception": 1}, TypeError,
     "The type of 'raise_exception' should be 'bool', but got type 'int'."),
    ({"file_prefix": "a/b"}, ValueError,
     ("The 'a/b' is illegal, it must be match regular'^\\w+[0-9a-zA-Z\\_\\.]*$' by "
     "flags're.ASCII.'")),
    ({"max_file_size": "1"}, TypeError,
     "For 'SummaryRecord', the 'max_file_size' should be int type, but got type <class 'str'>"),
]


@pytest.mark.parametrize("kwargs, error, message", RECORD_ERRORS)
def test_record_arguments_fail_as_mindspores(tmp_path, kwargs, error, message):
    arguments = {"log_dir": str(tmp_path)}
    arguments.update(kwargs)
    with pytest.raises(error) as exc:
        SummaryRecord(**arguments)
    assert str(exc.value) == message


class _Summarise(nn.Cell):
    def __init__(self, op, tag, value):
        super().__init__()
        self.op, self.tag, self.value = op, tag, value

    def construct(self, x):
        self.op(self.tag, self.value)
        return x + 1


@pytest.mark.parametrize("op, tag, value, error", [
    (ops.ScalarSummary(), None, Tensor(0), TypeError),
    (ops.ScalarSummary(), "", Tensor(0), ValueError),
    (ops.ScalarSummary(), 123, Tensor(0), TypeError),
    (ops.ScalarSummary(), "tag", 123, TypeError),
    (ops.ScalarSummary(), "tag", Tensor(np.ones(2)), ValueError),
    (ops.ImageSummary(), "tag", Tensor(np.array([1, 2])), ValueError),
    (ops.TensorSummary(), "tag", Tensor(0), ValueError),
    (ops.HistogramSummary(), "tag", Tensor(0), ValueError),
])
def test_summary_operation_checks_in_a_graph(op, tag, value, error):
    """In a compiled construct the checks raise MindSpore's error types, not a CompileError."""
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(error):
            _Summarise(op, tag, value)(Tensor(np.float32(1)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_summary_operations_take_one_value_as_a_scalar(tmp_path):
    net = _Summarise(ops.ScalarSummary(), "s", Tensor(np.ones((1, 1), np.float32)))
    with SummaryRecord(str(tmp_path)) as record:
        net(Tensor(np.float32(1)))
        record.record(1)


def test_security_build_is_off():
    from cellgraph._c_expression import security

    assert security.enable_security() is False
