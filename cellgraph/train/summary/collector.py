"""`mindspore.SummaryCollector`: a callback that records, every `collect_freq` steps of
Model.train, the loss (scalar `loss/auto`), the first input batch as an image
(`input_data/auto`, when it is one), histograms of the optimizer's parameters
(`<name>/auto`) and the network's summary operations, to a SummaryRecord in summary_dir.

Its arguments are checked and merged as MindSpore's are (`collect_specified_data` over
`_DEFAULT_SPECIFIED_DATA` unless `keep_default_action=False`, with MindSpore's messages).
What MindSpore records as MindInsight protobufs (the graph, the train and eval lineage, the
dataset graph, the loss landscape, custom lineage data) cellgraph does not write: the defaults
leave them out, and asking for one by name raises UnsupportedError.
"""
from __future__ import annotations

import copy
import re
import warnings
from typing import ClassVar

import numpy as np

from cellgraph.primitives.errors import UnsupportedError
from cellgraph.train.callback import Callback

from .enums import ModeEnum, PluginEnum
from .record import SummaryRecord, _make_directory, check_value_type, process_export_options

# the keys whose values are MindInsight protobufs (see the module's docstring)
_MINDINSIGHT_KEYS = ("collect_graph", "collect_train_lineage", "collect_eval_lineage",
                     "collect_dataset_graph", "collect_landscape")


