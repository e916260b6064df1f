"""NumPy's own inner loops, called from compiled kernels: how a fused loop computes sin, exp,
tanh, ... with NumPy's bits.

A transcendental function's last bit depends on its implementation: NumPy evaluates them with
its own vectorised code (chosen for the CPU when NumPy loads), which numba's calls of the C
library do not match. A ufunc keeps its loops in its public C struct (PyUFuncObject,
numpy/ufuncobject.h, the same from NumPy 1.26 through 2.x): `functions[i]` and `data[i]` for
the i-th of `ntypes` signatures, whose type numbers `types` lists. For a legacy ufunc NumPy
reads `functions[i]` at each call and, on a contiguous array of the signature's dtype, calls
it once on the whole array; a kernel that calls the same function on a contiguous buffer of the
same values gets the same bits.

`loop_address(name, dtype)` reads the (function, data) addresses with ctypes, after checking
that the struct is the ufunc it claims to be (its name, arity and signature count) and that
the loop gives the ufunc's own results on a few probe values (zeros, denormals, infinities,
NaN, large arguments); it is None where any of that fails, and the operation is then not
fused. A kernel receives the addresses as integer arguments (no address is compiled into it,
so its machine code can be cached on disk) and calls them through `call_unary_loop`, a numba
intrinsic with NumPy's loop signature `void(char **args, npy_intp *dims, npy_intp *steps,
void *data)`.
"""
from __future__ import annotations

import ctypes
import functools

import numpy as np

_LOOP = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p),
                         ctypes.POINTER(ctypes.c_ssize_t), ctypes.POINTER(ctypes.c_ssize_t),
                         ctypes.c_void_p)


class _UFuncHead(ctypes.Structure):
    """The leading fields of PyUFuncObject, up to `types`."""

    _fields_ = [("ob_refcnt", ctypes.c_ssize_t), ("ob_type", ctypes.c_void_p),
                ("nin", ctypes.c_int), ("nout", ctypes.c_int), ("nargs", ctypes.c_int),
                ("identity", ctypes.c_int), ("functions", ctypes.POINTER(ctypes.c_void_p)),
                ("data", ctypes.POINTER(ctypes.c_void_p)), ("ntypes", ctypes.c_int),
                ("reserved1", ctypes.c_int), ("name", ctypes.c_char_p),
                ("types", ctypes.POINTER(ctypes.c_char))]


@functools.cache
def loop_address(name: str, dtype: str) -> tuple[int, int] | None:
    """(function, data) addresses of NumPy's loop of the unary ufunc `name` for `dtype`
    ('float32' or 'float64'), or None where they cannot be found or do not give the ufunc's
    results (see the module doc)."""
    ufunc = getattr(np, name, None)
    if not isinstance(ufunc, np.ufunc) or ufunc.nin != 1 or ufunc.nout != 1:
        return None
    head = _UFuncHead.from_address(id(ufunc))
    if (head.name is None or head.name.decode() != ufunc.__name__ or head.nin != 1
            or head.nout != 1 or head.nargs != 2 or head.ntypes != ufunc.ntypes):
        return None
    num = np.dtype(dtype).num
    for i in range(head.ntypes):
        if ord(head.types[2 * i]) == num and ord(head.types[2 * i + 1]) == num:
            address = (head.functions[i] or 0, head.data[i] or 0)
            return address if address[0] and _agrees(ufunc, dtype, address) else None
    return None


def _agrees(ufunc, dtype: str, address: tuple[int, int]) -> bool:
    """Whether the loop at `address` gives `ufunc`'s bits on probe values."""
    info = np.finfo(dtype)
    probe = np.concatenate([
        np.array([0.0, -0.0, 0.5, -0.5, 1.0, 2.0, 1e3, -1e3, 1e30, -1e30, np.inf, -np.inf,
                  np.nan], dtype),
        np.array([info.tiny, info.tiny / 3, -info.tiny / 7, info.max], dtype),
        np.linspace(-40.0, 40.0, 67).astype(dtype)])
    with np.errstate(all="ignore"):
        want = ufunc(probe)
        got = np.empty_like(probe)
        pointers = (ctypes.c_void_p * 2)(probe.ctypes.data, got.ctypes.data)
        dims = (ctypes.c_ssize_t * 1)(probe.size)
        steps = (ctypes.c_ssize_t * 2)(probe.itemsize, probe.itemsize)
        _LOOP(address[0])(pointers, dims, steps, address[1] or None)
    return want.dtype == got.dtype and want.tobytes() == got.tobytes()


# (kernels cached on disk hold this intrinsic's code: a change to it bumps
# fused_kernels.KERNEL_VERSION)
@functools.cache
def call_unary_loop():
    """The numba intrinsic `call_unary_loop(function, data, src, dst)`: NumPy's loop at the
    address `function` (an int64, with its `data` pointer) run over all of the C-contiguous
    array `src` into `dst`, of the same dtype and size."""
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    @intrinsic
    def call_loop(typingctx, function, data, src, dst):
        def codegen(context, builder, signature, args):
            src_array = context.make_array(signature.args[2])(context, builder, args[2])
            dst_array = context.make_array(signature.args[3])(context, builder, args[3])
            byte_ptr = ir.IntType(8).as_pointer()
            intp = context.get_value_type(types.intp)
            loop_type = ir.FunctionType(ir.VoidType(), [byte_ptr.as_pointer(),
                                                        intp.as_pointer(), intp.as_pointer(),
                                                        byte_ptr])
            loop = builder.inttoptr(args[0], loop_type.as_pointer())
            pointers = cgutils.alloca_once(builder, byte_ptr, size=2)
            builder.store(builder.bitcast(src_array.data, byte_ptr), pointers)
            builder.store(builder.bitcast(dst_array.data, byte_ptr),
                          builder.gep(pointers, [ir.Constant(intp, 1)]))
            dims = cgutils.alloca_once(builder, intp, size=1)
            builder.store(src_array.nitems, dims)
            itemsize = context.get_abi_sizeof(context.get_data_type(signature.args[2].dtype))
            steps = cgutils.alloca_once(builder, intp, size=2)
            builder.store(ir.Constant(intp, itemsize), steps)
            builder.store(ir.Constant(intp, itemsize), builder.gep(steps, [ir.Constant(intp, 1)]))
            builder.call(loop, [pointers, dims, steps, builder.inttoptr(args[1], byte_ptr)])
            return context.get_dummy_value()

        if not (isinstance(function, types.Integer) and isinstance(data, types.Integer)
                and isinstance(src, types.Array) and isinstance(dst, types.Array)
                and src.layout == "C" and dst.layout == "C" and src.dtype == dst.dtype):
            return None
        return types.void(function, data, src, dst), codegen

    return call_loop
