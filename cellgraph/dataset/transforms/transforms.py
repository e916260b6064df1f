"""General transforms (mindspore.dataset.transforms): TypeCast, OneHot, Compose, PadEnd, Fill,
Concatenate, Slice, Duplicate, Mask, RandomApply, RandomChoice."""
from __future__ import annotations

import enum
import numbers
import operator
import random

import numpy as np

from cellgraph.dataset.core import config
from cellgraph.dataset.core.arguments import record_arguments
from cellgraph.dataset.core.validator_helpers import (
    check_arguments,
    check_value,
    type_check,
    type_check_list,
)
from cellgraph.primitives import dtype as dt

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "Mask", "OneHot", "PadEnd",
           "RandomApply", "RandomChoice", "RandomOrder", "Relational", "Slice", "TensorOperation", "TypeCast",
           "Unique"]


class TensorOperation:
    """Base of the transforms: callable on NumPy arrays (and, for vision, Pillow images),
    in a pipeline through `map` or eagerly."""

    # MindSpore runs this transform as Python (its Implementation.PY): an eager Compose that
    # holds one passes values between its transforms as they are (Pillow images stay images)
    # and returns a tuple
    python_implementation = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        record_arguments(cls)  # what `serialize` writes a transform with

    def __call__(self, *inputs):
        raise NotImplementedError


def _is_python(transform) -> bool:
    """MindSpore's Implementation.PY; a plain function is wrapped as a C++ PyFunc."""
    return bool(getattr(transform, "python_implementation", False))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomOperation(TensorOperation):
    """A transform that draws: its generator is seeded by `dataset.config.set_seed`, and a later
    `set_seed` starts it again from the new seed (MindSpore's Python transforms draw from the
    `random` module that set_seed seeds, its C++ ones are seeded anew from it each time a
    pipeline is built): in a map, the generator is the pass's (`EpochState.rng`), so every
    iterator over a seeded pipeline draws the same; called directly, its own."""

    _rng = None
    _rng_seeding = None

    @property
    def rng(self) -> np.random.Generator:
        from ..engine import current_pass

        state = current_pass()
        if state is not None:  # in a pipeline: the pass's generator for this transform
            return state.rng(self)
        seeding = config.seeding()
        if self._rng is None or self._rng_seeding != seeding:
            self._rng = config.new_rng()
            self._rng_seeding = seeding
        return self._rng


class CppRandomOperation(TensorOperation):
    """A transform that draws as MindSpore's C++ transforms draw: from `std::mt19937` seeded
    with the dataset seed (once set; else a seed of the system's), through libstdc++'s
    distributions (dataset._std_shuffle); a later set_seed starts it again, and so does every
    iterator over a pipeline that maps it (MindSpore makes its C++ ops anew). Called directly
    (not in a pipeline) after set_seed, each call starts from the seed, as MindSpore runs a
    new C++ op for each such call, so it gives the same result every time."""

    _words = None
    _seeding = None
    engine_type = None  # the engine's class, when not dataset._std_shuffle.Mt19937Words

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "__call__" in cls.__dict__:
            call = cls.__dict__["__call__"]

            def fresh_when_direct(self, *args, __call=call, **kw):
                from ..engine import current_pass

                if current_pass() is None and config.seeding():
                    self._words = None
                return __call(self, *args, **kw)

            fresh_when_direct.__name__ = call.__name__
            fresh_when_direct.__doc__ = call.__doc__
            fresh_when_direct.__wrapped__ = call
            cls.__call__ = fresh_when_direct

    @property
    def words(self):
        from cellgraph.dataset import _std_shuffle

        from ..engine import current_pass

        engine = self.engine_type or _std_shuffle.Mt19937Words
        state = current_pass()
        if state is not None:  # in a pipeline: an engine the pass seeds when it begins
            # each map worker's copy is seeded with the seed plus the worker's index
            base = config.get_seed() if config.seeding() else int(
                np.random.SeedSequence().entropy % 2**32)
            return state.words(self, lambda worker: engine((base + worker) % 2**32))
        seeding = config.seeding()
        if self._words is None or self._seeding != seeding:
            seed = config.get_seed() if seeding else int(np.random.SeedSequence().entropy
                                                         % 2**32)
            self._words, self._seeding = engine(seed), seeding
        return self._words


