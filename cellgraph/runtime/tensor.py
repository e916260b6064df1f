"""Tensor and Parameter: a backend array plus its dtype, printed the way MindSpore prints."""
from __future__ import annotations

import importlib
import itertools
import numbers
import sys
import weakref

import numpy as np

from cellgraph._check_jit_forbidden_api import jit_forbidden_instances
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import TensorType, running_eagerly
from cellgraph.primitives.errors import (
    ArgumentValueError,
    DTypeError,
    RunError,
    ShapeError,
    UnsupportedError,
)
from cellgraph.primitives.functional import list_index_as_tuple
from cellgraph.primitives.strides import contiguous_strides, is_contiguous
from cellgraph.primitives.tensor_methods import TensorMethods

from .backend import get_backend
from .tensor_format import format_numpy_repr, format_print, format_repr


def _infer_dtype(data) -> dt.DType:
    """MindSpore's defaults: Python floats -> float32, ints -> int64, bools -> bool; a list of
    NumPy scalars keeps the dtype NumPy gives it (int32 aside, which is int64), and an int from
    2**63 up to 2**64 is uint64, as NumPy reads it."""
    if isinstance(data, np.ndarray | np.generic):
        return dt.from_numpy(data.dtype)
    arr = np.asarray(data)
    if arr.dtype == np.float64:
        return dt.float32
    if arr.dtype in (np.int32, np.int64):
        return dt.int64
    if arr.dtype.kind in "biufc":
        return dt.from_numpy(arr.dtype)
    if isinstance(data, int):  # past 64 bits: MindSpore's C++ conversion refuses it
        raise RunError(f"Unsupported tensor type! The int {data} does not fit in 64 bits.")
    raise DTypeError(f"Tensor: cannot make a tensor from {type(data).__name__} {data!r:.60}")


def _cast_host(input_data, dtype: dt.DType) -> np.ndarray:
    """`input_data` as a NumPy array of `dtype`, the way MindSpore's C++ casts: numbers outside
    the dtype's range wrap (300 as int8 is 44, -1 as uint8 is 255, 2**63 as int64 is -2**63),
    floats cast to ints truncate first, and complex numbers given a real dtype keep their real
    parts. Python ints past 64 bits are refused with a RuntimeError."""
    if isinstance(input_data, int) and not -2**63 <= input_data < 2**64:
        raise RunError(f"Cannot construct Tensor because of unsupported data type: the int "
                       f"{input_data} does not fit in 64 bits.")
    try:
        with np.errstate(all="ignore"):
            return np.array(input_data, dtype=dtype.np)
    except (OverflowError, ValueError, TypeError):
        values = np.array(input_data)  # NumPy's own reading: int64, uint64 or float64
    if values.dtype.kind == "O":
        raise RunError(f"Cannot construct Tensor because of unsupported data type: the int "
                       f"{input_data} does not fit in 64 bits.")
    if values.dtype.kind == "c" and not dtype.is_complex:
        values = values.real
    elif values.dtype.kind not in "biuf":
        raise DTypeError(f"Tensor: cannot make a {dtype} tensor from {input_data!r:.60}")
    with np.errstate(all="ignore"):
        return values.astype(dtype.np)


# the Tensors made over a NumPy array (Tensor.from_numpy), by id: their repr is NumPy's
_NUMPY_STYLE: dict[int, weakref.ref] = {}
# the Tensors marked `const_arg`, by id
_CONST_ARG: dict[int, weakref.ref] = {}
_MUTABLE: dict[int, weakref.ref] = {}  # the Tensors `mutable` was given (MindSpore marks them)
# the Tensors marked `virtual_flag` (placeholders a network is built on), by id
_VIRTUAL: dict[int, weakref.ref] = {}
# the NumPy dtypes MindSpore makes Tensors of (bfloat16 aside), as its input check lists them
_VALID_NP = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
             np.float16, np.float32, np.float64, np.bool_, np.str_, np.complex64, np.complex128)


_TENSOR_DTYPES = ", ".join(f"cellgraph.{name}" for name in (
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
    "float32", "float64", "bfloat16", "complex64", "complex128", "bool"))


def _check_input_data(input_data) -> None:
    """MindSpore's checks of a Tensor's data, in its words: a NumPy array of objects or records,
    or nested sequences that do not make one array, are refused with a TypeError."""
    if isinstance(input_data, np.ndarray) and (input_data.dtype.kind == "O" or
                                               input_data.dtype.fields is not None):
        new_line = "\n"
        supported = new_line.join(map(str, _VALID_NP))
        for index, x in np.ndenumerate(input_data):
            if np.array(x).dtype not in _VALID_NP:
                raise DTypeError(f"initializing tensor by numpy array failed, because the element "
                                 f"type '{type(x)}' of array is not supported.\nThe element index "
                                 f"in array: {index}, numpy array: {input_data}.\nThe supported "
                                 f"element type of ndarray as follow: {new_line}{supported}")
        raise DTypeError(f"initializing tensor by numpy array failed, numpy array: {input_data}, "
                         f"data type: {input_data.dtype}.\nThe supported element type of ndarray "
                         f"as follow: {new_line}{supported}")
    if isinstance(input_data, (list, tuple)):
        try:
            kind = np.array(input_data).dtype.kind
        except ValueError as exc:
            if "inhomogeneous shape" not in str(exc):
                raise
            kind = "O"
        if kind == "O":
            raise DTypeError(f"For Tensor, the input_data is {input_data} that contain "
                             f"unsupported element.")


def _check_tensor_dtype(dtype) -> None:
    """A Tensor's dtype is one of cellgraph's (NumPy's or Python's types are refused, with or
    without data, as MindSpore's)."""
    if dtype is not None and not isinstance(dtype, dt.DType):
        raise DTypeError(f"For 'Tensor', the 'dtype' should be one of [{_TENSOR_DTYPES}], "
                         f"but got '{getattr(dtype, '__name__', dtype)}'.")


