"""`mindspore._c_expression.security`: whether the build is MindSpore's security build (compiled
with `-s on`, which leaves out dump, summary and the other debugging features)."""

__all__ = ["enable_security"]


def enable_security() -> bool:
    """False: cellgraph has dump, summary and the debugging features."""
    return False