def _transform_list(transforms, op: str, types=(list,)) -> list:
    """MindSpore's checks of the transforms of Compose, RandomApply, RandomChoice and
    UniformAugment: a non-empty list (of `types`) of transform instances or callables (`op`
    names the caller)."""
    type_check(transforms, types, "transforms list")
    if not transforms:
        raise ValueError("transforms list can not be empty.")
    for i, transform in enumerate(transforms):
        if not callable(transform):
            raise TypeError(f"transforms[{i}] is neither a transforms op (TensorOperation) nor a "
                            f"callable pyfunc.")
        if type(transform) is type:
            raise ValueError(f"op_list[{i}] should be a dataset processing operation instance, "
                             f"but got: {transform}. It may be missing parentheses for "
                             f"instantiation.")
    return list(transforms)


def numpy_dtype(data_type) -> np.dtype:
    """A NumPy dtype from a cellgraph dtype (mstype.int32), a NumPy dtype or a name."""
    if isinstance(data_type, dt.DType):
        return data_type.np
    if isinstance(data_type, dt.String):  # mstype.string: a column of str
        return np.dtype(np.str_)
    try:
        return np.dtype(data_type)
    except TypeError:
        raise TypeError(f"TypeCast: `data_type` must be a dtype (mstype.int32, np.float32), "
                        f"got {data_type!r}") from None


class TypeCast(TensorOperation):
    """Cast to `data_type`."""

    @check_arguments
    def __init__(self, data_type):
        _check_data_type(data_type)
        self.dtype = numpy_dtype(data_type)

    def __call__(self, x):
        x = np.asarray(x)
        if x.dtype.kind in "US" and self.dtype.kind not in "US":
            source = "string" if x.dtype.kind == "U" else "bytes"
            raise RuntimeError(f"TypeCast: TypeCast does not support cast from {source} to "
                               f"{self.dtype.name}")
        if self.dtype.kind in "US" and x.dtype.kind not in "US":
            raise RuntimeError("Failed to create empty tensor, number of elements should be 0 "
                               "when data type is string.")
        return x.astype(self.dtype)


def _check_data_type(data_type) -> None:
    """MindSpore's check of TypeCast's (and ToType's) data_type: a MindSpore dtype, or anything
    numpy.dtype takes."""
    if isinstance(data_type, (dt.DType, dt.String)):
        return
    if data_type is not None:
        try:
            np.dtype(data_type)
            return
        except (TypeError, ValueError):
            pass
    type_check(data_type, (dt.DType, np.dtype), "data_type")


