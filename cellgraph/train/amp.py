"""`mindspore.train.amp`: MindSpore's home module of mixed precision, the lists that level
"auto" reads and `build_train_network` (the same objects as `cellgraph.amp`'s)."""
from cellgraph.amp.build import build_train_network
from cellgraph.amp.precision import (
    AMP_AUTO_BLACK_LIST,
    AMP_AUTO_WHITE_LIST,
    AMP_PRIM_ARG_TABLE,
    auto_mixed_precision,
    custom_mixed_precision,
    get_black_list,
    get_white_list,
)

__all__ = ["AMP_AUTO_BLACK_LIST", "AMP_AUTO_WHITE_LIST", "AMP_PRIM_ARG_TABLE",
           "auto_mixed_precision", "build_train_network", "custom_mixed_precision",
           "get_black_list", "get_white_list"]
