"""Synthetic stand-ins for the data files MindSpore's scientific applications (MindFlow's
applications in mindspore-ai/mindscience) read, of the real files' formats and shapes, for
program_harness.py's SYNTHETIC. The values come from a generator's integers and plain
arithmetic only (no transcendental functions, whose last bits may differ between NumPy builds),
so that both sides read the same bytes."""
import io

import numpy as np


def _smooth_field(rng: np.random.RandomState, steps: int, channels: int, size: int) -> np.ndarray:
    """(steps, channels, size, size) float32: per channel, a random quadratic in x and y whose
    amplitude decays linearly in time, as a smooth flow field decaying in time."""
    grid = (np.arange(size, dtype=np.float64) + 0.5) / size
    x, y = grid[:, None], grid[None, :]
    time = 1.0 - 0.5 * np.arange(steps, dtype=np.float64) / steps
    fields = []
    for _ in range(channels):
        a, b, c = (rng.randint(1, 9, 3) / 4.0)
        plane = a * x * (1 - x) - b * y * (1 - y) + c * (x - 0.5) * (y - 0.5)
        fields.append(time[:, None, None] * plane[None])
    return np.stack(fields, 1).astype(np.float32)


def _mat(**arrays) -> bytes:
    from scipy.io import savemat

    buffer = io.BytesIO()
    savemat(buffer, arrays)
    return buffer.getvalue()


BURGERS_2D = "Burgers_2001x2x100x100_[dt=00025].mat"


def burgers_2d_files(rng: np.random.RandomState) -> dict:
    """PeRCNN's 2-D Burgers data: a MATLAB file whose `uv` holds (2001, 2, 100, 100) snapshots
    of the two velocity components, as its name says."""
    return {BURGERS_2D: _mat(uv=_smooth_field(rng, 2001, 2, 100))}


FILES = {BURGERS_2D: burgers_2d_files}
