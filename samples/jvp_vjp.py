"""Forward and reverse mode: Jacobian-vector products (jvp) and vector-Jacobian products (vjp).

jvp(f, inputs, v) returns (f(inputs), J v): how the outputs move when the inputs move along v.
vjp(f, inputs, u) returns (f(inputs), u^T J): the gradient of u . f, which is what reverse
mode (GradOperation with a sens) computes. The Cell forms `nn.Jvp` / `nn.Vjp` do the same
inside a graph. cellgraph obtains J v by transposing the reverse-mode map u -> J^T u, so both
come from the same source transformation.
"""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class SinPlusCos(nn.Cell):
    def construct(self, x, y):
        return ops.sin(x) + ops.cos(y)


class CubePlus(nn.Cell):
    def construct(self, x, y):
        return x ** 3 + y


class JvpNet(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.jvp = nn.Jvp(net)

    def construct(self, x, y, v):
        return self.jvp(x, y, (v, v))


class VjpNet(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.vjp = nn.Vjp(net)

    def construct(self, x, y, u):
        return self.vjp(x, y, u)


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor([0.8, 0.6, 0.2], dtype=ms.float32)
    y = Tensor([0.7, 0.4, 0.3], dtype=ms.float32)
    v = Tensor([1, 1, 1], dtype=ms.float32)
    # J v = cos(x) v - sin(y) v
    out, jv = JvpNet(SinPlusCos())(x, y, v)
    print("nn.Jvp: out =", out, " J v =", jv)
    # u^T J = (cos(x) u, -sin(y) u)
    out, (ux, uy) = VjpNet(SinPlusCos())(x, y, v)
    print("nn.Vjp: u^T J =", ux, uy)

    # The functional forms, on f(a, b) = a³ + b.
    a = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
    b = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
    ones = Tensor(np.ones((2, 2), np.float32))
    f_ab, jv_ab = ms.jvp(CubePlus(), (a, b), (ones, ones))
    print("jvp: f(a, b) =\n", f_ab, "\nJ (1, 1) = 3 a^2 + 1 =\n", jv_ab, sep="")
    _, (ua, ub) = ms.vjp(CubePlus(), (a, b), ones)
    print("vjp: (3 a^2, 1) =\n", ua, "\n", ub, sep="")
    return {"jv": jv.asnumpy(), "ux": ux.asnumpy(), "uy": uy.asnumpy(),
            "jv_ab": jv_ab.asnumpy(), "ua": ua.asnumpy(), "ub": ub.asnumpy(),
            "x": x.asnumpy(), "y": y.asnumpy(), "a": a.asnumpy()}


if __name__ == "__main__":
    main()
