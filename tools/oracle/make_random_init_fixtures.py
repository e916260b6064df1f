"""Record MindSpore's random initial values (run with a Python that has MindSpore 2.10):

    python tools/oracle/make_random_init_fixtures.py [tests/data/mindspore_random_init.npz]

Writes one array per case: the generator's raw transforms (`_random_normal`, `_random_uniform`,
`_truncated_normal`) for a few seeds and sizes (over 1024 values MindSpore splits the work over
threads), every random initializer after `set_seed(1)`, the default parameters of Dense, Conv2d,
Embedding and LSTM, and NumPy's next draws after them (each initializer takes one seed from
NumPy's global generator). tests/cellgraph/test_initializer.py compares cellgraph's bit for bit.
"""
import sys

import mindspore as ms
import numpy as np
from mindspore import nn
from mindspore._c_expression import _random_normal, _random_uniform, _truncated_normal
from mindspore.common.initializer import (
    HeNormal,
    HeUniform,
    Normal,
    Orthogonal,
    TruncatedNormal,
    Uniform,
    VarianceScaling,
    XavierNormal,
    XavierUniform,
    initializer,
)

# name -> (initializer, shape, dtype); the same list is in the test
INITIALIZERS = [("normal", Normal(0.02, 0.1), (3, 5), ms.float32),
                ("uniform", Uniform(0.3), (4, 4), ms.float32),
                ("truncated_normal", TruncatedNormal(0.5), (7,), ms.float32),
                ("xavier_uniform", XavierUniform(), (6, 3, 2, 2), ms.float32),
                ("xavier_normal", XavierNormal(2.0), (5, 8), ms.float32),
                ("he_uniform", HeUniform(), (16, 4), ms.float32),
                ("he_normal", HeNormal(mode="fan_out"), (3, 9), ms.float32),
                ("orthogonal", Orthogonal(), (3, 6), ms.float32),
                ("variance_scaling", VarianceScaling(distribution="untruncated_normal"), (4, 5),
                 ms.float32),
                ("normal_float64", Normal(), (2, 3), ms.float64)]


def main(path: str) -> None:
    out = {}
    for seed in (1, 2**40 + 7):
        for n in (5, 1030):
            a = np.empty(n, np.float32)
            _random_normal(seed, a, 0.1, 0.02)
            out[f"raw_normal_{seed}_{n}"] = a.copy()
            _random_uniform(seed, a, -0.3, 0.7)
            out[f"raw_uniform_{seed}_{n}"] = a.copy()
            _truncated_normal(seed, a, -0.05, 0.3, 0.1, 0.2)
            out[f"raw_truncated_{seed}_{n}"] = a.copy()
    ms.set_seed(1)
    for name, init, shape, dtype in INITIALIZERS:
        out[name] = initializer(init, shape, dtype).init_data().asnumpy()
    for label, cell in (("dense", nn.Dense(20, 30)), ("conv", nn.Conv2d(3, 8, 3)),
                        ("embedding", nn.Embedding(50, 8)), ("lstm", nn.LSTM(4, 6))):
        for p in cell.get_parameters():
            out[f"{label}.{p.name}"] = p.asnumpy()
    out["numpy_after"] = np.random.rand(3)
    np.savez_compressed(path, **out)
    print(f"{len(out)} arrays -> {path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/mindspore_random_init.npz")
