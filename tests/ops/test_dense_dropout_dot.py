"""ops.Dense, ops.Dropout3D (and Dropout2D with keep_prob 0), G.DropoutGrad, ops.ger and
ops.dot: the values MindSpore 2.10 gives for the same inputs (recorded below)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import ops
from cellgraph.ops import functional as F
from cellgraph.ops.operations import _grad_ops as G

EXPECTED = {'dense': [[3.0, 4.0, 5.0, 6.0], [12.0, 13.0, 14.0, 15.0]], 'dense_nob': [[3.0, 3.0, 3.0, 3.0], [12.0, 12.0, 12.0, 12.0]], 'dgrad': [[0.0, 0.0, 4.0], [0.0, 8.0, 10.0]], 'ger': [[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]], 'dot': [[20.0, 23.0, 26.0, 29.0], [56.0, 68.0, 80.0, 92.0]], 'dot3': [[[[70.0, 76.0, 82.0, 88.0, 94.0], [190.0, 196.0, 202.0, 208.0, 214.0]], [[190.0, 212.0, 234.0, 256.0, 278.0], [630.0, 652.0, 674.0, 696.0, 718.0]], [[310.0, 348.0, 386.0, 424.0, 462.0], [1070.0, 1108.0, 1146.0, 1184.0, 1222.0]]], [[[430.0, 484.0, 538.0, 592.0, 646.0], [1510.0, 1564.0, 1618.0, 1672.0, 1726.0]], [[550.0, 620.0, 690.0, 760.0, 830.0], [1950.0, 2020.0, 2090.0, 2160.0, 2230.0]], [[670.0, 756.0, 842.0, 928.0, 1014.0], [2390.0, 2476.0, 2562.0, 2648.0, 2734.0]]]], 'd3zero': [[[[[[0.0, 0.0], [0.0, 0.0]]], [[[0.0, 0.0], [0.0, 0.0]]]]], 'Bool', [[[[[False, False], [False, False]]], [[[False, False], [False, False]]]]]], 'd3one': [[[[[[1.0, 1.0], [1.0, 1.0]]], [[[1.0, 1.0], [1.0, 1.0]]]]], [[[[[True, True], [True, True]]], [[[True, True], [True, True]]]]]]}


def test_as_mindspore():
    out={}
    x=ms.Tensor(np.arange(6).reshape(2,3).astype(np.float32)); w=ms.Tensor(np.ones((4,3),np.float32)); b=ms.Tensor(np.arange(4).astype(np.float32))
    out['dense']=ops.Dense()(x,w,b).asnumpy().tolist(); out['dense_nob']=ops.Dense()(x,w).asnumpy().tolist()
    out['dgrad']=G.DropoutGrad(0.5)(x, ms.Tensor(np.array([[1,0,1],[0,1,1]],np.float32))).asnumpy().tolist()
    out['ger']=F.ger(ms.Tensor(np.array([1.,2.],np.float32)), ms.Tensor(np.array([3.,4.,5.],np.float32))).asnumpy().tolist()
    a=ms.Tensor(np.arange(6).reshape(2,3).astype(np.float32)); c=ms.Tensor(np.arange(12).reshape(3,4).astype(np.float32))
    out['dot']=F.dot(a,c).asnumpy().tolist()
    d=ms.Tensor(np.arange(24).reshape(2,3,4).astype(np.float32)); e=ms.Tensor(np.arange(40).reshape(2,4,5).astype(np.float32))
    out['dot3']=F.dot(d,e).asnumpy().tolist()
    o, m = ops.Dropout3D(0.0)(ms.Tensor(np.ones((1,2,1,2,2),np.float32)))
    out['d3zero']=[o.asnumpy().tolist(), str(m.dtype), m.asnumpy().tolist()]
    o, m = ops.Dropout3D(1.0)(ms.Tensor(np.ones((1,2,1,2,2),np.float32)))
    out['d3one']=[o.asnumpy().tolist(), m.asnumpy().tolist()]
    assert out == EXPECTED


def test_dropout2d_takes_keep_prob_zero():
    out, mask = ops.Dropout2D(0.0)(ms.Tensor(np.ones((1, 2, 2, 2), np.float32)))
    assert not out.asnumpy().any() and not mask.asnumpy().any()


@pytest.mark.parametrize("fn, rank", [("dropout2d", 4), ("dropout3d", 5)])
def test_functional_channel_dropout_as_mindspore(fn, rank):
    """ops.dropout2d / ops.dropout3d(input, p, training): whole channels zeroed with
    probability p, the rest scaled by 1 / (1 - p); the input itself when not training; an
    empty batch goes through; MindSpore 2.10's rank and probability errors."""
    op = getattr(ops, fn)
    x = ms.Tensor(np.ones((4, 6) + (2,) * (rank - 2), np.float32))
    out = op(x, 0.5, True).asnumpy()
    assert out.shape == x.shape and set(np.unique(out)) <= {0.0, 2.0}
    per_channel = out.reshape(4, 6, -1)
    assert (per_channel == per_channel[..., :1]).all()  # a channel is kept or dropped whole
    np.testing.assert_array_equal(op(x, 0.5, False).asnumpy(), x.asnumpy())
    assert op(ms.Tensor(np.ones((0, 1) + (2,) * (rank - 2), np.float32))).shape[0] == 0
    name = "Dropout2D" if rank == 4 else "Dropout3D"
    with pytest.raises(ValueError, match=rf"For primitive\[{name}\], the rank of input  must be "
                                         rf"equal to {rank} , but got 3\."):
        op(ms.Tensor(np.ones((2, 3, 2), np.float32)))
    with pytest.raises(ValueError, match=rf"For '{name}', the 'keep_prob' must be in range of "
                                         r"\[0.0, 1.0\], but got -0.5 with type 'float'\."):
        op(x, 1.5)
