"""Builders of research/gnn networks of mindspore-ai/models for zoo_program.py, by the rule and
with the helpers of zoo_networks.py (its docstring says what a builder returns)."""
import numpy as np
from mindspore import Tensor, nn
from zoo_networks import (
    BATCH,
    CLASSES,
    NODES,
    WIDTH,
    Run,
    default_config,
    graph_matrix,
    ids,
    momentum,
    normal,
)


def sdne():
    from src.loss import SDNELoss2
    from src.sdne import SDNE, SDNEWithLossCell

    # the folder's WIKI configuration (its config module imports easydict, which building the
    # network does not need): ReLU, alpha 1, beta 5, gamma 1e-6, two encoder widths
    nodes = graph_matrix()
    size = nodes.shape[0]
    net = SDNE(size, hidden_size=[WIDTH, WIDTH // 2], act="relu")
    with_loss = SDNEWithLossCell(net, SDNELoss2(alpha=1, beta=5, gamma=1e-6))
    step = nn.TrainOneStepCell(with_loss, momentum(with_loss))
    rows = Tensor(nodes)
    return Run(net, (rows,), step, (rows, rows))


def bgcf():
    from src.bgcf import BGCF
    from src.callback import TrainBGCF

    config = default_config()
    users, items, width = NODES, NODES, WIDTH
    net = BGCF([width, users, items], width, config.activation, [0.0, 0.0, 0.0], users, items,
               width)
    step = TrainBGCF(net, NEGATIVES, config.l2, config.learning_rate, config.epsilon,
                     config.dist_reg)
    inputs = bgcf_batch()
    return Run(net, inputs + (NEGATIVES,), step, inputs)


def dgcn():
    from src.config import ConfigDGCN
    from src.dgcn import DGCN
    from src.metrics import TrainNetWrapper

    config = ConfigDGCN()
    adj = graph_matrix()
    # the two propagation matrices: the normalised graph and, for the PPMI one, its square's
    diffusion = _normalised(adj)
    ppmi = _normalised(np.minimum(adj @ adj, 1))
    labels = np.eye(CLASSES, dtype=np.float32)[np.random.RandomState(5).randint(0, CLASSES,
                                                                                 NODES)]
    mask = np.zeros(NODES, bool)
    mask[: NODES // 2] = True
    net = DGCN(input_dim=WIDTH, hidden_dim=WIDTH, output_dim=CLASSES, dropout=0.0)
    step = TrainNetWrapper(net, labels, mask, weight_decay=config.weight_decay,
                           learning_rate=0.01)
    net.add_flags_recursive(fp16=True)  # as the train script does
    inputs = (Tensor(diffusion), Tensor(ppmi), normal((NODES, WIDTH), 4))
    # the weight of the unsupervised term, as the train script's ramp-up gives it at epoch 10
    weight = Tensor(np.float32(0.05))
    return Run(net, inputs, step, inputs + (weight,))


def _normalised(adj):
    degree = 1 / np.sqrt(adj.sum(1))
    return (adj * degree[:, None] * degree[None, :]).astype(np.float32)


# the folder's loss cell fixes 10 negative items per user
NEGATIVES, RAW_NEIGHBOURS, NEW_NEIGHBOURS = 10, 4, 3


def bgcf_batch():
    """A batch as the folder's dataset samples it: users with a positive item and a user and
    item sharing each, their sampled neighbours in the graph and in the sampled graph, and
    negative items with theirs (ids in range of the users' and the items' tables)."""
    def nodes(shape, seed):
        return ids(shape, NODES, seed)

    pairs, negatives = 2 * BATCH, BATCH * NEGATIVES
    return (nodes((BATCH,), 3), nodes((BATCH,), 4), nodes((BATCH, NEGATIVES), 5),
            nodes((BATCH,), 6), nodes((BATCH,), 7),
            nodes((pairs,), 8), nodes((pairs, RAW_NEIGHBOURS), 9),
            nodes((pairs, NEW_NEIGHBOURS), 10),
            nodes((pairs,), 11), nodes((pairs, RAW_NEIGHBOURS), 12),
            nodes((pairs, NEW_NEIGHBOURS), 13),
            nodes((negatives,), 14), nodes((negatives, RAW_NEIGHBOURS), 15),
            nodes((negatives, NEW_NEIGHBOURS), 16))


BUILDERS = {"sdne": sdne, "bgcf": bgcf, "dgcn": dgcn}