class OneHot(TensorOperation):
    """Integer labels of shape (*) -> one-hot rows of shape (*, num_classes), in the labels'
    dtype; with `smoothing_rate`, float64 rows (1 - rate) * one_hot + rate / num_classes
    (MindSpore 2.10's dtype for them)."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        type_check(num_classes, (int,), "num_classes")  # MindSpore's checks and words
        if num_classes <= 0:
            raise ValueError("Input must be greater than 0.")
        type_check(smoothing_rate, (int, float), "smoothing_rate")
        check_value(smoothing_rate, [0.0, 1.0], "smoothing_rate")
        self.num_classes, self.smoothing_rate = int(num_classes), float(smoothing_rate)

    def __call__(self, labels):
        labels = np.asarray(labels)
        if labels.dtype.kind not in "iu":
            kind = "string" if labels.dtype.kind in "USO" else labels.dtype.name
            raise RuntimeError(f"OneHot: Only support input of int type, but got: {kind}")
        labels = labels.squeeze()  # MindSpore drops the axes of length 1 first
        if labels.ndim > 1:
            raise RuntimeError(f"OneHot: Only support scalar or 1D input, got rank: "
                               f"{labels.ndim}")
        if labels.size and (labels.min() < 0 or labels.max() >= self.num_classes):
            raise RuntimeError(f"OneHot: labels must lie in [0, {self.num_classes}), got "
                               f"{labels.min()}..{labels.max()}")
        hot = np.eye(self.num_classes, dtype=labels.dtype)[labels]
        if self.smoothing_rate:
            rate = self.smoothing_rate
            return hot * (1 - rate) + rate / self.num_classes  # float64
        return hot


class Compose(TensorOperation):
    """The transforms one after another, as one operation. Called directly, as MindSpore's:
    when a transform runs as Python (or the input is one Pillow image) the values pass as
    they are and come back as a tuple; otherwise each transform's outputs become arrays, as
    MindSpore's C++ executor makes them tensors, and one output comes back alone."""

    def __init__(self, transforms):
        self.transforms = _transform_list(transforms, "Compose")

    @property
    def python_implementation(self) -> bool:
        return any(_is_python(t) for t in self.transforms)

    def __call__(self, *inputs):
        from ..engine import current_pass

        if not inputs:  # MindSpore's eager run of a Compose given nothing
            raise RuntimeError("Input Tensor is not valid.")
        if current_pass() is not None:
            return _run_in_turn(self.transforms, inputs)
        if self.python_implementation or (len(inputs) == 1 and _is_pil(inputs[0])):
            values = inputs
            for transform in self.transforms:
                values = transform(*values)
                values = values if isinstance(values, tuple) else (values,)
            return values
        values = tuple(np.asarray(v) for v in inputs)
        for transform in self.transforms:
            values = transform(*values)
            values = tuple(np.asarray(v) for v in (values if isinstance(values, tuple)
                                                   else (values,)))
        return values[0] if len(values) == 1 else values


def _is_pil(value) -> bool:
    return type(value).__module__.startswith("PIL.")


def _run_in_turn(transforms, inputs: tuple):
    values = inputs
    for transform in transforms:
        values = transform(*values)
        values = values if isinstance(values, tuple) else (values,)
    return values[0] if len(values) == 1 else values


def _compound_is_python(transforms) -> bool:
    """MindSpore's rule for RandomApply and RandomChoice: Python when the transforms that say
    how they run (not plain functions) all run as Python."""
    said = [t for t in transforms if hasattr(t, "python_implementation")]
    return bool(said) and all(_is_python(t) for t in said)


def _runs_as_python(compound, inputs: tuple) -> bool:
    """Whether MindSpore runs a RandomApply or RandomChoice as Python: its transforms all do,
    or it is called on a Pillow image."""
    return compound.python_implementation or (
        bool(inputs) and type(inputs[0]).__module__.startswith("PIL."))


class RandomApply(CppRandomOperation):
    """With probability `prob`, the transforms one after another; otherwise the input as
    it is. As MindSpore: run as C++, a std::uniform_real_distribution<double> draw at most
    `prob` over the op's mt19937 applies them; run as Python, `prob` below a draw of Python's
    `random` (which set_seed seeds) skips them."""

    @property
    def python_implementation(self) -> bool:
        return _compound_is_python(self.transforms)

    def __init__(self, transforms, prob=0.5):
        self.transforms = _transform_list(transforms, "RandomApply")
        type_check(prob, (float, int), "prob")
        check_value(prob, [0, 1], "prob")
        self.prob = prob

    def __call__(self, *inputs):
        from cellgraph.dataset import _std_shuffle

        if _runs_as_python(self, inputs):
            skip = self.prob < random.random()
        else:
            skip = not _std_shuffle.canonical_double(self.words) <= self.prob
        if skip:
            return inputs[0] if len(inputs) == 1 else inputs
        return _run_in_turn(self.transforms, inputs)


