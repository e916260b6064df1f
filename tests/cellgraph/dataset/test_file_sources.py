"""The file sources with MindSpore's layouts (COCO, LFW, Manifest, CelebA, EMNIST, FakeImage,
KITTI, Omniglot, IMDB, IWSLT, Multi30k, CoNLL-2000, CLUE), chained samplers and the class
facts of a pipeline, against what MindSpore 2.10 reads from the same small datasets
(tests/data/dataset_sources_mindspore.json, written by tools/oracle/make_source_fixtures.py
from tools/oracle/source_cases.py)."""
import importlib.util
import json
import os
import pathlib
import re

import pytest

import cellgraph.dataset as ds

ROOT = pathlib.Path(__file__).resolve().parents[3]
EXPECTED = json.loads((ROOT / "tests" / "data" / "dataset_sources_mindspore.json").read_text())


def _cases():
    spec = importlib.util.spec_from_file_location("source_cases",
                                                  ROOT / "tools" / "oracle" / "source_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES = _cases()


@pytest.fixture(scope="module")
def reads(tmp_path_factory):
    folder = os.path.realpath(tmp_path_factory.mktemp("sources"))
    CASES.build(folder)
    workers = ds.config.get_num_parallel_workers()
    ds.config.set_num_parallel_workers(2)  # as the fixtures were recorded
    try:
        return CASES.read_all(ds, folder)
    finally:
        ds.config.set_num_parallel_workers(workers)


# a map's error: MindSpore's words for the operation and the data file (the operation's own
# words after them are its decoder's)
_MAP_ERROR = re.compile(r"^RuntimeError: map operation: \[\w+\] failed\."
                        r"( The corresponding data file is: \S+\.)?")


def _same(got, want):
    if "error" in want:  # MindSpore's error type and first line (json's own wording aside)
        kind, _, message = want["error"].partition(": ")
        assert got.get("error", "").startswith(kind + ": "), got
        expected = _MAP_ERROR.match(want["error"])
        if expected:
            assert got["error"].startswith(expected.group(0)), got
        elif "error description:" not in message:
            assert got["error"] == want["error"]
        return
    assert got == want


HAS_PILLOW = importlib.util.find_spec("PIL") is not None


@pytest.mark.parametrize("call", sorted(EXPECTED))
def test_reads_as_mindspore(reads, call):
    if "vision." in call and not HAS_PILLOW:
        pytest.skip("the image transforms need Pillow (the vision extra)")
    _same(reads[call], EXPECTED[call])


def test_cases_and_fixture_agree():
    assert sorted(EXPECTED) == sorted(CASES.CALLS + CASES.FACTS)


def test_default_workers_are_mindspores():
    """MindSpore's default: 8 workers, or the CPU count where smaller (it decides the order
    file sources interleave their files in)."""
    import importlib

    config = importlib.reload(importlib.import_module("cellgraph.dataset.config"))
    assert config.get_num_parallel_workers() == min(8, os.cpu_count())


def test_metadata_columns_are_left_out_until_renamed():
    data = ds.NumpySlicesDataset({"x": [1, 2], "_meta-name": ["a", "b"]}, shuffle=False)
    assert data.get_col_names() == ["x", "_meta-name"]
    assert [sorted(r) for r in data.create_dict_iterator(output_numpy=True)] == [["x"]] * 2
    assert len(next(iter(data.create_tuple_iterator(output_numpy=True)))) == 1
    renamed = data.rename("_meta-name", "name")
    assert [str(r["name"]) for r in renamed.create_dict_iterator(output_numpy=True)] == \
        ["a", "b"]


def test_a_sampler_takes_one_child():
    sampler = ds.SequentialSampler()
    sampler.add_child(ds.SequentialSampler())
    with pytest.raises(RuntimeError, match="already has a child"):
        sampler.add_child(ds.SequentialSampler())
    assert isinstance(sampler.get_child(), ds.SequentialSampler)


@pytest.mark.parametrize("weights, error, words", [
    ("", TypeError, "type of weights element must be number"),
    ((0.9, 0.8), TypeError, "type of weights element must be number"),
    ([], RuntimeError, "WeightedRandomSampler: weights vector must not be empty"),
    ([1.0, -0.4], RuntimeError, ("must not contain negative numbers, got: weights[1] = "
                                "-0.400000")),
    ([0, 0], RuntimeError, "elements of weights vector must not be all zero"),
])
def test_weighted_sampler_checks_are_mindspores(weights, error, words):
    with pytest.raises(error) as info:
        ds.WeightedRandomSampler(weights)
    assert words in str(info.value)


def test_a_glob_that_names_a_folder_matches_no_file(tmp_path):
    with pytest.raises(ValueError, match="did not match any files"):
        ds.TextFileDataset(str(tmp_path))
