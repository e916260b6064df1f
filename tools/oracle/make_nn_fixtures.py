"""Record MindSpore's outputs of nn layers and losses on small inputs, as the fixture
tests/data/nn_mindspore.json that tests/cellgraph/test_nn_against_mindspore.py replays on
cellgraph (run with a Python that has MindSpore 2.10):

    python tools/oracle/make_nn_fixtures.py [OUT]

Each case names an nn class, its constructor arguments and its inputs (arrays drawn from a
seeded NumPy generator, or given); the fixture keeps the inputs and MindSpore's outputs (values,
dtype), or the exception type where MindSpore raises.
"""
import json
import sys

import mindspore as ms
import numpy as np
from mindspore import nn

RNG = np.random.default_rng(0)


def randn(*shape, dtype="float32"):
    return {"values": RNG.standard_normal(shape).astype(dtype).tolist(), "dtype": dtype}


def given(values, dtype="float32"):
    return {"values": np.asarray(values, dtype).tolist(), "dtype": dtype}


X1, X2, X3 = randn(2, 3, 7), randn(1, 2, 5, 6), randn(1, 2, 4, 5, 5)
SIGNS = given([[1, -1, 0, 1], [-1, -1, 1, 0]])

# (case name, nn class, positional args, keyword args, inputs)
CASES = [
    ("maxpool2d_ceil_indices", "MaxPool2d", [3, 2], {"pad_mode": "pad", "padding": 1,
                                                         "return_indices": True, "ceil_mode": True}, [X2]),
    ("maxpool2d_dilation", "MaxPool2d", [2, 1], {"pad_mode": "pad", "padding": (1, 0), "dilation": 2}, [X2]),
    ("maxpool1d_ceil_indices", "MaxPool1d", [2, 2], {"pad_mode": "pad", "padding": 1,
                                                         "return_indices": True, "ceil_mode": True}, [X1]),
    ("maxpool1d_unbatched", "MaxPool1d", [3, 2], {}, [randn(3, 8)]),
    ("maxpool3d_dilation_indices", "MaxPool3d", [2, 1], {"pad_mode": "pad", "padding": 1, "dilation": 2,
                                                             "return_indices": True}, [X3]),
    ("maxpool3d_ceil", "MaxPool3d", [2, 2], {"pad_mode": "pad", "padding": 0, "ceil_mode": True}, [X3]),
    ("maxpool3d_unbatched", "MaxPool3d", [2, 2], {}, [randn(2, 4, 4, 4)]),
    ("maxpool2d_ceil_needs_pad_mode", "MaxPool2d", [2, 2], {"ceil_mode": True}, [X2]),
    ("avgpool2d_ceil", "AvgPool2d", [3, 2], {"pad_mode": "pad", "padding": 1, "ceil_mode": True}, [X2]),
    ("avgpool2d_ceil_exclude_pad", "AvgPool2d", [3, 2], {"pad_mode": "pad", "padding": 1, "ceil_mode": True,
                                                             "count_include_pad": False}, [X2]),
    ("avgpool2d_divisor", "AvgPool2d", [4, 1], {"pad_mode": "pad", "padding": 2, "divisor_override": 5}, [X2]),
    ("avgpool1d_ceil", "AvgPool1d", [4, 2], {"pad_mode": "pad", "padding": 2, "ceil_mode": True}, [X1]),
    ("avgpool1d_ceil_exclude_pad", "AvgPool1d", [3, 2], {"ceil_mode": True, "count_include_pad": False,
                                                             "pad_mode": "pad", "padding": 1}, [X1]),
    ("avgpool3d_divisor", "AvgPool3d", [3, 2], {"pad_mode": "pad", "padding": (1, 1, 0),
                                                    "divisor_override": 10}, [X3]),
    ("avgpool3d_ceil_exclude_pad", "AvgPool3d", [2, 2], {"pad_mode": "pad", "padding": 1, "ceil_mode": True,
                                                             "count_include_pad": False}, [X3]),
    ("hinge_embedding_mean", "HingeEmbeddingLoss", [], {}, [randn(2, 4), SIGNS]),
    ("hinge_embedding_sum", "HingeEmbeddingLoss", [], {"margin": 0.5, "reduction": "sum"},
     [randn(2, 4), SIGNS]),
    ("hinge_embedding_none_broadcast", "HingeEmbeddingLoss", [], {"margin": 2, "reduction": "none"},
     [randn(3, 2, 4), SIGNS]),
    ("hinge_embedding_int_labels", "HingeEmbeddingLoss", [], {},
     [randn(2, 4), given([[1, -1, 0, 1], [-1, -1, 1, 0]], "int32")]),
    ("adaptive_maxpool1d_not_a_multiple", "AdaptiveMaxPool1d", [3], {}, [X1]),
    ("adaptive_maxpool1d", "AdaptiveMaxPool1d", [4], {}, [randn(2, 3, 8)]),
    ("adaptive_maxpool2d_indices", "AdaptiveMaxPool2d", [(3, 4)], {"return_indices": True}, [X2]),
    ("adaptive_maxpool2d_none", "AdaptiveMaxPool2d", [(None, 4)], {}, [randn(2, 5, 7)]),
    ("adaptive_maxpool3d_indices", "AdaptiveMaxPool3d", [(2, 3, 2)], {"return_indices": True}, [X3]),
    ("max_unpool1d", "MaxUnpool1d", [2], {"stride": 2},
     [given([[[2, 4, 6, 8]]]), given([[[1, 3, 5, 7]]], "int64")]),
    ("max_unpool1d_padding", "MaxUnpool1d", [3], {"stride": 2, "padding": 1},
     [given([[2, 4, 6]]), given([[0, 2, 4]], "int32")]),
    ("max_unpool2d", "MaxUnpool2d", [2], {"stride": 2},
     [given([[[[1, 2], [3, 4]]]]), given([[[[0, 3], [9, 14]]]], "int64")]),
    ("max_unpool3d", "MaxUnpool3d", [2], {},
     [given([[[[[1, 2]]]]]), given([[[[[5, 2]]]]], "int64")]),
    ("reflection_pad3d", "ReflectionPad3d", [(1, 1, 1, 0, 0, 1)], {}, [randn(1, 2, 2, 2)]),
    ("replication_pad1d", "ReplicationPad1d", [(2, 1)], {}, [randn(2, 3, 4)]),
    ("replication_pad2d", "ReplicationPad2d", [(1, 0, 2, 1)], {}, [randn(1, 2, 3, 3)]),
    ("replication_pad3d", "ReplicationPad3d", [1], {}, [randn(1, 2, 2, 2, 2)]),
    ("softmin", "Softmin", [], {"axis": 0}, [randn(3, 4)]),
    ("softmax2d", "Softmax2d", [], {}, [randn(2, 3, 2, 2)]),
    ("softmax2d_rank2", "Softmax2d", [], {}, [randn(3, 4)]),
    ("softshrink", "SoftShrink", [0.3], {}, [randn(3, 4)]),
    ("hshrink", "HShrink", [], {}, [randn(3, 4)]),
    ("threshold", "Threshold", [0.1, 20.0], {}, [randn(3, 4)]),
    ("glu", "GLU", [0], {}, [randn(4, 3)]),
    ("natural_exp_decay_lr_stair", "NaturalExpDecayLR", [0.1, 0.9, 4, True], {},
     [given(7, "int32")]),
    ("natural_exp_decay_lr", "NaturalExpDecayLR", [0.1, 0.05, 4], {}, [given(7, "int32")]),
    ("inverse_decay_lr", "InverseDecayLR", [0.1, 0.5, 2], {}, [given(7, "int32")]),
    ("inverse_decay_lr_stair", "InverseDecayLR", [0.1, 0.5, 2, True], {}, [given(7, "int32")]),
    ("poisson_nll", "PoissonNLLLoss", [], {}, [randn(3, 4), given(np.arange(12).reshape(3, 4) % 4)]),
    ("poisson_nll_full_linear", "PoissonNLLLoss", [], {"log_input": False, "full": True,
                                                      "reduction": "none"},
     [given(np.linspace(0.1, 3, 12).reshape(3, 4)), given(np.arange(12).reshape(3, 4) % 4)]),
    ("focal_indices", "FocalLoss", [], {"gamma": 2.0},
     [randn(3, 4), given([[1], [0], [3]], "int32")]),
    ("focal_weight_spatial", "FocalLoss", [], {"weight": [0.5, 1.0, 2.0], "reduction": "none"},
     [randn(2, 3, 2, 2), given(RNG.integers(0, 3, (2, 1, 2, 2)), "int32")]),
    ("focal_one_hot", "FocalLoss", [], {"gamma": 1.0, "reduction": "sum"},
     [randn(2, 3), given(np.eye(3)[[2, 0]])]),
    ("multi_class_dice", "MultiClassDiceLoss", [], {},
     [randn(3, 4), given(np.eye(4)[[1, 0, 3]])]),
    ("multi_class_dice_weights_ignore", "MultiClassDiceLoss", [],
     {"weights": [[0.2, 0.3, 0.5]], "ignore_indiex": 1, "activation": "sigmoid"},
     [randn(2, 3, 2), given(np.ones((2, 3, 2)))]),
    ("multi_class_dice_column_weights", "MultiClassDiceLoss", [],
     {"weights": [[0.2], [0.3], [0.5]], "ignore_indiex": 1, "activation": "sigmoid"},
     [randn(2, 3, 2), given(np.ones((2, 3, 2)))]),
    ("multi_margin", "MultiMarginLoss", [], {},
     [randn(3, 4), given([1, 0, 3], "int64")]),
    ("multi_margin_p2_weight", "MultiMarginLoss", [], {"p": 2, "margin": 0.5, "reduction": "none",
                                                      "weight": [1.0, 2.0, 0.5, 1.5]},
     [randn(3, 4), given([1, 0, 3], "int64")]),
    ("unflatten", "Unflatten", [1, (2, 3)], {}, [randn(2, 6, 2)]),
    ("unflatten_last", "Unflatten", [-1, [2, 2]], {}, [randn(3, 4)]),
    ("l1_regularizer", "L1Regularizer", [0.5], {}, [randn(3, 4)]),
    ("central_crop", "CentralCrop", [0.5], {}, [randn(2, 3, 7, 6)]),
    ("central_crop_3d", "CentralCrop", [0.3], {}, [randn(3, 10, 5)]),
    ("range_int", "Range", [1, 10, 3], {}, []),
    ("range_float", "Range", [0.5, 3.0, 0.75], {}, []),
    ("moments", "Moments", [], {}, [randn(2, 3, 4)]),
    ("moments_axis_keep", "Moments", [], {"axis": (0, 2), "keep_dims": True}, [randn(2, 3, 4)]),
    ("moments_float16", "Moments", [1], {}, [randn(2, 3, dtype="float16")]),
    ("lgamma", "LGamma", [], {}, [given([0.5, 3.0, 2.5, 7.0, 0.1])]),
    ("digamma", "DiGamma", [], {}, [given([0.5, 1.0, 2.5, 7.0, 0.1])]),
    ("fractional_maxpool2d", "FractionalMaxPool2d", [(2, 3)],
     {"output_size": (3, 4), "return_indices": True,
      "_random_samples": [[[0.3, 0.8]], [[0.6, 0.1]]]}, [randn(2, 1, 7, 9)]),
    ("fractional_maxpool2d_ratio", "FractionalMaxPool2d", [2],
     {"output_ratio": (0.5, 0.5), "_random_samples": [[[0.2, 0.7], [0.9, 0.4]]]},
     [randn(1, 2, 8, 6)]),
    ("fractional_maxpool3d", "FractionalMaxPool3d", [(2, 2, 1)],
     {"output_size": (2, 3, 3), "return_indices": True,
      "_random_samples": [[[0.3, 0.8, 0.5]], [[0.6, 0.1, 0.9]]]}, [randn(2, 1, 5, 6, 7)]),
    ("adaptive_avgpool3d", "AdaptiveAvgPool3d", [(2, 4, 3)], {}, [randn(2, 2, 5, 6, 7)]),
    ("adaptive_avgpool3d_none", "AdaptiveAvgPool3d", [(None, 3, 5)], {}, [randn(2, 5, 6, 7)]),
    ("triplet_distance", "TripletMarginWithDistanceLoss", [], {},
     [randn(4, 5), randn(4, 5), randn(4, 5)]),
    ("triplet_distance_swap", "TripletMarginWithDistanceLoss", [],
     {"swap": True, "reduction": "none", "margin": 2.0}, [randn(4, 5), randn(4, 5), randn(4, 5)]),
]


