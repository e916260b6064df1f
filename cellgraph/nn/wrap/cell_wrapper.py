"""Wrappers for training: WithLossCell, WithEvalCell, TrainOneStepCell, ForwardValueAndGrad.

TrainOneStepCell compiles the whole step into one graph: the loss and the gradients come from
one `value_and_grad` node (so the forward pass runs once, and layers with running statistics
update them once), then the optimizer's construct is traced into the same graph, and the
parameter updates it assigns are written back when the graph has run. In DATA_PARALLEL mode
the gradients are all-reduced across the processes (nn.DistributedGradReducer) before the update.
"""
from __future__ import annotations

import numbers

from cellgraph.auto_parallel import get_auto_parallel_context
from cellgraph.autograd import GradOperation, value_and_grad
from cellgraph.common.assign import assign
from cellgraph.ops import functional as F
from cellgraph.ops.operations.comm_ops import _VirtualDataset
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter, ParameterTuple

from ..cell import Cell, StepLock
from ..layer.container import CellList
from ..optim.optimizer import Optimizer
from .grad_reducer import data_parallel_reducer

__all__ = ["ForwardValueAndGrad", "GradAccumulationCell", "MicroBatchInterleaved",
           "ParameterUpdate", "PipelineCell", "TrainOneStepCell", "WithEvalCell", "WithGradCell",
           "WithLossCell"]


def _check_cell(value, op: str, name: str) -> None:
    if not isinstance(value, Cell):
        raise DTypeError(f"{op}: `{name}` must be a Cell, got {type(value).__name__}")


class WithLossCell(Cell):
    """loss_fn(backbone(data), label)."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        _check_cell(backbone, "WithLossCell", "backbone")
        _check_cell(loss_fn, "WithLossCell", "loss_fn")
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self):
        return self._backbone


class WithEvalCell(Cell):
    """(loss, outputs, label) for evaluation."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        _check_cell(network, "WithEvalCell", "network")
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = bool(add_cast_fp32)

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            outputs = F.cast(outputs, dt.float32)
            if label.dtype.is_float:  # MindSpore's mixed_precision_cast leaves integers alone
                label = F.cast(label, dt.float32)
        return self._loss_fn(outputs, label), outputs, label


class TrainOneStepCell(Cell):
    """One training step of `network` (which returns the loss): gradients of the loss (times
    `sens`) with respect to the optimizer's parameters, then the optimizer's update. Returns the
    loss."""

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        _check_cell(network, "TrainOneStepCell", "network")
        if not isinstance(optimizer, Optimizer) and not (
                isinstance(optimizer, Cell) and hasattr(optimizer, "parameters")):
            raise DTypeError(f"TrainOneStepCell: `optimizer` must be an nn.Optimizer (or an "
                             f"optimizer Cell with `parameters`), got "
                             f"{type(optimizer).__name__}")
        if sens is not None and (isinstance(sens, bool) or not isinstance(sens, numbers.Real)):
            raise DTypeError(f"TrainOneStepCell: `sens` must be a number, got {sens!r}")
        self._step_lock = StepLock()  # forward, gradients and update: one step at a time
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.sens = 1.0 if sens is None else float(sens)
        self.return_grad = bool(return_grad)
        self._grad_names = tuple(p.name for p in self.weights)
        self.grad_fn = value_and_grad(network, grad_position=None, weights=self.weights)
        # what subclasses that write their own construct call, as MindSpore's model zoo does:
        # self.grad(self.network, self.weights)(*inputs, sens)
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        # DATA_PARALLEL: the gradients are all-reduced (averaged when gradients_mean)
        self.reducer_flag = get_auto_parallel_context("parallel_mode") in (
            "data_parallel", "hybrid_parallel")
        self.grad_reducer = data_parallel_reducer(self.weights)

    def construct(self, *inputs):
        loss, grads = self.grad_fn(*inputs)
        if self.sens != 1.0:
            grads = tuple(F.mul(g, self.sens) for g in grads)
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        if self.return_grad:   # as MindSpore: {parameter name: gradient}
            named = {}
            for name, grad in zip(self._grad_names, grads):
                named[name] = grad
            return loss, named
        return loss


class ForwardValueAndGrad(Cell):
    """`(network(*inputs), gradients)` in one Cell: gradients as GradOperation(get_all,
    get_by_list, sens_param) gives them (w.r.t. the first input, all inputs, `weights`, or
    inputs and weights); with sens_param the last argument is the output's sensitivity."""

    def __init__(self, network, weights=None, get_all=False, get_by_list=False,
                 sens_param=False):
        super().__init__(auto_prefix=False)
        from cellgraph.autograd import GradOperation

        if get_by_list and weights is None:
            raise ArgumentError("nn.ForwardValueAndGrad: get_by_list=True needs `weights`")
        self.network = network
        self.weights = weights
        self.get_by_list, self.sens_param = bool(get_by_list), bool(sens_param)
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list,
                                  sens_param=sens_param)

    def construct(self, *inputs):
        forward_inputs = inputs[:-1] if self.sens_param else inputs
        loss = self.network(*forward_inputs)
        if self.get_by_list:
            grads = self.grad(self.network, self.weights)(*inputs)
        else:
            grads = self.grad(self.network)(*inputs)
        return loss, grads


