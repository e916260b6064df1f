"""Parameter initializers, as `mindspore.common.initializer`.

`initializer(init, shape, dtype)` returns a Tensor filled by `init`: an Initializer instance
(`Normal(0.02)`, `HeUniform()`), its name (`"normal"`, `"zeros"`, `"xavier_uniform"`), a
number, or a Tensor/array of the right shape. Random initializers draw MindSpore's numbers:
each takes one seed from NumPy's global generator and fills float32 values from MindSpore's
Philox generator and transforms (common/_random_init.py), so after the same `set_seed(n)` (or
`np.random.seed(n)`) a program starts from MindSpore's initial weights, and its later NumPy
draws are MindSpore's too.
"""
from __future__ import annotations

import math
import numbers
from types import MappingProxyType

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Tensor

from . import _random_init

__all__ = [
    "Constant",
    "Dirac",
    "HeNormal",
    "HeUniform",
    "Identity",
    "Initializer",
    "Normal",
    "One",
    "Orthogonal",
    "Sparse",
    "TruncatedNormal",
    "Uniform",
    "VarianceScaling",
    "XavierNormal",
    "XavierUniform",
    "Zero",
    "compute_fans",
    "initializer",
]


def compute_fans(shape: tuple) -> tuple[int, int]:
    """(fan_in, fan_out) of a weight of `shape` = (out, in, *kernel), as MindSpore counts."""
    if len(shape) < 2:
        raise ShapeError(f"initializer: fan in and fan out need a shape of rank >= 2, got "
                         f"{tuple(shape)}")
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity: str, param=None) -> float:
    """The recommended gain of He/Xavier initialisation for an activation (torch's table)."""
    linear = {"linear", "conv1d", "conv2d", "conv3d", "sigmoid", "conv_transpose1d",
              "conv_transpose2d", "conv_transpose3d"}
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ArgumentValueError(f"initializer: unknown nonlinearity {nonlinearity!r}; expected "
                             f"one of linear, sigmoid, tanh, relu, leaky_relu, selu")


def _assignment(arr: np.ndarray, num) -> np.ndarray:
    """Write `num` (a number or an array of arr's shape) into `arr`, 0-d arrays included; the
    helper MindSpore's initializers, and user subclasses of Initializer, fill arrays with."""
    if arr.shape == ():
        arr = arr.reshape(1)
        arr[:] = num
        return arr.reshape(())
    arr[:] = num[:] if isinstance(num, np.ndarray) else num
    return arr


def _numpy_seed() -> int:
    """The seed of one random initialization, as MindSpore takes it: one draw from NumPy's global
    generator (what `set_seed` and `np.random.seed` seed). The values come from MindSpore's own
    generator and transforms (common/_random_init.py): the same numbers as MindSpore's."""
    return int(np.random.randint(low=1, high=1 << 63, dtype=np.int64))


class Initializer:
    """Base class. Built-in initializers define `generate(shape)`, a NumPy array of `shape`
    (the random ones float32, as MindSpore draws them); a user subclass may instead override
    `_initialize(arr)`, MindSpore's protocol, filling `arr` in place (with `_assignment`)."""

    _kwargs = MappingProxyType({})  # (subclasses that never call Initializer.__init__)

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._seed = None

    def generate(self, shape: tuple) -> np.ndarray:
        raise NotImplementedError(f"{type(self).__name__}: define generate(shape) or "
                                  f"_initialize(arr)")

    def _initialize(self, arr: np.ndarray) -> None:
        _assignment(arr, self.generate(arr.shape))

    def __call__(self, arr: np.ndarray) -> None:
        """MindSpore's protocol: fill a NumPy array in place."""
        if not isinstance(arr, np.ndarray):
            raise TypeError(f"{type(self).__name__}: `arr` must be a numpy.ndarray, got "
                            f"{type(arr).__name__}")
        self._initialize(arr)


class Constant(Initializer):

    def __init__(self, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Number):
            raise DTypeError(f"Constant: `value` must be a number, got {type(value).__name__}")
        self.value = value

    def generate(self, shape):
        return np.full(shape, self.value, np.float64)


class Zero(Constant):
    def __init__(self):
        super().__init__(0)


class One(Constant):
    def __init__(self):
        super().__init__(1)


class Normal(Initializer):
    """N(mean, sigma^2)."""

    def __init__(self, sigma=0.01, mean=0.0):
        self.sigma, self.mean = float(sigma), float(mean)

    def generate(self, shape):
        return _random_init.normal(_numpy_seed(), shape, self.mean, self.sigma)


class Uniform(Initializer):
    """U(-scale, scale)."""

    def __init__(self, scale=0.07):
        self.scale = float(scale)

    def generate(self, shape):
        return _random_init.uniform(_numpy_seed(), shape, -self.scale, self.scale)


