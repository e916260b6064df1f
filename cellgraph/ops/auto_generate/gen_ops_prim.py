"""`ops.auto_generate.gen_ops_prim`: the primitive classes, and `<name>_op`, an instance of the
class `<Name>` made with its defaults (`add_op = Add()` in MindSpore).

Every class of `_ops.operations` is here, with the pooling classes that return indices and the
classes of the `mint` interface, whose call takes every argument (`MatMulExt()(a, b)`,
`SumExt()(x, dim)`)."""
from cellgraph import ops as _ops
from cellgraph.ops import inplace as _inplace
from cellgraph.ops.function import fft_func as _fft_func
from cellgraph.ops.operations import _grad_ops
from cellgraph.ops.operations._sequence_ops import (  # noqa: F401  (filed here too)
    SequenceConcat,
    TensorToScalar,
)
from cellgraph.ops.primitive_class import define_class as _define_class
from cellgraph.ops.primitive_class import function_class as _function_class
from cellgraph.primitives.errors import UnsupportedError as _UnsupportedError

from . import array_classes as _array_classes
from . import dct_classes as _dct_classes
from . import grad_classes as _grad_classes
from . import math_classes as _math_classes
from . import nn_classes as _nn_classes
from . import nn_grad_classes as _nn_grad_classes