class WithGradCell(Cell):
    """The gradients of `network` (followed by `loss_fn` on the label, when given) with
    respect to its trainable parameters; `sens`, when given, is the loss's sensitivity."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        _check_cell(network, "WithGradCell", "network")
        self.network, self.loss_fn, self.sens = network, loss_fn, sens
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = GradOperation(get_by_list=True, sens_param=sens is not None)
        self.network_with_loss = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs):
        if self.sens is None:
            return self.grad(self.network_with_loss, self.weights)(*inputs)
        return self.grad(self.network_with_loss, self.weights)(*inputs, self.sens)


class ParameterUpdate(Cell):
    """Assigns its input to `param` and returns the input."""

    def __init__(self, param):
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise DTypeError(f"ParameterUpdate: `param` must be a Parameter, got "
                             f"{type(param).__name__}")
        self._param = param

    def construct(self, x):
        assign(self._param, x)
        return x


class _VirtualDatasetCell(Cell):
    """`backbone` with its inputs marked as the dataset's (ops' _VirtualDataset), which
    MindSpore's auto-parallel pass splits by the dataset strategy; cellgraph's processes read
    the whole batch, so `backbone` sees its inputs unchanged."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        _check_cell(backbone, "_VirtualDatasetCell", "backbone")
        self._backbone = backbone
        self._virtual_dataset = _VirtualDataset()

    def construct(self, *inputs):
        output = self._virtual_dataset(*inputs)
        return self._backbone(*output)


def _micro_batch(inputs, i: int, count: int) -> tuple:
    """Slice i of `count` equal slices along the first axis of each Tensor input (MindSpore's
    _MicroBatch); other inputs pass through."""
    out = ()
    for value in inputs:
        if not getattr(value, "shape", None):
            out += (value,)
            continue
        rows = value.shape[0]
        if rows % count:
            raise ArgumentValueError(f"For micro batch initialization, the 0th dimension shape "
                                     f"of input({rows}) must be divided by micro size({count})")
        step = rows // count
        out += (value[i * step:(i + 1) * step],)
    return out


def _positive_count(value, op: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DTypeError(f"For '{op}', the argument '{name}' must be integer, but got the type "
                         f": {type(value)}.")
    if value <= 0:
        raise ArgumentValueError(f"For '{op}', the argument '{name}' must be large than 0, but "
                                 f"got {value}.")
    return value


def _named_cells(cell, prefix=""):
    """(dotted attribute path, Cell) of every Cell below `cell`, as MindSpore names them in its
    configs (every attribute name counts, also under wrappers that keep inner parameter
    names)."""
    for name, child in cell._children():
        path = f"{prefix}.{name}" if prefix else name
        yield path, child
        yield from _named_cells(child, path)


class _MicroBatch(Cell):
    """Slice i of `micro_size` equal slices of the batch: MindSpore's _MicroBatch, one a
    micro-batch in the wrappers below."""

    def __init__(self, micro_size):
        super().__init__()
        self.micro_size = micro_size

    def construct(self, i, *inputs):
        return _micro_batch(inputs, i, self.micro_size)


class _MicroBatchSum(Cell):
    """`network` run on each of `count` slices of the batch (first axis of every input), the
    outputs summed: the forward of gradient accumulation over micro-batches. The slicing Cells
    sit in a CellList named `inputs_name`, as MindSpore's wrappers hold them."""

    def __init__(self, network, count: int, op: str, name: str, inputs_name: str):
        super().__init__(auto_prefix=False)
        _check_cell(network, op, "network")
        self.network = network
        self._count = _positive_count(count, op, name)
        self._inputs_name = inputs_name
        setattr(self, inputs_name, CellList([_MicroBatch(self._count)
                                             for _ in range(self._count)]))

    def construct(self, *inputs):
        slicers = getattr(self, self._inputs_name)
        total = None
        for i in range(self._count):
            output = self.network(*slicers[i](i, *inputs))
            total = output if total is None else total + output
        return total


class GradAccumulationCell(_MicroBatchSum):
    """The sum of `network` over `micro_size` micro-batches of the inputs, so that one step
    accumulates their gradients (MindSpore's GradAccumulationCell)."""

    def __init__(self, network, micro_size):
        super().__init__(network, micro_size, "GradAccumulationCell", "micro_size",
                         "micro_inputs")
        self.micro_size = micro_size


class MicroBatchInterleaved(_MicroBatchSum):
    """The sum of `network` over `interleave_num` slices of the batch (MindSpore runs the
    slices interleaved to overlap communication; the result is the same)."""

    def __init__(self, network, interleave_num=2):
        super().__init__(network, interleave_num, "MicroBatchInterleaved", "interleave_num",
                         "interleave_inputs")
        self.interleave_num = interleave_num


class PipelineCell(_MicroBatchSum):
    """The sum of `network` over `micro_size` micro-batches, as MindSpore's pipeline wrapper
    computes it; `stage_config` / `segment_config` ({cell name: number}) set the named
    sub-Cells' `pipeline_stage` / `pipeline_segment`, MindSpore's annotations for a pipeline
    across devices (pipeline stages are not provided here: `pipeline_stages` above 1 is
    refused by set_auto_parallel_context)."""

    def __init__(self, network, micro_size, stage_config=None, segment_config=None):
        super().__init__(network, micro_size, "PipelineCell", "micro_size", "micro_inputs")
        self.micro_size = micro_size
        for config, attribute in ((stage_config, "pipeline_stage"),
                                  (segment_config, "pipeline_segment")):
            if config is None:
                continue
            pending = dict(config)
            for name, cell in _named_cells(network):
                if name in pending:
                    setattr(cell, attribute, pending.pop(name))
            if pending:
                raise KeyError(f"For 'PipelineCell', the argument '{attribute.replace('pipeline_', '')}"
                               f"_config' : {pending} is not found in 'network' : {network}")