TENSOR_KWARGS = ("weight", "weights", "_random_samples")  # lists: float32 Tensors


def tensor_kwargs(kwargs, tensor):
    return {k: tensor(np.array(v, np.float32)) if k in TENSOR_KWARGS else v
            for k, v in kwargs.items()}


def run(name, cls, args, kwargs, inputs):
    case = {"name": name, "cls": cls, "args": args, "kwargs": kwargs, "inputs": inputs}
    try:
        cell = getattr(nn, cls)(*args, **tensor_kwargs(kwargs, ms.Tensor))
        out = cell(*(ms.Tensor(np.array(i["values"], i["dtype"])) for i in inputs))
        outs = out if isinstance(out, tuple) else (out,)
        case["outputs"] = [{"values": o.asnumpy().tolist(), "dtype": str(o.dtype).lower(),
                            "shape": list(o.shape)} for o in outs]
        case["tuple"] = isinstance(out, tuple)
    except Exception as exc:  # noqa: BLE001 -- recorded: the test expects the same type
        case["raises"] = type(exc).__name__
    return case


# Optimizers: (case name, nn class, keyword args, initial parameters, one gradient list per
# step); the fixture keeps the parameters and the optimizer's state Parameters after the steps.
W = [[0.5, -1.0, 2.0], [[0.3, -0.7], [1.2, 0.05]]]
GRADS = [[[0.3, -0.2, 0.1], [[0.1, 0.2], [-0.3, 0.4]]],
         [[0.1, 0.4, -0.5], [[-0.2, 0.1], [0.05, -0.6]]],
         [[-0.3, 0.2, 0.2], [[0.3, -0.1], [0.2, 0.2]]]]
