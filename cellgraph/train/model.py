"""Model: the high-level training API (train, eval, predict, fit) over a dataset pipeline.

    model = Model(net, loss_fn, optimizer, metrics={"accuracy"}, amp_level="O2")
    model.train(10, train_data, callbacks=[LossMonitor(100)])
    model.eval(test_data)  # {"accuracy": 0.98}

The training step is one Cell made by `_build_train_network` (amp.build_train_network: casts
for the mixed-precision level, WithLossCell, then TrainOneStepCell or, with a loss-scale
manager, TrainOneStepWithLossScaleCell), so each step is one compiled graph; in DATA_PARALLEL
mode their `grad_reducer` all-reduces the gradients. Batches come from the dataset's prefetching
iterator (shard it by rank with `num_shards`/`shard_id`).
"""
from __future__ import annotations

import numbers

from cellgraph import context, nn
from cellgraph.auto_parallel import get_auto_parallel_context

from .callback._callback import CallbackManager, CallbackParams, RunContext
from .metrics import Loss, Metric, get_metric_fn

__all__ = ["Model"]

_AMP_KWARGS = ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager")


def _metric_dict(metrics) -> dict:
    if metrics is None:
        return {}
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    if not isinstance(metrics, dict):  # a list or tuple too, as MindSpore's get_metrics
        raise TypeError(f"For 'get_metrics', the argument 'metrics' must be None, dict or set, "
                        f"but got {metrics}")
    for name, metric in metrics.items():
        if not isinstance(metric, Metric):
            raise TypeError(f"Model: metric {name!r} must be a Metric, got "
                            f"{type(metric).__name__}")
    return dict(metrics)


def _positive_int(value, op: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"Model.{op}: `{name}` must be a positive int, got {value!r}")
    return int(value)