class Tensor(TensorMethods):
    """An n-dimensional array on a backend. `Tensor(data, dtype=None)`; data is a list, a
    NumPy array, a scalar or another Tensor."""

    __module__ = "cellgraph.common.tensor"  # its public path, as MindSpore's (printed, pickled)
    # a NumPy array or scalar on the left of an operator takes a Tensor in as an array
    # (`ndarray - Tensor` is an ndarray, as in MindSpore): NumPy's scalars have priority -1e6,
    # so the Tensor's is no higher; graph values (Tracers) keep the priority that sends the
    # operator to the graph
    __array_priority__ = -1000000.0

    # _layout: (strides, offset) of the view MindSpore's PyNative would make this Tensor as
    # (primitives/strides.py); unset or None: a fresh, contiguous Tensor
    # _parent: (Tensor, index) for a Tensor that `parent[index]` gave outside graphs; writing
    # an element of it writes it back there, as MindSpore's CPU runtime does
    __slots__ = ("__weakref__", "_data", "_dtype", "_layout", "_parent")
    _is_tensor_class = True

    def __getattr__(self, name: str):
        """A public method the API layer adds (`x.addcmul`, the compositions' methods) before
        `cellgraph.ops` was imported: importing it installs them, then the lookup is made
        again: the core reaching the API layer by name and on demand (docs/architecture.md
        lists it with Parameter.clone's)."""
        if name.startswith("_") or "cellgraph.ops" in sys.modules:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        importlib.import_module("cellgraph.ops")
        return object.__getattribute__(self, name)

    def __new__(cls, input_data=None, dtype=None, shape=None, *args, **kwargs):
        if isinstance(input_data, TensorMethods) and not isinstance(input_data, Tensor):
            # `Tensor(x)` inside a graph, over a graph value: that value (in `dtype`)
            from cellgraph.primitives import functional as F

            return input_data if dtype is None else F.cast(input_data, dt.as_dtype(dtype))
        if input_data is None:  # (a Tensor with data skips all this)
            _check_tensor_dtype(dtype)
            init = kwargs.get("init", args[0] if args else None)
            if shape is None:
                if dtype is not None and init is None:  # any rank: MindSpore's shape [-2]
                    return object.__new__(SignatureTensor)
            elif not isinstance(shape, int) and any(_unknown_size(d) or d == -2 for d in shape):
                return object.__new__(SignatureTensor)
            elif cls is Tensor and dtype is not None and init is not None:
                return object.__new__(UninitializedTensor)
        return object.__new__(cls)

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, const_arg=False,
                 internal=False):
        if internal:  # fast path for results: input_data is already a backend array
            self._data, self._dtype = input_data, dtype
            return
        if not isinstance(const_arg, bool):
            raise DTypeError(f"For 'Tensor', the type of 'const_arg' should be 'bool', but got "
                             f"type '{type(const_arg).__name__}'.")
        if const_arg:
            self.set_const_arg(const_arg)
        if init is not None:  # with shape and dtype and no data, an UninitializedTensor
            raise ArgumentValueError("Tensor: init, dtype and shape must have values at the same "
                                     "time, and input_data must be None")
        if input_data is None and shape is not None:
            input_data = np.zeros(shape, (dt.as_dtype(dtype) if dtype else dt.float32).np)
        if isinstance(input_data, Tensor):
            if (dtype is None or dt.as_dtype(dtype) == input_data.dtype) and \
                    not isinstance(self, Parameter) and _has_data(input_data):
                # the same elements in the same dtype: MindSpore's Tensor over the same
                # memory, layout and all, so writes to one show in the other (a Parameter
                # holds its own copy)
                _check_tensor_dtype(dtype)
                self._data, self._dtype = input_data._data, input_data.dtype
                self._layout = getattr(input_data, "_layout", None)
                return
            input_data = input_data.asnumpy()
        if input_data is None:
            raise DTypeError("Tensor: expected data (a list, NumPy array or number), got None")
        if not isinstance(input_data, (np.ndarray, np.generic, numbers.Number, list, tuple)):
            raise DTypeError(f"Tensor: cannot make a tensor from {type(input_data).__name__}")
        _check_input_data(input_data)
        _check_tensor_dtype(dtype)
        dtype = dtype if dtype is not None else _infer_dtype(input_data)
        host = _cast_host(input_data, dtype)
        self._data = get_backend().from_host(host)
        self._dtype = dtype

    @property
    def const_arg(self) -> bool:
        """Whether MindSpore compiles this Tensor, passed to a graph, as a constant
        (`Tensor(..., const_arg=True)`, `set_const_arg`): each such Tensor gets its own
        specialisation of the graph (its own phase), and no gradient is taken with respect to
        it (grad and GradOperation leave it out of their results). `mutable` clears it."""
        made = _CONST_ARG.get(id(self))
        return made is not None and made() is self

    def set_const_arg(self, const_arg=True) -> Tensor:
        if not isinstance(const_arg, bool):
            raise DTypeError(f"For 'set_const_arg', the type of 'const_arg' should be 'bool', "
                             f"but got type '{type(const_arg).__name__}'.")
        key = id(self)
        if const_arg:
            _CONST_ARG[key] = weakref.ref(self, lambda _: _CONST_ARG.pop(key, None))
        else:
            _CONST_ARG.pop(key, None)
        return self

    @property
    def __ms_origin_object__(self):
        """MindSpore's mark on a Tensor given to `mutable`: the Tensor itself."""
        made = _MUTABLE.get(id(self))
        if made is None or made() is not self:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute "
                                 f"'__ms_origin_object__'")
        return self

    @property
    def __ms_mutable__(self) -> bool:
        made = _MUTABLE.get(id(self))
        return made is not None and made() is self

    def _mark_mutable(self) -> Tensor:
        key = id(self)
        _MUTABLE[key] = weakref.ref(self, lambda _: _MUTABLE.pop(key, None))
        return self

    @property
    def virtual_flag(self) -> bool:
        """Whether this Tensor is a placeholder a network is built on before data arrives
        (MindSpore's `_construct_tensor_list` marks them); nothing reads it to compute."""
        made = _VIRTUAL.get(id(self))
        return made is not None and made() is self

    @virtual_flag.setter
    def virtual_flag(self, value) -> None:
        key = id(self)
        if value:
            _VIRTUAL[key] = weakref.ref(self, lambda _: _VIRTUAL.pop(key, None))
        else:
            _VIRTUAL.pop(key, None)

    @staticmethod
    def from_numpy(array) -> Tensor:
        """A Tensor over `array` itself, as MindSpore's: on the CPU the two share memory, so a
        later in-place change of the array shows in the Tensor (`Tensor(array)` copies)."""
        if not isinstance(array, np.ndarray):
            raise DTypeError(f"Tensor.from_numpy: expected a numpy.ndarray, got "
                             f"{type(array).__name__}")
        dtype = dt.from_numpy(array.dtype)
        t = Tensor._wrap(get_backend().from_host(array), dtype)
        key = id(t)
        _NUMPY_STYLE[key] = weakref.ref(t, lambda _: _NUMPY_STYLE.pop(key, None))
        return t

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None) -> Tensor:
        """Fills a Tensor made with `init=` (see UninitializedTensor); others have their data
        already: returns self."""
        return self

    @property
    def has_init(self) -> bool:
        """Whether the data waits for init_data() (a Tensor made with `init=`)."""
        return False

    @classmethod
    def _wrap(cls, data, dtype: dt.DType) -> Tensor:
        t = object.__new__(Tensor)
        t._data, t._dtype = data, dtype
        return t

    @property
    def aval(self) -> TensorType:
        return TensorType(tuple(self._data.shape), self._dtype)

    @property
    def shape(self) -> tuple:
        return tuple(self._data.shape)

    @property
    def dtype(self) -> dt.DType:
        return self._dtype

    def asnumpy(self) -> np.ndarray:
        """The data as a NumPy array; 64-bit integers typed as C's long long, as MindSpore's
        arrays (made over its C++ tensors) are, so their repr says `dtype=int64` as there."""
        array = np.asarray(get_backend().to_host(self._data))
        if array.dtype.kind in "iu" and array.dtype.itemsize == 8:
            return array.view(np.longlong if array.dtype.kind == "i" else np.ulonglong)
        return array

    def numpy(self) -> np.ndarray:
        return self.asnumpy()

    def item(self):
        """The one element of the Tensor as a Python scalar (MindSpore's item takes no index)."""
        arr = self.asnumpy()
        if arr.size != 1:
            raise ValueError(f"Tensor.item: only a Tensor of one element can be converted to "
                             f"a Python scalar, got shape {arr.shape}")
        return arr.item()

    def tolist(self):
        return self.asnumpy().tolist()

    def __array__(self, dtype=None, copy=None):
        arr = self.asnumpy()
        return arr if dtype is None else arr.astype(dtype)

    def __bool__(self) -> bool:
        """The truth of a one-element Tensor; ValueError for any other (MindSpore's message),
        also where construct tests a Tensor constant (`if self.mask:`)."""
        arr = self.asnumpy()
        if arr.size != 1:
            raise ArgumentValueError(f"The tensor should have only one element, but got "
                                     f"{arr.size}, more than one element is ambiguous.")
        return bool(arr.reshape(())[()])

    def __float__(self) -> float:
        return float(self._one_element("Only one element tensors can be converted to Python "
                                       "scalars"))

    def __int__(self) -> int:
        return int(self._one_element("Only one element tensors can be converted to Python "
                                     "scalars"))

    def __index__(self) -> int:
        """An integer Tensor of one element indexes a Python list (`x1[Tensor([i])]`)."""
        message = "Only integer tensors of a single element can be converted to an index"
        if self.dtype.is_float or self.dtype.is_complex:
            raise ArgumentValueError(f"{message}, got {self.dtype}")
        return int(self._one_element(message))

    def _one_element(self, message: str):
        """The element of a Tensor of one element, whatever its rank ((), (1,), (1, 1), ...),
        as MindSpore reads them; ValueError for any other size."""
        data = self.asnumpy()
        if data.size != 1:
            raise ArgumentValueError(f"{message}, got shape {data.shape}")
        return data.reshape(())[()]

    def __contains__(self, element) -> bool:
        """`x in t`, as MindSpore's: whether an element of `t` equals `x`, a number or a Tensor
        (broadcast against `t`); any other value (a list, a string, an array) is not in it."""
        if not isinstance(element, (Tensor, numbers.Number)):
            return False
        other = element.asnumpy() if isinstance(element, Tensor) else element
        return bool(np.any(self.asnumpy() == other))

    def __iter__(self):
        if not self.shape:  # MindSpore's words: a graph's, else PyNative's
            from cellgraph.compiler.builder import current_builder

            raise DTypeError("Cannot iterate over a scalar tensor." if current_builder()
                             is not None else "iteration over a 0-d tensor")
        return (self[i] for i in range(len(self)))

    def __setitem__(self, index, value):
        """In-place assignment outside graphs, with NumPy indexing rules. As in MindSpore,
        the elements are written where they lie: a view (`x[0]`, `x[:, 1]`, `x.reshape(...)`,
        `x.T`, ...) writes its base, and views see writes to their base. Data that may not
        be written (a graph's constant handed out as a result) is copied first."""
        index = _host_index(index)
        if isinstance(value, Tensor):
            value = value.asnumpy()
        elif isinstance(value, numbers.Number | list | tuple):  # cast as Tensor(value, dtype)
            value = _cast_host(value, self._dtype)  # casts: 300 into int8 is 44
        data = self._data
        if data.__class__ is np.ndarray and data.flags.writeable:
            data[index] = value
        else:
            host = self.asnumpy().copy()
            host[index] = value
            self._data = get_backend().from_host(host)
        self._write_back()

    def __repr__(self) -> str:
        made = _NUMPY_STYLE.get(id(self))
        if made is not None and made() is self:
            return format_numpy_repr(self.asnumpy(), self._dtype.label)
        return format_repr(self.asnumpy(), self._dtype.label)

    def __str__(self) -> str:
        return format_print(self.asnumpy())

    def __format__(self, spec):
        return format(self.asnumpy().item(), spec) if spec else str(self)

    def _graph_text(self) -> str:
        """How a graph writes this Tensor, held as a constant, into an f-string (MindSpore's
        `f"{Tensor(2)}"` in construct): its repr without the commas."""
        return format_repr(self.asnumpy(), self._dtype.label, comma="")

    def copy(self) -> Tensor:
        return Tensor(self.asnumpy().copy(), self._dtype)

    @property
    def data(self) -> Tensor:
        """A new Tensor over this one's elements (writes to either show in the other), as
        MindSpore's `t.data`; in a graph being built, this Tensor itself."""
        return self._alias() if running_eagerly() else self

    @data.setter
    def data(self, value) -> None:
        """`t.data = v`: this Tensor holds v's elements from now on (v's shape and dtype)."""
        if not isinstance(value, Tensor) or not _has_data(value):
            raise DTypeError(f"Tensor.data: expected a Tensor with data, got "
                             f"{type(value).__name__}")
        self._data, self._dtype = value._data, value._dtype
        self._layout = getattr(value, "_layout", None)

    def _alias(self) -> Tensor:
        """A new Tensor over this one's elements (MindSpore's `to` a dtype it has already):
        writes to either show in the other."""
        alias = Tensor._wrap(self._data, self._dtype)
        alias._layout = getattr(self, "_layout", None)
        return alias

    def __getitem__(self, index):
        """`self[index]`; outside graphs the result remembers where it came from, so that
        assigning into it writes `self[index]` too, even where it is a copy (an index list, a
        mask), as MindSpore's CPU runtime does. An index that leaves every element in place
        (`...`, `()`) gives this Tensor itself."""
        if index is Ellipsis or isinstance(index, tuple) and len(index) <= 1 and \
                all(i is Ellipsis for i in index):
            return self
        out = super().__getitem__(index)
        if isinstance(out, Tensor) and out is not self and _called_by_user():
            out._parent = (self, index)
        return out

    def _write_back(self) -> None:
        """After an element assignment: write this Tensor back where it was read from, when it
        is not a view whose write already landed there (then the parent's own parent may still
        need it)."""
        parent, index = getattr(self, "_parent", None) or (None, None)
        if parent is None:
            return
        source, data = getattr(parent, "_data", None), self._data
        if isinstance(source, np.ndarray) and isinstance(data, np.ndarray) and \
                np.may_share_memory(source, data):
            parent._write_back()
        else:
            parent[index] = self

    # -- the layout of MindSpore's views (primitives/strides.py) -----------------------------
    def _view_layout(self) -> tuple:
        layout = getattr(self, "_layout", None)
        return layout if layout is not None else (contiguous_strides(self.shape), 0)

    def is_contiguous(self) -> bool:
        """Whether the elements lie row-major without gaps: False for what MindSpore makes as
        a strided view (a transpose, a narrow or slice of an inner axis, a broadcast)."""
        strides, _ = self._view_layout()
        return is_contiguous(self.shape, strides)

    def stride(self, dim=None):
        """The steps, in elements, between neighbours along each axis (those of the view
        MindSpore makes the Tensor as): a list, or along `dim` an int."""
        strides = list(self._view_layout()[0])
        return strides if dim is None else strides[dim]

    def storage_offset(self) -> int:
        """Where the elements start in the memory of the Tensor this one is a view of."""
        return self._view_layout()[1]

    def contiguous(self) -> Tensor:
        """This Tensor if contiguous, else a contiguous copy of it."""
        return self if self.is_contiguous() else self.copy()

    def clone(self) -> Tensor:
        return self.copy()

    def assign_value(self, value) -> Tensor:
        """Replace this tensor's data by `value`'s (same shape), in place (where the elements
        lie, as `__setitem__` writes: its views see the new values); returns self."""
        src = value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)
        data = self._data
        if data.__class__ is np.ndarray and data.flags.writeable and data.shape == src.shape:
            np.copyto(data, src, casting="unsafe")
            return self
        self._data = get_backend().from_host(np.array(src, dtype=self._dtype.np))
        return self

    def flush_from_cache(self) -> None:
        """Write back what a device cache holds of this Tensor (MindSpore's embedding cache,
        a Parameter's `cache_enable` in parameter-server training). cellgraph keeps no such
        cache: a Tensor's data is whole where it lives, so, as MindSpore does for a Tensor
        without a cache, nothing is written and None is returned."""

    def data_ptr(self) -> int:
        """The address of the first element of this Tensor's data on its device."""
        data = self._data
        if isinstance(data, np.ndarray):
            return int(data.ctypes.data)
        for read in (lambda d: d.data_ptr(), lambda d: d.data.ptr,
                     lambda d: d.unsafe_buffer_pointer()):  # torch, CuPy, JAX
            try:
                return int(read(data))
            except AttributeError:
                continue
        return int(np.ascontiguousarray(self.asnumpy()).ctypes.data)

    def is_pinned(self) -> bool:
        """Whether the data sits in page-locked host memory: cellgraph never pins it."""
        return False

    def is_shared(self) -> bool:
        """Whether the data sits in memory shared between processes: cellgraph's never does."""
        return False

    def get_bytes(self) -> bytes:
        """The raw bytes of the data, in C order (Tensor.convert_bytes_to_tensor reads them)."""
        return np.ascontiguousarray(self.asnumpy()).tobytes()

    @staticmethod
    def convert_bytes_to_tensor(bytes_data, shape, dtype) -> Tensor:
        """A Tensor of `shape` and `dtype` from raw bytes (what get_bytes gives)."""
        dtype = dt.as_dtype(dtype)
        return Tensor(np.frombuffer(bytes_data, dtype.np).reshape(tuple(shape)).copy(), dtype)

    def move_to(self, to, blocking=True) -> Tensor:
        """A copy of this Tensor on device `to` ("Ascend", "GPU" or "CPU"), which must be the
        context's device target, as in MindSpore. The copy is complete when it returns, which
        `blocking=False` (an asynchronous copy) also allows."""
        if not isinstance(blocking, bool):
            raise DTypeError(f"For 'move_to', the type of 'blocking' must be bool, but got "
                             f"{type(blocking).__name__}.")
        if to not in ("Ascend", "GPU", "CPU"):
            raise ArgumentValueError(f"The value of 'to' must be one of ['Ascend', 'GPU', "
                                     f"'CPU'], but got {to}")
        target = get_backend().device  # the device the context's target picked
        if to != target:
            raise RuntimeError(f"The value of arg 'to' of method 'move_to' should be same with "
                               f"device target, but got to:{to}, device target: {target}")
        return Tensor(self.asnumpy().copy(), self.dtype)

    def _offload(self, release=False) -> None:
        """Move the data to host memory (MindSpore's parameter offload; `release` frees the
        device copy). The data already lives there when the backend computes on the host
        (the NumPy backend, a CPU device), so nothing moves; a backend on an accelerator keeps
        its data on the device, which cellgraph cannot offload: UnsupportedError."""
        self._host_resident("_offload")

    def _load(self) -> None:
        """Bring offloaded data back to the device (MindSpore's `_load`); on the host, where
        `_offload` left it, nothing moves."""
        self._host_resident("_load")

    def _host_resident(self, op: str) -> None:
        backend = get_backend()
        if backend.device != "CPU":
            raise UnsupportedError(f"Tensor.{op}: the {backend.name} backend keeps the data on "
                                   f"its {backend.device} device, which cellgraph cannot "
                                   f"offload to the host")

    def itemset(self, *args) -> Tensor:
        """A copy with one element replaced (this Tensor is unchanged, as in MindSpore):
        `itemset(value)` for a one-element Tensor, `itemset(flat_index, value)` or
        `itemset((i, j, ...), value)`."""
        if not 1 <= len(args) <= 2:
            raise TypeError(f"itemset() takes 1 or 2 arguments, got {len(args)}")
        data = self.asnumpy().copy()
        _set_item(data, *args)
        return Tensor(data, self.dtype)

    def set_(self, source) -> Tensor:
        """This Tensor's data, shape and dtype replaced by `source`'s, in place; returns self."""
        if not isinstance(source, Tensor):
            raise TypeError(f"For 'set_', the source must be a Tensor, but got "
                            f"{type(source).__name__}.")
        self._dtype = source._dtype
        self._data = get_backend().from_host(source.asnumpy().copy())
        return self

    def set_dtype(self, dtype):
        self._dtype = dt.as_dtype(dtype)
        self._data = get_backend().from_host(self.asnumpy().astype(self._dtype.np))