OPTIM_CASES = [
    ("ftrl", "FTRL", {"learning_rate": 0.1, "l2": 0.1}, W, GRADS),
    ("ftrl_power", "FTRL", {"learning_rate": 0.05, "lr_power": -0.3, "initial_accum": 0.5},
     W, GRADS),
    ("proximal_adagrad", "ProximalAdagrad", {"learning_rate": 0.1, "l1": 0.01, "l2": 0.1},
     W, GRADS),
    ("proximal_adagrad_plain", "ProximalAdagrad", {"accum": 0.3}, W, GRADS),
    ("adamax", "AdaMax", {"learning_rate": 0.01}, W, GRADS),
    ("adamax_betas", "AdaMax", {"beta1": 0.5, "beta2": 0.8, "eps": 1e-3}, W, GRADS),
    ("lazy_adam", "LazyAdam", {"learning_rate": 0.01}, W, GRADS),
    ("lazy_adam_nesterov", "LazyAdam", {"use_nesterov": True, "weight_decay": 0.1}, W, GRADS),
    ("rprop", "Rprop", {}, W, GRADS),
    ("rprop_bounds", "Rprop", {"learning_rate": 0.01, "etas": (0.3, 1.5),
                               "step_sizes": (0.005, 0.02)}, W, GRADS),
]


def run_optimizer(name, cls, kwargs, initial, steps):
    case = {"name": name, "cls": cls, "kwargs": kwargs, "initial": initial, "steps": steps}
    params = [ms.Parameter(ms.Tensor(np.array(v, np.float32)), name=f"w{i}")
              for i, v in enumerate(initial)]
    opt = getattr(nn, cls)(params, **kwargs)
    for grads in steps:
        opt(tuple(ms.Tensor(np.array(g, np.float32)) for g in grads))
    case["params"] = [p.asnumpy().tolist() for p in params]
    case["state"] = {p.name: p.asnumpy().tolist() for p in opt.get_parameters()
                     if p.name not in ("learning_rate",)}
    return case


def main(out="tests/data/nn_mindspore.json"):
    ms.set_context(mode=ms.GRAPH_MODE)
    cases = [run(*c) for c in CASES]
    optimizers = [run_optimizer(*c) for c in OPTIM_CASES]
    with open(out, "w") as f:
        json.dump({"mindspore": ms.__version__, "cases": cases, "optimizers": optimizers}, f,
                  separators=(",", ":"))
    print(f"{len(cases)} cases ({sum('raises' in c for c in cases)} raising), "
          f"{len(optimizers)} optimizer runs -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
