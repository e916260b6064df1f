"""ops.batch_to_space_nd / BatchToSpaceND, ops.space_to_batch_nd / SpaceToBatchND and
ops.BCEWithLogitsLoss: the values MindSpore 2.10 gives for the same inputs (recorded below)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import ops

EXPECTED = {"b2s2d": [[[[0.0, 4.0, 1.0, 5.0], [8.0, 12.0, 9.0, 13.0], [2.0, 6.0, 3.0, 7.0], [10.0, 14.0, 11.0, 15.0]]]], "b2s1d": [[[0.0], [1.0], [2.0]], [[3.0], [4.0], [5.0]]], "b2scrop": [[[[24.0, 36.0, 25.0]], [[26.0, 38.0, 27.0]], [[28.0, 40.0, 29.0]]], [[[30.0, 42.0, 31.0]], [[32.0, 44.0, 33.0]], [[34.0, 46.0, 35.0]]]], "s2b": [[[[0.0, 0.0], [4.0, 6.0]], [[0.0, 0.0], [16.0, 18.0]]], [[[0.0, 0.0], [28.0, 30.0]], [[0.0, 0.0], [40.0, 42.0]]], [[[0.0, 0.0], [5.0, 7.0]], [[0.0, 0.0], [17.0, 19.0]]], [[[0.0, 0.0], [29.0, 31.0]], [[0.0, 0.0], [41.0, 43.0]]], [[[0.0, 2.0], [8.0, 10.0]], [[12.0, 14.0], [20.0, 22.0]]], [[[24.0, 26.0], [32.0, 34.0]], [[36.0, 38.0], [44.0, 46.0]]], [[[1.0, 3.0], [9.0, 11.0]], [[13.0, 15.0], [21.0, 23.0]]], [[[25.0, 27.0], [33.0, 35.0]], [[37.0, 39.0], [45.0, 47.0]]]], "fn": [[[[0.0, 4.0, 1.0, 5.0], [8.0, 12.0, 9.0, 13.0], [2.0, 6.0, 3.0, 7.0], [10.0, 14.0, 11.0, 15.0]]]], "fn2": [[[[0.0, 0.0], [4.0, 6.0]], [[0.0, 0.0], [16.0, 18.0]]], [[[0.0, 0.0], [28.0, 30.0]], [[0.0, 0.0], [40.0, 42.0]]], [[[0.0, 0.0], [5.0, 7.0]], [[0.0, 0.0], [17.0, 19.0]]], [[[0.0, 0.0], [29.0, 31.0]], [[0.0, 0.0], [41.0, 43.0]]], [[[0.0, 2.0], [8.0, 10.0]], [[12.0, 14.0], [20.0, 22.0]]], [[[24.0, 26.0], [32.0, 34.0]], [[36.0, 38.0], [44.0, 46.0]]], [[[1.0, 3.0], [9.0, 11.0]], [[13.0, 15.0], [21.0, 23.0]]], [[[25.0, 27.0], [33.0, 35.0]], [[37.0, 39.0], [45.0, 47.0]]]], "bce": 1.7734770774841309, "bce_none": [[0.4740769863128662, 0.6265232563018799], [2.1269280910491943, 3.866379976272583]]}


def _run():
    out={}
    x=ms.Tensor(np.arange(16).reshape(4,1,2,2).astype(np.float32))
    out['b2s2d']=ops.BatchToSpaceND((2,2),((0,0),(0,0)))(x).asnumpy().tolist()
    y=ms.Tensor(np.arange(12).reshape(4,3,1).astype(np.float32))
    out['b2s1d']=ops.BatchToSpaceND((2,),((0,1),))(y).asnumpy().tolist()
    w=ms.Tensor(np.arange(2*3*4*2).reshape(8,3,1,2).astype(np.float32))
    out['b2scrop']=ops.BatchToSpaceND((2,2),((1,0),(0,1)))(w).asnumpy().tolist()
    z=ms.Tensor(np.arange(2*2*3*4).reshape(2,2,3,4).astype(np.float32))
    out['s2b']=ops.SpaceToBatchND((2,2),((1,0),(0,0)))(z).asnumpy().tolist()
    out['fn']=ops.batch_to_space_nd(x,(2,2),((0,0),(0,0))).asnumpy().tolist()
    out['fn2']=ops.space_to_batch_nd(z,(2,2),((1,0),(0,0))).asnumpy().tolist()
    lg=ms.Tensor(np.array([[0.5,-1.],[2.,0.1]],np.float32)); lb=ms.Tensor(np.array([[1.,0.],[0.,1.]],np.float32))
    wt=ms.Tensor(np.array([1.,2.],np.float32)); pw=ms.Tensor(np.array([1.,3.],np.float32))
    out['bce']=ops.BCEWithLogitsLoss()(lg,lb,wt,pw).asnumpy().tolist()
    out['bce_none']=ops.BCEWithLogitsLoss('none')(lg,lb,wt,pw).asnumpy().tolist()
    return out


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_as_mindspore(name):
    np.testing.assert_allclose(np.array(_run()[name]), np.array(EXPECTED[name]), rtol=1e-5)


def test_block_arguments_are_checked():
    x = ms.Tensor(np.ones((3, 1, 2, 2), np.float32))
    with pytest.raises(ValueError, match="batch size 3 must be a multiple"):
        ops.batch_to_space_nd(x, (2, 2), ((0, 0), (0, 0)))
    with pytest.raises(ValueError, match="pair for each"):
        ops.space_to_batch_nd(x, (2, 2), ((0, 0),))
