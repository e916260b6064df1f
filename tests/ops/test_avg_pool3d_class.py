"""ops.AvgPool3D: its pad modes, count_include_pad and divisor_override, with the values
MindSpore 2.10 gives for the same input (recorded below), and its gradient."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph.ops import operations as P
from cellgraph.testing import check_grads

EXPECTED = {"valid": [[[[[13.5, 14.5, 15.5], [18.5, 19.5, 20.5], [23.5, 24.5, 25.5]], [[33.5, 34.5, 35.5], [38.5, 39.5, 40.5], [43.5, 44.5, 45.5]]], [[[73.5, 74.5, 75.5], [78.5, 79.5, 80.5], [83.5, 84.5, 85.5]], [[93.5, 94.5, 95.5], [98.5, 99.5, 100.5], [103.5, 104.5, 105.5]]]]], "same_nocount": [[[[[13.0, 13.5, 14.5, 15.5, 16.0], [18.0, 18.5, 19.5, 20.5, 21.0], [23.0, 23.5, 24.5, 25.5, 26.0], [25.5, 26.0, 27.0, 28.0, 28.5]], [[33.0, 33.5, 34.5, 35.5, 36.0], [38.0, 38.5, 39.5, 40.5, 41.0], [43.0, 43.5, 44.5, 45.5, 46.0], [45.5, 46.0, 47.0, 48.0, 48.5]], [[43.0, 43.5, 44.5, 45.5, 46.0], [48.0, 48.5, 49.5, 50.5, 51.0], [53.0, 53.5, 54.5, 55.5, 56.0], [55.5, 56.0, 57.0, 58.0, 58.5]]], [[[73.0, 73.5, 74.5, 75.5, 76.0], [78.0, 78.5, 79.5, 80.5, 81.0], [83.0, 83.5, 84.5, 85.5, 86.0], [85.5, 86.0, 87.0, 88.0, 88.5]], [[93.0, 93.5, 94.5, 95.5, 96.0], [98.0, 98.5, 99.5, 100.5, 101.0], [103.0, 103.5, 104.5, 105.5, 106.0], [105.5, 106.0, 107.0, 108.0, 108.5]], [[103.0, 103.5, 104.5, 105.5, 106.0], [108.0, 108.5, 109.5, 110.5, 111.0], [113.0, 113.5, 114.5, 115.5, 116.0], [115.5, 116.0, 117.0, 118.0, 118.5]]]]], "same_count": [[[[[13.0, 15.0, 8.25], [23.0, 25.0, 13.25]], [[21.5, 22.5, 11.625], [26.5, 27.5, 14.125]]], [[[73.0, 75.0, 38.25], [83.0, 85.0, 43.25]], [[51.5, 52.5, 26.625], [56.5, 57.5, 29.125]]]]], "pad": [[[[[2.5, 3.0, 4.0, 5.0, 6.0, 6.5], [7.5, 8.0, 9.0, 10.0, 11.0, 11.5], [12.5, 13.0, 14.0, 15.0, 16.0, 16.5], [15.0, 15.5, 16.5, 17.5, 18.5, 19.0]], [[12.5, 13.0, 14.0, 15.0, 16.0, 16.5], [17.5, 18.0, 19.0, 20.0, 21.0, 21.5], [22.5, 23.0, 24.0, 25.0, 26.0, 26.5], [25.0, 25.5, 26.5, 27.5, 28.5, 29.0]], [[32.5, 33.0, 34.0, 35.0, 36.0, 36.5], [37.5, 38.0, 39.0, 40.0, 41.0, 41.5], [42.5, 43.0, 44.0, 45.0, 46.0, 46.5], [45.0, 45.5, 46.5, 47.5, 48.5, 49.0]]], [[[62.5, 63.0, 64.0, 65.0, 66.0, 66.5], [67.5, 68.0, 69.0, 70.0, 71.0, 71.5], [72.5, 73.0, 74.0, 75.0, 76.0, 76.5], [75.0, 75.5, 76.5, 77.5, 78.5, 79.0]], [[72.5, 73.0, 74.0, 75.0, 76.0, 76.5], [77.5, 78.0, 79.0, 80.0, 81.0, 81.5], [82.5, 83.0, 84.0, 85.0, 86.0, 86.5], [85.0, 85.5, 86.5, 87.5, 88.5, 89.0]], [[92.5, 93.0, 94.0, 95.0, 96.0, 96.5], [97.5, 98.0, 99.0, 100.0, 101.0, 101.5], [102.5, 103.0, 104.0, 105.0, 106.0, 106.5], [105.0, 105.5, 106.5, 107.5, 108.5, 109.0]]]]], "div": [[[[[34.66666793823242, 42.66666793823242]]], [[[194.6666717529297, 202.6666717529297]]]]]}


def _run():
    x=ms.Tensor(np.arange(1*2*3*4*5).reshape(1,2,3,4,5).astype(np.float32))
    out={}
    out['valid']=P.AvgPool3D(kernel_size=(2,2,3), strides=1, pad_mode='VALID')(x).asnumpy().tolist()
    out['same_nocount']=P.AvgPool3D(kernel_size=(2,2,3), strides=1, pad_mode='SAME', count_include_pad=False)(x).asnumpy().tolist()
    out['same_count']=P.AvgPool3D(kernel_size=2, strides=2, pad_mode='same')(x).asnumpy().tolist()
    out['pad']=P.AvgPool3D(kernel_size=2, strides=1, pad_mode='pad', pad=(1,0,0,1,1,1), count_include_pad=False)(x).asnumpy().tolist()
    out['div']=P.AvgPool3D(kernel_size=2, strides=3, pad_mode='valid', divisor_override=3)(x).asnumpy().tolist()
    return out


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_as_mindspore(name):
    np.testing.assert_allclose(np.array(_run()[name]), np.array(EXPECTED[name]), rtol=1e-5)


def test_gradient_and_checks():
    pool = P.AvgPool3D(kernel_size=2, strides=1, pad_mode="same", count_include_pad=False)
    x = ms.Tensor(np.random.default_rng(0).normal(size=(1, 1, 3, 3, 4)))
    check_grads(pool, (x,), order=1)
    with pytest.raises(ValueError, match="pad_mode must be"):
        P.AvgPool3D(pad_mode="full")