class Model:
    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
                 eval_indexes=None, amp_level="O0", boost_level="O0", **kwargs):
        if not isinstance(network, nn.Cell):
            raise TypeError(f"Model: `network` must be a Cell, got {type(network).__name__}")
        from cellgraph.amp.build import check_boost_level
        check_boost_level(boost_level, "Model")
        unknown = sorted(set(kwargs) - set(_AMP_KWARGS))
        if unknown:
            raise ValueError(f"Model: unsupported keyword(s) {', '.join(unknown)}; expected "
                             f"{', '.join(_AMP_KWARGS)}")
        if eval_indexes is not None and (not isinstance(eval_indexes, list) or len(
                eval_indexes) != 3):
            raise ValueError(f"Model: `eval_indexes` must be a list of 3 ints (loss, outputs, "
                             f"label), got {eval_indexes!r}")
        self._network, self._loss_fn, self._optimizer = network, loss_fn, optimizer
        self._amp_level, self._amp_kwargs = amp_level, kwargs
        self._metric_fns = _metric_dict(metrics)
        self._train_network = self._build_train_network()
        _configure_parallel(network, self._train_network)
        self._eval_network, self._eval_indexes = self._build_eval_network(eval_network,
                                                                          eval_indexes)
        self._predict_network = network

    # -- networks ---------------------------------------------------------------------------
    def _build_train_network(self):
        """The Cell one training step calls with a batch's columns."""
        from cellgraph.amp.build import build_train_network

        if self._optimizer is None:
            if self._amp_level != "O0":
                raise ValueError("Model: `amp_level` needs an `optimizer`")
            if self._loss_fn is None:
                return self._network  # already a training network (TrainOneStepCell, ...)
            return nn.WithLossCell(self._network, self._loss_fn)
        return build_train_network(self._network, self._optimizer, self._loss_fn,
                                   level=self._amp_level, **self._amp_kwargs)

    def _build_eval_network(self, eval_network, eval_indexes):
        if eval_network is not None:
            return eval_network, eval_indexes
        if self._loss_fn is None:
            if self._metric_fns:
                raise ValueError("If `metrics` is set, `eval_network` must not be None. Do not "
                                 "set `metrics` if you don't want an evaluation.\nIf evaluation "
                                 "is required, you need to specify `eval_network` (or "
                                 "`loss_fn`, from which Model builds one), which will be used "
                                 "to evaluate the model.")
            return None, None
        cast = self._amp_level in ("O2", "O3", "auto")
        return nn.WithEvalCell(self._network, self._loss_fn, add_cast_fp32=cast), [0, 1, 2]

    @property
    def train_network(self):
        return self._train_network

    @property
    def eval_network(self):
        return self._eval_network

    @property
    def predict_network(self):
        return self._predict_network

    # -- training ---------------------------------------------------------------------------
    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False,
              sink_size=-1, initial_epoch=0):
        """Train for `epoch` epochs over `train_dataset`, calling `callbacks` on the way. In
        sink mode the step callbacks run once per `sink_size` steps (per epoch if -1); on the
        CPU (device_target "CPU"), as MindSpore's, sink mode trains step by step."""
        self._run_train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                        initial_epoch, None, 1)

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1,
            initial_epoch=0):
        """train, with an evaluation on `valid_dataset` every `valid_frequency` epochs (an int,
        or a list of epoch numbers); results reach callbacks as cb_params.eval_results."""
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("Model.fit: evaluating `valid_dataset` needs `metrics`")
        self._run_train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                        initial_epoch, valid_dataset, valid_frequency)

    def _run_train(self, epoch, dataset, callbacks, sink_mode, sink_size, initial_epoch,
                   valid_dataset, valid_frequency):
        if not isinstance(sink_mode, bool):  # MindSpore checks it before anything else
            raise TypeError(f"For 'Model.train', `dataset_sink_mode` must be a bool, but got "
                            f"{type(sink_mode).__name__}.")
        epoch = _positive_int(epoch, "train", "epoch")
        if isinstance(initial_epoch, bool) or not 0 <= initial_epoch < epoch:
            raise ValueError(f"Model.train: `initial_epoch` must be in [0, epoch), got "
                             f"{initial_epoch!r}")
        if sink_size != -1:
            sink_size = _positive_int(sink_size, "train", "sink_size")
        dataset_size = dataset.get_dataset_size()
        steps_per_epoch = sink_size if sink_mode and sink_size > 0 else dataset_size
        if sink_mode and context.get_context("device_target") == "CPU":
            # MindSpore's CPU cannot sink: it trains step by step (the step callbacks every
            # step, every epoch the whole dataset), `sink_size` kept as the batch_num
            sink_mode = False
        cb_params = self._callback_params(epoch, dataset, steps_per_epoch, sink_mode,
                                          callbacks, initial_epoch)
        run_context = RunContext(cb_params)
        # as MindSpore's Model: the callbacks are entered (`with`) around the run
        with CallbackManager(callbacks) as cbs:
            cb_params.list_callback = cbs.callbacks
            self._train_loop(dataset, cbs, cb_params, run_context, epoch, initial_epoch,
                             sink_mode, steps_per_epoch, valid_dataset, valid_frequency)

    def _train_loop(self, dataset, cbs, cb_params, run_context, epoch, initial_epoch, sink_mode,
                    steps_per_epoch, valid_dataset, valid_frequency):
        batches = _Batches(dataset)
        cb_params.train_dataset_iterator = batches.iterator
        self._train_network.set_train(True)
        cbs.on_train_begin(run_context)
        start = initial_epoch
        done = cb_params.cur_step_num - initial_epoch * steps_per_epoch
        if done > 0:  # a callback resumed the run (ModelCheckpoint after a restart)
            start = initial_epoch + done // steps_per_epoch
            if not sink_mode and done % steps_per_epoch == 0:
                batches.end_read_epoch()
        for index in range(start, epoch):
            cb_params.cur_epoch_num = index + 1
            cbs.on_train_epoch_begin(run_context)
            if sink_mode:
                self._sink_epoch(batches, steps_per_epoch, cb_params, cbs, run_context)
            else:
                self._steps_epoch(batches, cb_params, cbs, run_context)
            if valid_dataset is not None and _due(index + 1, valid_frequency, epoch):
                cb_params.eval_results = self.eval(valid_dataset)
                cb_params.metrics = cb_params.eval_results
                self._train_network.set_train(True)
            if not sink_mode:
                dataset.reset()  # as MindSpore's Model, after each epoch not sunk
            cbs.on_train_epoch_end(run_context)
            if run_context.get_stop_requested():
                break
        cbs.on_train_end(run_context)

    def _steps_epoch(self, batches, cb_params, cbs, run_context):
        for batch in batches.epoch():
            cb_params.cur_step_num += 1
            cb_params.train_dataset_element = batch
            cbs.on_train_step_begin(run_context)
            cb_params.net_outputs = self._train_network(*batch)
            cbs.on_train_step_end(run_context)
            if run_context.get_stop_requested():
                batches.stop()
                return

    def _sink_epoch(self, batches, steps, cb_params, cbs, run_context):
        """One sink: `steps` batches run back to back, the step hooks once around them."""
        cbs.on_train_step_begin(run_context)
        done = 0
        for batch in batches.take(steps):
            cb_params.net_outputs = self._train_network(*batch)
            done += 1
        cb_params.cur_step_num += done
        cbs.on_train_step_end(run_context)

    def _callback_params(self, epoch, dataset, steps, sink_mode, callbacks, initial_epoch):
        return CallbackParams(
            train_network=self._train_network, network=self._network,
            loss_fn=self._loss_fn, optimizer=self._optimizer, epoch_num=epoch,
            batch_num=steps, steps_in_epoch=steps, cur_epoch_num=initial_epoch,
            cur_step_num=initial_epoch * steps, train_dataset=dataset,
            dataset_sink_mode=bool(sink_mode), net_outputs=None, mode="train",
            parallel_mode=get_auto_parallel_context("parallel_mode"),
            device_number=get_auto_parallel_context("device_num"), list_callback=[],
            train_dataset_element=None, eval_results={}, metrics=None,
            eval_network=self._eval_network, last_save_ckpt_step=None, latest_ckpt_file=None)

    # -- evaluation and prediction ------------------------------------------------------------
    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """Run the evaluation network over `valid_dataset`: {metric name: value}."""
        if not self._metric_fns:
            raise ValueError("Model.eval: give `metrics` to the Model to evaluate")
        if self._eval_network is None:
            raise ValueError("Model.eval: needs `loss_fn` or `eval_network`")
        for metric in self._metric_fns.values():
            metric.clear()
        cb_params = CallbackParams(eval_network=self._eval_network, valid_dataset=valid_dataset,
                                   batch_num=valid_dataset.get_dataset_size(), cur_step_num=0,
                                   cur_epoch_num=1, epoch_num=1, mode="eval", net_outputs=None,
                                   metrics=None, dataset_sink_mode=False,
                                   list_callback=CallbackManager(callbacks).callbacks)
        run_context = RunContext(cb_params)
        with CallbackManager(callbacks) as cbs:
            return self._eval_loop(valid_dataset, cbs, cb_params, run_context)

    def _eval_loop(self, valid_dataset, cbs, cb_params, run_context):
        was_training = self._network.training  # an evaluation inside train() returns to it
        self._eval_network.set_train(False)
        cbs.on_eval_begin(run_context)
        cbs.on_eval_epoch_begin(run_context)
        for batch in valid_dataset.create_tuple_iterator(num_epochs=1):
            cb_params.cur_step_num += 1
            cbs.on_eval_step_begin(run_context)
            outputs = self._eval_network(*batch)
            cb_params.net_outputs = outputs
            self._update_metrics(outputs)
            cbs.on_eval_step_end(run_context)
        valid_dataset.reset()  # as MindSpore's Model, after the evaluation's epoch
        results = {name: metric.eval() for name, metric in self._metric_fns.items()}
        cb_params.metrics = results
        cbs.on_eval_epoch_end(run_context)
        cbs.on_eval_end(run_context)
        self._network.set_train(was_training)
        return results

    def _update_metrics(self, outputs):
        outputs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
        for metric in self._metric_fns.values():
            if metric.indexes is not None or self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(*(outputs[i] for i in self._eval_indexes[1:]))

    def predict(self, *predict_data, backend=None, config=None):
        """The network's outputs on `predict_data`, in inference mode. `backend` is None or
        'lite' (MindSpore Lite, with its `config`); without MindSpore Lite MindSpore falls back
        to the ordinary inference with a warning, and so does cellgraph, which has no Lite."""
        if backend not in ("lite", None):
            raise ValueError(f"For Model.predict, `backend` should be 'lite' or None, but got "
                             f"{backend}")
        if backend == "lite":
            import warnings

            warnings.warn("Model.predict: MindSpore Lite is not available, fallback to original "
                          "inference!", stacklevel=2)
        self._predict_network.set_train(False)
        return self._predict_network(*predict_data)


