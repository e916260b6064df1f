"""The program run_programs.py runs for a list entry with `zoo=NAME`: a network of a
mindspore-ai/models folder that is not an image classifier, built by zoo_networks.py's builder
NAME from the folder's src/ with a tiny configuration; the same weights on both sides, one
forward pass in inference mode on seeded inputs, then two training steps, printing values.

The runner writes this file into the program's folder after a first line `NETWORK = "NAME"`,
with zoo_networks.py beside it, the word `mindspore` written `cellgraph` on cellgraph's side.
The weights are set as model_program.py sets them (program_harness.same_weights).
"""
import numpy as np
import zoo_audio
import zoo_gnn
import zoo_networks
import zoo_nlp
import zoo_recommend
from mindspore import Tensor, nn
from program_harness import same_weights

# the builders of official/ (zoo_networks.py) and of research/'s areas, one module each
BUILDERS = {**zoo_networks.BUILDERS, **zoo_nlp.BUILDERS, **zoo_recommend.BUILDERS,
            **zoo_audio.BUILDERS, **zoo_gnn.BUILDERS}

run = BUILDERS[NETWORK]()  # noqa: F821 - written by the runner

network = getattr(run.train, "network", run.train)  # not the optimizers' state
count = same_weights(network, Tensor)
print("parameters:", len(network.trainable_params()), "values:", count)


def show(label, out):
    """Each tensor of an output (nested tuples flattened): shape, dtype, first values, mean."""
    if isinstance(out, (tuple, list)):
        for k, item in enumerate(out):
            show(f"{label}[{k}]", item)
        return
    if out is None:
        print(label, "None")
        return
    value = out.asnumpy()
    flat = value.reshape(-1).astype(np.float64)
    # the dtype on each line of values: float16 ones are compared as float16
    print(f"{label}:", out.shape, out.dtype)
    print(f"{label} first ({out.dtype}):", " ".join(f"{v:.5g}" for v in flat[:5]))
    print(f"{label} mean |value| ({out.dtype}): {np.abs(flat).mean():.5g}" if flat.size
          else "empty")


run.net.set_train(False)
show("output", run.net(*run.inputs))
run.train.set_train(True)
for _, cell in run.train.cells_and_names():
    if isinstance(cell, nn.Dropout):  # its random draw is not compared: left inert
        cell.set_train(False)
for step in range(2):
    show(f"step {step} loss", run.train(*run.train_inputs))
print("trainable:", len(network.trainable_params()))