def _set_item(data: np.ndarray, *args) -> None:
    """ndarray.itemset, which NumPy 2 removed: the only element, or the one at a flat index or
    an index tuple."""
    if len(args) == 1:
        if data.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        data.flat[0] = args[0]
    elif isinstance(args[0], tuple):
        data[args[0]] = args[1]
    else:
        data.flat[args[0]] = args[1]


def diagonal_view(source: Tensor, values: Tensor, offset: int, dim1: int, dim2: int) -> Tensor:
    """`values`, the diagonal of `source` (offset, over axes dim1 < or > dim2, moved last), as
    MindSpore's PyNative makes it: a view that writes and sees `source`'s elements, with that
    view's strides and storage offset. Data that is not a writable NumPy array keeps `values`."""
    data = source._data
    if data.__class__ is not np.ndarray or not data.flags.writeable:
        return values
    view = np.diagonal(data, offset, dim1, dim2)
    view.flags.writeable = True  # a view of writable memory: NumPy leaves it read-only
    out = Tensor._wrap(view, source._dtype)
    strides, start = source._view_layout()
    kept = [s for axis, s in enumerate(strides) if axis not in (dim1, dim2)]
    start += max(-offset, 0) * strides[dim1] + max(offset, 0) * strides[dim2]
    layout = (tuple(kept) + (strides[dim1] + strides[dim2],), start if view.size else 0)
    if layout != (contiguous_strides(view.shape), 0):
        out._layout = layout
    return out