def _due(epoch: int, frequency, last: int) -> bool:
    if isinstance(frequency, (list, tuple)):
        return epoch in frequency
    return epoch % frequency == 0 or epoch == last


class _Batches:
    """Batches of a dataset, epoch by epoch or (for sink mode) across epochs."""

    def __init__(self, dataset):
        self.iterator = dataset.create_tuple_iterator(num_epochs=-1)
        self._stream = None

    def epoch(self):
        return iter(self.iterator)

    def end_read_epoch(self):
        """Take the end of an epoch whose rows have all been read (a resumed run whose
        checkpoint was written after an epoch's last step), so the next epoch starts afresh."""
        if self.iterator.position["rows"] and next(self.iterator, None) is not None:
            raise RuntimeError("Model.train: resuming after an epoch's last step, the dataset "
                               "gave another row; it must give the same rows as before the "
                               "restart")

    def take(self, count: int):
        for _ in range(count):
            if self._stream is None:
                self._stream = iter(self.iterator)
            try:
                batch = next(self._stream)
            except StopIteration:
                self._stream = iter(self.iterator)
                batch = next(self._stream, None)
                if batch is None:  # the dataset gives no more rows: the sink ends here
                    return
            yield batch

    def stop(self):
        self.iterator.stop()


def _configure_parallel(network, train_network) -> None:
    """A network wrapped in parallel.AutoParallel: the training cells Model built around it
    all-reduce their gradients as its configuration says."""
    from cellgraph.parallel.auto_parallel import AutoParallel, training_cells

    if isinstance(network, AutoParallel) and not network._configured:
        network.configure([cell for cell in training_cells(train_network)
                           if cell not in training_cells(network.network)])
