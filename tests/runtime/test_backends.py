"""Backend conformance: every backend gives the NumPy reference's numbers.

Backends under test: `numpy` (the reference), `xp_numpy` (the CuPy backend's kernels, the shared
table plus the strided overrides, run with NumPy as the module, so that the composition is
checked on machines without a GPU),
`torch` when PyTorch is installed, and `torch_cuda` / `cupy` when they see a device.

* Kernels: the case tables of tests/ops (`kernel_cases.CASES`, `kernel_cases_nn.NN_CASES`) run
  on each backend three ways, as tests/ops/test_kernels.py runs them on NumPy: the kernel called
  on backend arrays (its raw output must have the shape and dtype of the type rule), eagerly on
  Tensors, and in a compiled graph; all against the float64 references, with the same
  per-dtype tolerances.
* Programs: Cells and their gradients (the golden programs, second order, Tensor `if` and
  `while` with their gradients, a training loop that updates Parameters, a conv net, dropout
  after `set_seed`) give the numbers they give on NumPy.
* Host fallbacks: each backend declares the primitives it runs on the host, and they match.
* `set_context(device_target="GPU")` picks a GPU backend or warns once, naming what is missing.
"""
from __future__ import annotations

import importlib
import math
import subprocess
import sys
import warnings

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, context, nn, ops
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import PRIMITIVES, abstract_of
from cellgraph.primitives.errors import ArgumentError
from cellgraph.runtime import backend as rb
from cellgraph.runtime import blocked_kernels, cupy_kernels, gpu
from cellgraph.runtime.numpy_backend import K as NUMPY_KERNELS
from tests.golden.programs import MLP, PROGRAMS, TensorIf, TensorWhile, scalar, tensor
from tests.ops.kernel_cases import EXACT, TOL
from tests.ops.test_kernels import (
    CASES,
    EFFECT_TESTS,
    _call,
    _check,
    _compiled,
    _expected,
    _results,
    _tensors,
    canonical,
    fits,
    kernel_operands,
)


def _importable(package: str) -> bool:
    try:
        importlib.import_module(package)
        return True
    except ImportError:
        return False


HAVE_TORCH, HAVE_CUPY, HAVE_JAX = _importable("torch"), _importable("cupy"), _importable("jax")
rb.register_backend(cupy_kernels.make_backend(np, "xp_numpy", device="CPU"))


def _torch_cuda() -> bool:
    if not HAVE_TORCH:
        return False
    import torch

    return torch.cuda.is_available()


def _cupy_device() -> bool:
    if not HAVE_CUPY:
        return False
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # noqa: BLE001 - CuPy's own errors when no driver is present
        return False


def _backend_params(reference: bool = True, slow_jax: bool = False) -> list:
    """The backends under test; `slow_jax`: the jax one only with the slow tests (each kernel
    case compiles its own XLA programs, eagerly and in a graph: minutes for the table)."""
    params = [pytest.param("numpy")] if reference else []
    params += [
        pytest.param("xp_numpy"),
        pytest.param("torch", marks=pytest.mark.skipif(not HAVE_TORCH,
                                                       reason="PyTorch is not installed")),
        pytest.param("torch_cuda", marks=pytest.mark.skipif(
            not _torch_cuda(), reason="PyTorch sees no CUDA device")),
        pytest.param("cupy", marks=pytest.mark.skipif(
            not _cupy_device(), reason="CuPy is not installed or sees no device")),
        pytest.param("jax", marks=[pytest.mark.skipif(not HAVE_JAX, reason="JAX is not installed")]
                     + ([pytest.mark.slow] if slow_jax else [])),
    ]
    return params


@pytest.fixture(params=_backend_params())
def backend(request):
    yield rb.set_backend(request.param)
    rb.set_backend("numpy")


@pytest.fixture(params=_backend_params(slow_jax=True))
def kernel_backend(request):
    yield rb.set_backend(request.param)
    rb.set_backend("numpy")


