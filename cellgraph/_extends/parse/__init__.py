"""`mindspore._extends.parse`: `compile_config`, MindSpore's switches for its graph compiler.

Every switch MindSpore 2.10 has is here, with MindSpore's default (the empty string: "not set"),
so that programs and tests that save, set and restore one run unchanged. cellgraph reads none
of them: its compiler has one behaviour where MindSpore's has a switch. The ones programs set
most often, and what cellgraph does in their place:

* `CHECK_BPROP`: a Cell's `bprop` must return one gradient per input with the input's shape
  and dtype; cellgraph always checks it.
* `FALLBACK_SUPPORT_LIST_DICT_INPLACE`: lists and dicts in construct are Python's, changed in
  place by `append`, `extend`, item assignment and the rest, always.
* `GRAD_FOR_SCALAR`: gradients are given for Tensor inputs only, as MindSpore's default.
* `FOR_HALF_UNROLL`, `RECURSIVE_EVAL`, `PRE_LIFT`, `BOOST_PARSE` and the others choose how
  MindSpore's compiler works, not what a program computes.
"""
from __future__ import annotations

import types

# the names of MindSpore 2.10's compile_config, each a string ("" unless set)
_SWITCHES = (
    "AMP_ENABLE_ALL_FG", "AUTO_PASSES_OPTIMIZE_PATH", "BOOST_PARSE", "CHECK_BPROP",
    "CHECK_PASS_NODE_SCOPE", "COMBINE_LIKE_GRAPHS", "COMPILE_DEBUG_MODE", "COMPILE_PRINT",
    "COMPILE_PROFILE", "COMPILE_PROFILE_FINISH_ACTION", "DDE_ONLY_MARK", "DEBUG_LEVEL",
    "DUMP_IR_CONFIG", "DUMP_IR_DDE_DETAIL", "DUMP_IR_META_DSL", "DUMP_VALIDATE_BEFORE_RESET_ID",
    "ENABLE_DDE", "ENABLE_ELIMINATE_UNUSED_PARAMS", "ENABLE_FIX_CODE_LINE",
    "ENABLE_HYPER_OFFLOAD_SLIDE", "ENABLE_RECOMPUTE_BEFORE_INLINE", "FALLBACK_FORCE_ANY",
    "FALLBACK_SUPPORT_LIST_DICT_INPLACE", "FOR_HALF_UNROLL", "GRAD_FOR_SCALAR",
    "GRAD_JIT_FILTER", "GREED_PARSE", "HYPER_OFFLOAD_D2H_BANDWIDTH_GBPS",
    "HYPER_OFFLOAD_DEFAULT_KERNEL_TIME_US", "HYPER_OFFLOAD_DYNAMIC_SHAPE_PLACEHOLDER_BYTES",
    "HYPER_OFFLOAD_H2D_BANDWIDTH_GBPS", "HYPER_OFFLOAD_MAX_DEVICE_MEMORY",
    "HYPER_OFFLOAD_MEMORY_BLOCK_PATH", "HYPER_OFFLOAD_PEAK_MODELED_HEADROOM_BYTES",
    "HYPER_OFFLOAD_PREFETCH_DISTANCE", "HYPER_OFFLOAD_RELEASE_DISTANCE",
    "HYPER_OFFLOAD_SCORE_WEIGHT_COVER_END", "HYPER_OFFLOAD_SCORE_WEIGHT_COVER_START",
    "HYPER_OFFLOAD_SCORE_WEIGHT_NEIGHBOR_IMPACT", "HYPER_OFFLOAD_SCORE_WEIGHT_SIZE",
    "HYPER_OFFLOAD_SELECT_DISTANCE", "HYPER_OFFLOAD_SELECT_NUM", "IF_PARALLEL_CALL",
    "JIT_ENABLE_AUGASSIGN_INPLACE", "JIT_ENABLE_AUGASSIGN_INPLACE_FALLBACK",
    "MS_DEV_HYPER_OFFLOAD_ENABLE_ADAPTIVE_PREFETCH_DISTANCE",
    "MS_DEV_HYPER_OFFLOAD_ENABLE_ADAPTIVE_RELEASE_DISTANCE", "NOT_WAIT_BRANCH_EVAL",
    "PIJIT_SUBGRAPH_BREAK_OPTIMIZE", "PRE_LIFT", "PUT_ALL_CNODE_INTO_ORDER_LIST",
    "RECORD_MEMORY", "RECURSIVE_EVAL", "SINGLE_EVAL", "STRICT_CHECK_PARENT_CONTEXT",
    "TRACE_LABEL_WITH_UNIQUE_ID", "TRAVERSE_SUBSTITUTIONS_MODE",
)

compile_config = types.SimpleNamespace(**dict.fromkeys(_SWITCHES, ""))
