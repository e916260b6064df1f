"""LeNet-5 and a small ResNet saved by one library and loaded by the other, as .ckpt and as
.safetensors, parameters compared bit for bit and outputs compared on a fixed input:

    MS=/path/to/mindspore/python; CG=.venv/bin/python; D=/tmp/interop
    $MS tools/oracle/checkpoint_networks.py write mindspore $D
    $CG tools/oracle/checkpoint_networks.py read cellgraph $D     # loads MindSpore's files
    $CG tools/oracle/checkpoint_networks.py write cellgraph $D
    $MS tools/oracle/checkpoint_networks.py read mindspore $D     # loads cellgraph's files

The same network code runs on both (`ms` is whichever library runs it).
"""
import importlib
import os
import sys

import numpy as np


def networks(ms):
    nn = ms.nn

    class LeNet5(nn.Cell):
        def __init__(self, num_class=10):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, num_class)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            x = self.flatten(x)
            return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))

    class Block(nn.Cell):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, pad_mode="pad", padding=1)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, pad_mode="pad", padding=1)
            self.bn2 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.down = stride != 1 or cin != cout
            if self.down:
                self.proj = nn.Conv2d(cin, cout, 1, stride=stride)
                self.proj_bn = nn.BatchNorm2d(cout)

        def construct(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            skip = self.proj_bn(self.proj(x)) if self.down else x
            return self.relu(out + skip)

    class ResNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, 8, 3, pad_mode="pad", padding=1)
            self.bn = nn.BatchNorm2d(8)
            self.layer1 = Block(8, 8, 1)
            self.layer2 = Block(8, 16, 2)
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.flatten = nn.Flatten()
            self.fc = nn.Dense(16, 10)

        def construct(self, x):
            x = self.layer2(self.layer1(nn.ReLU()(self.bn(self.stem(x)))))
            return self.fc(self.flatten(self.pool(x)))

    rng = np.random.default_rng(0)
    return {"lenet": (LeNet5(), rng.standard_normal((2, 1, 32, 32)).astype(np.float32)),
            "resnet": (ResNet(), rng.standard_normal((2, 3, 16, 16)).astype(np.float32))}


def raw(param) -> np.ndarray:
    return np.ascontiguousarray(param.asnumpy()).view(np.uint8).ravel()


def write(ms, lib: str, folder: str) -> None:
    os.makedirs(folder, exist_ok=True)
    ms.set_seed(3 if lib == "mindspore" else 4)
    for name, (net, x) in networks(ms).items():
        for param in net.get_parameters():  # nonzero moving statistics, checked too
            if "moving" in param.name:
                param.set_data(ms.Tensor(np.random.default_rng(1).uniform(
                    0.5, 1.5, param.shape).astype(np.float32)))
        net.set_train(False)
        out = net(ms.Tensor(x)).asnumpy()
        ms.save_checkpoint(net, os.path.join(folder, f"{lib}_{name}.ckpt"))
        ms.save_checkpoint(net, os.path.join(folder, f"{lib}_{name}.safetensors"),
                           format="safetensors")
        np.savez(os.path.join(folder, f"{lib}_{name}.npz"), out=out,
                 **{p.name: raw(p) for p in net.get_parameters()})


def read(ms, lib: str, folder: str) -> None:
    other = "cellgraph" if lib == "mindspore" else "mindspore"
    for name, (net, x) in networks(ms).items():
        expected = np.load(os.path.join(folder, f"{other}_{name}.npz"))
        for ext, fmt in (("ckpt", "ckpt"), ("safetensors", "safetensors")):
            path = os.path.join(folder, f"{other}_{name}.{ext}")
            params = ms.load_checkpoint(path, format=fmt)
            not_loaded, unused = ms.load_param_into_net(net, params, strict_load=True)
            same = all(np.array_equal(raw(p), expected[p.name]) for p in net.get_parameters())
            net.set_train(False)
            diff = float(np.abs(net(ms.Tensor(x)).asnumpy() - expected["out"]).max())
            print(f"{lib} loads {other}'s {name}.{ext}: {len(params)} entries, not loaded "
                  f"{not_loaded}, unused {unused}, parameters bit-exact: {same}, largest "
                  f"output difference {diff:.3g}")


if __name__ == "__main__":
    action, lib, folder = sys.argv[1:4]
    ms = importlib.import_module(lib)
    (write if action == "write" else read)(ms, lib, folder)
