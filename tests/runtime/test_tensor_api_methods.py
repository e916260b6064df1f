"""A Tensor method that the API layer adds (a composition's, such as `x.addcmul`) works in a
program that never imported `cellgraph.ops`: the first lookup that misses loads it."""
import subprocess
import sys


def test_composition_methods_before_ops_is_imported():
    program = (
        "import sys, numpy as np\n"
        "from cellgraph.runtime.tensor import Tensor\n"
        "a = Tensor(np.array([1.0, 2.0], np.float32))\n"
        "assert 'cellgraph.ops' not in sys.modules\n"
        "print(a.ger(Tensor(np.array([3.0, 4.0], np.float32))).asnumpy().tolist())\n"
        "try:\n"
        "    a.no_such_method\n"
        "except AttributeError as e:\n"
        "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["[[3.0, 4.0], [6.0, 8.0]]",
                   "'Tensor' object has no attribute 'no_such_method'"]


def test_public_tensor_has_the_overloaded_methods_without_importing_ops():
    # `cellgraph.Tensor` loads the API layer's methods: x.max(dim=0) is MindSpore's (values,
    # indices) form, not the core's single `axis` form
    program = (
        "import numpy as np\n"
        "import cellgraph as ms\n"
        "x = ms.Tensor(np.array([[1.0, 5.0], [3.0, 2.0]], np.float32))\n"
        "values, indices = x.max(dim=0)\n"
        "print(values.asnumpy().tolist(), indices.asnumpy().tolist())\n")
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["[3.0, 5.0] [1, 0]"]
