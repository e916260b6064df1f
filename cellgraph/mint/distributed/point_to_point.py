"""mint.distributed's point-to-point transfers: send/recv (blocking), isend/irecv (a handle),
and batch_isend_irecv of P2POps, all started before any is waited for. Peers are world
ranks."""
from __future__ import annotations

from .distributed import (
    CommHandle,
    _dist,
    check_int,
    check_tensor,
    copy,
    group_name,
    handle_of,
    run,
    store,
    view,
    world_rank,
)


def _not_self(dst: int) -> None:
    if world_rank() == dst:
        raise ValueError("Invalid destination rank: destination rank should not be the same as "
                         "the rank of the current process.")


def _start_send(tensor, dst: int, group: str, tag: int):
    return _dist().isend(view(tensor), dst=dst, group=handle_of(group), tag=tag)


def _start_recv(tensor, src: int, group: str, tag: int):
    buffer = copy(tensor)
    work = _dist().irecv(buffer, src=src, group=handle_of(group), tag=tag)
    return work, buffer


def send(tensor, dst=0, group=None, tag=0) -> None:
    """Send `tensor` to world rank `dst`; returns once the peer's recv has it."""
    check_tensor(tensor, "send")
    check_int(dst, "dst", "send")
    group = group_name(group)
    _not_self(dst)
    run("Send", group, lambda: [_start_send(tensor, dst, group, tag)], None, False)


def recv(tensor, src=0, group=None, tag=0) -> int:
    """`tensor` becomes what world rank `src` sent; returns 0, as MindSpore's does."""
    check_tensor(tensor, "recv")
    check_int(src, "src", "recv")
    group = group_name(group)
    work, buffer = _start_recv(tensor, src, group, tag)
    run("Receive", group, lambda: [work], lambda: store(tensor, buffer), False)
    return 0


def isend(tensor, dst=0, group=None, tag=0) -> CommHandle:
    """Start sending `tensor` to world rank `dst`; the handle's wait() returns once sent."""
    check_tensor(tensor, "isend")
    check_int(dst, "dst", "isend")
    group = group_name(group)
    _not_self(dst)
    return run("Send", group, lambda: [_start_send(tensor, dst, group, tag)], None, True)


def irecv(tensor, src=0, group=None, tag=0) -> CommHandle:
    """Start receiving into `tensor` from world rank `src`; it holds the data once the
    handle's wait() has returned."""
    check_tensor(tensor, "irecv")
    group = group_name(group)
    check_int(src, "src", "irecv")
    work, buffer = _start_recv(tensor, src, group, tag)
    return run("Receive", group, lambda: [work], lambda: store(tensor, buffer), True)


class P2POp:
    """One transfer of a batch_isend_irecv: `op` "isend" or "irecv" (or those functions),
    `tensor` to send or to receive into, `peer` the world rank on the other end."""

    def __new__(cls, op, tensor, peer, group=None, tag=0):
        if isinstance(op, str):
            if op not in ("isend", "irecv"):
                raise TypeError(f"Expected op to be of type isend or irecv, but got {op}")
        elif op not in (isend, irecv):
            raise TypeError(f"Expected op to be of type isend or irecv, but got {op}")
        check_tensor(tensor, "P2POp")  # MindSpore's words follow
        if isinstance(peer, bool) or not isinstance(peer, int):
            raise TypeError("For P2POp, the peer must be int")
        if tag != 0:
            raise NotImplementedError("tag is not support yet.")
        return object.__new__(cls)

    def __init__(self, op, tensor, peer, group=None, tag=0):
        self.op, self.tensor, self.peer, self.group, self.tag = op, tensor, peer, group, tag

    @property
    def kind(self) -> str:
        return self.op if isinstance(self.op, str) else self.op.__name__


def batch_isend_irecv(p2p_op_list) -> list:
    """Start every transfer of the list, then return [a handle] whose wait() returns when all
    are done (the received tensors hold their data from then on)."""
    if not p2p_op_list:
        raise TypeError("p2p_op_list can not be empty list.")
    if not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise TypeError("The elements in p2p_op_list must be type of P2POp.")
    if any(p.group != p2p_op_list[0].group for p in p2p_op_list):
        raise TypeError("The group name in p2p_op_list must be consistent.")
    group = group_name(p2p_op_list[0].group)
    received = []

    def start():
        works = []
        for p in p2p_op_list:
            if p.kind == "isend":
                works.append(_start_send(p.tensor, p.peer, group, p.tag))
            else:
                work, buffer = _start_recv(p.tensor, p.peer, group, p.tag)
                works.append(work)
                received.append((p.tensor, buffer))
        return works

    def finish():
        for tensor, buffer in received:
            store(tensor, buffer)

    return [run("BatchISendIRecv", group, start, finish, True)]


__all__ = ["P2POp", "batch_isend_irecv", "irecv", "isend", "recv", "send"]