def _called_by_user() -> bool:
    """Whether the caller of the caller is outside cellgraph: an index a user program reads
    (an operation composed of others reads indices too, and its result does not write back
    into its input)."""
    caller = sys._getframe(2).f_globals.get("__name__", "")
    return not (caller == "cellgraph" or caller.startswith("cellgraph."))


def _has_data(tensor: Tensor) -> bool:
    """Whether `tensor` holds its elements now (not a shape-only or uninitialized Tensor)."""
    return not isinstance(tensor, (SignatureTensor, UninitializedTensor))


def _unknown_size(dim) -> bool:
    """Whether a dimension of Tensor(shape=...) is an unknown size: None, -1 or a Symbol."""
    return dim is None or getattr(dim, "_is_shape_symbol", False) or \
        (isinstance(dim, numbers.Integral) and dim == -1)


class SignatureTensor(Tensor):
    """`Tensor(shape=[None, 3], dtype=float32)`: a shape with unknown sizes and a dtype, no
    data; what `Cell.set_inputs` takes to describe the inputs it will be called with. As in
    MindSpore, an unknown size shows as -1, and `Tensor(shape=None, dtype=...)` (or shape
    [-2]) is a Tensor of any rank, whose shape shows as (-2,)."""

    __slots__ = ("_signature_shape",)

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, const_arg=False,
                 internal=False):
        if shape is None or tuple(shape) == (-2,):
            self._signature_shape = (-2,)
        else:
            if any(d == -2 for d in shape):
                raise ShapeError(f"Tensor: -2 (any rank) stands alone in a shape, got "
                                 f"{list(shape)}")
            self._signature_shape = tuple(-1 if _unknown_size(d) else int(d) for d in shape)
        self._dtype = dt.as_dtype(dtype) if dtype is not None else dt.float32
        self._data = None

    @property
    def shape(self) -> tuple:
        return self._signature_shape

    @property
    def aval(self) -> TensorType:
        """The abstract value a graph compiled for it (`Cell.compile`) takes: unknown sizes are
        dynamic dimensions (None); a Tensor of any rank has none."""
        if self._signature_shape == (-2,):
            raise ShapeError("a Tensor of any rank (shape -2) cannot be compiled for: give it a "
                             "rank, with -1 or None for each unknown size")
        return TensorType(tuple(None if d == -1 else d for d in self._signature_shape),
                          self._dtype)

    def asnumpy(self):
        raise DTypeError(f"a Tensor of shape {self._signature_shape} (unknown sizes) has no "
                         f"data; it only describes inputs (Cell.set_inputs)")

    def __repr__(self) -> str:
        """MindSpore's spelling of a Tensor with no data: its value on a line of its own,
        empty."""
        return f"Tensor(shape={list(self._signature_shape)}, dtype={self._dtype.label}, value=\n)"

    __str__ = __repr__


