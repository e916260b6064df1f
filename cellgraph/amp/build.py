"""build_train_network: a network, a loss and an optimizer made into one training-step Cell,
with the mixed-precision level's casts and loss scaling (MindSpore's `amp.build_train_network`,
which `Model` uses)."""
from __future__ import annotations

from cellgraph import nn
from cellgraph.ops.function.other_func import mixed_precision_cast
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, UnsupportedError
from cellgraph.train.loss_scale_manager import DynamicLossScaleManager

from .precision import LEVELS, auto_mixed_precision, black_list_to, get_black_list

__all__ = ["build_train_network"]

_KWARGS = ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager")


def level_config(level: str) -> dict:
    """MindSpore's defaults per level: the dtype the model runs in, whether normalisation
    stays float32, and the loss-scale manager ("O2" scales dynamically)."""
    return {
        "O0": {"keep_batchnorm_fp32": False, "cast_model_type": dt.float32,
               "loss_scale_manager": None},
        "O1": {"keep_batchnorm_fp32": False, "cast_model_type": dt.float32,
               "loss_scale_manager": None},
        "O2": {"keep_batchnorm_fp32": True, "cast_model_type": dt.float16,
               "loss_scale_manager": DynamicLossScaleManager()},
        "O3": {"keep_batchnorm_fp32": False, "cast_model_type": dt.float16,
               "loss_scale_manager": None},
        "auto": {"keep_batchnorm_fp32": False, "cast_model_type": dt.float32,
                 "loss_scale_manager": None},
    }[level]


def _configured(level: str, kwargs: dict) -> dict:
    if level not in LEVELS:
        raise ArgumentValueError(f"build_train_network: the amp level {level!r} is not "
                                 f"supported; expected one of {', '.join(LEVELS)}")
    unknown = sorted(set(kwargs) - set(_KWARGS))
    if unknown:
        raise ArgumentValueError(f"build_train_network: unsupported keyword(s) "
                                 f"{', '.join(unknown)}; expected {', '.join(_KWARGS)}")
    config = level_config(level)
    config.update(kwargs)
    return config


def cast_network(network, level: str, config: dict):
    """The network with the level's precision: "O1" by the white list; otherwise float16 when
    `cast_model_type` asks for it, normalisation kept float32 if `keep_batchnorm_fp32`. As in
    MindSpore, a float16 network's own outputs stay float16 (the loss cell casts them): the
    network a user goes on to call for prediction returns what it computes."""
    low = config["cast_model_type"]
    if level in ("O1", "auto"):
        return auto_mixed_precision(network, "O1")
    if dt.as_dtype(low) == dt.float32:
        return network
    if config["keep_batchnorm_fp32"]:
        black_list_to(network, get_black_list(), low)
    else:
        network.to_float(low)
    return network


class _CastWithLossCell(nn.Cell):
    """loss_fn(backbone(data), label) with the outputs and the label cast to float32 first:
    the loss cell of a network that runs in float16."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = self._backbone(data)
        label = mixed_precision_cast(dt.float32, label)
        return self._loss_fn(mixed_precision_cast(dt.float32, out), label)


def with_loss(network, loss_fn, cast_model_type):
    """The loss cell: outputs cast to float32 for a float16 network (by cast_model_type or an
    auto_mixed_precision level that lowers it)."""
    if (dt.as_dtype(cast_model_type) in (dt.float16, dt.bfloat16)
            or getattr(network, "_amp_level", None) in ("O2", "O3", "auto")):
        return _CastWithLossCell(network, loss_fn)
    return nn.WithLossCell(network, loss_fn)


def train_step_cell(network, optimizer, loss_scale_manager):
    """TrainOneStepCell, or TrainOneStepWithLossScaleCell when the manager drops updates on
    overflow."""
    if loss_scale_manager is None:
        return nn.TrainOneStepCell(network, optimizer)
    update_cell = loss_scale_manager.get_update_cell()
    if loss_scale_manager.get_drop_overflow_update():
        return nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell)
    return nn.TrainOneStepCell(network, optimizer, sens=loss_scale_manager.get_loss_scale())


def check_boost_level(boost_level, api: str) -> None:
    """MindSpore's boost levels O1/O2 change the training algorithm (gradient freezing,
    adaptive summation, ...), which is not done here: only "O0" (no boost) is accepted."""
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"{api}: `boost_level` must be 'O0', 'O1' or 'O2', got "
                         f"{boost_level!r}")
    if boost_level != "O0":
        raise UnsupportedError(f"{api}: boost_level={boost_level!r} is not supported (it "
                               f"changes the training algorithm); use 'O0'")


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0",
                        **kwargs):
    """One Cell that runs a training step of `network` (with `loss_fn`) and `optimizer` at the
    mixed-precision `level`; keyword arguments override the level's cast_model_type,
    keep_batchnorm_fp32 and loss_scale_manager."""
    check_boost_level(boost_level, "build_train_network")
    config = _configured(level, kwargs)
    network = cast_network(network, level, config)
    if loss_fn is not None:
        network = with_loss(network, loss_fn, config["cast_model_type"])
    step = train_step_cell(network, optimizer, config["loss_scale_manager"])
    return step.set_train()