@pytest.fixture(params=_backend_params(reference=False))
def other_backend(request):
    yield request.param
    rb.set_backend("numpy")


def _native_type(backend) -> type:
    return type(backend.from_host(np.zeros(2, np.float32)))


def _is_native(backend, value) -> bool:
    """A backend array (NumPy's ufuncs give NumPy scalars for 0-d operands, which it keeps)."""
    return type(value) is _native_type(backend) or (backend.xp is np and
                                                     isinstance(value, np.generic))


# ----- kernels ---------------------------------------------------------------------------------

def test_every_numpy_kernel_exists(backend):
    # a variant's kernel (`matmul@2d`) is optional: without one the primitive's runs
    missing = sorted(n for n in set(NUMPY_KERNELS) - set(backend.kernels) if "@" not in n)
    assert not missing, f"backend {backend.name} lacks kernels for {missing}"


def _raw_operand(backend, x):
    return backend.from_host(x) if isinstance(x, np.ndarray) else x


@pytest.mark.parametrize("name", [pytest.param(n, id=n) for n in CASES])
def test_kernel_matches_type_rule_and_reference(kernel_backend, name):
    """The kernel called on backend arrays: shape and dtype of the type rule, reference values."""
    backend = kernel_backend
    prim = PRIMITIVES[name]
    for case in CASES[name]:
        rules = _results(prim.abstract_eval([abstract_of(o) for o in case.operands],
                                            case.params), prim.multiple_results)
        with np.errstate(all="ignore"):
            operands = kernel_operands(prim, case.operands)
            raws = _results(backend.kernel(name)(
                *[_raw_operand(backend, o) for o in operands], **case.params),
                prim.multiple_results)
        assert len(raws) == len(rules), f"{backend.name} {name}{case}: result counts differ"
        hosts = canonical(case, [np.asarray(backend.to_host(raw)) for raw in raws])
        for k, (raw, host, rule, expected) in enumerate(zip(raws, hosts, rules, _expected(case))):
            what = f"{backend.name} {name}{case} result {k}"
            assert _is_native(backend, raw), f"{what}: returned {type(raw).__name__}"
            assert fits(host.shape, rule.shape) and dt.from_numpy(host.dtype) == rule.dtype, (
                f"{what}: kernel gives {dt.from_numpy(host.dtype).short}{list(host.shape)}, "
                f"type rule says {rule}")
            np.testing.assert_allclose(host, expected, err_msg=what,
                                       **(case.tol or TOL.get(rule.dtype, EXACT)))


@pytest.mark.parametrize("name", [pytest.param(n, id=n) for n in CASES])
def test_eager_and_graph_match_reference(kernel_backend, name):
    backend = kernel_backend
    for case in CASES[name]:
        for how, fn in (("eager", _call(name, case)), ("graph", _compiled(_call(name, case)))):
            out = fn(*_tensors(case))
            _check(out, case, f"{backend.name} {how} {name}")
            for t in (out if isinstance(out, tuple) else (out,)):
                assert _is_native(backend, t._data), f"{how} {name}: {type(t._data)} data"


@pytest.mark.parametrize("name", ["add", "mul", "maximum", "less", "select"])
def test_numpy_scalars_are_weak_operands(backend, name):
    """A NumPy scalar operand counts as a Python number, eagerly as in a graph (where it is a
    constant): it takes the tensor's dtype, so no cast reaches the kernel."""
    x = Tensor(np.array([0.25, 1.5], np.float32))
    operands = (x, np.float64(0.5))
    if name == "select":
        operands = (Tensor(np.array([True, False])),) + operands
    fn = getattr(ops, name)
    for how, run in (("eager", fn), ("graph", _compiled(fn))):
        out = run(*operands)
        assert out.dtype == (dt.bool_ if name == "less" else dt.float32), f"{how} {name}"
        assert _is_native(backend, out._data), f"{how} {name}: {type(out._data)} data"