def _mint(name: str):
    """mint's `name`, looked up when called (mint loads nn, which ops does not need)."""
    def call(*args, **kwargs):
        from cellgraph import mint

        return getattr(mint, name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


def _matmul_ext(input, other):
    return _mint("matmul")(input, other)


def _batch_matmul_ext(input, mat2):
    return _mint("bmm")(input, mat2)


def _sum_ext(input, dim=None, keepdim=False, dtype=None):
    return _mint("sum")(input, dim, keepdim, dtype=dtype)


def _mean_ext(input, dim=None, keepdim=False, dtype=None):
    return _mint("mean")(input, dim, keepdim, dtype=dtype)


def _max_dim(input, dim, keepdim=False):
    return _mint("max")(input, dim, keepdim)


def _min_dim(input, dim, keepdim=False):
    return _mint("min")(input, dim, keepdim)


def _stream(seed, offset):
    """The op seed of a draw MindSpore keys by its generator's (seed, offset) (ints, or the
    Tensors `default_generator._step` gives): a program that draws with the same pairs draws
    the same numbers in every run (after the same set_seed), as an op seed's stream does. A
    pair known only when a graph runs draws from the global generator."""
    try:
        return int(seed) * 2 ** 32 + int(offset)
    except (TypeError, ValueError):
        return None


def _dropout_ext(input, p, seed, offset):
    """DropoutExt's (output, mask): elements zeroed with probability p, the rest scaled by
    1 / (1 - p); the mask is True where kept."""
    keep = _ops.rand(tuple(input.shape), seed=_stream(seed, offset)) >= p
    scale = 0.0 if p >= 1 else 1.0 / (1.0 - p)
    return input * _ops.cast(keep, input.dtype) * scale, keep


def _randint(low, high, shape, seed, offset, dtype=None, device=None):
    from cellgraph.mint._tensor_ops import check_device

    check_device(device, "RandInt")
    return _ops.randint(low, high, tuple(shape), _stream(seed, offset), dtype=dtype)


def _fill_in_place(op: str, input, draws):
    """Write `draws` into `input`, MindSpore's in-place random fill: a Parameter is assigned
    (eagerly or in a graph), a Tensor outside a graph has its data replaced."""
    from cellgraph.common.assign import assign
    from cellgraph.compiler.builder import current_builder, is_parameter

    draws = _ops.cast(draws, input.dtype)
    if is_parameter(input):
        return assign(input, draws)
    if current_builder() is None:
        return input.assign_value(draws)
    raise _UnsupportedError(f"{op}: in graph mode only a Parameter can be filled in place, got "
                           f"a Tensor argument; fill it outside the graph or make it a "
                           f"Parameter")


def _inplace_normal(input, mean, std, seed, offset):
    return _fill_in_place("InplaceNormal", input,
                          _ops.normal(tuple(input.shape), mean, std, _stream(seed, offset)))


def _inplace_uniform(input, from_, to, seed, offset):
    return _fill_in_place("InplaceUniform", input,
                          _ops.uniform(tuple(input.shape), from_, to, _stream(seed, offset),
                                       dtype=input.dtype))


def _bernoulli_ext(input, seed, offset):
    return _ops.bernoulli(_ops.zeros_like(input), input, _stream(seed, offset))


def _multinomial_ext(input, num_samples, replacement, seed, offset):
    return _ops.multinomial(input, num_samples, replacement, _stream(seed, offset))


def _clone(input):
    """A new Tensor with input's values (a graph's values are never written in place, so
    there the value itself serves)."""
    from cellgraph.runtime.tensor import Tensor

    if isinstance(input, Tensor):
        return Tensor(input.asnumpy().copy(), input.dtype)
    return input


def _like_ext(name: str):
    """MindSpore's OnesLikeExt / ZerosLikeExt: mint's `name`, its dtype also by position."""
    fill = _mint(name)

    def call(input, dtype=None):
        return fill(input, dtype=dtype)

    call.__name__ = call.__qualname__ = name
    return call


def _contiguous(input):
    """The input itself: cellgraph's Tensors are always stored contiguously, which is when
    MindSpore's Contiguous returns its input unchanged."""
    return input


def _split_tensor(input, split_size, dim=0):
    """SplitTensor: pieces of `split_size` along `dim`, the last one shorter (mint.split with
    an int)."""
    return _ops.split(input, split_size, dim)


def _split_with_size(input, split_size, dim=0):
    """SplitWithSize: pieces of the sizes listed in `split_size`, which add up to the length
    of `dim` (mint.split with a sequence)."""
    return _ops.split(input, tuple(split_size), dim)


def _operations_classes() -> dict:
    """The classes of `ops.operations` but the custom operations' (`Custom` defines a user's
    operation; none is generated), the summary operations (MindSpore's debug_ops, which
    load train) and those `ops.operations` takes from here."""
    from cellgraph.ops import operations

    names = {name: getattr(operations, name) for name in dir(operations)
             if name[:1].isupper() and name not in operations.SUMMARY_OPERATIONS
             and name not in operations.GENERATED_OPERATIONS}
    return {name: value for name, value in names.items()
            if isinstance(value, type) and value.__module__ != "cellgraph.ops.custom_ops"}


globals().update(_operations_classes())
# the gradient operations are generated primitives in MindSpore: ops.auto_generate.SqrtGrad
globals().update({name: getattr(_grad_ops, name) for name in _grad_ops.__all__})

# The mint-style classes: the call takes every argument (MatMulExt()(a, b), SumExt()(x, dim)).
MatMulExt = _function_class("MatMulExt", _matmul_ext)
BatchMatMulExt = _function_class("BatchMatMulExt", _batch_matmul_ext)
SumExt = _function_class("SumExt", _sum_ext)
MeanExt = _function_class("MeanExt", _mean_ext)
MaxDim = _function_class("MaxDim", _max_dim)
MinDim = _function_class("MinDim", _min_dim)
SiLU = _function_class("SiLU", _ops.silu)
SplitTensor = _function_class("SplitTensor", _split_tensor)
SplitWithSize = _function_class("SplitWithSize", _split_with_size)
InplaceNormal = _function_class("InplaceNormal", _inplace_normal)
InplaceUniform = _function_class("InplaceUniform", _inplace_uniform)
DropoutExt = _function_class("DropoutExt", _dropout_ext)
RandInt = _function_class("RandInt", _randint)
BernoulliExt = _function_class("BernoulliExt", _bernoulli_ext)
MultinomialExt = _function_class("MultinomialExt", _multinomial_ext)
# the generated class names its reduction `reduce` (ops.TensorScatterElements: `reduction`)
TensorScatterElements = _define_class(
    "TensorScatterElements", lambda data, indices, updates, axis=0, reduce="none":
    _ops.tensor_scatter_elements(data, indices, updates, axis, reduce),
    {"axis": 0, "reduce": "none"}, __name__)
Clone = _function_class("Clone", _clone)
Contiguous = _function_class("Contiguous", _contiguous)
OnesLikeExt = _function_class("OnesLikeExt", _like_ext("ones_like"))
ZerosLikeExt = _function_class("ZerosLikeExt", _like_ext("zeros_like"))
MaxPoolWithIndices, MaxPoolWithMask = _ops.MaxPoolWithIndices, _ops.MaxPoolWithMask
Tensor = _ops.Tensor  # as MindSpore's module imports it
# the discrete Fourier transforms: FFT()(input, n, dim, norm), FFTShift()(input, dim), ...
globals().update({
    name: _function_class(name, getattr(_fft_func, function)) for function in _fft_func.__all__
    for name in [function.upper().replace("SHIFT", "Shift").replace("FREQ", "Freq")]})
globals().update(_inplace.GEN_OPS_CLASSES)  # InplaceAddExt, ... (in-place Tensor updates)
# the classes over mint's functions, by kind: AddExt, Mv, ...
globals().update(_math_classes.CLASSES)
globals().update(_array_classes.CLASSES)
globals().update(_nn_classes.CLASSES)
globals().update(_dct_classes.CLASSES)
globals().update(_grad_classes.CLASSES)
globals().update(_nn_grad_classes.CLASSES)

__all__ = sorted(name for name, value in globals().items()  # noqa: PLE0605
                 if name[:1].isupper() and isinstance(value, type))


def __getattr__(name: str):
    """`<snake_name>_op` -> an instance of the class whose name, lower case, is snake_name
    without underscores (`matmul_ext_op` -> MatMulExt())."""
    key = name[:-3].replace("_", "") if name.endswith("_op") else None
    cls = next((globals()[n] for n in __all__ if n.lower() == key), None)
    if cls is None:
        raise AttributeError(f"module 'ops.auto_generate.gen_ops_prim' has no attribute "
                             f"{name!r}")
    return cls()
