"""The program run_programs.py runs for a list entry with `model=NAME` (a zoo's model, built by
the zoo's own factory): build it, give it the same weights on both sides, one forward pass in
inference mode on a small seeded batch, then two training steps, printing what a user checks.

The runner writes this file into the program's folder after a first line `MODEL = "NAME"`,
`FACTORY = "module:function"` and `INPUT = (C, H, W)`, with the word `mindspore` written
`cellgraph` on cellgraph's side. The weights are set here rather than drawn by the framework's
initializers, so that what is compared is the model's computation, not the initializers'
generators: each parameter whose initial value is not a constant gets values from one seeded
NumPy generator, scaled by its fan-in; constants (BatchNorm's gamma and beta, zero biases,
layer scales) keep their value.
"""
import importlib

import numpy as np
from mindspore import Tensor, nn
from program_harness import same_weights

module_name, function_name = FACTORY.split(":")  # noqa: F821 - written by the runner
factory = getattr(importlib.import_module(module_name), function_name)
net = factory(MODEL, num_classes=10)  # noqa: F821

count = same_weights(net, Tensor)
print("parameters:", len(list(net.get_parameters())), "values:", count)

x = Tensor(np.random.RandomState(2).standard_normal((2,) + tuple(INPUT)).astype(np.float32))  # noqa: F821
y = Tensor(np.array([3, 7], np.int32))
net.set_train(False)
out = net(x)
if isinstance(out, (tuple, list)):
    out = out[0]
logits = out.asnumpy()
print("output:", out.shape, out.dtype)
print("first row:", " ".join(f"{v:.5g}" for v in logits[0, :5]))
print(f"mean |output|: {np.abs(logits).mean():.5g}")

loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.001, momentum=0.9)
train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer)
train.set_train(True)
for step in range(2):
    loss = train(x, y)
    print(f"step {step} loss: {float(loss.asnumpy()):.4g}")
print("trainable:", len(net.trainable_params()))