class ScalarArgument(Tensor):
    """A number `mutable()` made, as a graph it is passed to takes it: a 0-d input (int64,
    float32 or bool) that the graph reads as a variable scalar, a number known only when it
    runs (MindSpore's mutable scalar)."""

    __slots__ = ()
    _scalar_argument = True


_DATA_SLOT = Tensor.__dict__["_data"]


class UninitializedTensor(Tensor):
    """`Tensor(shape=..., dtype=..., init=Normal())` (and what `initializer()` returns), as in
    MindSpore: the initializer runs when `init_data()` or `asnumpy()` first asks for the values
    (so its draw from NumPy's generator happens then too); until then the Tensor prints as
    `<uninitialized>`, and an operation given it raises RuntimeError. Filling it turns it into
    a plain Tensor in place."""

    __slots__ = ()

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, const_arg=False,
                 internal=False):
        if not callable(init):
            raise DTypeError(f"Tensor: `init` must be an Initializer such as Normal(), "
                             f"got {type(init).__name__} {init!r:.40}")
        shape = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
        self._dtype = dt.as_dtype(dtype) if dtype is not None else dt.float32
        _DATA_SLOT.__set__(self, (init, shape))

    @property
    def _data(self):
        raise RuntimeError(f"The {self!r} is uninitialized. Maybe the Tensor is created by an "
                           f"initializer: call Tensor.init_data() before using it")

    @property
    def shape(self) -> tuple:
        return _DATA_SLOT.__get__(self)[1]

    @property
    def aval(self) -> TensorType:
        return TensorType(self.shape, self._dtype)

    @property
    def has_init(self) -> bool:
        return True

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None) -> Tensor:
        host = self.initial_values()
        self.__class__ = Tensor
        self._data = get_backend().from_host(host)
        return self

    def initial_values(self) -> np.ndarray:
        """The values init_data() would fill it with, in a new NumPy array; the Tensor stays
        uninitialized (a graph that reads it takes them as a constant, as MindSpore's does)."""
        init, full_shape = _DATA_SLOT.__get__(self)
        host = np.zeros(full_shape, self._dtype.np)
        init(host)  # an Initializer fills a NumPy array in place (its protocol)
        return host

    def asnumpy(self) -> np.ndarray:
        return self.init_data().asnumpy()

    def __setitem__(self, index, value):
        self.init_data()[index] = value

    def __repr__(self) -> str:
        return (f"Tensor(shape={list(self.shape)}, dtype={self._dtype.label}, value=\n"
                f"<uninitialized>)")

    __str__ = __repr__