class RandomOrder(TensorOperation):
    """The transforms one after another in a random order: as MindSpore's (Python) transform,
    its list shuffled in place by Python's `random` (which set_seed seeds) at each call."""

    python_implementation = True

    def __init__(self, transforms):
        self.transforms = _transform_list(transforms, "RandomOrder")

    def __call__(self, *inputs):
        random.shuffle(self.transforms)
        return _run_in_turn(self.transforms, inputs)


class RandomChoice(CppRandomOperation):
    """One of the transforms, picked uniformly at random for each call. As MindSpore: run as
    C++, by std::uniform_int_distribution over the op's mt19937; run as Python, by
    random.choice (Python's `random`, which set_seed seeds)."""

    @property
    def python_implementation(self) -> bool:
        return _compound_is_python(self.transforms)

    def __init__(self, transforms):
        self.transforms = _transform_list(transforms, "RandomChoice")

    def __call__(self, *inputs):
        from cellgraph.dataset import _std_shuffle

        if _runs_as_python(self, inputs):
            transform = random.choice(self.transforms)
        else:
            pick = _std_shuffle.uniform_int(self.words, 0, len(self.transforms) - 1)
            transform = self.transforms[pick]
        return _run_in_turn([transform], inputs)


class PadEnd(TensorOperation):
    """Pad at the end of each axis up to `pad_shape` (None keeps an axis) with `pad_value`
    (0, or "" for strings); an axis already longer is cut to the length."""

    def __init__(self, pad_shape, pad_value=None):
        type_check(pad_shape, (list,), "pad_shape")
        for d in pad_shape:
            if d is not None and (isinstance(d, bool) or not isinstance(d, int)):
                raise TypeError("a value in the list is not an integer.")
        self.pad_shape, self.pad_value = list(pad_shape), pad_value

    def __call__(self, x):
        array = np.asarray(x)
        if array.ndim == 0:  # a scalar is left as it is, as MindSpore leaves it
            return array
        if array.ndim != len(self.pad_shape):
            raise RuntimeError(f"PadEnd: invalid pad shape, as rank of input is: {array.ndim}, "
                               f"and rank of pad value: {len(self.pad_shape)}")
        target = [n if d is None else d for n, d in zip(array.shape, self.pad_shape)]
        fill = self.pad_value if self.pad_value is not None else (
            {"U": "", "S": b""}.get(array.dtype.kind, 0))
        fill_array = np.asarray(fill)
        kinds = fill_array.dtype.kind + array.dtype.kind
        if ("U" in kinds or "S" in kinds) and fill_array.dtype.kind != array.dtype.kind:
            pair = f"{_type_name(fill_array.dtype)} and {_type_name(array.dtype)}"
            words = "string and byte" if set(kinds) == {"U", "S"} else "numeric and string"
            raise RuntimeError(f"PadEnd: can not pad {words} tensors together, but got: {pair}.")
        if array.dtype.kind in "US":
            dtype = np.promote_types(array.dtype, fill_array.dtype)  # the pad value's width
        else:
            dtype = array.dtype
            if fill_array.dtype.kind == "f" and dtype.kind in "iu":
                fill_array = fill_array.astype(np.int64)  # C's cast, toward zero
        out = np.full(target, fill_array.astype(dtype), dtype=dtype)
        kept = tuple(slice(0, min(n, t)) for n, t in zip(array.shape, target))
        out[kept] = array[kept]
        return out


