"""tools/oracle/run_programs.py: how two programs' prints are compared."""

from .oracle_tools import load


def _runner():
    return load("run_programs")


def test_numbers_agree_within_the_tolerance_or_the_print_s_last_digit():
    runner = _runner()
    assert runner.last_digit_unit("0.76214") == 1e-5
    assert runner.last_digit_unit("1.5e3") == 100.0 and runner.last_digit_unit("nan") == 0.0
    same = runner.first_difference
    assert same("first row: 0.76214 1.2\n", "first row: 0.76213 1.2\n") is None
    assert same("loss: 2.1354203\n", "loss: 2.1354204\n") is None
    assert same("step 1 loss: 1.647\n", "step 1 loss: 1.687\n") is not None
    assert same("loss: 2.1354203\n", "loss: 2.1356203\n") is not None
    assert same("count 3\n", "count 4\n") is not None  # integers exactly
    assert same("a\nb\n", "a\n") == "2 lines vs 1 lines"
