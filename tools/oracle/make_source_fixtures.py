"""Records what MindSpore's file sources read from source_cases.py's small datasets (run it
with the Python that has MindSpore 2.10):

    /path/to/mindspore/python tools/oracle/make_source_fixtures.py tests/data/dataset_sources_mindspore.json

The tests (tests/cellgraph/dataset/test_file_sources.py) build the same datasets and compare
cellgraph's reads with the file written here."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import source_cases


def main():
    import mindspore.dataset as ds

    out = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as folder:
        folder = os.path.realpath(folder)
        os.chdir(folder)  # MindSpore writes an image it cannot decode to ./abnormal_image.jpg
        source_cases.build(folder)
        ds.config.set_num_parallel_workers(2)
        reads = source_cases.read_all(ds, folder)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(reads, f, indent=0, sort_keys=True, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