def _host_index(index):
    index = list_index_as_tuple(index)
    if isinstance(index, tuple):
        return tuple(_host_index(i) for i in index)
    return index.asnumpy() if isinstance(index, Tensor) else index


GENERATED_NAME_PREFIX = "Parameter#"  # a Parameter made without a name is named by a count
_GENERATED_NAME_IDS = itertools.count()
_NAME_MAX_LEN = 1024


def is_generated_name(name) -> bool:
    """Whether `name` is one a Parameter made without a name got (a Cell renames those)."""
    return isinstance(name, str) and name.startswith(GENERATED_NAME_PREFIX)


def check_non_negative_int(value) -> int:
    """MindSpore's Validator.check_non_negative_int: TypeError for a non-int, ValueError for
    a negative one."""
    if isinstance(value, bool):
        raise DTypeError(f"The input value must be int and must >= 0, but got '{value}' with "
                         f"type 'bool'.")
    if not isinstance(value, numbers.Integral):
        raise DTypeError(f"The input value must be int, but got '{type(value).__name__}'")
    if value < 0:
        raise ArgumentValueError(f"The input value must be int and must >= 0, but got "
                                 f"'{value}' with type 'int'.")
    return int(value)


@jit_forbidden_instances  # a graph refuses to create one (MindSpore's ValueError)
class Parameter(Tensor):
    """A trainable (or frozen) tensor owned by a Cell; graphs read it as an input."""

    __module__ = "cellgraph.common.parameter"

    __slots__ = (
        "_cache_enable",
        "_cache_shape",
        "_comm_fusion",
        "_layerwise_parallel",
        "_name",
        "_parallel_optimizer",
        "_requires_grad",
        "_split",
        "_version",
    )

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True, storage_format="", device=None):
        data = default_input
        if isinstance(data, bool):
            raise ArgumentValueError("Parameter data can not be `bool`")
        if isinstance(data, tuple):
            raise DTypeError(f"The type of the argument 'default_input' must be in ['Tensor', "
                             f"'int', 'float', 'numpy.ndarray', 'list']. But got type "
                             f"{type(data)}.")
        if isinstance(data, int):  # as MindSpore: a Python int is int32, a float float32
            data = np.asarray(data, np.int32)
        elif isinstance(data, numbers.Number):
            data = np.asarray(data, np.float32)
        super().__init__(data, dtype=default_input.dtype if isinstance(default_input, Tensor)
                         else None)
        self.name = name
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        self._version = 0
        self._comm_fusion = 1
        # (layout, device matrix, groups, whole shape) once each rank holds a slice (operator
        # sharding: runtime/sharded_parameters.py)
        self._split = None

    @property
    def name(self) -> str:
        """The Parameter's name: the one given (stripped of surrounding blanks), or, where none
        was (None or blank), a generated `Parameter#N` that a Cell replaces by the attribute's
        name when the Parameter is set on it (MindSpore's naming)."""
        return self._name

    @name.setter
    def name(self, name) -> None:
        if name is not None and not isinstance(name, str):
            raise ArgumentValueError(f"The type of the Parameter's name should be 'string' or "
                                     f"'None', but got {type(name)}.")
        name = name.strip() if name is not None else ""
        if not name:
            name = f"{GENERATED_NAME_PREFIX}{next(_GENERATED_NAME_IDS)}"
        elif len(name) > _NAME_MAX_LEN:
            raise ArgumentValueError(f"The length of the '{name}' name should be less than "
                                     f"{_NAME_MAX_LEN}.")
        self._name = name

    @property
    def requires_grad(self) -> bool:
        """Whether gradients are taken with respect to this Parameter (a bool)."""
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value) -> None:
        if not isinstance(value, bool):
            raise DTypeError("The argument `requires_grad` must be bool type")
        self._requires_grad = value

    @property
    def comm_fusion(self) -> int:
        """The fusion group of this Parameter's gradient all-reduce in data parallelism:
        gradients of one group travel in buckets together, 0 alone (nn.DistributedGradReducer,
        where the Parameters' groups differ)."""
        return getattr(self, "_comm_fusion", 1)  # 1 for one made without __init__

    @comm_fusion.setter
    def comm_fusion(self, value) -> None:
        self._comm_fusion = check_non_negative_int(value)

    @property
    def layerwise_parallel(self) -> bool:
        return self._layerwise_parallel

    @layerwise_parallel.setter
    def layerwise_parallel(self, value) -> None:
        if not isinstance(value, bool):
            raise DTypeError("The argument `layerwise_parallel` must be bool type.")
        self._layerwise_parallel = value

    @property
    def parallel_optimizer(self) -> bool:
        return self._parallel_optimizer

    @parallel_optimizer.setter
    def parallel_optimizer(self, value) -> None:
        if not isinstance(value, bool):
            raise DTypeError("The argument `parallel_optimizer` must be bool type.")
        self._parallel_optimizer = value

    @property
    def cache_enable(self) -> bool:
        """Whether this Parameter is marked for a device-side embedding cache (parameter-server
        training reads the mark); False until set. Tensor.flush_from_cache writes such a cache
        back, which cellgraph, keeping every Parameter whole on its device, never holds."""
        return getattr(self, "_cache_enable", False)  # False for one made without __init__

    @cache_enable.setter
    def cache_enable(self, value) -> None:
        if not isinstance(value, bool):
            raise DTypeError("The argument `cache_enable` must be bool type.")
        self._cache_enable = value

    @property
    def cache_shape(self):
        """The shape of this Parameter's cache, as set (a list or tuple); [] until set."""
        return getattr(self, "_cache_shape", [])

    @cache_shape.setter
    def cache_shape(self, value) -> None:
        if not isinstance(value, (tuple, list)):
            raise DTypeError("The argument `cache_shape` must be tuple or list type.")
        self._cache_shape = value

    @property
    def sliced(self) -> bool:
        """Whether this process holds a slice of the parameter (semi-auto parallel)."""
        return getattr(self, "_split", None) is not None

    @property
    def aval(self) -> TensorType:
        """The type graphs see: a sliced parameter's whole shape (graphs are traced as the
        user's single-device program; the shard_operators pass makes them read the slice)."""
        split = getattr(self, "_split", None)
        return TensorType(self.shape if split is None else split[3], self._dtype)

    def value(self):
        """The parameter's current value as a new Tensor holding a copy of it, as MindSpore's
        load gives (inside a graph: the graph's value of it, which sees earlier
        assignments)."""
        from cellgraph.compiler.builder import current_builder

        if current_builder() is not None:
            return self
        return Tensor.copy(self)

    def register_hook(self, hook_fn):
        """Tensor.register_hook under MindSpore's parameter name for Parameters (the method is
        the API layer's, installed on TensorMethods: cellgraph/tensor_hooks.py)."""
        return super().register_hook(hook_fn)

    def clone(self, init="same") -> Parameter:
        """A new Parameter with the same name, dtype and flags; its data is a copy of this one's
        (`init="same"`) or filled by `init` (an initializer, its name, or a number)."""
        if isinstance(init, str) and init == "same":
            data = self.asnumpy().copy()
        else:
            from cellgraph.common.initializer import initializer

            data = initializer(init, self.shape, self._dtype)
        clone = Parameter(Tensor(data, self._dtype), self.name, self.requires_grad,
                          self.layerwise_parallel, self.parallel_optimizer)
        clone._split = getattr(self, "_split", None)  # a slice's clone: the same slice
        clone._comm_fusion = self.comm_fusion
        clone.cache_enable = self.cache_enable
        if self.cache_shape:
            clone.cache_shape = self.cache_shape
        return clone

    def copy(self) -> Parameter:
        """A new Parameter like this one, with a copy of its data (MindSpore's copy)."""
        return self.clone(init="same")

    def set_data(self, data, slice_shape=False):
        """Replace the value (a Tensor, an array or a Python number); returns self. As in
        MindSpore, data of another dtype is cast to the Parameter's (see `cast_to_dtype`: float64
        into float32 rounds, a float into an integer truncates toward zero) and the shape may
        change; a Python float into a signed integer Parameter is refused, as there."""
        from cellgraph.compiler.builder import current_builder

        if current_builder() is not None:  # in construct: an update the graph carries out
            from cellgraph.compiler.builder import assign_in_graph

            assign_in_graph(self, data, converting=True)
            return self
        if isinstance(data, float) and self._dtype.np.kind == "i":
            raise DTypeError(f"Parameter set_data: a Python float ({data!r}) is not converted "
                             f"implicitly to Parameter {self.name!r} of dtype {self._dtype}; "
                             f"pass Tensor(value, {self._dtype}) or change its dtype with "
                             f"set_dtype")
        src = data.asnumpy() if isinstance(data, Tensor) else np.asarray(data)
        self._data = get_backend().from_host(cast_to_dtype(src, self._dtype.np))
        self._version += 1
        return self

    def init_data(self, layout=None, set_sliced=False) -> Parameter:
        """The data is always materialised here (no lazy initialisation): returns self. A
        parallel `layout` (the slice of the data this device holds) is not supported."""
        if layout is not None:
            raise NotImplementedError(f"Parameter.init_data: a parallel `layout` is not "
                                      f"supported (Parameter {self.name!r})")
        return self

    def assign_value(self, value):
        return self.set_data(value)

    @property
    def data(self):
        """Outside graphs, a Tensor over the Parameter's elements (MindSpore's); in a graph
        being built, the Parameter itself."""
        return self._alias() if running_eagerly() else self

    @data.setter
    def data(self, value) -> None:
        self.set_data(value)

    def __repr__(self) -> str:
        return f"Parameter (name={self.name}, shape={self.shape}, dtype={self._dtype}, " \
               f"requires_grad={self.requires_grad})"

    __str__ = __repr__  # print(p) shows the description too, as in MindSpore


