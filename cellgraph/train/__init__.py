"""cellgraph.train: checkpoints (save_checkpoint, load_checkpoint, load_param_into_net)."""
from .serialization import CheckpointError, load_checkpoint, load_param_into_net, save_checkpoint  # noqa: F401
