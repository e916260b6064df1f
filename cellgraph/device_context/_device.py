"""The queries every `device_context` submodule has, for one device target."""
from __future__ import annotations

from cellgraph import hal


def queries(target: str, missing: str):
    """(device_count, is_available) for `target`: the count raises RuntimeError(`missing`)
    when the device is not here, as MindSpore's does."""

    def device_count() -> int:
        """The number of devices of this kind."""
        if not hal.is_available(target):
            raise RuntimeError(missing)
        return hal.device_count(target)

    def is_available() -> bool:
        """Whether this kind of device can run kernels here."""
        if not hal.is_available(target):
            raise RuntimeError(missing)
        return True

    return device_count, is_available
