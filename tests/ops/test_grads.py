"""Every differentiable primitive: derivatives against finite differences at orders 1 and 2.

CASES is keyed by primitive name; each entry lists calls of the primitive (operands inside its
domain, canonical params) that `check_grads` differentiates in float64. A primitive without an
entry here is checked on its kernel cases (tests/ops/kernel_cases*.py) whose operands are all
floats, in float64; one with neither fails `test_every_differentiable_primitive_has_a_case`,
so a new primitive cannot land without its gradient being checked.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from cellgraph.primitives.array_ops import Slice
from cellgraph.primitives.core import PRIMITIVES
from cellgraph.testing import check_grads

from .test_kernels import CASES as KERNEL_CASES

# Primitives whose params hold graphs: differentiated through their own tests
# (tests/compiler/test_autodiff.py, the control-flow tests, tests/cellgraph/test_custom_bprop.py).
STRUCTURAL = {name for name, p in PRIMITIVES.items() if p.structural}
# Differentiable on purpose with a zero gradient: finite differences cannot agree with it.
# (assigned_read, a Parameter read after its assignment, gives its gradient to the Parameter,
# not to the value it returns, as MindSpore's Load after Assign: tests/cellgraph/common/
# test_assign.py checks it.)
ZERO_GRADIENT = {"stop_gradient", "assigned_read"}
# A collective's gradient involves every rank's loss: tests/cellgraph/test_communication.py checks
# them on two processes against central differences of the global loss, at orders 1 and 2
# (all_to_all's against its exact value, in test_comm_func_collectives_on_two_processes).
COLLECTIVES = {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "all_to_all",
               "collective_gather", "collective_scatter", "neighbor_exchange"}
# The moves of operator sharding: their derivatives (the logical tensor's) are checked by
# tests/cellgraph/parallel/test_sharding.py, sharded models' gradients against one process's.
COLLECTIVES |= {"shard_all_reduce", "shard_reduce_scatter", "shard_all_gather",
                "shard_all_to_all", "shard_slice", "shard_mirror"}
# ops.Custom's node: differentiated only through the user's bprop, whose refusal without one
# and whose use with one tests/ops/test_custom_ops.py checks
USER_BPROP = {"py_func"}
# MindSpore's CTCLoss returns its loss's gradient as a second output, and its bprop scales that
# output: a first-order derivative of the loss only (the gradient output has none, as in
# MindSpore), checked against MindSpore's values by tests/ops/test_ctc_loss.py
FIRST_ORDER_OF_LOSS = {"ctc_loss"}

_rng = np.random.default_rng(1234)
ALL = slice(None)


def complex_normal(shape=(2, 3)):
    return Tensor(_rng.standard_normal(shape) + 1j * _rng.standard_normal(shape))


def uniform(lo, hi, shape=(2, 3)):
    return Tensor(_rng.uniform(lo, hi, shape))


def normal(shape=(2, 3)):
    return Tensor(_rng.standard_normal(shape))


def away_from_zero(shape=(2, 3), margin=0.2):
    mag = _rng.uniform(margin, 1.5, shape)
    return Tensor(mag * _rng.choice([-1.0, 1.0], shape))


def distinct(shape=(2, 3)):
    """Values at least 0.05 apart, so max/min have no ties within eps."""
    n = int(np.prod(shape))
    return Tensor(_rng.permutation(np.arange(n) * 0.1 + 0.05).reshape(shape) - n * 0.05)


def ints(values):
    return Tensor(np.asarray(values, np.int64))


@dataclass
class Case:
    """One call of a primitive: positional operands and static params."""

    args: tuple
    params: dict = field(default_factory=dict)
    tol: dict = field(default_factory=dict)  # eps / rtol / atol overrides


def case(*args, tol=None, **params):
    return Case(args, params, tol or {})


def _with_eigenvalues(values):
    """A dense real matrix S diag(values) S^-1 (S well conditioned)."""
    s = np.eye(len(values)) + 0.3 * _rng.standard_normal((len(values), len(values)))
    return s @ np.diag(values) @ np.linalg.inv(s)


def _pair_apart(shape_x=(2, 3), shape_y=(2, 3)):
    """x and y whose broadcast elements differ by at least 0.1 (no ties for max/min)."""
    x = _rng.uniform(-1, 1, shape_x)
    gap = _rng.uniform(0.1, 0.8, np.broadcast_shapes(shape_x, shape_y)) * _rng.choice(
        [-1.0, 1.0], np.broadcast_shapes(shape_x, shape_y))
    y = np.broadcast_to(x, gap.shape) + gap
    # reduce y to its own shape by taking the first slice along broadcast axes
    index = tuple(slice(None) if d != 1 else slice(0, 1) for d in
                  (1,) * (gap.ndim - len(shape_y)) + tuple(shape_y))
    y = y[index].reshape(shape_y)
    return Tensor(x), Tensor(y)


CONV = {"stride": (1, 1), "pad": (0, 0, 0, 0), "dilation": (1, 1), "group": 1}
CONV_STRIDED = {"stride": (2, 1), "pad": (1, 0, 2, 1), "dilation": (1, 1), "group": 2}
CONV_SAME = {"stride": (1, 1), "pad": (1, 1, 1, 1), "dilation": (1, 1), "group": 1}
POOL = {"kernel": (2, 2), "stride": (2, 2), "pad": (0, 0, 0, 0)}
POOL_PAD = {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1, 1, 1)}


def _unary_cases(make):
    return [case(make()), case(make((4,)))]


def _binary_cases(left, right):
    return [
        case(left((2, 3)), right((2, 3))),
        case(left((2, 3)), right((3,))),            # trailing broadcast
        case(left((2, 1)), right((1, 3))),          # both sides broadcast
        case(left(()), right((2, 3))),              # a 0-d tensor
    ]


CASES: dict[str, list[Case]] = {
    # a and x inside the domain, on both sides of x = a + 1 (series and continued fraction)
    "igamma": [case(uniform(0.5, 3.0), uniform(0.2, 4.0)),
               case(uniform(0.5, 2.0, (3, 1)), uniform(2.5, 6.0, (1, 2)))],
    "igammac": [case(uniform(0.5, 3.0), uniform(0.2, 4.0))],
    "igamma_da": [case(uniform(0.5, 3.0), uniform(0.2, 4.0), order=1),
                  case(uniform(0.8, 2.0), uniform(0.5, 3.0), order=2)],
    # x > 1 and q > 0: inside the domain, where every derivative is real
    "zeta": [case(uniform(1.5, 4.0), uniform(0.5, 3.0))],
    "zeta_dx": [case(uniform(1.5, 4.0), uniform(0.5, 3.0), order=1)],
    "neg": _unary_cases(normal),
    "square": _unary_cases(normal),
    "sqrt": _unary_cases(lambda s=(2, 3): uniform(0.3, 2.0, s)),
    "rsqrt": _unary_cases(lambda s=(2, 3): uniform(0.3, 2.0, s)),
    "reciprocal": _unary_cases(away_from_zero),
    "exp": _unary_cases(normal),
    "log": _unary_cases(lambda s=(2, 3): uniform(0.2, 3.0, s)),
    "sin": _unary_cases(normal),
    "cos": _unary_cases(normal),
    "tan": _unary_cases(lambda s=(2, 3): uniform(-1.0, 1.0, s)),
    "sinh": _unary_cases(normal),
    "cosh": _unary_cases(normal),
    "tanh": _unary_cases(normal),
    "asin": _unary_cases(lambda s=(2, 3): uniform(-0.8, 0.8, s)),
    "acos": _unary_cases(lambda s=(2, 3): uniform(-0.8, 0.8, s)),
    "atan": _unary_cases(normal),
    "asinh": _unary_cases(normal),
    "acosh": _unary_cases(lambda s=(2, 3): uniform(1.2, 3.0, s)),
    "atanh": _unary_cases(lambda s=(2, 3): uniform(-0.8, 0.8, s)),
    "abs": _unary_cases(away_from_zero),
    # complex primitives: perturbed along real and imaginary parts (cellgraph.testing)
    "complex": _binary_cases(normal, normal),
    "real": _unary_cases(complex_normal),
    "imag": _unary_cases(complex_normal),
    "conj": _unary_cases(complex_normal),
    "angle": _unary_cases(complex_normal),
    "add": _binary_cases(normal, normal) + [case(normal(), 2.5), case(1.5, normal())],
    "sub": _binary_cases(normal, normal) + [case(normal(), 2.5), case(1.5, normal())],
    "mul": _binary_cases(normal, normal) + [case(normal(), 2.5), case(-1.5, normal())],
    "div": _binary_cases(normal, away_from_zero) + [case(normal(), 2.5),
                                                    case(1.5, away_from_zero())],
    "pow": _binary_cases(lambda s: uniform(0.5, 2.0, s), lambda s: uniform(-1.5, 1.5, s)) + [
        case(away_from_zero(), 3),                  # negative base, integer exponent
        case(uniform(0.5, 2.0), 0.5),
        case(2.0, normal()),                        # Python-number base
    ],
    "maximum": [case(*_pair_apart()), case(*_pair_apart((2, 3), (3,))),
                case(*_pair_apart((2, 1), (1, 3)))],
    "minimum": [case(*_pair_apart()), case(*_pair_apart((2, 3), (3,))),
                case(*_pair_apart((2, 1), (1, 3)))],
    "select": [
        case(Tensor(_rng.uniform(size=(2, 3)) > 0.5), normal(), normal()),
        case(Tensor(np.array([[True], [False]])), normal((2, 3)), normal((3,))),
        case(Tensor(np.array([True, False, True])), normal((2, 3)), normal((2, 1))),
    ],
    "matmul": [
        case(normal((2, 3)), normal((3, 4))),
        case(normal((3, 2)), normal((3, 4)), transpose_a=True),
        case(normal((2, 3)), normal((4, 3)), transpose_b=True),
        case(normal((3, 2)), normal((4, 3)), transpose_a=True, transpose_b=True),
        case(normal((2, 2, 3)), normal((2, 3, 4))),           # batched
        case(normal((2, 2, 3)), normal((3, 4))),              # batch broadcast
        case(normal((2, 3, 2)), normal((1, 4, 3)), transpose_a=True, transpose_b=True),
    ],
    "reduce_sum": [
        case(normal((2, 3)), axis=(), keep_dims=False),
        case(normal((2, 3)), axis=(1,), keep_dims=False),
        case(normal((2, 3)), axis=(0,), keep_dims=True),
        case(normal((2, 3, 4)), axis=(0, 2), keep_dims=False),
        case(normal((2, 3, 4)), axis=(), keep_dims=True),
    ],
    "reduce_mean": [
        case(normal((2, 3)), axis=(), keep_dims=False),
        case(normal((2, 3)), axis=(1,), keep_dims=True),
        case(normal((2, 3, 4)), axis=(0, 2), keep_dims=False),
    ],
    "reduce_max": [
        case(distinct((2, 3)), axis=(), keep_dims=False),
        case(distinct((2, 3)), axis=(1,), keep_dims=False),
        case(distinct((2, 3, 4)), axis=(0, 2), keep_dims=True),
    ],
    "reduce_min": [
        case(distinct((2, 3)), axis=(), keep_dims=False),
        case(distinct((2, 3)), axis=(0,), keep_dims=True),
        case(distinct((2, 3, 4)), axis=(1, 2), keep_dims=False),
    ],
    "reshape": [case(normal((2, 3)), shape=(3, 2)), case(normal((2, 3)), shape=(6,)),
                case(normal((6,)), shape=(1, 2, 3))],
    "transpose": [case(normal((2, 3)), perm=(1, 0)), case(normal((2, 3, 4)), perm=(2, 0, 1))],
    "broadcast_to": [case(normal((3,)), shape=(2, 3)), case(normal((2, 1)), shape=(2, 4)),
                     case(normal(()), shape=(2, 2)), case(normal((1, 3)), shape=(2, 2, 3))],
    "expand_dims": [case(normal((2, 3)), axis=0), case(normal((2, 3)), axis=2)],
    "squeeze": [case(normal((2, 1, 3)), axis=(1,)), case(normal((1, 3, 1)), axis=())],
    "cast": [
        case(normal(), dtype=cellgraph.float64),
        # through float32 and back: the forward rounds, so the differences need a larger step
        case(normal(), dtype=cellgraph.float32, tol={"eps": 1e-2, "rtol": 1e-4, "atol": 1e-4}),
    ],
    "getitem": [
        case(normal((3, 4)), index=(1,)),
        case(normal((3, 4)), index=(Slice(0, 2, None), 1)),
        case(normal((3, 4)), index=(None, Slice(None, None, -1))),
        case(normal((2, 3, 4)), index=(Ellipsis, Slice(1, 3, None))),
        case(normal((3, 4)), index=(Slice(None, None, 2), None, Slice(1, None, None))),
    ],
    "getitem_grad": [
        case(normal((2,)), index=(Slice(0, 2, None), 1), shape=(3, 4)),
        case(normal((4,)), index=(1,), shape=(3, 4)),
    ],
    "gather": [
        case(normal((4, 3)), ints([[0, 2], [3, 0]]), axis=0),   # a repeated index adds up
        case(normal((2, 4)), ints([3, 1, 1]), axis=1),
    ],
    "gather_grad": [
        case(normal((2, 2, 3)), ints([[0, 2], [3, 0]]), axis=0, shape=(4, 3)),
        case(normal((2, 3)), ints([3, 1, 1]), axis=1, shape=(2, 4)),
    ],
    "gather_nd": [
        case(normal((3, 3)), ints([[0, 2], [1, 1], [0, 2]])),  # a repeated row adds up
        case(normal((3, 2, 2)), ints([[2], [0]])),
    ],
    "tensor_scatter_add": [case(normal((3, 3)), ints([[0, 2], [1, 1], [0, 2]]), normal((3,)))],
    "tensor_scatter_sub": [case(normal((3, 2)), ints([[2], [0]]), normal((2, 2)))],
    "tensor_scatter_max": [case(normal((3, 3)), ints([[0, 2], [1, 1], [0, 2]]), normal((3,)))],
    "tensor_scatter_min": [case(normal((3, 2)), ints([[2], [0], [2]]), normal((3, 2)))],
    "tensor_scatter_mul": [case(away_from_zero((3, 3)), ints([[0, 2], [1, 1], [0, 2]]),
                                away_from_zero((3,)))],
    "tensor_scatter_div": [case(away_from_zero((3, 2)), ints([[2], [0], [2]]),
                                away_from_zero((3, 2)))],
    "tensor_scatter_update": [case(normal((3, 3)), ints([[0, 2], [1, 1]]), normal((2,))),
                              case(normal((3, 2)), ints([[2]]), normal((1, 2)))],
    "take_along_axis": [
        case(normal((3, 3)), ints([[0, 2, 2], [1, 0, 0]]), axis=0),  # repeats add up
        case(normal((2, 4)), ints([[3, 1, 1], [0, 2, 3]]), axis=1),
    ],
    "tensor_scatter_elements": [
        case(normal((3, 3)), ints([[0, 2, 1]]), normal((1, 3)), axis=0),
        case(normal((2, 4)), ints([[3, 1], [0, 0]]), normal((2, 2)), axis=1, reduction="add"),
    ],
    "take_first": [case(normal((4,)), ints([2])), case(normal((3, 4)), ints(3), axis=1)],
    "reshape_to": [case(normal((2, 3)), ints([3, 2])), case(normal((2, 3, 2)), ints([-1, 4]))],
    "take_first_grad": [case(normal((2,)), ints([2]), axis=0, size=4),
                        case(normal((3, 1)), ints(1), axis=1, size=3)],
    "masked_select": [
        case(normal((2, 3)), Tensor(np.array([[True, False, True], [False, True, True]]))),
        case(normal((2, 3)), Tensor(np.array([False, True, True]))),  # broadcast mask
        case(normal((3,)), Tensor(np.array([[True, False, True], [True, True, False]]))),
    ],
    # distinct singular values (the adjoint divides by their squared gaps)
    "svd": [case(normal((3, 3))), case(normal((4, 2))), case(normal((2, 2, 3)))],
    "qr": [case(normal((3, 3))), case(normal((4, 2))), case(normal((2, 3, 2))),
           case(normal((3, 3)), mode="complete")],
    # one triangle read (the other ignored); distinct eigenvalues (the adjoint divides by gaps)
    "eigh": [case(normal((3, 3))), case(normal((2, 2, 2)), lower=False)],
    # distinct real eigenvalues: real eigenvectors, whose sign LAPACK keeps as the input moves
    # (an eigenvector of a complex eigenvalue has an arbitrary phase: see tests/ops/test_eig.py
    # for phase-free functions of those); the eigenvalues alone of a complex matrix
    "eig": [case(Tensor(_with_eigenvalues([1.0, 2.5, 4.0]))),
            case(Tensor(normal((2, 3, 3)).asnumpy() * 0.1 + np.diag([0.5, -1.0, 2.0])),
                 compute_v=False),
            case(Tensor(normal((3, 3)).asnumpy() + 1j * normal((3, 3)).asnumpy()),
                 compute_v=False)],
    # well-conditioned systems, real and complex, solved with A or its (conjugate) transpose
    "matrix_solve": [case(Tensor(normal((3, 3)).asnumpy() + 4 * np.eye(3)), normal((3, 2)),
                          adjoint=adjoint) for adjoint in (False, True)]
    + [case(Tensor(complex_normal((3, 3)).asnumpy() + 4 * np.eye(3)), complex_normal((3, 2)),
            adjoint=adjoint) for adjoint in (False, True)],
    "erfinv": [case(uniform(-0.9, 0.9, (2, 3))), case(uniform(-0.5, 0.5, (3,)))],  # not at +-1
    # Y and K are defined for x > 0 only
    **{f"bessel_{kind}": [case(uniform(0.3, 4.0, (2, 3)))]
       for kind in ("i0", "i0e", "i1", "i1e", "j0", "j1", "y0", "y1", "k0", "k0e", "k1", "k1e")},
    "bincount": [case(ints([2, 4, 1, 0, 0, 2]), normal((6,))),
                 case(ints([1, 1]), normal((2,)), minlength=4)],
    "concat": [case(normal((2, 3)), normal((1, 3)), axis=0),
               case(normal((2, 1)), normal((2, 2)), normal((2, 3)), axis=1)],
    "stack": [case(normal((2, 3)), normal((2, 3)), axis=0),
              case(normal((3,)), normal((3,)), normal((3,)), axis=1)],
    "relu": _unary_cases(away_from_zero),
    "relu_grad": [case(away_from_zero((2, 3)), normal((2, 3))),
                  case(away_from_zero((4,)), normal((4,)))],
    "sigmoid": _unary_cases(normal),
    "softmax": [case(normal((2, 3)), axis=1), case(normal((3, 2)), axis=0),
                case(normal((4,)), axis=0)],
    "log_softmax": [case(normal((2, 3)), axis=1), case(normal((3, 2)), axis=0)],
    # special functions, shape ops, normalisation
    "erf": _unary_cases(normal),
    "expm1": _unary_cases(normal),
    "gelu": _unary_cases(normal),
    "softplus": _unary_cases(normal),
    "log1p": _unary_cases(lambda s=(2, 3): uniform(-0.5, 2.0, s)),
    "bias_add": [case(normal((2, 3)), normal((3,)), axis=1),
                 case(normal((2, 3, 2, 2)), normal((3,)), axis=1)],
    "clip_by_value": [
        case(Tensor(np.array([[-1.2, -0.8, -0.2], [0.1, 0.3, 0.9]])), Tensor(np.array(-0.5)),
             Tensor(np.array(0.5))),
        case(Tensor(np.array([[-1.2, 0.0, 1.4], [0.3, -0.4, 2.0]])),
             Tensor(np.array([-0.6, -0.2, 0.5])), Tensor(np.array([[0.2], [1.0]]))),
    ],
    "cumsum": [case(normal((5,)), axis=0, exclusive=False, reverse=False),
               case(normal((2, 4)), axis=1, exclusive=True, reverse=True)],
    "dropout": [case(normal(), Tensor(_rng.uniform(size=(2, 3)) > 0.3), keep_prob=0.8)],
    "pad": [case(normal((2, 3)), paddings=((1, 0), (2, 1)), value=0),
            case(normal((3,)), paddings=((2, 1),), value=1.5)],
    "reduce_prod": [case(uniform(0.5, 1.5, (2, 3)), axis=(), keep_dims=False),
                    case(away_from_zero((2, 3, 2)), axis=(1,), keep_dims=True)],
    "split": [case(normal((2, 3, 4)), axis=1, sizes=(1, 2)),
              case(normal((6,)), axis=0, sizes=(2, 1, 3))],
    "tile": [case(normal((2, 3)), multiples=(2, 3)), case(normal((3,)), multiples=(2, 2))],
    "layer_norm": [
        case(normal((2, 3, 4)), uniform(0.5, 1.5, (3, 4)), normal((3, 4)), begin_norm_axis=1,
             begin_params_axis=1, epsilon=1e-5),
        case(normal((4, 5)), uniform(0.5, 1.5, (5,)), normal((5,)), begin_norm_axis=-1,
             begin_params_axis=-1, epsilon=1e-5),
    ],
    "batch_norm": [
        case(normal((4, 3)), uniform(0.5, 1.5, (3,)), normal((3,)), normal((3,)),
             uniform(0.5, 2.0, (3,)), is_training=True, epsilon=1e-3),
        case(normal((2, 3, 2, 2)), uniform(0.5, 1.5, (3,)), normal((3,)), normal((3,)),
             uniform(0.5, 2.0, (3,)), is_training=False, epsilon=1e-3),
    ],
    # convolution and pooling, with their gradient primitives
    "conv2d": [
        case(normal((1, 2, 5, 5)), normal((3, 2, 3, 3)), **CONV),
        case(normal((1, 4, 6, 5)), normal((6, 2, 2, 3)), **CONV_STRIDED),
    ],
    "conv2d_backprop_input": [
        case(normal((1, 3, 3, 3)), normal((3, 2, 3, 3)), x_shape=(1, 2, 5, 5), **CONV),
        case(normal((1, 6, 3, 6)), normal((6, 2, 2, 3)), x_shape=(1, 4, 6, 5), **CONV_STRIDED),
    ],
    # (x, w, dout): the shared-im2col path (stride 1, O <= C) and the strided, grouped one
    "conv2d_grad": [
        case(normal((1, 3, 4, 4)), normal((2, 3, 3, 3)), normal((1, 2, 4, 4)), **CONV_SAME),
        case(normal((1, 4, 6, 5)), normal((6, 2, 2, 3)), normal((1, 6, 3, 6)), **CONV_STRIDED),
    ],
    "conv2d_backprop_filter": [
        case(normal((1, 2, 5, 5)), normal((1, 3, 3, 3)), w_shape=(3, 2, 3, 3), **CONV),
        case(normal((1, 4, 6, 5)), normal((1, 6, 3, 6)), w_shape=(6, 2, 2, 3), **CONV_STRIDED),
    ],
    "max_pool2d": [case(distinct((1, 2, 4, 4)), **POOL), case(distinct((1, 1, 5, 5)), **POOL_PAD)],
    # argmax: positions in the padded 4x4 plane (POOL) and 7x7 plane (POOL_PAD) of each window
    "max_pool2d_scatter": [
        case(Tensor(np.array([[[[0, 3], [9, 14]]]], np.int32)), normal((1, 1, 2, 2)),
             x_shape=(1, 1, 4, 4), **POOL),
        case(Tensor(np.array([[[[8, 10, 12], [22, 24, 26], [36, 38, 40]]]], np.int32)),
             normal((1, 1, 3, 3)), x_shape=(1, 1, 5, 5), **POOL_PAD),
    ],
    "max_pool2d_gather": [
        case(Tensor(np.array([[[[0, 3], [9, 14]]]], np.int32)), normal((1, 1, 4, 4)), **POOL),
    ],
    "max_pool2d_grad": [case(distinct((1, 2, 4, 4)), normal((1, 2, 2, 2)), **POOL)],
    "max_pool2d_grad_grad": [case(distinct((1, 2, 4, 4)), normal((1, 2, 4, 4)), **POOL)],
    "avg_pool2d": [case(normal((1, 2, 4, 4)), count_include_pad=True, **POOL),
                   case(normal((1, 1, 5, 5)), count_include_pad=False, **POOL_PAD)],
    "avg_pool2d_grad": [case(normal((1, 2, 2, 2)), x_shape=(1, 2, 4, 4), count_include_pad=True,
                             **POOL),
                        case(normal((1, 1, 3, 3)), x_shape=(1, 1, 5, 5),
                             count_include_pad=False, **POOL_PAD)],
}


def differentiable_primitives() -> set[str]:
    return {name for name, p in PRIMITIVES.items() if not p.nondifferentiable}


def _float_operand(x) -> bool:
    return type(x) is float or isinstance(x, np.ndarray) and x.dtype.kind == "f"


def from_kernel_cases(name: str, limit: int = 3) -> list[Case]:
    """Gradient cases from `name`'s kernel cases whose operands are all floats (in float64)."""
    cases = [case(*[Tensor(o.astype(np.float64)) if isinstance(o, np.ndarray) else o
                    for o in kc.operands], **kc.params)
             for kc in KERNEL_CASES.get(name, ())
             if all(map(_float_operand, kc.operands)) and any(
                 isinstance(o, np.ndarray) for o in kc.operands)]
    return cases[:limit]


