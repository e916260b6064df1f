"""`compile_config`: MindSpore's compiler switches, saved, set and restored by programs."""
from cellgraph import Tensor, jit
from cellgraph._extends.parse import compile_config

# a few of the 57 names MindSpore 2.10 has, each "" (not set) by default
MINDSPORE_SWITCHES = ("CHECK_BPROP", "FALLBACK_SUPPORT_LIST_DICT_INPLACE", "GRAD_FOR_SCALAR",
                      "FOR_HALF_UNROLL", "RECURSIVE_EVAL", "PRE_LIFT", "BOOST_PARSE")


def test_switches_have_mindspores_defaults():
    assert len(vars(compile_config)) == 57
    for name in MINDSPORE_SWITCHES:
        assert getattr(compile_config, name) == ""


def test_a_program_sets_and_restores_a_switch_and_lists_stay_python_lists():
    @jit
    def foo(x):
        a = [1, 2]
        a.append(x)
        a[0] = 5
        return a, max([1, 2, 3], [4, 5])

    saved = compile_config.FALLBACK_SUPPORT_LIST_DICT_INPLACE
    compile_config.FALLBACK_SUPPORT_LIST_DICT_INPLACE = 0
    try:
        out, bigger = foo(Tensor(3))
    finally:
        compile_config.FALLBACK_SUPPORT_LIST_DICT_INPLACE = saved
    assert out[:2] == [5, 2] and int(out[2]) == 3 and bigger == [4, 5]
    assert compile_config.FALLBACK_SUPPORT_LIST_DICT_INPLACE == ""