class TruncatedNormal(Initializer):
    """N(mean, sigma^2) cut to [a, b] (by the inverse CDF, as MindSpore draws it)."""

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        self.sigma, self.mean, self.a, self.b = float(sigma), float(mean), float(a), float(b)
        if not self.a < self.b:
            raise ArgumentValueError(f"TruncatedNormal: expected a < b, got a={a}, b={b}")

    def generate(self, shape):
        return _random_init.truncated_normal(_numpy_seed(), shape, self.a, self.b, self.mean,
                                             self.sigma)


class XavierUniform(Initializer):
    """U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        self.gain = float(gain)

    def generate(self, shape):
        fan_in, fan_out = compute_fans(shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return _random_init.uniform(_numpy_seed(), shape, -bound, bound)


class XavierNormal(Initializer):
    """N(0, s^2) with s = gain * sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        self.gain = float(gain)

    def generate(self, shape):
        fan_in, fan_out = compute_fans(shape)
        std = self.gain * math.sqrt(2.0 / float(fan_in + fan_out))
        return _random_init.normal(_numpy_seed(), shape, 0.0, std)


class _He(Initializer):
    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        if mode not in ("fan_in", "fan_out"):
            raise ArgumentValueError(f"{type(self).__name__}: `mode` must be 'fan_in' or "
                                     f"'fan_out', got {mode!r}")
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def std(self, shape) -> float:
        fan_in, fan_out = compute_fans(shape)
        fan = fan_in if self.mode == "fan_in" else fan_out
        return _gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)


class HeUniform(_He):
    """U(-b, b) with b = sqrt(3) * gain / sqrt(fan) (Kaiming uniform)."""

    def generate(self, shape):
        bound = math.sqrt(3.0) * self.std(shape)
        return _random_init.uniform(_numpy_seed(), shape, -bound, bound)


class HeNormal(_He):
    """N(0, (gain / sqrt(fan))^2) (Kaiming normal)."""

    def generate(self, shape):
        return _random_init.normal(_numpy_seed(), shape, 0.0, self.std(shape))


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix over (shape[0], prod(shape[1:])), times `gain`: the Q of a
    Gaussian matrix's QR decomposition, its columns' signs fixed by R's diagonal."""

    def __init__(self, gain=1.0):
        self.gain = float(gain)

    def generate(self, shape):
        if len(shape) < 2:
            raise ShapeError(f"Orthogonal: expected a shape of rank >= 2, got {tuple(shape)}")
        rows, cols = shape[0], int(np.prod(shape[1:]))
        flat = _random_init.normal(_numpy_seed(), (rows, cols), 0.0, 1.0)
        if rows < cols:
            flat = flat.T
        q, r = np.linalg.qr(flat)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (self.gain * q).reshape(shape)


class Identity(Initializer):
    """The 2-D identity matrix (ones on the diagonal of a rectangular one)."""

    def generate(self, shape):
        if len(shape) != 2:
            raise ShapeError(f"Identity: expected a 2-D shape, got {tuple(shape)}")
        return np.eye(*shape)


class Sparse(Initializer):
    """A 2-D N(0, sigma^2) matrix with ceil(sparsity * rows) zeros in each column, at rows drawn
    by NumPy's global generator (one permutation per column), as MindSpore draws them."""

    def __init__(self, sparsity, sigma=0.01):
        self.sparsity, self.sigma = sparsity, sigma

    def generate(self, shape):
        if len(shape) != 2:
            raise ValueError(f"For Sparse initializer, the dimension of the initialized tensor "
                             f"should be 2, but got {len(shape)}.")
        rows, cols = shape
        zero_num = int(np.ceil(self.sparsity * rows))
        data = _random_init.normal(_numpy_seed(), shape, 0.0, self.sigma)
        for col in range(cols):
            data[np.random.permutation(list(range(rows)))[:zero_num], col] = 0.0
        return data