def grad_cases() -> dict[str, list[Case]]:
    derived = {name: from_kernel_cases(name) for name in differentiable_primitives()
               if name not in CASES and name not in STRUCTURAL | ZERO_GRADIENT}
    return {**{n: c for n, c in derived.items() if c}, **CASES}


def _params():
    cases = grad_cases()
    for name in sorted(cases):
        for i, c in enumerate(cases[name]):
            yield pytest.param(name, c, id=f"{name}-{i}")


def _call(name, params):
    return functools.partial(PRIMITIVES[name], **params)


def test_every_differentiable_primitive_has_a_case():
    missing = (differentiable_primitives() - set(grad_cases()) - STRUCTURAL - ZERO_GRADIENT
               - COLLECTIVES - USER_BPROP - FIRST_ORDER_OF_LOSS)
    assert not missing, (f"differentiable primitives without a gradient case in "
                         f"tests/ops/test_grads.py or a float kernel case: {sorted(missing)}")
    unknown = set(CASES) - set(PRIMITIVES)
    assert not unknown, f"cases for primitives that do not exist: {sorted(unknown)}"


def test_every_differentiable_primitive_has_a_bprop():
    without = sorted(name for name in differentiable_primitives() - STRUCTURAL
                     if PRIMITIVES[name].bprop_rule is None)
    assert not without, (f"primitives neither marked nondifferentiable nor given a bprop: "
                         f"{without}")