@pytest.mark.parametrize("np_dtype", [np.float16, np.float32, np.float64])
def test_nextafter_override_matches_numpy_bit_for_bit(np_dtype):
    """The array-module override (the numpy and cupy backends) steps bits in integer
    arithmetic, so subnormals survive where a GPU flushes them: every pair of special values
    (zeros of both signs, infinities, nan, the extremes, subnormals) and random pairs."""
    from cellgraph.runtime.strided_kernels import TABLE

    info = np.finfo(np_dtype)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, info.max, -info.max,
                         info.tiny, -info.tiny, info.smallest_subnormal,
                         -info.smallest_subnormal, 3 * info.smallest_subnormal], np_dtype)
    x, y = np.meshgrid(specials, specials)
    rng = np.random.default_rng(0)
    r = rng.standard_normal((2, 500)).astype(np_dtype)
    for a, b in ((x, y), (r[0], r[1]), (r[0], r[0]), (specials, np_dtype(0))):
        with np.errstate(over="ignore"):
            got = TABLE["nextafter"](np, a, b)
            # equal operands give y, as in C and MindSpore (NumPy's float16 gives x: -0 for
            # nextafter(-0, 0))
            want = np.where(a == b, b, np.nextafter(a, b)).astype(np_dtype)
        assert got.dtype == want.dtype and got.shape == want.shape
        nan = np.isnan(want)
        assert np.array_equal(np.isnan(got), nan)
        assert np.array_equal(got[~nan].view(np.uint8), want[~nan].view(np.uint8))


def test_erf_and_gelu_without_scipy_on_0d_inputs(monkeypatch):
    """scipy is optional: erf falls back to the math module, 0-d arrays included."""
    monkeypatch.setitem(sys.modules, "scipy.special", None)
    monkeypatch.setattr(blocked_kernels, "_erf_impl", [])
    x = np.array(0.5, np.float32)
    assert NUMPY_KERNELS["erf"](x).dtype == np.float32
    np.testing.assert_allclose(NUMPY_KERNELS["erf"](x), 0.5204998778, rtol=1e-6)
    np.testing.assert_allclose(ops.gelu(Tensor(x)).asnumpy(), 0.3457312306, rtol=1e-6)
    np.testing.assert_allclose(ops.erf(Tensor(np.array([0.0, -1.0]))).asnumpy(),
                               [0.0, -0.8427007929], rtol=1e-9)


