"""The other direction of make_mindir_fixtures.py: cellgraph exports the networks of
tests/cellgraph/train/test_mindir_export.py into DIR, with DIR/inputs.npz, so that

    python tools/oracle/write_cellgraph_mindir.py DIR         # cellgraph's Python
    python tools/oracle/make_mindir_fixtures.py check DIR     # MindSpore's Python

runs each file on MindSpore; DIR/ms_outputs.npz is then tests/data/mindir/ms_ran_cellgraph.npz.
"""
import os
import sys

import numpy as np

import cellgraph as ms

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from tests.cellgraph.train.test_mindir_export import networks


def main(folder):
    inputs = {}
    for name, (net, args) in networks().items():
        net.set_train(False)
        ms.export(net, *args, file_name=os.path.join(folder, name), file_format="MINDIR")
        for i, value in enumerate(args):
            inputs[f"{name}.in{i}"] = value.asnumpy()
    np.savez(os.path.join(folder, "inputs.npz"), **inputs)


if __name__ == "__main__":
    main(sys.argv[1])
