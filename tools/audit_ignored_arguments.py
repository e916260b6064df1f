"""List the arguments of cellgraph's public API that are accepted and never read.

An argument that changes results, files or security must act or raise; one that is only a
device or performance hint in MindSpore may be accepted without effect, but then it is listed
in the README's table of such arguments and in `REVIEWED` below with the reason. This script
walks every public callable (functions; for classes `__init__`/`__new__` and the public
methods; the methods of Tensor, Parameter, Cell, Optimizer and Dataset) and, from the AST of
each, reports the parameters that are:

* never referenced in the body (`del x` and `_ = x` do not count as a use), or
* only stored as `self.<attr> = x` where no code in the package ever reads `<attr>`.

A function whose body is empty (a hook meant to be overridden) or starts by raising is skipped.

    python tools/audit_ignored_arguments.py          # the unreviewed hits, exit 1 if any
    python tools/audit_ignored_arguments.py --all    # every hit with its kind

Each reviewed hit is in `REVIEWED` below with its kind and the reason; the hints are also in
the README's table of arguments that have no effect here.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pathlib
import sys
import textwrap
import types

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cellgraph"

MODULES = (
    "cellgraph", "cellgraph.ops", "cellgraph.ops.functional", "cellgraph.ops.operations",
    "cellgraph.nn", "cellgraph.mint", "cellgraph.mint.nn", "cellgraph.mint.nn.functional",
    "cellgraph.numpy", "cellgraph.dataset", "cellgraph.dataset.vision",
    "cellgraph.dataset.transforms", "cellgraph.dataset.text", "cellgraph.train",
    "cellgraph.amp", "cellgraph.communication", "cellgraph.common.initializer",
    "cellgraph.experimental.optim",
)

# The reviewed hits: (qualified name of the function as defined, parameter) -> (kind, why).
# Kinds:
#   hint        a device, compiler or performance hint in MindSpore: accepted, no effect here,
#               listed in the README's table of such arguments
#   mindspore   MindSpore 2.10 itself ignores it (deprecated or reserved)
#   protocol    an argument the framework passes to a hook or an internal method, no user choice
#   equivalent  what cellgraph computes is what MindSpore gives for every value it accepts
#   gated       only meaningful together with another argument or call that raises here
_CB = "cellgraph.train.callback"
_DS = "cellgraph.dataset"
_WORKERS = "the number of threads or processes that run the pipeline; rows and their order " \
    "are the same"
REVIEWED: dict[tuple[str, str], tuple[str, str]] = {
    # ---- hints (README table) -------------------------------------------------------------
    ("cellgraph.jit_decorators.jit", "mode"): (
        "hint", "MindSpore 2.10 drops it as deprecated (capture_mode replaces it)"),
    ("cellgraph.jit_decorators.jit", "input_signature"): (
        "hint", ("MindSpore 2.10 drops it as deprecated (dynamic shapes); graphs are compiled "
        "per input signature anyway")),
    ("cellgraph.jit_decorators.jit", "jit_config"): (
        "hint", "MindSpore 2.10 drops it as deprecated; it tunes MindSpore's compiler"),
    ("cellgraph.jit_decorators.lazy_inline", "attrs"): (
        "hint", "compile time: cellgraph inlines every Cell and merges repeats afterwards"),
    ("cellgraph.jit_decorators.lazy_inline", "policy"): (
        "hint", "compile time: cellgraph inlines every Cell and merges repeats afterwards"),
    ("cellgraph.train.data_sink.data_sink", "jit_config"): (
        "hint", "it tunes MindSpore's compiler"),
    ("cellgraph.train.data_sink.data_sink", "input_signature"): (
        "hint", "dynamic-shape compilation; graphs are compiled per input signature anyway"),
    ("cellgraph.ops.primitive.constexpr", "check"): ("hint", "compile-time argument checking"),
    ("cellgraph.ops.primitive.constexpr", "get_instance"): ("hint", "compile-time caching"),
    ("cellgraph.ops.primitive.constexpr", "reuse_result"): ("hint", "compile-time caching"),
    ("cellgraph.ops.composite.HyperMap.__init__", "reverse"): (
        "hint", ("the order MindSpore visits the leaves in, for parallel performance; the "
        "results are the same")),
    ("cellgraph.ops.composite.MultitypeFuncGraph.__init__", "doc_url"): (
        "hint", "a documentation link"),
    ("cellgraph.ops.composite.MultitypeFuncGraph.__init__", "read_value"): (
        "hint", ("whether MindSpore passes Parameters by value; registered functions receive "
        "the values here either way")),
    ("cellgraph.common.assign.depend", "expr"): (
        "hint", "execution order: cellgraph runs side effects in program order"),
    ("cellgraph.amp.loss_scaler.all_finite", "status"): (
        "hint", "MindSpore 2.2's Ascend overflow-status buffer; the check reads the values"),
    ("cellgraph.ops.function.nn_func.attention.multi_head_attention_forward", "k_is_v"): (
        "hint", "MindSpore skips a projection when key is value; the results are the same"),
    ("cellgraph.ops.function.nn_func.attention.multi_head_attention_forward", "q_is_k"): (
        "hint", "MindSpore skips a projection when query is key; the results are the same"),
    ("cellgraph.mint._tensor_ops.cdist", "compute_mode"): (
        "hint", "whether MindSpore computes Euclidean distances by matrix products (speed)"),
    ("cellgraph.mint.repeat_interleave", "output_size"): (
        "hint", "spares MindSpore a device-host sync; the size follows from repeats"),
    ("cellgraph.mint.empty", "device"): ("hint", "the device; cellgraph's backend decides"),
    ("cellgraph.mint.empty_like", "device"): ("hint", "the device; cellgraph's backend decides"),
    ("cellgraph.ops.tensor_overloads.new_empty", "device"): (
        "hint", "the device; cellgraph's backend decides"),
    ("cellgraph.numpy.array_creations.histogram_bin_edges", "weights"): (
        "equivalent", ("for a bin count or given edges the edges do not depend on the "
                       "weights (NumPy reads them only for its automatic bin estimators, which "
                       "MindSpore lacks)")),
    ("cellgraph.runtime.tensor.tensor", "device"): (
        "hint", "the device; cellgraph's backend decides"),
    ("cellgraph.runtime.tensor.tensor", "const_arg"): (
        "hint", "whether MindSpore compiles the Tensor as a constant; the results are the same"),
    ("cellgraph.runtime.tensor.Parameter.__init__", "device"): (
        "hint", "the device; cellgraph's backend decides"),
    ("cellgraph.runtime.tensor.Parameter.__init__", "storage_format"): (
        "hint", "an Ascend memory layout (FRACTAL_NZ, ...)"),
    ("cellgraph.parallel.shard.shard", "out_strategy"): (
        "hint", ("in a job of one process there is nothing to shard and `fn` is returned, as "
                 "MindSpore does; across processes the call is refused")),
    ("cellgraph.parallel.shard.shard", "parameter_plan"): (
        "hint", ("in a job of one process there is nothing to shard and `fn` is returned, as "
                 "MindSpore does; across processes the call is refused")),
    ("cellgraph.runtime.tensor.Parameter.set_data", "slice_shape"): (
        "hint", "operator-sharded Parameters (auto parallel), which cellgraph does not shard"),
    ("cellgraph.runtime.tensor.Tensor.init_data", "slice_index"): (
        "hint", "operator-sharded Parameters (auto parallel), which cellgraph does not shard"),
    ("cellgraph.runtime.tensor.Tensor.init_data", "shape"): (
        "hint", "operator-sharded Parameters (auto parallel), which cellgraph does not shard"),
    ("cellgraph.runtime.tensor.Tensor.init_data", "opt_shard_group"): (
        "hint", "optimizer sharding (auto parallel), which cellgraph does not do"),
    ("cellgraph.nn.cell.Cell.init_parameters_data", "auto_parallel_mode"): (
        "hint", "operator-sharded Parameters (auto parallel), which cellgraph does not shard"),
    ("cellgraph.nn.cell.Cell.recompute", "kwargs"): (
        "hint", "memory: MindSpore recomputes activations in backward instead of storing them"),
    **{("cellgraph.nn.cell.Cell.recompute", name): (
        "hint", "how MindSpore recomputes activations (memory); results are the same")
       for name in ("use_reentrant", "output_recompute", "early_stop", "context_fn")},
    ("cellgraph.common.recompute.recompute", "early_stop"): (
        "hint", "when MindSpore stops recomputing in backward (memory); results are the same"),
    ("cellgraph.runtime.tensor.Parameter.init_data", "set_sliced"): (
        "hint", "operator-sharded Parameters (auto parallel), which cellgraph does not shard"),
    ("cellgraph.ops.primitive.Primitive.set_prim_instance_name", "instance_name"): (
        "hint", "the name MindSpore's IR gives the primitive instance; kept as instance_name"),
    ("cellgraph.nn.cell.Cell.set_grad", "requires_grad"): (
        "hint", "marks a Cell for PyNative backward graphs; cellgraph differentiates any Cell"),
    ("cellgraph.nn.cell.Cell.set_inputs", "kwargs"): (
        "hint", "dynamic-shape compilation; graphs are compiled per input signature anyway"),
    ("cellgraph.nn.wrap.grad_reducer.DistributedGradReducer.__init__", "fusion_type"): (
        "hint", "how MindSpore fuses gradient all-reduces (speed); the sums are the same"),
    ("cellgraph.ops.inplace.copy_", "non_blocking"): (
        "hint", "whether MindSpore's device copy waits; host copies are done when they return"),
    ("cellgraph.nn.optim.adam.Adam.__init__", "use_locking"): (
        "hint", ("a lock around MindSpore's in-place update kernels; each step's update is "
        "serialised here")),
    ("cellgraph.nn.optim.rmsprop.RMSProp.__init__", "use_locking"): (
        "hint", ("a lock around MindSpore's in-place update kernels; each step's update is "
        "serialised here")),
    ("cellgraph.ops.function.math_func.elementwise.index_add", "use_lock"): (
        "hint", "a lock in MindSpore's GPU kernel; the CPU sum is the same"),
    ("cellgraph.ops.function.math_func.elementwise.index_add", "check_index_bound"): (
        "hint", ("whether MindSpore checks the indices; out-of-range indices are an error here "
        "either way (unchecked, MindSpore writes outside the tensor)")),
    ("cellgraph.profiler.profiler.Profiler.analyse", "mode"): (
        "hint", "whether MindSpore parses its device data synchronously"),
    ("cellgraph.profiler.profiler.Profiler.op_analyse", "device_id"): (
        "hint", "one device: the statistics are this process's"),
    ("cellgraph.train.model.Model.eval", "dataset_sink_mode"): (
        "hint", "how MindSpore feeds the device; the metrics are the same"),
    ("cellgraph.train.model.Model.fit", "valid_dataset_sink_mode"): (
        "hint", "how MindSpore feeds the device; the metrics are the same"),
    ("cellgraph.train.model.Model.predict", "backend"): (
        "hint", "MindSpore Lite as the inference engine; the outputs are the same"),
    ("cellgraph.train.model.Model.predict", "config"): (
        "hint", ("MindSpore Lite's settings; without Lite MindSpore falls back to the ordinary "
                 "inference and leaves them unused too")),
    ("cellgraph.train.summary.record.SummaryRecord.__init__", "num_process"): (
        "hint", "MindSpore's writer processes"),
    ("cellgraph.train.summary.collector.SummaryCollector.__init__", "num_process"): (
        "hint", "MindSpore's writer processes"),
    ("cellgraph.train.summary.record.SummaryRecord.__init__", "network"): (
        "hint", ("MindSpore saves the network's graph in the summary; cellgraph's summary "
        "files hold values only (`cellgraph ir` shows graphs)")),
    ("cellgraph.train.summary.record.SummaryRecord.record", "train_network"): (
        "hint", "as `network`: no graph is written into the summary"),
    ("cellgraph.train.summary.record.SummaryRecord.__init__", "raise_exception"): (
        "hint", ("cellgraph raises a failed write whatever it says (MindSpore logs it when "
        "False); nothing is lost silently")),
    (f"{_DS}.engine.Dataset.map", "offload"): (
        "hint", "MindSpore runs the map on the device; the rows are the same"),
    (f"{_DS}.iterators.DictIterator.__init__", "do_copy"): (
        "hint", "whether MindSpore copies each row into a new Tensor (speed)"),
    (f"{_DS}.iterators.TupleIterator.__init__", "do_copy"): (
        "hint", "whether MindSpore copies each row into a new Tensor (speed)"),
    (f"{_DS}.mindrecord_source.MindDataset.__init__", "cache"): (
        "hint", "MindSpore's cache server (speed); the rows are the same"),
    **{(f"{_DS}.{where}", name): ("hint", _WORKERS) for where, name in (
        ("engine.Dataset.filter", "num_parallel_workers"),
        ("engine.Dataset.map", "num_parallel_workers"),
        ("engine.Dataset.map", "python_multiprocessing"),
        ("engine.Dataset.map", "max_rowsize"),
        ("mindrecord_source.MindDataset.__init__", "num_parallel_workers"),
        ("nodes.BatchDataset.__init__", "num_parallel_workers"),
        ("nodes.BatchDataset.__init__", "python_multiprocessing"),
        ("nodes.BatchDataset.__init__", "max_rowsize"),
        ("readers.Cifar100Dataset.__init__", "num_parallel_workers"),
        ("readers.Cifar10Dataset.__init__", "num_parallel_workers"),
        ("readers.ImageFolderDataset.__init__", "num_parallel_workers"),
        ("readers.MnistDataset.__init__", "num_parallel_workers"),
        ("readers.TextFileDataset.__init__", "num_parallel_workers"),
        ("sources.GeneratorDataset.__init__", "num_parallel_workers"),
        ("sources.GeneratorDataset.__init__", "python_multiprocessing"),
        ("sources.GeneratorDataset.__init__", "max_rowsize"),
        ("sources.NumpySlicesDataset.__init__", "num_parallel_workers"))},
    # ---- MindSpore ignores it too ---------------------------------------------------------
    ("cellgraph.nn.layer.basic.Dropout.__init__", "dtype"): (
        "mindspore", "deprecated: MindSpore warns and ignores it"),
    ("cellgraph.common.initializer.Initializer.__init__", "kwargs"): (
        "mindspore", "MindSpore's base keeps them in _kwargs and reads them nowhere"),
    ("cellgraph.sparse.COOTensor.astype", "keep_type"): (
        "mindspore", "MindSpore's astype does not read it"),
    ("cellgraph.ops.function.nn_func.attention.flash_attention_score", "inner_precise"): (
        "mindspore", "reserved, not implemented in MindSpore"),
    ("cellgraph.ops.function.nn_func.attention.flash_attention_score", "padding_mask"): (
        "mindspore", "reserved, not implemented in MindSpore"),
    ("cellgraph.nn.wrap.loss_scale.FixedLossScaleUpdateCell.construct", "loss_scale"): (
        "mindspore", "a fixed scale: MindSpore returns the overflow flag only"),
    # ---- protocol -------------------------------------------------------------------------
    ("cellgraph.runtime.tensor.Tensor.__new__", "args"): ("protocol", "__init__ reads them"),
    ("cellgraph.runtime.tensor.Tensor.__new__", "dtype"): ("protocol", "__init__ reads it"),
    ("cellgraph.runtime.tensor.Tensor.__new__", "kwargs"): ("protocol", "__init__ reads them"),
    ("cellgraph.mint.distributed.point_to_point.P2POp.__new__", "group"): (
        "protocol", "__init__ reads it"),
    ("cellgraph.common.initializer.Constant.generate", "rng"): (
        "protocol", "a constant draws nothing"),
    ("cellgraph.common.initializer.Identity.generate", "rng"): (
        "protocol", "the identity draws nothing"),
    ("cellgraph.nn.layer.activation.get_activation", "prim_name"): (
        "protocol", "the caller's name for error messages"),
    **{(f"cellgraph.nn.{where}.update", "step"): (
        "protocol", "the step count the optimizer protocol passes; this rule does not use it")
       for where in ("optim.adam.AdamWeightDecay", "optim.momentum.Momentum",
                     "optim.adadelta.Adadelta", "optim.ada_grad.Adagrad",
                     "optim.rmsprop.RMSProp", "optim.ftrl.FTRL",
                     "optim.proximal_ada_grad.ProximalAdagrad", "optim.adamax.AdaMax",
                     "optim.sgd.SGD", "optim.adafactor.AdaFactor")},
    **{(f"{_DS}.samplers.{where}", name): (
        "protocol", "the engine's arguments to every sampler; this one does not need it")
       for where, name in (("PKSampler.indices", "num_rows"), ("Sampler.indices", "state"),
                           ("SequentialSampler.indices", "state"),
                           ("SubsetSampler.indices", "state"),
                           ("WeightedRandomSampler.count", "num_rows"))},
    **{(f"{_CB}.{where}", "run_context"): (
        "protocol", "the callback protocol's argument; this hook does not need it")
       for where in ("_checkpoint.ModelCheckpoint.on_train_begin",
                     "_lr_callbacks.ReduceLROnPlateau.on_train_begin",
                     "_monitors.EarlyStopping.on_train_begin",
                     "_monitors.EarlyStopping.on_train_end",
                     "_monitors.History.on_train_begin", "_monitors.LossMonitor.on_train_begin",
                     "_monitors.TimeMonitor.on_train_epoch_begin",
                     "_monitors.TimeMonitor.on_train_step_begin",
                     "_monitors.TimeMonitor.on_train_step_end",
                     "_on_request_exit.OnRequestExit.on_train_step_begin",
                     "_backup_and_restore.BackupAndRestore.on_train_end")},
    **{(f"cellgraph.train.summary.collector.SummaryCollector.{hook}", "run_context"): (
        "protocol", "the callback protocol's argument; this hook does not need it")
       for hook in ("end",)},
    # ---- equivalent -----------------------------------------------------------------------
    ("cellgraph.mint._tensor_ops.argsort", "stable"): (
        "equivalent", "the sort is always stable, a right answer for stable=False too"),
    ("cellgraph.mint._tensor_ops.sort", "stable"): (
        "equivalent", "the sort is always stable, a right answer for stable=False too"),
    ("cellgraph.mint.unique", "sorted"): (
        "equivalent", "the values are always sorted, a right answer for sorted=False too"),
    ("cellgraph.ops.function.nn_func.image.interpolate", "recompute_scale_factor"): (
        "equivalent", ("the sampling follows the output size, which is what MindSpore computes "
        "wherever it accepts scale_factor (recompute_scale_factor=True, or mode 'area')")),
    ("cellgraph.nn.layer.basic.Upsample.__init__", "recompute_scale_factor"): (
        "equivalent", "as ops.interpolate's"),
    # ---- gated: only with an argument or a call that raises --------------------------------
    ("cellgraph.mint.nn._layers.Embedding.__init__", "norm_type"): (
        "gated", "only used with max_norm, which raises"),
    ("cellgraph.mint.nn.functional.embedding", "norm_type"): (
        "gated", "only used with max_norm, which raises"),
    **{("cellgraph.ops.primitive.Custom.__init__", name): (
        "gated", "calling an ops.Custom raises (it needs MindSpore's back ends)")
       for name in ("out_shape", "out_dtype", "bprop", "reg_info")},
    **{("cellgraph.train.distributed_checkpoint.load_distributed_checkpoint", name): (
        "gated", "only used with unified_safetensors_dir, which raises")
       for name in ("dst_safetensors_dir", "rank_id", "output_format", "max_process_num")},
}
HINTS = {key: why for key, (kind, why) in REVIEWED.items() if kind == "hint"}


def _read_names() -> set[str]:
    """Every attribute name some code of the package reads, and every identifier-like string
    constant (names read through getattr, __dict__ or lists of attribute names)."""
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):  # a value only shown by __repr__ is not acted on
            if isinstance(node, ast.FunctionDef) and node.name in ("__repr__", "__str__"):
                node.body = [ast.Pass()]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Attribute):
                names.add(node.target.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.isidentifier():
                names.add(node.value)
    return names


def _public_objects():
    seen: set[int] = set()
    for modname in MODULES:
        module = importlib.import_module(modname)
        names = getattr(module, "__all__", None)
        if names is None:
            names = [n for n in dir(module) if not n.startswith("_")]
        lazy = getattr(module, "_LAZY", None)
        if isinstance(lazy, dict):
            names = sorted(set(names) | set(lazy))
        for name in names:
            if name.startswith("_"):
                continue
            try:
                obj = getattr(module, name)
            except (ImportError, AttributeError):  # an optional extra missing
                continue
            if isinstance(obj, types.ModuleType) or id(obj) in seen:
                continue
            seen.add(id(obj))
            yield f"{modname}.{name}", obj


def _own(obj) -> bool:
    return (getattr(obj, "__module__", "") or "").startswith("cellgraph")


def _functions_of(qualname: str, obj):
    """(public name, function) pairs to audit for one public object."""
    if isinstance(obj, type):
        if not _own(obj):
            return
        for meth in ("__init__", "__new__"):
            fn = obj.__dict__.get(meth)
            if fn is not None:
                yield f"{qualname}.{meth}", fn
        for name, fn in vars(obj).items():
            if not name.startswith("_") or name == "__call__":
                yield f"{qualname}.{name}", fn
        return
    yield qualname, obj


def _base_classes():
    import cellgraph
    from cellgraph import dataset, nn
    for cls in (cellgraph.Tensor, cellgraph.Parameter, nn.Cell, nn.Optimizer, dataset.Dataset):
        for klass in cls.__mro__:
            if _own(klass):
                yield f"{klass.__module__}.{klass.__qualname__}", klass


def _unwrap(fn):
    if isinstance(fn, (staticmethod, classmethod)):
        fn = fn.__func__
    if isinstance(fn, property):
        return None
    fn = inspect.unwrap(fn) if callable(fn) else None
    if not isinstance(fn, types.FunctionType) or not _own(fn):
        return None
    return fn


def _is_trivial(body) -> bool:
    stmts = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if not stmts:
        return True
    first = stmts[0]
    if isinstance(first, ast.Raise):
        return True
    return all(isinstance(s, ast.Pass) or (isinstance(s, ast.Return) and (
        s.value is None or isinstance(s.value, ast.Constant))) for s in stmts)


def _parents(tree):
    parent = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parent[child] = node
    return parent


def unread_parameters(fn, read_names: set[str]) -> list[str]:
    """The parameters of `fn` its body never reads (see the module docstring)."""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return []
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    node = next((n for n in ast.walk(tree)
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == fn.__name__), None)
    if node is None or _is_trivial(node.body):
        return []
    args = node.args
    params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if args.vararg:
        params.append(args.vararg.arg)
    if args.kwarg:
        params.append(args.kwarg.arg)
    if params and params[0] in ("self", "cls") and "." in fn.__qualname__:
        params = params[1:]
    body = ast.Module(body=node.body, type_ignores=[])
    parent = _parents(body)
    calls_locals = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                       and n.func.id in ("locals", "vars") and not n.args
                       for n in ast.walk(body))
    if calls_locals:
        return []
    uses: dict[str, bool] = {p: False for p in params}
    for n in ast.walk(body):
        if not (isinstance(n, ast.Name) and n.id in uses and isinstance(n.ctx, ast.Load)):
            continue
        up = parent.get(n)
        if isinstance(up, ast.Expr):  # a bare `x` statement
            continue
        if isinstance(up, ast.Assign) and up.value is n:
            targets = up.targets
            if all(isinstance(t, ast.Name) and t.id == "_" for t in targets):
                continue  # `_ = x`
            if all(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                   and t.value.id == "self" for t in targets) and not any(
                    t.attr in read_names for t in targets):
                continue  # stored where nothing reads it
        if isinstance(up, ast.Tuple) and isinstance(parent.get(up), ast.Assign) \
                and parent[up].value is up and all(
                    isinstance(t, ast.Name) and t.id == "_" for t in parent[up].targets):
            continue  # `_ = x, y`
        uses[n.id] = True
    return [p for p, used in uses.items() if not used]


def audit():
    """{(defined qualname, parameter): public name} of every hit."""
    read_names = _read_names()
    seen: set[int] = set()
    hits: dict[tuple[str, str], str] = {}
    sources = list(_public_objects())
    sources += [(q, o) for q, o in _base_classes()]
    for qualname, obj in sources:
        for public, fn in _functions_of(qualname, obj):
            fn = _unwrap(fn)
            if fn is None or id(fn.__code__) in seen:
                continue
            seen.add(id(fn.__code__))
            defined = f"{fn.__module__}.{fn.__qualname__}"
            for param in unread_parameters(fn, read_names):
                hits.setdefault((defined, param), public)
    return hits


def unreviewed(hits) -> list[str]:
    return [f"{defined}({param})  [{public}]" for (defined, param), public in sorted(hits.items())
            if (defined, param) not in REVIEWED]


def main(argv) -> int:
    hits = audit()
    new = unreviewed(hits)
    if "--all" in argv:
        for (defined, param), public in sorted(hits.items()):
            kind = REVIEWED.get((defined, param), ("NEW",))[0]
            print(f"{kind:<11}{defined}({param})  [{public}]")
    else:
        for line in new:
            print(f"NEW        {line}")
    # an entry whose argument is read now (someone made it act): worth deleting, not an error
    for defined, param in sorted(set(REVIEWED) - set(hits)):
        print(f"stale allow-list entry (the argument is read now): {defined}({param})")
    kinds: dict[str, int] = {}
    for key in hits:
        kind = REVIEWED.get(key, ("NEW",))[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"{len(hits)} hits: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())))
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