def cast_to_dtype(array: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """`array` as a new array of `dtype`, as MindSpore's Cast converts: floats round to the
    nearest value (beyond the range: inf), floats into integers truncate toward zero, anything
    into bool tests for nonzero, complex into a real dtype keeps the real part."""
    if array.dtype.kind == "c" and np.dtype(dtype).kind != "c":
        array = array.real
    with np.errstate(over="ignore", invalid="ignore"):  # Cast gives inf past the range
        return np.array(array, dtype=dtype)


class ParameterTuple(tuple):
    """A tuple of Parameters (`ParameterTuple(net.trainable_params())`)."""

    def __new__(cls, iterable):
        items = tuple(iterable)
        names: dict = {}  # name -> id of the Parameter that has it (one object may repeat)
        for p in items:
            if not isinstance(p, Parameter):
                raise DTypeError(f"ParameterTuple: expected Parameters, got {type(p).__name__}")
            if names.setdefault(p.name, id(p)) != id(p):
                raise ArgumentValueError(f"The value {p!r} , its name '{p.name}' already "
                                         f"exists. Please set a unique name for the parameter.")
        return super().__new__(cls, items)

    def clone(self, prefix: str, init="same") -> ParameterTuple:
        """Copies of every Parameter, named `prefix + "." + name` (optimizer moments are made
        this way: `self.moments = self.parameters.clone(prefix="moments", init="zeros")`)."""
        if not isinstance(prefix, str) or not prefix:
            raise DTypeError(f"ParameterTuple.clone: `prefix` must be a non-empty str, got "
                             f"{prefix!r}")
        copies = []
        for param in self:
            copy = param.clone(init)
            copy.name = f"{prefix}.{param.name}"
            copies.append(copy)
        return ParameterTuple(copies)


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
    """`mindspore.tensor(data, dtype)`: a new Tensor, as `Tensor(data, dtype)` makes it."""
    return Tensor(input_data, dtype, shape, init, const_arg)


def frombuffer(buffer, dtype, count=-1, offset=0) -> Tensor:
    """A 1-D Tensor of `dtype` over the bytes of `buffer` (an object with the buffer
    interface), `count` items (-1: all) from byte `offset`, as MindSpore's frombuffer: on the
    CPU it shares the buffer's memory, so a later change to a writable buffer shows."""
    dtype = dt.as_dtype(dtype)
    try:
        length = memoryview(buffer).nbytes
    except TypeError:
        raise DTypeError(f"frombuffer: expected an object with the buffer interface, got "
                         f"{type(buffer).__name__}") from None
    size = dtype.np.itemsize
    if count < -1 or count == 0 or length <= 0:
        raise RunError(f"frombuffer: count must be -1 or positive and the buffer not empty, got "
                       f"count {count} for a buffer of {length} bytes")
    if not 0 <= offset < length:
        raise RunError(f"frombuffer: offset must be in [0, {length - 1}], got {offset}")
    if count == -1 and (length - offset) % size:
        raise RunError(f"frombuffer: {length - offset} bytes after offset {offset} are not a "
                       f"whole number of {dtype} elements ({size} bytes each)")
    if count > 0 and count * size > length - offset:
        raise RunError(f"frombuffer: {count} {dtype} elements need {count * size} bytes, the "
                       f"buffer has {length - offset} after offset {offset}")
    return Tensor.from_numpy(np.frombuffer(buffer, dtype.np, count, offset))