class Fill(TensorOperation):
    """Every element set to `fill_value`, in the input's shape and dtype."""

    def __init__(self, fill_value):
        if not isinstance(fill_value, (str, bytes, bool, numbers.Number)):
            raise TypeError(f"Fill: `fill_value` must be a number, str or bytes, got "
                            f"{fill_value!r}")
        self.fill_value = fill_value

    def __call__(self, x):
        array = np.asarray(x)
        value = np.asarray(self.fill_value)
        if "U" in (value.dtype.kind + array.dtype.kind) or "S" in (value.dtype.kind +
                                                                   array.dtype.kind):
            if value.dtype.kind != array.dtype.kind:
                raise RuntimeError(f"Fill: fill_value and the input tensor must be of the same "
                                   f"data type when involving strings or bytes, but got "
                                   f"fill_value data type {_type_name(value.dtype)} and input "
                                   f"tensor data type {_type_name(array.dtype)}")
            return np.full(array.shape, self.fill_value)  # the value's own width
        if value.dtype.kind == "f" and array.dtype.kind in "iu":
            value = value.astype(np.int64)  # C's cast: toward zero, then wrapped
        return np.full(array.shape, value.astype(array.dtype))


def _type_name(dtype: np.dtype) -> str:
    """MindSpore's name of a tensor's element type (strings are "string", bytes "bytes")."""
    return {"U": "string", "S": "bytes"}.get(dtype.kind, dtype.name)


class Concatenate(TensorOperation):
    """The 1-D inputs (one or more columns) joined, with `prepend` before and `append` after;
    all of one data type (strings of any width count as one), refused in MindSpore's words
    otherwise."""

    def __init__(self, axis=0, prepend=None, append=None):
        if axis is not None:
            type_check(axis, (int,), "axis")
            if axis not in (0, -1):
                raise ValueError("only 1D concatenation supported.")
        for name, edge in (("prepend", prepend), ("append", append)):
            if edge is not None:
                type_check(edge, (np.ndarray,), name)
                if len(edge.shape) != 1:
                    raise ValueError(f"can only {name} 1D arrays.")
        self.axis, self.prepend, self.append = axis, prepend, append

    @staticmethod
    def _type_name(array) -> str:
        return "string" if array.dtype.kind in "USO" else array.dtype.name

    def __call__(self, *inputs):
        parts = [np.asarray(x) for x in inputs]
        names = {self._type_name(p) for p in parts}
        if len(names) > 1:
            raise RuntimeError("Concatenate: inconsistent datatype of input.")
        kind = self._type_name(parts[0])
        for name, edge in (("prepend", self.prepend), ("append", self.append)):
            if edge is not None and self._type_name(edge) != kind:
                raise RuntimeError(f"Concatenate: input datatype does not match the {name} "
                                   f"datatype, got input datatype: {kind}, {name} datatype:"
                                   f"{self._type_name(edge)}")
        for p in parts:
            if p.ndim != 1:
                raise RuntimeError(f"Concatenate: only 1D input supported, got rank of input: "
                                   f"{p.ndim}")
        return np.concatenate(([self.prepend] if self.prepend is not None else []) + parts
                              + ([self.append] if self.append is not None else []))


def _slice_option(item):
    """One axis of Slice as MindSpore's SliceOption takes it: a list of indices (an int is a
    list of one), a slice, or the whole axis (None, Ellipsis, True); False selects nothing."""
    if isinstance(item, list):
        type_check_list(item, (int,), "slice_option")
        return list(item)
    if isinstance(item, bool):
        return slice(None) if item else []
    if isinstance(item, int):
        return [item]
    return slice(None) if item is None or item is Ellipsis else item


def _axis_indices(option: list, length: int) -> list:
    """The indices of one axis, negative ones counted from its end (MindSpore's errors)."""
    if not option:
        raise RuntimeError("Both indices and slices can not be empty.")
    indices = [i + length if i < 0 else i for i in option]
    for index in indices:
        if not 0 <= index < length:
            raise RuntimeError(f"Index {index} is out of bounds.")
    return indices


