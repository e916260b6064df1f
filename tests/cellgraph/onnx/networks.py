"""Small versions of the networks people export: LeNet, a ResNet, a transformer encoder and
recurrent networks."""
from cellgraph import nn, ops


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class ResidualBlock(nn.Cell):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, pad_mode="pad", padding=1,
                               has_bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, pad_mode="same", has_bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU()
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.SequentialCell([nn.Conv2d(cin, cout, 1, stride=stride,
                                                     has_bias=False), nn.BatchNorm2d(cout)])

    def construct(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        shortcut = x if self.down is None else self.down(x)
        return self.relu(y + shortcut)


class ResNet(nn.Cell):
    def __init__(self, num_class=10):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, pad_mode="same")
        self.bn = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(3, 2, pad_mode="same")
        self.layer1 = ResidualBlock(8, 8, 1)
        self.layer2 = ResidualBlock(8, 16, 2)
        self.avg = nn.AvgPool2d(2, 2)
        self.fc = nn.Dense(16 * 2 * 2, num_class)

    def construct(self, x):
        x = self.pool(ops.relu(self.bn(self.stem(x))))
        x = self.layer2(self.layer1(x))
        x = self.avg(x)
        return self.fc(ops.reshape(x, (x.shape[0], -1)))


class Encoder(nn.Cell):
    def __init__(self, vocab=50, d_model=16, heads=4):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d_model)
        self.layer = nn.TransformerEncoderLayer(d_model, heads, 32, dropout=0.1,
                                                batch_first=True)
        self.head = nn.Dense(d_model, 3)

    def construct(self, ids):
        return ops.softmax(self.head(self.layer(self.embedding(ids))), -1)


class Recurrent(nn.Cell):
    def __init__(self, cell=nn.LSTM, bidirectional=False):
        super().__init__()
        self.rnn = cell(8, 12, num_layers=2, batch_first=True, bidirectional=bidirectional)
        self.fc = nn.Dense(24 if bidirectional else 12, 3)

    def construct(self, x):
        y, _ = self.rnn(x)
        return ops.tanh(self.fc(y[:, -1]))