def test_importing_cellgraph_imports_no_optional_library():
    code = ("import sys, cellgraph; "
            "print(sorted(m for m in ('scipy', 'torch', 'cupy', 'array_api_compat') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


# ----- host fallbacks --------------------------------------------------------------------------

def _host_fallbacks(backend) -> set:
    return {name for name, k in backend.kernels.items() if hasattr(k, "host_fallback")}


def test_host_fallbacks_are_declared(backend):
    """Only the effect primitives and LAPACK's general eigensolver (which CuPy lacks) run on the
    host; every other kernel is the backend's own."""
    if backend.name == "numpy":
        assert not _host_fallbacks(backend)
        return
    assert _host_fallbacks(backend) - {"eig"} == set(EFFECT_TESTS) == {
        "uniform_real", "random_poisson", "random_gamma", "uniform_candidate_sampler", "print",
        "standard_normal", "uniform_int", "random_permutation",
        "shuffled_true_positions", "summary",
        "py_hook", "py_func"}


@pytest.mark.parametrize("np_dtype", [np.int32, np.int64])
def test_integer_matmul_wraps_as_numpy_does(backend, np_dtype):
    """Integer products that overflow wrap around as NumPy's do (torch_cuda, which has no
    integer matmul, runs this one on the host: see runtime/torch_backend.py)."""
    big = np.full((2, 3), 50_000 if np_dtype is np.int32 else 3 * 10**9, np_dtype)
    with np.errstate(all="ignore"):
        expected = np.matmul(big, big.T)
    out = backend.kernel("matmul")(backend.from_host(big), backend.from_host(big),
                                   transpose_b=True)
    assert _is_native(backend, out)
    np.testing.assert_array_equal(np.asarray(backend.to_host(out)), expected)


def test_uniform_real_draws_the_numpy_numbers(backend):
    cellgraph.set_seed(5)
    draws = backend.kernel("uniform_real")((2, 3), dt.float32)
    cellgraph.set_seed(5)
    expected = NUMPY_KERNELS["uniform_real"]((2, 3), dt.float32)
    assert _is_native(backend, draws)
    host = np.asarray(backend.to_host(draws))
    assert host.dtype == np.float32
    np.testing.assert_array_equal(host, expected)


def test_custom_op_runs_its_function_on_host_arrays(backend):
    """ops.Custom's function gets NumPy arrays on every backend; its results come back native,
    in a graph, under grad (its bprop) and eagerly."""
    seen = []

    def mul_add(a, b):
        seen.append(type(a))
        return a * b + 1.0

    op = ops.Custom(mul_add, lambda s, _: s, lambda t, _: t, "pyfunc",
                    bprop=lambda a, b, out, dout: (dout * b, dout * a))
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))
    np.testing.assert_array_equal(cellgraph.jit(lambda a, b: op(a, b))(x, y).asnumpy(), [4, 9])
    dx, dy = cellgraph.grad(lambda a, b: op(a, b).sum(), grad_position=(0, 1))(x, y)
    np.testing.assert_array_equal(dx.asnumpy(), [3, 4])
    np.testing.assert_array_equal(dy.asnumpy(), [1, 2])
    out = op(x, y)
    assert _is_native(backend, out._data)
    assert set(seen) == {np.ndarray}


def test_collectives_in_a_compiled_graph_and_its_gradient(backend):
    """Collectives run in compiled graphs on every backend (on the jax backend as ordered host
    callbacks inside the XLA program), forward and under grad, in a world of one."""
    pytest.importorskip("torch.distributed")
    from cellgraph import communication

    class Net(cellgraph.nn.Cell):
        def __init__(self):
            super().__init__()
            self.all_reduce, self.all_gather = ops.AllReduce(), ops.AllGather()

        def construct(self, x):
            return self.all_gather(self.all_reduce(x * x) + 1.0)

    communication.init()
    try:
        x = Tensor(np.array([[1.0, -2.0, 3.0]], np.float32))
        out = Net()(x)
        np.testing.assert_array_equal(out.asnumpy(), [[2.0, 5.0, 10.0]])
        assert _is_native(backend, out._data)
        np.testing.assert_array_equal(cellgraph.grad(Net())(x).asnumpy(), [[2.0, -4.0, 6.0]])
    finally:
        communication.release()
        cellgraph.reset_auto_parallel_context()


def test_print_writes_pythons_text_or_mindspores_print_operators(backend, capsys):
    x = backend.from_host(np.array([1.5, -2.0], np.float32))
    forms = {"template": ("x:", " ", 0, " n = ", 1, " ", ("r", 0, "Float32")),
             "lines": (("x:",), (("t", 0, "Float32"),), ("n =",), (1,))}
    assert backend.kernel("print")(x, 3, **forms) == ()
    assert backend.kernel("print")(x, 3, style="graph", **forms) == ()
    assert capsys.readouterr().out == (
        "x: [ 1.5 -2. ] n = 3 Tensor(shape=[2], dtype=Float32, value= [ 1.50000000e+00, "
        "-2.00000000e+00])\n"
        "x:\nTensor(shape=[2], dtype=Float32, value=[ 1.50000000e+00 -2.00000000e+00])\nn =\n3\n")


# ----- programs --------------------------------------------------------------------------------

def _leaves(value) -> list:
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def _run(build, backend_name: str) -> list:
    """Build the program (its Parameters) and run it on `backend_name`; host results."""
    rb.set_backend(backend_name)
    cellgraph.set_seed(3)
    fn, args = build()
    out = _leaves(fn(*args))
    for t in out:
        assert _is_native(rb.get_backend(), t._data), f"result held as {type(t._data)}"
    return [(t.dtype, t.asnumpy().copy()) for t in out]


