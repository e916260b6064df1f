"""Every spelling is made by the module that holds it, when it loads: what a name of
`ops`, `ops.functional`, `ops.operations`, `ops.auto_generate`, `mint` or `numpy` means does not
depend on which of them a program imports first."""
from __future__ import annotations

import json
import subprocess
import sys

MODULES = ("cellgraph.mint", "cellgraph.numpy", "cellgraph.ops.auto_generate.gen_ops_prim",
           "cellgraph.ops.functional", "cellgraph.ops.operations", "cellgraph.ops")



def survey(order) -> dict:
    """{module: {public name: its type, qualified name and signature}} once the modules of
    `order` are imported in that order."""
    import importlib
    import inspect

    def describe(value):
        try:
            signature = str(inspect.signature(value))
        except (TypeError, ValueError):
            signature = "?"
        return f"{type(value).__name__} {getattr(value, '__qualname__', '')} {signature}"

    modules = {name: importlib.import_module(name) for name in order}
    return {name: {k: describe(getattr(module, k)) for k in dir(module) if not k.startswith("_")}
            for name, module in modules.items()}


_RUN = "import json, sys; from {module} import survey; print(json.dumps(survey(sys.argv[1:])))"


def test_names_do_not_depend_on_import_order():
    """A fresh interpreter importing mint, numpy and auto_generate before ops sees every name
    as this session (which imported ops first) does."""
    out = subprocess.run([sys.executable, "-c", _RUN.format(module=__name__), *MODULES],
                         capture_output=True, text=True, check=True)
    first, last = json.loads(out.stdout), survey(tuple(reversed(MODULES)))
    for module in MODULES:
        assert first[module] == last[module], module
    assert first["cellgraph.mint"]["arcsin"].endswith("(x)")
    assert first["cellgraph.ops.functional"]["positive"].endswith("(input)")
