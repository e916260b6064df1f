"""`mindspore.communication._comm_helper`: the module MindSpore keeps the communication
settings in; programs and MindSpore's tests import `GlobalComm` from here (BACKEND,
WORLD_COMM_GROUP, INITED and CHECK_ENVS, set by `init()` and `release()`)."""
from .management import GlobalComm

__all__ = ["GlobalComm"]
