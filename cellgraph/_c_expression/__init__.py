"""`mindspore._c_expression`: the build facts MindSpore's native module answers that programs and
tests ask about. `security.enable_security()` says whether the build leaves out the debugging
features (dump, summary); cellgraph's never does."""
from . import security

__all__ = ["security"]
