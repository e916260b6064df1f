"""Writes the MindRecord fixtures of tests/data/mindrecord/ with MindSpore (run it with the
Python that has MindSpore 2.10):

    /path/to/mindspore/python tools/oracle/make_mindrecord_fixtures.py tests/data/mindrecord

The datasets are mindrecord_datasets.py's ("images": 3 shards of image bytes, labels and file
names; "types": every schema type; "paged": rows over several 32 KB pages, written in two
batches), with 16 KB headers and 32 KB pages to keep them small. mindspore_reads.json records
what MindSpore's MindDataset reads from them under each option set of mindrecord_datasets.py:
the column names and a SHA-256 of each row (rows in MindSpore's order; sorted for shuffled
reads), so the tests check cellgraph's reads without MindSpore.
"""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindrecord_datasets as common


def digest(row) -> str:
    return hashlib.sha256(common.key(row).encode("utf-8")).hexdigest()


def main():
    import mindspore.dataset
    import mindspore.mindrecord  # noqa: F401

    ms = common.library("mindspore")
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    for name in common.DATASETS:
        common.write_dataset(ms, folder, name, small=True)
    reads = {}
    for option, got in common.read_all(ms, folder).items():
        rows = [digest(row) for row in got["rows"]]
        reads[option] = {"columns": got["columns"],
                         "rows": sorted(rows) if option.endswith("shuffled") else rows}
    with open(os.path.join(folder, "mindspore_reads.json"), "w", encoding="utf-8") as f:
        json.dump({"mindspore": ms.__version__, "reads": reads}, f, indent=1)


if __name__ == "__main__":
    main()
