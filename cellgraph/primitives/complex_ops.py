"""Complex numbers: building them from parts (`complex`), taking them apart (`real`, `imag`,
`angle`), `polar`, `conj`, and the views `view_as_real` / `view_as_complex`.

Gradient convention (MindSpore's, which is PyTorch's): the gradient of a real loss L with
respect to z = x + iy is dL/dx + i dL/dy, and a cotangent g of a complex output f stands for
the real loss Re(conj(g) f). For a holomorphic f this makes the input gradient g * conj(f'(z)),
so the rules of holomorphic primitives, written as g * f'(z) for real numbers, are applied
conjugated (`complex_bprop`, compiler/autodiff.py); the primitives here are not holomorphic
and carry rules that follow the convention themselves (`complex_bprop=True`).
"""
from __future__ import annotations

from . import dtype as dt
from .batching import broadcasting_rule, same_shape_rule
from .core import SAME, Primitive, Slice, TensorType, abstract_of, broadcast_shapes, prims
from .errors import DTypeError, ShapeError
from .exports import export, export_class
from .math_ops import grad_like


def _complex_type(real: TensorType, imag: TensorType) -> TensorType:
    for part in (real, imag):
        if part.dtype not in (dt.float32, dt.float64):
            raise DTypeError(f"expected float32 or float64 parts, got {real.dtype} and "
                             f"{imag.dtype}")
    if real.dtype != imag.dtype and not (real.weak or imag.weak):
        raise DTypeError(f"expected parts of one dtype, got {real.dtype} and {imag.dtype}")
    dtype = imag.dtype if real.weak else real.dtype
    return TensorType(broadcast_shapes(real.shape, imag.shape), dt.complex_of(dtype))


def _part_type(x: TensorType) -> TensorType:
    if not x.dtype.is_complex:
        raise DTypeError(f"expected a complex64 or complex128 tensor, got {x.dtype}")
    return TensorType(x.shape, dt.real_of(x.dtype))


def _conj_type(x: TensorType) -> TensorType:
    if not x.dtype.is_complex:
        raise DTypeError(f"expected a complex64 or complex128 tensor, got {x.dtype}")
    return x.strong()


complex_ = Primitive("complex", _complex_type, label="Complex", promote=SAME,
                     complex_bprop=True)
real_part = Primitive("real", _part_type, label="Real", array_api="real", complex_bprop=True)
imag_part = Primitive("imag", _part_type, label="Imag", array_api="imag", complex_bprop=True)
conj_ = Primitive("conj", _conj_type, label="Conj", complex_bprop=True)
angle_ = Primitive("angle", _part_type, label="Angle", complex_bprop=True)


# d/d(re), d/d(im) of re + i im under Re(conj(g) f): the real and imaginary parts of g.
complex_.def_bprop(lambda re, im, out, dout: (
    grad_like(real_part(dout), re), grad_like(imag_part(dout), im)))
real_part.def_bprop(lambda x, out, dout: (complex_(dout, prims.zeros_like(dout)),))
imag_part.def_bprop(lambda x, out, dout: (complex_(prims.zeros_like(dout), dout),))
conj_.def_bprop(lambda x, out, dout: (conj_(dout),))


@angle_.def_bprop
def _angle_bprop(x, out, dout):
    # angle = atan2(y, x): dL/dx + i dL/dy = g (-y + ix) / |z|² = g i z / |z|²
    scale = prims.div(dout, prims.add(prims.square(real_part(x)), prims.square(imag_part(x))))
    return (prims.mul(complex_(prims.zeros_like(scale), scale), x),)


complex_.def_batch(broadcasting_rule(complex_))
for _prim in (real_part, imag_part, conj_, angle_):
    _prim.def_batch(same_shape_rule(_prim))


# ----- MindSpore's functional ops and classes ----------------------------------------------------

def _is_complex(x) -> bool:
    return abstract_of(x).dtype.is_complex


def complex(real, imag):
    """`ops.complex(real, imag)`: real + i imag, complex64 from float32 parts."""
    return complex_(real, imag)


def real(input):
    """`ops.real`: the real part; a real tensor is returned unchanged."""
    return real_part(input) if _is_complex(input) else input


def imag(input):
    """`ops.imag`: the imaginary part; zeros for a real tensor."""
    return imag_part(input) if _is_complex(input) else prims.zeros_like(input)


def conj(input):
    """`ops.conj`: the complex conjugate; a real tensor is returned unchanged."""
    return conj_(input) if _is_complex(input) else input


def angle(input):
    """`ops.angle`: the argument of each complex element (complex input only, as MindSpore)."""
    return angle_(input)


def polar(abs, angle):
    """`ops.polar`: abs * (cos(angle) + i sin(angle)), complex64 from float32 parts."""
    return complex_(prims.mul(abs, prims.cos(angle)), prims.mul(abs, prims.sin(angle)))


def view_as_real(input):
    """`ops.view_as_real`: a complex tensor as real pairs along a new last axis of size 2."""
    if not _is_complex(input):
        raise DTypeError(f"view_as_real: expected a complex64 or complex128 tensor, got "
                         f"{abstract_of(input).dtype}")
    return prims.stack(real_part(input), imag_part(input), axis=-1)


def view_as_complex(input):
    """`ops.view_as_complex`: the inverse of view_as_real (last axis of size 2)."""
    aval = abstract_of(input)
    if aval.ndim == 0 or aval.shape[-1] != 2:
        raise ShapeError(f"view_as_complex: expected a last axis of size 2, got shape "
                         f"{aval.shape}")
    every = (Slice(None, None, None),) * (aval.ndim - 1)
    return complex_(*(prims.getitem(input, index=every + (i,)) for i in (0, 1)))


for _fn in (complex, polar, view_as_real, view_as_complex, angle):
    export(_fn, method=_fn is angle)
for _fn in (real, imag, conj):
    export(_fn, method=True)
for _name, _fn in (("Complex", complex), ("Real", real), ("Imag", imag), ("Conj", conj),
                   ("Angle", angle)):
    export_class(_name, _fn, ops_module="math_ops")
