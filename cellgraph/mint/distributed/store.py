"""`TCPStore`: the key-value store over TCP that ranks meet through (MindSpore's
`mint.distributed.TCPStore` and `ops.communication.TCPStore`), on torch.distributed's store.

    store = TCPStore("127.0.0.1", 29500, world_size=2, is_master=rank == 0)
    init_process_group(store=store, rank=rank, world_size=2)

`multi_tenant`, `master_listen_fd` and `use_libuv` are MindSpore's reserved parameters; they go to
torch's store, which honours them.
"""
from __future__ import annotations

from datetime import timedelta

from cellgraph.runtime import distributed


def _check(api: str, name: str, value, types, what: str) -> None:
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise TypeError(f"For '{api}', the argument '{name}' must be type of {what}, but got "
                        f"'{name}' type : {type(value)}.")


class TCPStore:
    """A key-value store served by the process with `is_master=True` on `host_name:port`;
    `world_size` processes (the server among them) use it. `get` waits up to `timeout` for a
    key that is not there yet, then raises RuntimeError."""

    def __init__(self, host_name, port, world_size=None, is_master=False,
                 timeout=timedelta(seconds=300), wait_for_workers=True, multi_tenant=False,
                 master_listen_fd=None, use_libuv=True):
        _check("TCPStore", "host_name", host_name, (str,), "string")
        _check("TCPStore", "port", port, (int,), "int")
        _check("TCPStore", "is_master", is_master, (bool,), "bool")
        _check("TCPStore", "timeout", timeout, (timedelta,), "timedelta")
        _check("TCPStore", "wait_for_workers", wait_for_workers, (bool,), "bool")
        world_size = 1 if world_size is None else world_size
        _check("TCPStore", "world_size", world_size, (int,), "int")
        if not 0 <= port <= 65535:
            raise ValueError(f"For 'TCPStore', the argument 'port' must be legal, but got {port}.")
        if world_size <= 0:
            raise ValueError(f"For 'TCPStore', the argument 'world_size' must be legal, but got "
                             f"{world_size}.")
        self.host, self.port, self.world_size = host_name, port, world_size
        self.timeout = timeout
        self._store = distributed.torch_distributed().TCPStore(
            host_name, port, world_size, is_master, timeout=timeout,
            wait_for_workers=wait_for_workers, multi_tenant=multi_tenant,
            master_listen_fd=master_listen_fd, use_libuv=use_libuv)

    def add(self, key, amount):
        """Add `amount` to the counter `key` (created at 0); returns its new value."""
        _check("TCPStore.add", "key", key, (str,), "string")
        _check("TCPStore.add", "amount", amount, (int,), "string or int")
        return self._store.add(key, amount)

    def set(self, key, value):
        """Set `key` to `value` (str or bytes), replacing what it held."""
        _check("TCPStore.set", "key", key, (str,), "string")
        _check("TCPStore.set", "value", value, (str, bytes), "string or bytes")
        self._store.set(key, value)

    def get(self, key):
        """The bytes `key` holds, waiting for it up to the store's timeout."""
        _check("TCPStore.get", "key", key, (str,), "string")
        return self._store.get(key)

    def delete_key(self, key):
        """Remove `key`; True if it was there."""
        _check("TCPStore.delete_key", "key", key, (str,), "string")
        return self._store.delete_key(key)
