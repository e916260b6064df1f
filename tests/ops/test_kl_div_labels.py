"""KLDivLoss (the class, nn's and ops.kl_div) with labels <= 0, which add nothing, as MindSpore
2.10 gives them (values recorded below) for each reduction."""
import numpy as np

import cellgraph as ms
from cellgraph import nn
from cellgraph.ops import operations as P

EXPECTED = {'none': [[0.0, 0.356675], [0.693147, 0.0]], 'none2': [[0.0, 0.356675], [0.693147, 0.0]], 'mean': 0.262456, 'mean2': 0.262456, 'sum': 1.049822, 'sum2': 1.049822, 'batchmean': 0.524911, 'batchmean2': 0.524911, 'nn': 0.524911}


def test_as_mindspore():
    out={}
    pred = ms.Tensor(np.log(np.array([[0.3, 0.7], [0.5, 0.5]])).astype(np.float32))
    t = ms.Tensor(np.array([[-1, 1], [1, -1]]).astype(np.float32))
    t2 = ms.Tensor(np.array([[0, 1], [1, 0.5]]).astype(np.float32))
    for r in ['none','mean','sum','batchmean']:
        out[r]=np.asarray(P.KLDivLoss(r)(pred, t).asnumpy(), np.float64).round(6).tolist()
        out[r+'2']=np.asarray(P.KLDivLoss(r)(pred, t2).asnumpy(), np.float64).round(6).tolist()
    out['nn']=np.asarray(nn.KLDivLoss('batchmean')(pred, t2).asnumpy(), np.float64).round(6).tolist()
    assert out == EXPECTED
