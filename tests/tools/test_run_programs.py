"""tools/oracle/run_programs.py: how two programs' prints are compared."""

import pytest

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


def test_a_block_s_runtime_error_is_compared_and_times_are_not():
    # "-- block K raises RuntimeError" is a line both sides print; `time` inside a word is
    # no report of a time
    same = _runner().first_difference
    assert same("-- block 2 raises RuntimeError\n", "-- block 2 raises ValueError\n") is not None
    assert same("-- block 2 raises RuntimeError\nok\n", "-- block 2 raises RuntimeError\nok\n") \
        is None
    assert same("epoch time: 12.5\n", "epoch time: 3.1\n") is None
    assert same("step_time 12\n", "step_time 3\n") is None


def test_a_block_s_error_is_named_by_mindspore_s_class_among_its_bases():
    harness = load("program_harness")
    import cellgraph
    from cellgraph.primitives import errors

    # a missing checkpoint: MindSpore 2.10 raises ValueError ("the checkpoint file: ... does not
    # exist"); cellgraph's error is a FileNotFoundError too
    with pytest.raises(FileNotFoundError) as caught:
        cellgraph.load_checkpoint("./no_such_file.ckpt")
    assert harness.builtin_type(caught.value) == "ValueError"
    # (MindSpore raises RuntimeError for it in PyNative mode, IndexError in a graph)
    assert harness.builtin_type(errors.GradPositionError("x")) == "RuntimeError"
    assert harness.builtin_type(errors.CompileError("x")) == "RuntimeError"
    assert harness.builtin_type(errors.UnboundNameError("x")) == "UnboundLocalError"
    assert harness.builtin_type(KeyError("x")) == "KeyError"
    assert harness.builtin_type(FileNotFoundError("x")) == "FileNotFoundError"
