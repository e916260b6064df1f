"""cellgraph.amp: mixed precision (auto_mixed_precision), loss scaling and overflow checks."""
from cellgraph.train.loss_scale_manager import (
    DynamicLossScaleManager,
    FixedLossScaleManager,
    LossScaleManager,
)

from .build import build_train_network
from .loss_scaler import (
    DynamicLossScaler,
    LossScaler,
    StaticLossScaler,
    _grad_scale_map,  # noqa: F401  (MindSpore's helpers that LossScaler subclasses import)
    _grad_unscale_map,  # noqa: F401
    all_finite,
)
from .precision import (
    auto_mixed_precision,
    custom_mixed_precision,
    get_black_list,
    get_white_list,
)

__all__ = [
    "DynamicLossScaleManager",
    "DynamicLossScaler",
    "FixedLossScaleManager",
    "LossScaleManager",
    "LossScaler",
    "StaticLossScaler",
    "all_finite",
    "auto_mixed_precision",
    "build_train_network",
    "custom_mixed_precision",
    "get_black_list",
    "get_white_list",
]