class Dirac(Initializer):
    """The identity of a 3-, 4- or 5-D convolution weight: within each of `groups` groups of
    output channels, channel i takes input channel i at the kernel's centre."""

    def __init__(self, groups=1):
        self.groups = groups

    def generate(self, shape):
        dimension = len(shape)
        if dimension not in (3, 4, 5):
            raise ValueError(f"For Dirac initializer, only support to initialize tensor with "
                             f"dimension of 3, 4 or 5, but got {dimension}.")
        if shape[0] % self.groups != 0:
            raise ValueError(f"For Dirac initializer, the first dimension ofthe initialized "
                             f"tensor must be divisible by groups, but got first "
                             f"dimension{shape[0]}, groups{self.groups}.")
        data = np.zeros(shape)
        per_group = shape[0] // self.groups
        centre = tuple(d // 2 for d in shape[2:])
        for group in range(self.groups):
            for dim in range(min(per_group, shape[1])):
                data[(group * per_group + dim, dim, *centre)] = 1
        return data


class VarianceScaling(Initializer):
    """N(0, s) truncated to 2 std, N(0, s) or U(-sqrt(3 s), sqrt(3 s)), s = scale / fan, the
    fan by `mode` ("fan_in", "fan_out", "fan_avg")."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal"):
        if scale <= 0.0:
            raise ArgumentValueError(f"For VarianceScaling initializer, the argument 'scale' must "
                                     f"be greater than 0, but got {scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ArgumentValueError(f"For VarianceScaling initializer, the argument 'mode' must "
                                     f"be fan_in, fan_out or fan_avg, but got {mode}.")
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ArgumentValueError(f"For VarianceScaling initializer, the argument "
                                     f"'distribution' must be uniform, truncated_norm or "
                                     f"untruncated_norm, but got {distribution}.")
        self.scale, self.mode, self.distribution = float(scale), mode, distribution

    def generate(self, shape):
        fan_in, fan_out = compute_fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}
        variance = self.scale / max(1.0, fan[self.mode])
        if self.distribution == "uniform":
            bound = math.sqrt(3.0 * variance)
            return _random_init.uniform(_numpy_seed(), shape, -bound, bound)
        if self.distribution == "untruncated_normal":
            return _random_init.normal(_numpy_seed(), shape, 0.0, math.sqrt(variance))
        # MindSpore 2.10 tests for 'truncated_norm', never matches its own default
        # 'truncated_normal' and draws uniformly; cellgraph draws what the name says, with
        # MindSpore's generator: N(0, std) cut at +-2 std
        std = math.sqrt(variance) / 0.87962566103423978  # the std of N(0,1) cut at +-2
        return _random_init.truncated_normal(_numpy_seed(), shape, -2 * std, 2 * std, 0.0, std)


_NAMES = {"zeros": Zero, "zero": Zero, "ones": One, "one": One, "normal": Normal,
          "uniform": Uniform, "truncatednormal": TruncatedNormal,
          "truncated_normal": TruncatedNormal, "xavier_uniform": XavierUniform,
          "xavieruniform": XavierUniform, "xavier_normal": XavierNormal,
          "xaviernormal": XavierNormal, "he_uniform": HeUniform, "heuniform": HeUniform,
          "he_normal": HeNormal, "henormal": HeNormal, "orthogonal": Orthogonal,
          "identity": Identity, "eye": Identity, "sparse": Sparse, "dirac": Dirac,
          "variancescaling": VarianceScaling}


def _register(*aliases):
    """MindSpore's class decorator that makes an Initializer known to `initializer(name)` by
    its lower-cased class name and `aliases`; a name already known keeps its class."""
    def alias_reg(cls):
        for name in (cls.__name__.lower(), *aliases):
            _NAMES.setdefault(name, cls)
        return cls

    return alias_reg


def _init_random_uniform(a, b, shape) -> np.ndarray:
    """MindSpore's helper: a float32 array of `shape` drawn from U(a, b) as its Uniform draws
    (seeded by one draw from NumPy's global generator)."""
    return np.asarray(_random_init.uniform(_numpy_seed(), tuple(shape), a, b), np.float32)


def _shape(shape) -> tuple:
    if shape is None:
        return None
    if isinstance(shape, numbers.Integral):
        shape = (shape,)
    try:
        shape = tuple(int(s) for s in shape)
    except (TypeError, ValueError):
        raise DTypeError(f"initializer: `shape` must be an int or a tuple of ints, got "
                         f"{shape!r}") from None
    if any(s < 0 for s in shape):
        raise ArgumentValueError(f"initializer: `shape` {shape} has a negative dimension")
    return shape


def initializer(init, shape=None, dtype=dt.float32) -> Tensor:
    """A Tensor of `shape` and `dtype` filled by `init` (an Initializer, its name, a number,
    or a Tensor/array whose shape matches). A Tensor is returned itself, its dtype kept (`dtype`
    does not apply to it), as MindSpore's initializer does."""
    dtype = dt.as_dtype(dtype)
    shape = _shape(shape)
    if isinstance(init, (Tensor, np.ndarray)):
        if shape is not None and tuple(init.shape) != shape:
            raise ShapeError(f"For 'initializer', the shape of the 'init' argument should be "
                             f"same as the argument 'shape', but got the 'init' shape "
                             f"{list(init.shape)} and the 'shape' {shape}.")
        if isinstance(init, Tensor):
            return init
        return Tensor(np.array(init, dtype=dtype.np), dtype)
    if shape is None:
        raise ArgumentValueError(f"initializer: `shape` is needed for init={init!r}")
    if isinstance(init, str):
        cls = _NAMES.get(init.lower())
        if cls is None:
            raise ArgumentValueError(f"initializer: unknown initializer name {init!r}; known "
                                     f"names: {', '.join(sorted(set(_NAMES)))}")
        init = cls()
    elif isinstance(init, numbers.Number) and not isinstance(init, bool):
        init = Constant(init)
    elif isinstance(init, type) and issubclass(init, Initializer):
        init = init()
    if not isinstance(init, Initializer):
        raise DTypeError(f"initializer: `init` must be an Initializer, a name, a number or a "
                         f"Tensor, got {type(init).__name__}")
    # filled when its values are first asked for (init_data(), asnumpy(), a Parameter made of
    # it), as MindSpore's initializer() defers it
    return Tensor(shape=shape, dtype=dtype, init=init)
