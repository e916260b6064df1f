"""A Tensor method that the API layer adds (a composition's, such as `x.addcmul`) works in a
program that never imported `cellgraph.ops`: the first lookup that misses loads it."""
import subprocess
import sys


def test_composition_methods_before_ops_is_imported():
    program = (
        "import sys, numpy as np\n"
        "import cellgraph as ms\n"
        "a = ms.Tensor(np.array([1.0, 2.0], np.float32))\n"
        "assert 'cellgraph.ops' not in sys.modules\n"
        "print(a.ger(ms.Tensor(np.array([3.0, 4.0], np.float32))).asnumpy().tolist())\n"
        "try:\n"
        "    a.no_such_method\n"
        "except AttributeError as e:\n"
        "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["[[3.0, 4.0], [6.0, 8.0]]",
                   "'Tensor' object has no attribute 'no_such_method'"]