def _assert_same(got, expected, what):
    assert len(got) == len(expected), f"{what}: {len(got)} results, expected {len(expected)}"
    for k, ((dtype, value), (ref_dtype, ref)) in enumerate(zip(got, expected)):
        assert dtype == ref_dtype, f"{what} result {k}: dtype {dtype}, expected {ref_dtype}"
        np.testing.assert_allclose(value, ref, rtol=2e-5, atol=1e-6,
                                   err_msg=f"{what} result {k}")


def second_order():
    """d/dx of sum(d/dx sum(sin(x) * x^3)), through two nested grads."""
    def f(x):
        return ops.reduce_sum(ops.sin(x) * x * x * x)

    df = cellgraph.grad(f)

    def g(x):
        return ops.reduce_sum(df(x) * df(x))

    return cellgraph.grad(g), (tensor((2, 3)),)


def while_second_order():
    inner = cellgraph.grad(TensorWhile())

    def g(x):
        return ops.reduce_sum(inner(x * x))

    return cellgraph.grad(g), (scalar(1.5),)


def if_second_order():
    inner = cellgraph.grad(TensorIf())
    return cellgraph.grad(lambda x: ops.reduce_sum(inner(x * x * x))), (scalar(0.7),)


class ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, pad_mode="same", has_bias=True)
        self.norm = nn.BatchNorm2d(4)
        self.max_pool = nn.MaxPool2d(2, 2)
        self.avg_pool = nn.AvgPool2d(2, 1)
        self.flatten = nn.Flatten()
        self.dense = nn.Dense(4 * 3 * 3, 3)

    def construct(self, x):
        x = self.max_pool(ops.relu(self.norm(self.conv(x))))
        return self.dense(self.flatten(self.avg_pool(x)))


def conv_net_grad():
    net = ConvNet()
    images = Tensor(np.random.default_rng(0).normal(size=(2, 2, 8, 8)).astype(np.float32))
    grad_fn = cellgraph.value_and_grad(net, grad_position=0,
                                       weights=cellgraph.ParameterTuple(net.trainable_params()))
    return grad_fn, (images,)


def training_steps():
    """Three Momentum steps of an MLP with a cross-entropy loss: losses and final weights."""
    net = MLP()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer)
    x, labels = tensor((3, 4)), Tensor(np.array([0, 1, 1], np.int32))

    def run():
        losses = [step(x, labels) for _ in range(3)]
        return losses, [Tensor(p.asnumpy()) for p in net.trainable_params()]

    return run, ()


class DropoutNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dropout = nn.Dropout(keep_prob=0.6)

    def construct(self, x):
        return self.dropout(x) * 2


def dropout_after_seed():
    net = DropoutNet()
    net.set_train()
    return net, (tensor((4, 5)),)


EXTRA_PROGRAMS = {"second_order": second_order, "while_second_order": while_second_order,
                  "if_second_order": if_second_order, "conv_net_grad": conv_net_grad,
                  "training_steps": training_steps, "dropout_after_seed": dropout_after_seed}
ALL_PROGRAMS = {p.name: p.build for p in PROGRAMS} | EXTRA_PROGRAMS


# Compiled graphs on the jax backend draw from jax.random (runtime/jax_lowering.py), so their
# dropout masks are not the NumPy generator's; tests/runtime/test_jax_backend.py checks them.
OWN_RANDOM_NUMBERS = {"jax": {"dropout_after_seed"}}


@pytest.mark.parametrize("program", list(ALL_PROGRAMS))
def test_program_matches_numpy(other_backend, program):
    if program in OWN_RANDOM_NUMBERS.get(other_backend, ()):
        pytest.skip(f"{other_backend} draws its own random numbers in compiled graphs")
    build = ALL_PROGRAMS[program]
    expected = _run(build, "numpy")
    _assert_same(_run(build, other_backend), expected, f"{other_backend} {program}")


