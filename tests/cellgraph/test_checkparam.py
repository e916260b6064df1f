"""cellgraph._checkparam: MindSpore's argument checks, which programs import to check their own
arguments (return the value; TypeError for a wrong type, a bool never an int; ValueError out of
range)."""
import pytest

from cellgraph import _checkparam as validator
from cellgraph._checkparam import twice


def test_int_and_float_checks():
    assert validator.check_is_int(7) == 7
    assert validator.check_positive_int(3, "n", "Op") == 3
    assert validator.check_non_negative_int(0) == 0
    assert validator.check_positive_float(0.5) == 0.5
    for check, bad_type, bad_value in (
            (validator.check_is_int, 3.3, None), (validator.check_positive_int, 1.0, 0),
            (validator.check_negative_int, "x", 0), (validator.check_non_positive_int, 2.0, 1),
            (validator.check_non_negative_float, 1, -0.5),
            (validator.check_positive_float, True, 0.0)):
        with pytest.raises(TypeError):
            check(bad_type)
        with pytest.raises(TypeError):
            check(True)
        if bad_value is not None:
            with pytest.raises(ValueError):
                check(bad_value)
    with pytest.raises(ValueError, match=r"For 'Op', the 'n' must be int and must > 0"):
        validator.check_positive_int(0, "n", "Op")
    # a bool passes MindSpore's isinstance test and fails the next, with its longer sentence
    with pytest.raises(TypeError, match=r"^The 'threads_num' must be int and must > 0, but got "
                                        r"'True' with type 'bool'\.$"):
        validator.check_positive_int(True, "threads_num")


def test_range_type_and_string_checks():
    assert validator.check_float_range(0.5, 0.0, 1.0, validator.INC_NEITHER, "beta") == 0.5
    with pytest.raises(ValueError, match=r"must be in range of \(0.0, 1.0\)"):
        validator.check_float_range(1.0, 0.0, 1.0, validator.INC_NEITHER, "beta")
    assert validator.check_int_range(1, 1, 3, validator.INC_LEFT) == 1
    with pytest.raises(ValueError, match=r"\[1, 3\)"):
        validator.check_int_range(3, 1, 3, validator.INC_LEFT)
    assert validator.check_value_type("x", 2, [int, float]) == 2
    with pytest.raises(TypeError, match="should be 'int'"):
        validator.check_value_type("x", True, [int])
    with pytest.raises(TypeError, match=r"should be one of '\['int', 'float'\]'"):
        validator.check_value_type("x", "s", (int, float), "Op")
    assert validator.check_value_type("x", 0.1234567891, [int, str, float]) == 0.1234567891
    assert validator.check_bool(False) is False
    with pytest.raises(TypeError):
        validator.check_bool(1)
    assert validator.check_string("same", ["same", "valid"], "pad_mode") == "same"
    with pytest.raises(ValueError, match="'pad_mode' must be str and must be in"):
        validator.check_string("full", ["same", "valid"], "pad_mode")
    with pytest.raises(ValueError):
        validator.check_isinstance("x", 1, str)
    with pytest.raises(ValueError, match="should be >= minimum: 2"):
        validator.check("x", 1, "minimum", 2, validator.GE)


def test_twice_expands_ints():
    assert twice(3) == (3, 3) and twice((3, 4)) == (3, 4)
    assert validator.triple(2) == (2, 2, 2) and validator.twice_sequence([1, 2]) == (1, 2)
    for bad in (0.5, "str", (1, 2, 3), (3.3, 4), True):
        with pytest.raises(TypeError):
            twice(bad)


def test_check_input_format_and_args_type_check():
    from cellgraph._checkparam import args_type_check, check_input_format

    assert check_input_format("NCHW") == "NCHW"
    with pytest.raises(ValueError, match="The data format must be NCHW, but got rt."):
        check_input_format("rt")

    @args_type_check(v_str=str, v_int=int, v_tuple=tuple)
    def check_input(v_str, v_int, v_tuple=None):
        return v_str, v_int, v_tuple

    assert check_input("name", 100, (10, 10)) == ("name", 100, (10, 10))
    assert check_input("name", 100) == ("name", 100, None)
    with pytest.raises(TypeError, match="The parameter 'v_str' must be <class 'str'>, but got "
                                        "<class 'int'>"):
        check_input(100, 100, (10, 10))
    with pytest.raises(TypeError, match="'v_tuple'"):
        check_input("name", 100, "age")

    @args_type_check(mode=int)
    def with_kwargs(**kwargs):
        return kwargs

    assert with_kwargs(mode=1) == {"mode": 1}
    with pytest.raises(TypeError, match="'mode'"):
        with_kwargs(mode="graph")


def test_check_str_by_regular():
    """MindSpore's name pattern: a word character first, then letters, digits, '_' and '.'."""
    import pytest as _pytest

    from cellgraph import _checkparam as checks

    for good in ("12_sf.asdf_", "x12_sf.asdf.", "_x12_sf.asdf"):
        assert checks.check_str_by_regular(good) is True
    for bad in (".12_sf.asdf", "12_sf.a$sdf.", "12+sf.asdf", ""):
        with _pytest.raises(ValueError, match="is illegal, it must be match regular"):
            checks.check_str_by_regular(bad)
    with _pytest.raises(ValueError, match="For 'X', the 'abc' is illegal"):
        checks.check_str_by_regular("abc", reg=r"^b", prim_name="X")
