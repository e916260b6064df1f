"""`mindspore.run_check`: a check that the installation computes."""
from __future__ import annotations

import numpy as np


def run_check() -> None:
    """Multiply two Tensors on the current device and print whether the result is right,
    with the version and the platform, as MindSpore's run_check does; a failure is printed,
    not raised."""
    import cellgraph
    from cellgraph import context, ops
    from cellgraph.runtime.tensor import Tensor

    try:
        x = np.array([1.0, 2.0, 3.0], np.float32)
        result = ops.mul(Tensor(x), Tensor(x)).asnumpy()
        if not np.array_equal(result, x * x):
            raise RuntimeError(f"the product of {x} with itself came out {result}, "
                               f"expected {x * x}")
        platform = context.get_context("device_target")
        print(f"cellgraph version:  {cellgraph.__version__}")
        print(f"The result of multiplication calculation is correct, cellgraph has been "
              f"installed on platform [{platform}] successfully!")
    except Exception as e:  # noqa: BLE001 - the check reports, as MindSpore's does
        print("cellgraph running check failed.")
        print(str(e))