@pytest.mark.parametrize("program", ["mlp_grad_weights", "second_order", "training_steps"])
def test_pynative_program_matches_numpy(other_backend, program):
    cellgraph.set_context(mode=context.PYNATIVE_MODE)
    build = ALL_PROGRAMS[program]
    expected = _run(build, "numpy")
    _assert_same(_run(build, other_backend), expected, f"{other_backend} pynative {program}")


def test_tensors_made_under_numpy_run_on_another_backend(other_backend):
    """Parameters made before a backend switch still work: kernels move them to the device."""
    cellgraph.set_seed(3)
    fn, args = ALL_PROGRAMS["mlp_grad_weights"]()
    expected = [t.asnumpy().copy() for t in _leaves(fn(*args))]
    rb.set_backend(other_backend)
    got = [t.asnumpy() for t in _leaves(fn(*args))]
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=2e-5, atol=1e-6)


# ----- choosing a backend ----------------------------------------------------------------------

@pytest.fixture
def fresh_warnings(monkeypatch):
    monkeypatch.setattr(context, "_warned", set())


def test_gpu_target_without_a_device_warns_once_and_runs_on_numpy(fresh_warnings):
    name, reason = gpu.find_gpu_backend()
    if name is not None:
        pytest.skip(f"this machine has a GPU backend ({name})")
    with pytest.warns(RuntimeWarning) as record:
        cellgraph.set_context(device_target="GPU")
    assert len(record) == 1
    message = str(record[0].message)
    assert message == f"device_target='GPU': {reason}; running on the CPU with NumPy"
    assert ("PyTorch is installed but sees no CUDA device" if HAVE_TORCH
            else "PyTorch is not installed") in message
    assert ("CuPy is not installed" in message) == (not HAVE_CUPY)
    assert ("JAX sees no GPU" if HAVE_JAX else "JAX is not installed") in message
    assert rb.get_backend().name == "numpy"
    assert cellgraph.get_context("device_target") == "GPU"
    assert cellgraph.get_context("backend") == "numpy"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cellgraph.set_context(device_target="GPU")  # the second time: no warning
    assert (Tensor([1.0, 2.0]) * 2).asnumpy().tolist() == [2.0, 4.0]


