"""ops.Print inside construct in graph mode, a user Callback subclass that reads the run
context (cb_params) and stops training early, and Model.train over a GeneratorDataset fed by a
random-access source class."""
import numpy as np

import cellgraph.dataset as ds
from cellgraph import Tensor, nn, ops
from cellgraph.train import Callback, Model


class PrintNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.print = ops.Print()

    def construct(self, x, y):
        s = x + y
        self.print("sum is:", s)
        return s * 2


def test_print_in_graph_mode(capsys):
    out = PrintNet()(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.ones(2, np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [4.0, 6.0])
    printed = capsys.readouterr().out
    assert "sum is:" in printed
    assert "2" in printed.split("sum is:")[1] and "3" in printed.split("sum is:")[1]


class RegressionSource:
    """A random-access source: __getitem__ and __len__, as GeneratorDataset accepts."""

    def __init__(self, n, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.normal(size=(n, 4)).astype(np.float32)
        self.y = (self.x @ np.array([[1.0], [-1.0], [2.0], [0.5]], np.float32)).astype(
            np.float32)

    def __getitem__(self, index):
        return self.x[index], self.y[index]

    def __len__(self):
        return len(self.x)


class StopAtLoss(Callback):
    """Records every step's loss and stops the run once the loss is below a threshold."""

    def __init__(self, threshold):
        super().__init__()
        self.threshold = threshold
        self.losses = []
        self.epochs_seen = []

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        loss = cb_params.net_outputs
        if isinstance(loss, (tuple, list)):
            loss = loss[0]
        self.losses.append(float(loss.asnumpy()))
        if self.losses[-1] < self.threshold:
            run_context.request_stop()

    def epoch_end(self, run_context):
        cb_params = run_context.original_args()
        self.epochs_seen.append(cb_params.cur_epoch_num)


def test_model_train_with_custom_callback():
    dataset = ds.GeneratorDataset(RegressionSource(64), column_names=["x", "y"], shuffle=True)
    dataset = dataset.batch(8)
    assert dataset.get_dataset_size() == 8
    net = nn.Dense(4, 1)
    model = Model(net, nn.MSELoss(), nn.Adam(net.trainable_params(), learning_rate=0.05),
                  metrics={"mse": nn.MSE()})
    stopper = StopAtLoss(1e-2)
    model.train(100, dataset, callbacks=stopper, dataset_sink_mode=False)
    assert stopper.losses[-1] < 1e-2 <= min(stopper.losses[:-1])
    assert len(stopper.epochs_seen) < 100
    assert stopper.epochs_seen == list(range(1, len(stopper.epochs_seen) + 1))
    assert model.eval(dataset)["mse"] < 0.05