class Slice(TensorOperation):
    """x[slices]: one item per leading axis, as MindSpore's Slice: an int (the axis keeps a
    length of one), a list of ints, a Python slice, or the whole axis (None, Ellipsis, True);
    lists on several axes select each axis on its own."""

    def __init__(self, *slices):
        for item in slices:  # MindSpore's checks, in its order and words
            if item is not None:
                type_check(item, (int, list, slice, bool, type(Ellipsis)), "slice")
                if isinstance(item, list) and item and isinstance(item[0], int):
                    type_check_list(item, (int,), "slice")
        self.slices = tuple(_slice_option(item) for item in slices)

    def __call__(self, x):
        array = np.asarray(x)
        if len(self.slices) > array.ndim:
            raise RuntimeError(f"Slice: {len(self.slices)} slices given for a tensor of rank "
                               f"{array.ndim}")
        for axis, option in enumerate(self.slices):
            if isinstance(option, list):
                array = np.take(array, _axis_indices(option, array.shape[axis]), axis=axis)
            else:
                array = array[(slice(None),) * axis + (option,)]
        return array


class Duplicate(TensorOperation):
    """(x, a copy of x): two output columns."""

    def __call__(self, x):
        array = np.asarray(x)
        return array, array.copy()


class Relational(enum.Enum):
    EQ = operator.eq
    NE = operator.ne
    GT = operator.gt
    GE = operator.ge
    LT = operator.lt
    LE = operator.le


class Mask(TensorOperation):
    """x `operator` constant, elementwise, as `dtype` (bool by default): the constant cast to
    x's type first; strings compare only with strings."""

    def __init__(self, operator, constant, dtype=dt.bool_):
        if not isinstance(operator, Relational):
            raise TypeError(f"Mask: `operator` must be a Relational, got {operator!r}")
        if not isinstance(constant, (str, bytes, bool, numbers.Number)):
            raise TypeError(f"Mask: `constant` must be a number, str or bytes, got "
                            f"{constant!r}")
        self.operator, self.constant = operator, constant
        self.dtype = numpy_dtype(dtype)

    def __call__(self, x):
        if self.dtype.kind in "US":
            raise RuntimeError(f"Mask: Only supports bool or numeric datatype for generated mask "
                               f"type, but got:{_type_name(self.dtype)}")
        array = np.asarray(x)
        constant = np.asarray(self.constant)
        if (array.dtype.kind in "US") != (constant.dtype.kind in "US"):
            raise RuntimeError("Mask: input datatype does not match the value datatype, both "
                               "should be numeric or non-numerical in the same time.")
        if array.dtype.kind not in "US":
            # the constant takes the input's type first (3.5 compares with ints as 3)
            if constant.dtype.kind == "f" and array.dtype.kind in "iu":
                constant = constant.astype(np.int64)
            constant = constant.astype(array.dtype)
        return np.asarray(self.operator.value(array, constant)).astype(self.dtype)


class Unique(TensorOperation):
    """A numeric array of rank 2 or more, flattened -> (its distinct values in the order they
    first appear, each element's index among them (int32), each value's count (int32)): three
    output columns. Every NaN counts as a value of its own, as in MindSpore."""

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise RuntimeError(f"Unique: only support 1D input, got rank: {len(inputs)}")
        array = np.asarray(inputs[0])
        if array.dtype.kind in "USO":
            raise RuntimeError("Unique: only support numeric datatype of input, got string.")
        if array.ndim < 2:
            raise RuntimeError(f"Unique: input must be at least 2-D in order to do unique op, "
                               f"got rank:{array.ndim}")
        if array.dtype.kind == "b":
            raise RuntimeError("Unique: Unique op only supports numeric input.")
        if array.size == 0:
            raise RuntimeError("Input Tensor has no data.")
        values = array.reshape(-1)
        positions, firsts, counts = {}, [], []
        index = np.empty(values.size, np.int32)
        for i, value in enumerate(values.tolist()):  # Python floats: each NaN is its own key
            at = positions.setdefault(value, len(firsts))
            if at == len(firsts):
                firsts.append(i)
                counts.append(0)
            counts[at] += 1
            index[i] = at
        return values[firsts], index, np.array(counts, np.int32)
