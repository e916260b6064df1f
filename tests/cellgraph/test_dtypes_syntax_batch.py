"""np_dtype.bfloat16, the float8 dtypes, jit_syntax_level values and dataset.BatchDataset."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import dataset as ds


def test_np_dtype_bfloat16_makes_bfloat16_tensors():
    pytest.importorskip("ml_dtypes")
    from cellgraph.common import np_dtype

    array = np.array([1.0, 2.5, -0.375], dtype=np_dtype.bfloat16)
    t = ms.Tensor(array)
    assert t.dtype == ms.bfloat16
    np.testing.assert_array_equal(t.astype(ms.float32).asnumpy(), [1.0, 2.5, -0.375])


def test_float8_casts_round_to_the_format():
    pytest.importorskip("ml_dtypes")
    x = ms.Tensor(np.array([0.1, 1.7, 300.0, -3.3], np.float32))
    e4m3 = ms.ops.cast(x, ms.float8_e4m3fn)
    e5m2 = x.astype(ms.float8_e5m2)
    assert e4m3.dtype == ms.float8_e4m3fn and e5m2.dtype == ms.float8_e5m2
    # e4m3: 3 mantissa bits; e5m2: 2 mantissa bits
    np.testing.assert_array_equal(e4m3.astype(ms.float32).asnumpy(),
                                  [0.1015625, 1.75, 288.0, -3.25])
    np.testing.assert_array_equal(e5m2.astype(ms.float32).asnumpy(),
                                  [0.09375, 1.75, 320.0, -3.5])
    doubled = ms.jit(lambda v: ms.ops.cast(v, ms.float32) * 2)(e4m3)
    np.testing.assert_array_equal(doubled.asnumpy(), [0.203125, 3.5, 576.0, -6.5])


def test_jit_syntax_levels():
    assert (ms.STRICT, ms.COMPATIBLE, ms.LAX) == (0, 1, 2)
    before = ms.get_context("jit_syntax_level")
    try:
        ms.set_context(jit_syntax_level=ms.STRICT)
        assert ms.get_context("jit_syntax_level") == ms.STRICT
    finally:
        ms.set_context(jit_syntax_level=before)
    assert ms.JitConfig(jit_syntax_level="COMPATIBLE").jit_config_dict["jit_syntax_level"] \
        == "COMPATIBLE"
    with pytest.raises(ValueError, match="jit_syntax_level"):
        ms.set_context(jit_syntax_level=5)
    with pytest.raises(ValueError, match="jit_syntax_level"):
        ms.JitConfig(jit_syntax_level="LOOSE")


def test_batch_returns_a_batch_dataset():
    def data():  # a dataset object feeds one pipeline only
        return ds.NumpySlicesDataset({"x": np.arange(10, dtype=np.float32)}, shuffle=False)

    batched = data().batch(4)
    assert isinstance(batched, ds.BatchDataset)
    direct = ds.BatchDataset(data(), 4, drop_remainder=True)
    assert [b["x"].tolist() for b in direct.create_dict_iterator(output_numpy=True)] == [
        [0, 1, 2, 3], [4, 5, 6, 7]]
    assert batched.get_dataset_size() == 3 and direct.get_dataset_size() == 2
    with pytest.raises(ValueError, match="batch_size"):  # checked by batch(), as MindSpore's
        data().batch(0)
    zero = ds.BatchDataset(data(), 0)  # the class itself takes it, as MindSpore's does
    with pytest.raises(RuntimeError, match="'batch_size' should be positive integer, but got: 0"):
        zero.get_dataset_size()
