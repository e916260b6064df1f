"""`ops.auto_generate`: where MindSpore's generated operator definitions live, over cellgraph's
own operations.

* `gen_ops_prim`: the primitive classes (every class of `ops.operations`, the pooling classes
  that return indices, and the `...Ext` classes of the `mint` interface), and `<name>_op`, an
  instance of the class `<Name>` made with its defaults (`add_op = Add()` in MindSpore).
* `gen_ops_def`: the functional operations (`ops.function`).
* `pyboost_inner_prim`: `<name>_impl` callables taking every argument at call time, as the
  classes' generated call functions do (`softmax_impl(input, axis)`).
"""
from __future__ import annotations

from cellgraph import ops
from cellgraph.ops import inplace
from cellgraph.ops.derive import function_class
from cellgraph.ops.function.array_func.attributes import known
from cellgraph.ops.function.array_func.indexing import unique_consecutive_all
from cellgraph.ops.function.nn_func.attention import flash_attention_score_impl
from cellgraph.ops.function.nn_func.image import grid_sampler_impl
from cellgraph.ops.function.nn_func.loss import checked_labels, nll_loss
from cellgraph.ops.surface import _module
from cellgraph.primitives.errors import UnsupportedError


def _mint(name: str):
    """mint's `name`, looked up when called: mint sits above ops (it loads nn), so ops, which
    loads this module, must not import it."""
    def call(*args, **kwargs):
        from cellgraph import mint

        return getattr(mint, name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


def _max_dim(input, dim, keepdim=False):
    return _mint("max")(input, dim, keepdim)


def _min_dim(input, dim, keepdim=False):
    return _mint("min")(input, dim, keepdim)


# The mint-style classes: the call takes every argument (MatMulExt()(a, b), SumExt()(x, dim)).
EXT_CLASSES = {
    "MatMulExt": _mint("matmul"), "BatchMatMulExt": _mint("bmm"), "SumExt": _mint("sum"),
    "MeanExt": _mint("mean"), "MaxDim": _max_dim, "MinDim": _min_dim, "SiLU": ops.silu,
}


def _argmax_with_value(input, axis=0, keep_dims=False):
    return ops.ArgMaxWithValue(axis, keep_dims)(input)


def _argmin_with_value(input, axis=0, keep_dims=False):
    return ops.ArgMinWithValue(axis, keep_dims)(input)


def _softmax(input, axis=(-1,)):
    return ops.softmax(input, axis[0] if isinstance(axis, (tuple, list)) else axis)


def _reduce_max(input, axis=(), keep_dims=False):
    return ops.functional.reduce_max(input, axis, keep_dims)


def _meshgrid(inputs, indexing="xy"):
    return ops.meshgrid(*inputs, indexing=indexing)


def _bce_with_logits(input, target, weight=None, posWeight=None, reduction="mean"):
    return ops.binary_cross_entropy_with_logits(input, target, weight, posWeight, reduction)


def _nllloss(logits, labels, weight, reduction="mean", ignore_index=-100):
    """NLLLoss's (loss, total_weight): total_weight sums the class weights of the targets
    that are not ignored, the divisor of the mean."""
    labels = checked_labels("NLLLoss", labels, logits.shape[1], ignore_index)
    loss = nll_loss(logits, labels, weight, ignore_index, reduction)
    kept = ops.cast(ops.not_equal(labels, ignore_index), weight.dtype)
    safe = ops.select(ops.not_equal(labels, ignore_index), labels, ops.zeros_like(labels))
    return loss, ops.reduce_sum(ops.gather(weight, safe, 0) * kept)


def _dropout_ext(input, p=0.5, seed=0, offset=0):
    """DropoutExt's (output, mask): elements zeroed with probability p, the rest scaled by
    1 / (1 - p); the mask is True where kept."""
    keep = ops.rand(tuple(input.shape)) >= p
    scale = 0.0 if p >= 1 else 1.0 / (1.0 - p)
    return input * ops.cast(keep, input.dtype) * scale, keep


def _randint(low, high, shape, seed=0, offset=0, dtype=None):
    return ops.randint(low, high, tuple(shape), dtype=dtype)


def _fill_in_place(op: str, input, draws):
    """Write `draws` into `input`, MindSpore's in-place random fill: a Parameter is assigned
    (eagerly or in a graph), a Tensor outside a graph has its data replaced."""
    from cellgraph.common.assign import assign
    from cellgraph.compiler.builder import current_builder, is_parameter

    draws = ops.cast(draws, input.dtype)
    if is_parameter(input):
        return assign(input, draws)
    if current_builder() is None:
        return input.assign_value(draws)
    raise UnsupportedError(f"{op}: in graph mode only a Parameter can be filled in place, got "
                           f"a Tensor argument; fill it outside the graph or make it a "
                           f"Parameter")


def _inplace_normal(input, mean=0.0, std=1.0, seed=0, offset=0):
    return _fill_in_place("InplaceNormal", input,
                          ops.normal(tuple(input.shape), mean, std))


def _inplace_uniform(input, from_=0.0, to=1.0, seed=0, offset=0):
    return _fill_in_place("InplaceUniform", input,
                          ops.uniform(tuple(input.shape), from_, to, dtype=input.dtype))


EXT_CLASSES.update({
    "InplaceNormal": _inplace_normal, "InplaceUniform": _inplace_uniform,
    "DropoutExt": _dropout_ext, "RandInt": _randint,
    "BernoulliExt": lambda input, seed=0, offset=0: ops.bernoulli(ops.zeros_like(input), input),
    "MultinomialExt": lambda input, num_samples, replacement=False, seed=0, offset=0:
        ops.multinomial(input, num_samples, replacement),
})


def _clone(input):
    """A new Tensor with input's values (a graph's values are never written in place, so
    there the value itself serves)."""
    from cellgraph.runtime.tensor import Tensor

    if isinstance(input, Tensor):
        return Tensor(input.asnumpy().copy(), input.dtype)
    return input


def _contiguous(input):
    """The input itself: cellgraph's Tensors are always stored contiguously, which is when
    MindSpore's Contiguous returns its input unchanged."""
    return input


def _unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """(values, inverse, counts) always, as MindSpore's primitive returns them; ops.
    unique_consecutive picks from them."""
    return unique_consecutive_all(input, dim)


def _cross(input, other, dim=-65530):
    """-65530 is the generated call's "dim not given": the first axis of size 3."""
    return ops.cross(input, other, None if dim == -65530 else dim)


def _one_hot_ext(tensor, num_classes=-1):
    """int64 one-hot rows over a new last axis; num_classes=-1 takes max(tensor) + 1, which
    needs the tensor's values (an eager Tensor)."""
    if num_classes == -1:
        num_classes = int(known(tensor, "tensor", "one_hot").max()) + 1
    return ops.one_hot(tensor, num_classes, 1, 0, -1)


# <name>_impl: MindSpore's argument order, every argument at call time.
IMPLS = {
    "argmax_with_value_impl": _argmax_with_value, "argmin_with_value_impl": _argmin_with_value,
    "concat_impl": ops.concat, "stack_ext_impl": ops.stack, "squeeze_impl": ops.squeeze,
    "softmax_impl": _softmax, "reduce_all_impl": ops.all, "reduce_any_impl": ops.any,
    "reduce_max_impl": _reduce_max, "reverse_v2_impl": ops.flip, "isclose_impl": ops.isclose,
    "meshgrid_impl": _meshgrid, "roll_impl": ops.roll,
    "binary_cross_entropy_with_logits_impl": _bce_with_logits,
    "elu_ext_impl": lambda input, alpha=1.0: ops.elu(input, alpha),
    "glu_impl": lambda x, axis=-1: ops.glu(x, axis),
    "rms_norm_impl": lambda x, gamma, epsilon=1e-6: ops.RmsNorm(epsilon)(x, gamma),
    "nllloss_impl": _nllloss,
    "grid_sampler_2d_impl": grid_sampler_impl, "grid_sampler_3d_impl": grid_sampler_impl,
    "flash_attention_score_impl": flash_attention_score_impl,
    "cross_impl": _cross, "triu_impl": ops.triu,
    "unique_consecutive_impl": _unique_consecutive, "one_hot_ext_impl": _one_hot_ext,
}



def _primitive_classes() -> dict:
    classes = {k: v for k, v in vars(ops.operations).items()
               if k[0].isupper() and isinstance(v, type)}
    classes.update({k: function_class(k, fn) for k, fn in EXT_CLASSES.items()})
    classes.update(Clone=function_class("Clone", _clone),
                   Contiguous=function_class("Contiguous", _contiguous))
    classes.update(inplace.GEN_OPS_CLASSES)
    classes["MaxPoolWithIndices"] = ops.MaxPoolWithIndices
    classes["MaxPoolWithMask"] = ops.MaxPoolWithMask
    return classes


def _instance_getter(classes: dict):
    """Module `__getattr__`: `<snake_name>_op` -> an instance of the class whose name, lower
    case, is snake_name without underscores (`matmul_ext_op` -> MatMulExt())."""
    by_key = {name.lower(): cls for name, cls in classes.items()}

    def __getattr__(name: str):
        cls = by_key.get(name[:-3].replace("_", "")) if name.endswith("_op") else None
        if cls is None:
            raise AttributeError(f"module 'ops.auto_generate.gen_ops_prim' has no attribute "
                                 f"{name!r}")
        return cls()

    return __getattr__


def mount() -> None:
    """Create `ops.auto_generate` and its three modules."""
    base = f"{ops.__name__}.auto_generate"
    classes = _primitive_classes()
    prim = _module(f"{base}.gen_ops_prim", "the primitive classes", classes)
    prim.__getattr__ = _instance_getter(classes)
    definitions = _module(f"{base}.gen_ops_def", "the functional operations",
                          {**{k: getattr(ops.function, k) for k in dir(ops.function)
                              if not k.startswith("_") and callable(getattr(ops.function, k))},
                           "copy": _clone, "contiguous": _contiguous})
    inner = _module(f"{base}.pyboost_inner_prim", "call-time functions of the classes", IMPLS)
    names = {k: getattr(definitions, k) for k in definitions.__all__}
    package = _module(base, "MindSpore's generated operator definitions",
                      {**names, **classes, "gen_ops_prim": prim, "gen_ops_def": definitions,
                       "pyboost_inner_prim": inner})
    package.__path__ = []
    ops.auto_generate = package