def test_gpu_target_names_missing_packages(fresh_warnings, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch -> ImportError
    monkeypatch.setitem(sys.modules, "cupy", None)
    monkeypatch.setitem(sys.modules, "jax", None)
    with pytest.warns(RuntimeWarning) as record:
        cellgraph.set_context(device_target="GPU")
    assert str(record[0].message) == (
        "device_target='GPU': no GPU backend is available (PyTorch is not installed; CuPy is "
        "not installed; JAX is not installed); running on the CPU with NumPy")


def test_gpu_target_picks_jax_when_it_is_the_one_that_sees_a_gpu(monkeypatch):
    class Device:
        platform = "gpu"

    fake_jax = type(sys)("jax")
    fake_jax.devices = lambda: [Device()]
    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.setitem(sys.modules, "cupy", None)
    monkeypatch.setitem(sys.modules, "jax", fake_jax)
    monkeypatch.setattr(gpu, "_loads", lambda name, reasons: True)
    assert gpu.find_gpu_backend() == ("jax", "")


@pytest.mark.skipif(not HAVE_TORCH, reason="PyTorch is not installed")
def test_gpu_target_picks_torch_cuda_when_torch_sees_a_device(monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(gpu, "_loads", lambda name, reasons: True)
    assert gpu.find_gpu_backend() == ("torch_cuda", "")


@pytest.mark.skipif(not HAVE_TORCH, reason="PyTorch is not installed")
def test_gpu_target_passes_over_a_backend_that_cannot_load(monkeypatch):
    """PyTorch sees a device but its backend cannot load (array-api-compat missing): the next
    library is tried, and the reason is given."""
    import torch

    def get_backend(name):
        raise ImportError(f"{name} needs array-api-compat")

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setitem(sys.modules, "cupy", None)
    monkeypatch.setitem(sys.modules, "jax", None)
    monkeypatch.setattr(rb, "get_backend", get_backend)
    assert gpu.find_gpu_backend() == (None, (
        "no GPU backend is available (the torch_cuda backend cannot load (torch_cuda needs "
        "array-api-compat); CuPy is not installed; JAX is not installed)"))


def test_gpu_target_picks_cupy_when_torch_is_absent(monkeypatch):
    class FakeRuntime:
        @staticmethod
        def getDeviceCount():
            return 1

    fake_cupy = type(sys)("cupy")
    fake_cupy.cuda = type(sys)("cupy.cuda")
    fake_cupy.cuda.runtime = FakeRuntime
    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.setitem(sys.modules, "cupy", fake_cupy)
    monkeypatch.setattr(gpu, "_loads", lambda name, reasons: True)
    assert gpu.find_gpu_backend() == ("cupy", "")


@pytest.mark.skipif(not HAVE_TORCH, reason="PyTorch is not installed")
def test_set_context_backend_selects_torch():
    import torch

    cellgraph.set_context(backend="torch")
    assert cellgraph.get_context("backend") == "torch"
    assert cellgraph.get_context("device_target") == "CPU"
    t = Tensor([1.0, 2.0])
    assert isinstance(t._data, torch.Tensor)
    np.testing.assert_allclose(ops.exp(t).asnumpy(), np.exp([1.0, 2.0]).astype(np.float32))
    cellgraph.set_context(device_target="CPU")
    assert rb.get_backend().name == "numpy"


def test_set_context_backend_errors():
    with pytest.raises(ArgumentError, match="backend 'tpu' cannot run: unknown backend 'tpu'"):
        cellgraph.set_context(backend="tpu")
    if not HAVE_CUPY:
        with pytest.raises(ArgumentError, match="the cupy backend needs CuPy"):
            cellgraph.set_context(backend="cupy")
    wrong_device = "backend 'xp_numpy' runs on CPU, got device_target='GPU'"
    with pytest.raises(ArgumentError, match=wrong_device), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no GPU backend here: device_target warns first
        cellgraph.set_context(backend="xp_numpy", device_target="GPU")
    assert rb.get_backend().name == "numpy"


def test_optional_backend_modules_import_cleanly_without_their_package(monkeypatch):
    for package, module in (("cupy", "cellgraph.runtime.cupy_backend"),
                            ("torch", "cellgraph.runtime.torch_backend"),
                            ("jax", "cellgraph.runtime.jax_backend")):
        monkeypatch.setitem(sys.modules, package, None)
        monkeypatch.delitem(sys.modules, module, raising=False)
        with pytest.raises(ImportError, match=f"the {package} backend needs"):
            importlib.import_module(module)


def test_float32_erf_is_within_a_few_ulp_everywhere():
    """The NumPy backend's float32 erf is a rational approximation: compare it with math.erf
    from tiny arguments (where erf(x) ~ 2x/sqrt(pi)) through the saturation at +-1."""

    rng = np.random.default_rng(0)
    x = np.concatenate([rng.standard_normal(20000) * 2, np.linspace(-6, 6, 2001),
                        np.geomspace(1e-30, 8, 2000), -np.geomspace(1e-30, 8, 2000)])
    x = x.astype(np.float32)
    want = np.array([math.erf(v) for v in x.astype(np.float64)]).astype(np.float32)
    got = blocked_kernels.numpy_erf(x)
    assert got.dtype == np.float32
    ulps = np.abs(got.astype(np.float64) - want) / np.spacing(np.abs(want))
    assert ulps.max() <= 8
    assert blocked_kernels.numpy_erf(np.float16([0.5, -3.0])).dtype == np.float16