class SummaryCollector(Callback):
    """Collect the loss, input images, parameter histograms and the summary operations' values
    of a training run every `collect_freq` steps (see the module's docstring)."""

    _DEFAULT_SPECIFIED_DATA: ClassVar[dict] = {
        'collect_metric': True,
        'collect_graph': True,
        'collect_train_lineage': True,
        'collect_eval_lineage': True,
        'collect_input_data': True,
        'collect_dataset_graph': True,
        'histogram_regular': None,
        'collect_landscape': {'landscape_size': 40,
                              'unit': 'step',
                              'num_samples': 2048,
                              'create_landscape': {'train': True,
                                                   'result': True},
                              'intervals': [[1, 2, 3, 4, 5, 6, 7, 8, 9],
                                            [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]}
    }

    def __init__(self, summary_dir, collect_freq=10, num_process=32,
                 collect_specified_data=None, keep_default_action=True,
                 custom_lineage_data=None, collect_tensor_freq=None, max_file_size=None,
                 export_options=None):
        super().__init__()
        self._summary_dir = _make_directory(summary_dir, "summary_dir")
        self._record = None
        self._owns_record = False
        self._check_positive('collect_freq', collect_freq)
        self._collect_freq = collect_freq
        self._check_positive('collect_tensor_freq', collect_tensor_freq, allow_none=True)
        self._collect_tensor_freq = collect_tensor_freq
        self._tensor_collect_range = None
        self._check_positive('max_file_size', max_file_size, allow_none=True)
        self._max_file_size = max_file_size
        self._export_options = process_export_options(export_options)
        check_value_type('keep_default_action', keep_default_action, bool)
        self._collect_specified_data = self._process_specified_data(collect_specified_data,
                                                                    keep_default_action)
        landscape = self._collect_specified_data.get('collect_landscape', None)
        check_value_type('collect_landscape', landscape, [dict, type(None)])
        if landscape:
            self._check_collect_landscape_data(landscape)
        self._custom_lineage_data = self._process_custom_lineage_data(custom_lineage_data)
        self._refuse_mindinsight_data(collect_specified_data, self._custom_lineage_data)
        self._temp_optimizer = None
        self._is_parse_loss_success = True
        self._first_step = True
        self._dataset_sink_mode = True
        self._num_process = num_process

    # -- the record: opened by `with` (as MindSpore's Model does) or by the run itself -------
    def _open_record(self):
        self._record = SummaryRecord(log_dir=self._summary_dir,
                                     max_file_size=self._max_file_size,
                                     raise_exception=False,
                                     export_options=self._export_options)

    def __enter__(self):
        self._open_record()
        self._first_step, self._dataset_sink_mode = True, True
        return self

    def __exit__(self, *err):
        self._record.close()

    @property
    def record(self):
        """The SummaryRecord this collector writes to (None before a run)."""
        return self._record

    # -- argument checks, as MindSpore's ----------------------------------------------------
    def _check_positive(self, name, value, allow_none=False):
        if allow_none and value is None:
            return
        check_value_type(name, value, int)
        if value <= 0:
            raise ValueError(f'For "{type(self).__name__}", the value of `{name}` should be '
                             f'greater than 0, but got `{value}`.')

    def _process_specified_data(self, specified_data, action):
        """`specified_data` checked and merged over the defaults (unless `action` is False)."""
        check_value_type('collect_specified_data', specified_data, [dict, type(None)])
        defaults = copy.deepcopy(self._DEFAULT_SPECIFIED_DATA)
        if specified_data is None:
            return defaults if action else {}
        for param_name in specified_data:
            check_value_type(param_name, param_name, [str])
        unexpected = set(specified_data) - set(defaults)
        if unexpected:
            raise ValueError(f'For "{type(self).__name__}", the keys {unexpected} of '
                             f'`collect_specified_data` are unsupported, expect the follow '
                             f'keys: {list(defaults.keys())}')
        if 'histogram_regular' in specified_data:
            regular = specified_data.get('histogram_regular')
            check_value_type('histogram_regular', regular, (str, type(None)))
            if isinstance(regular, str):
                try:
                    re.match(regular, '')
                except re.error as exc:
                    raise ValueError(f'For `collect_specified_data`, the value of '
                                     f'`histogram_regular` is not a valid regular expression. '
                                     f'Detail: {exc}.') from exc
        for item in sorted(set(defaults) - {'histogram_regular', 'collect_landscape'}):
            if item in specified_data:
                check_value_type(item, specified_data.get(item), bool)
        if not action:
            return dict(specified_data)
        defaults.update(specified_data)
        return defaults

    def _check_collect_landscape_data(self, landscape):
        name = type(self).__name__
        known = self._DEFAULT_SPECIFIED_DATA['collect_landscape']
        unexpected = set(landscape) - set(known)
        if unexpected:
            raise ValueError(f'For "{name}", the keys {unexpected} of `collect_landscape` are '
                             f'unsupported, expect the follow keys: {list(known.keys())}')
        size = landscape.get('landscape_size', 40)
        check_value_type('landscape_size', size, int)
        if size < 3 or size > 256:
            raise ValueError(f'For "{name}", the "landscape_size" in collect_specified_data '
                             f'should be less than 256 and more than 3, but got the: {size}')
        unit = landscape.get('unit', 'step')
        check_value_type('unit', unit, str)
        if unit not in ('step', 'epoch'):
            raise ValueError(f'For "{name}", unit in collect_specified_data should be step or '
                             f'epoch, but got the: {unit}.')
        check_value_type('num_samples', landscape.get('num_samples', 2048), int)
        create = landscape.get('create_landscape', {'train': True, 'result': True})
        check_value_type('create_landscape', create, dict)
        for param, value in create.items():
            if param not in ('train', 'result'):
                raise ValueError(f'For "{name}", the key to create landscape should be in '
                                 f'["train", "result"], but got the: {param}.')
            check_value_type(param, value, bool)
        intervals = landscape.get('intervals')
        check_value_type('intervals', intervals, list)
        for interval in intervals:
            check_value_type('each interval inintervals', interval, list)
            if len(interval) < 3:
                raise ValueError(f'For "{name}", the length of each list in "intervals" should '
                                 f'not be less than three, but got the: {interval}')
            for j in interval:
                if not isinstance(j, int):
                    raise TypeError(f'For "{name}", the value of each list in "intervals" '
                                    f'should be int, but got the: {type(j)}')

    @staticmethod
    def _check_custom_lineage_type(param_name, custom_lineage):
        check_value_type(param_name, custom_lineage, [dict, type(None)])
        for key, value in custom_lineage.items():
            check_value_type(f'{param_name} -> {key}', key, str)
            check_value_type(f'the value of {param_name} -> {key}', value, (int, str, float))

    def _process_custom_lineage_data(self, custom_lineage_data):
        if custom_lineage_data is None:
            custom_lineage_data = {}
        self._check_custom_lineage_type('custom_lineage_data', custom_lineage_data)
        return dict(custom_lineage_data)

    @staticmethod
    def _refuse_mindinsight_data(specified, custom_lineage_data):
        """Asked for by name, a MindInsight record cellgraph does not write is refused."""
        asked = sorted(k for k in _MINDINSIGHT_KEYS if (specified or {}).get(k))
        if custom_lineage_data:
            asked.append("custom_lineage_data")
        if asked:
            raise UnsupportedError(f"SummaryCollector: collecting {asked} is not supported: "
                                   f"MindSpore writes them as MindInsight protobufs, which "
                                   f"cellgraph does not write; set them to False")

    # -- the run ------------------------------------------------------------------------------
    def _check_callbacks(self, cb_params):
        found = False
        for callback in cb_params.list_callback:
            if type(callback).__name__ == type(self).__name__:
                if not found:
                    found = True
                    continue
                raise ValueError(f"There are more than one {type(self).__name__} instance in "
                                 f"callback list,but expected only one {type(self).__name__} "
                                 f"instance.")

    def begin(self, run_context):
        cb_params = run_context.original_args()
        self._check_callbacks(cb_params)
        if cb_params.mode not in ModeEnum.to_list():
            raise ValueError(f'Only support `train` (model.train) and `eval` (model.eval) mode, '
                             f'but got `{cb_params.mode}` mode.')
        if self._record is None or self._record.closed:
            self._open_record()
            self._owns_record, self._first_step = True, True
        self._record.set_mode(cb_params.mode)
        self._dataset_sink_mode = cb_params.dataset_sink_mode

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        if cb_params.mode != ModeEnum.TRAIN.value:
            return
        if not self._dataset_sink_mode:
            self._collect_tensor_data(cb_params)

    def epoch_end(self, run_context):
        cb_params = run_context.original_args()
        self._collect_tensor_data(cb_params)
        self._record.flush()

    def end(self, run_context):
        if self._owns_record:
            self._record.close()
            self._owns_record = False

    def _collect_tensor_data(self, cb_params):
        """The first step, then every `collect_freq` steps (epochs in sink mode); the summary
        operations' tensors at the steps of `collect_tensor_freq`."""
        if cb_params.mode != ModeEnum.TRAIN.value:
            return
        if self._first_step:
            self._tensor_collect_range = self._get_tensor_collect_range(
                cb_params, self._dataset_sink_mode)
            self._collect_at_step_end(cb_params, plugin_filter=None)
            self._first_step = False
            self._record.flush()
            return
        current = cb_params.cur_epoch_num if self._dataset_sink_mode else cb_params.cur_step_num
        if current % self._collect_freq == 0 and current in self._tensor_collect_range:
            self._collect_at_step_end(cb_params, plugin_filter=None)
        elif current in self._tensor_collect_range:
            self._collect_at_step_end(
                cb_params, lambda plugin: plugin == PluginEnum.TENSOR.value)
        elif current % self._collect_freq == 0:
            self._collect_at_step_end(
                cb_params, lambda plugin: plugin != PluginEnum.TENSOR.value)

    def _get_tensor_collect_range(self, cb_params, dataset_sink_mode):
        """The steps (epochs in sink mode) whose tensors are recorded: every
        `collect_tensor_freq`, or by default at most 20 spread over the run."""
        total_step = cb_params.epoch_num
        if not dataset_sink_mode:
            total_step *= cb_params.batch_num
        if self._collect_tensor_freq is not None:
            return range(0, total_step + 1, self._collect_tensor_freq)
        summary_to_collect = len(range(0, total_step + 1, self._collect_freq))
        limit = 20
        if summary_to_collect > limit:
            tensor_freq = total_step // (limit - 1)
            if tensor_freq > 1:
                return range(0, total_step + 1, tensor_freq)[:limit]
            return range(total_step + 1)[:limit + 1]
        return range(0, total_step + 1, self._collect_freq)

    def _collect_at_step_end(self, cb_params, plugin_filter):
        self._collect_input_data(cb_params)
        self._collect_metric(cb_params)
        self._collect_histogram(cb_params)
        self._record.record(cb_params.cur_step_num, plugin_filter=plugin_filter)

    def _collect_input_data(self, cb_params):
        """The first input of the batch as image `input_data/auto`; when it is no image,
        a warning and no more tries."""
        if not self._is_allowed_to_collect_input_data(cb_params):
            return
        input_data = getattr(cb_params, 'train_dataset_element', None)
        if isinstance(input_data, (list, tuple)) and input_data:
            input_data = input_data[0]
        try:
            self._record.add_value(PluginEnum.IMAGE.value, 'input_data/auto', input_data)
        except (TypeError, ValueError):
            warnings.warn('The input data of network are not image, so will not collect by '
                          'SummaryCollector.', stacklevel=2)
            self._collect_specified_data['collect_input_data'] = False

    def _is_allowed_to_collect_input_data(self, cb_params):
        from cellgraph.runtime.tensor import Tensor

        if not self._collect_specified_data.get('collect_input_data'):
            return False
        input_data = cb_params.get('train_dataset_element')
        if not isinstance(input_data, (Tensor, list, tuple)):
            self._collect_specified_data['collect_input_data'] = False
            warnings.warn("The type of input data is not Tensor/list/tuple, so SummaryCollector "
                          "will not collect input data.", stacklevel=3)
            return False
        if not isinstance(input_data, Tensor) and not input_data:
            self._collect_specified_data['collect_input_data'] = False
            warnings.warn("The 'train_dataset_element' in RunContext.original_args is empty, so "
                          "SummaryCollector will not record the input data.", stacklevel=3)
            return False
        return True

    def _collect_metric(self, cb_params):
        if not self._collect_specified_data.get('collect_metric'):
            return
        loss = self._get_loss(cb_params)
        if loss is None:
            return
        try:
            self._record.add_value(PluginEnum.SCALAR.value, 'loss/auto', loss)
        except ValueError:
            warnings.warn("The output of network is not a scalar, so SummaryCollector will not "
                          "collect loss.", stacklevel=2)
            self._collect_specified_data['collect_metric'] = False

    def _get_loss(self, cb_params):
        """The loss from the network's output (its first item when it is a sequence), as the
        mean of its values; None, and no more tries, when the output is not one."""
        from cellgraph.runtime.tensor import Tensor

        if not self._is_parse_loss_success:
            return None
        output = cb_params.get('net_outputs')
        if output is None:
            warnings.warn("Can not find any output by this network, so SummaryCollector will not "
                          "collect loss.", stacklevel=2)
            self._is_parse_loss_success = False
            return None
        if isinstance(output, (int, float, Tensor)):
            loss = output
        elif isinstance(output, (list, tuple)) and output:
            loss = output[0]
        else:
            warnings.warn("The output type could not be identified, expect type is one of [int, "
                          "float, Tensor, list, tuple], so no loss was recorded in "
                          "SummaryCollector.", stacklevel=2)
            self._is_parse_loss_success = False
            return None
        if not isinstance(loss, Tensor):
            loss = Tensor(loss)
        return Tensor(np.mean(loss.asnumpy()))

    def _get_optimizer(self, cb_params):
        """cb_params.optimizer, or the first Optimizer in the network; found once ('Failed'
        remembered when there is none)."""
        from cellgraph.nn.optim.optimizer import Optimizer

        failed = 'Failed'
        if self._temp_optimizer == failed:
            return None
        if self._temp_optimizer is not None:
            return self._temp_optimizer
        optimizer = cb_params.get('optimizer')
        if optimizer is None:
            network = (cb_params.get('train_network') if cb_params.get('mode') == 'train'
                       else cb_params.get('eval_network'))
            optimizer = self._parse_optimizer_by_network(network)
        if optimizer is None or not isinstance(optimizer, Optimizer):
            warnings.warn("Can not find optimizer in network, or the optimizer does not inherit "
                          "MindSpore's optimizer, so we will not collect data about optimizer in "
                          "SummaryCollector.", stacklevel=2)
            optimizer = None
        self._temp_optimizer = optimizer if optimizer is not None else failed
        return optimizer

    @staticmethod
    def _parse_optimizer_by_network(network):
        from cellgraph.nn.optim.optimizer import Optimizer

        if network is None:
            return None
        optimizer = None
        for _, cell in network.cells_and_names():
            if isinstance(cell, Optimizer):
                return cell
            optimizer = getattr(cell, 'optimizer', None)
            if isinstance(optimizer, Optimizer):
                break
        return optimizer

    def _collect_histogram(self, cb_params):
        """Histograms of the optimizer's parameters whose names match `histogram_regular`
        (the first five when it is None); none without the key."""
        if 'histogram_regular' not in self._collect_specified_data:
            return
        optimizer = self._get_optimizer(cb_params)
        if optimizer is None:
            return
        parameters = optimizer.parameters
        regular = self._collect_specified_data.get('histogram_regular')
        if regular is None:
            parameters = parameters[:5]
        for parameter in parameters:
            if regular is None or re.match(regular, parameter.name):
                self._record.add_value(PluginEnum.HISTOGRAM.value, parameter.name + '/auto',
                                       parameter.data)


__all__ = ["SummaryCollector"]