@pytest.mark.parametrize("name, c", list(_params()))
@pytest.mark.parametrize("order", [1, 2])
def test_primitive_grad(name, c, order):
    check_grads(_call(name, c.params), c.args, order=order, **c.tol)


def test_stop_gradient_blocks_every_order():
    x = Tensor(np.array([0.5, -1.0, 2.0]))

    def f(x):
        return ops.stop_gradient(x * x) * x + ops.stop_gradient(ops.sin(x))

    first = cellgraph.grad(f)
    np.testing.assert_allclose(first(x).asnumpy(), x.asnumpy() ** 2)
    np.testing.assert_allclose(cellgraph.grad(first)(x).asnumpy(), np.zeros(3))
    only = cellgraph.grad(lambda x: ops.stop_gradient(x))
    np.testing.assert_allclose(only(x).asnumpy(), np.zeros(3))


def test_check_grads_catches_a_wrong_rule():
    """The checker itself: a primitive whose bprop is off by a factor fails, naming the order."""
    from cellgraph.testing import GradCheckError

    x = Tensor(np.array([0.3, 0.9]))
    prim = PRIMITIVES["sin"]
    rule = prim.bprop_rule
    prim.bprop_rule = lambda x, out, dout: (ops.mul(rule(x, out=out, dout=dout)[0], 1.01),)
    try:
        with pytest.raises(GradCheckError, match="order-1 derivative of .* w.r.t. argument 0"):
            check_grads(ops.sin, (x,), order=1)
    finally:
        prim.bprop_rule = rule


def test_check_grads_catches_a_wrong_second_order_rule():
    """cos's rule is used only at order 2 by sin: an error there passes order 1, fails order 2."""
    from cellgraph.testing import GradCheckError

    x = Tensor(np.array([0.3, 0.9]))
    prim = PRIMITIVES["cos"]
    rule = prim.bprop_rule
    prim.bprop_rule = lambda x, out, dout: (ops.mul(dout, ops.sin(x)),)  # sign flipped
    try:
        check_grads(ops.sin, (x,), order=1)
        with pytest.raises(GradCheckError, match="order-2"):
            check_grads(ops.sin, (x,), order=2)
    finally:
        prim.bprop_rule = rule
