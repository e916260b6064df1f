"""Parameter's argument checks and copy(), as MindSpore 2.10's (types and messages recorded from
it)."""
import numpy as np
import pytest

from cellgraph import Parameter, Tensor

T = Tensor(np.array([[1, 2, 3], [2, 3, 4]]))


@pytest.mark.parametrize("name", [np.array([1]), T, True, 1, [1], (1, 2)])
def test_name_must_be_a_str_or_none(name):
    with pytest.raises(ValueError, match="The type of the Parameter's name should be 'string' "
                                         "or 'None'"):
        Parameter(T, name=name)


def test_data():
    assert Parameter(3, name="a").shape == ()
    assert Parameter(T, name=None).shape == (2, 3)
    with pytest.raises(ValueError, match="can not be `bool`"):
        Parameter(True, name="a")
    with pytest.raises(TypeError, match="must be in \\['Tensor', 'int', 'float', "
                                        "'numpy.ndarray', 'list'\\]"):
        Parameter((1, 2, 3), name="a")


def test_copy_is_a_parameter_with_its_own_data():
    p = Parameter(T, name="testParameter")
    q = p.copy()
    assert isinstance(q, Parameter) and q.name == "testParameter" and q is not p
    np.testing.assert_array_equal(q.data.asnumpy(), p.data.asnumpy())
    q.set_data(Tensor(np.zeros((2, 3), np.int64)))
    assert p.asnumpy()[0, 0] == 1


@pytest.mark.parametrize("flag", ["requires_grad", "layerwise_parallel", "parallel_optimizer"])
def test_flags_are_bools(flag):
    for bad in (None, 1, "a", T, [1]):
        with pytest.raises(TypeError, match=f"The argument `{flag}` must be bool type"):
            Parameter(T, name="a", **{flag: bad})
    p = Parameter(T, name="a", **{flag: False})
    assert getattr(p, flag) is False
    with pytest.raises(TypeError):
        setattr(p, flag, 1)


def test_cache_flags_default_set_and_clone():
    """cache_enable/cache_shape as MindSpore 2.10: False and [] until set, kept by clone(),
    and flush_from_cache on a Tensor of the Parameter returns None (mindcv's StateMonitor reads
    them at each epoch's end)."""
    p = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    assert p.cache_enable is False
    assert p.cache_shape == []
    p.cache_enable = True
    p.cache_shape = [1, 2]
    q = p.clone()
    assert (q.cache_enable, q.cache_shape) == (True, [1, 2])
    assert Tensor(p).flush_from_cache() is None
    np.testing.assert_array_equal(p.asnumpy(), [1.0, 1.0])


def test_cache_flags_types():
    p = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    with pytest.raises(TypeError, match="The argument `cache_enable` must be bool type."):
        p.cache_enable = 1
    with pytest.raises(TypeError, match="The argument `cache_shape` must be tuple or list type."):
        p.cache_shape = 1
