"""Helpers shared by the samples: a one-line text progress bar and an optional loss plot."""
from __future__ import annotations

import time


class Progress:
    """Prints one line per report: `label  3/20 [######..............]  loss 0.41  (1.2 s)`."""

    def __init__(self, total: int, label: str = "epoch", width: int = 20, verbose: bool = True):
        self.total, self.label, self.width, self.verbose = total, label, width, verbose
        self.start = time.perf_counter()

    def report(self, done: int, **metrics) -> None:
        if not self.verbose:
            return
        filled = round(self.width * done / self.total)
        bar = "#" * filled + "." * (self.width - filled)
        digits = len(str(self.total))
        values = "  ".join(f"{name} {_format(value)}" for name, value in metrics.items())
        elapsed = time.perf_counter() - self.start
        print(f"{self.label} {done:>{digits}}/{self.total} [{bar}]  {values}  ({elapsed:.1f} s)",
              flush=True)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start


def _format(value) -> str:
    if isinstance(value, str):
        return value
    value = float(value)
    return f"{value:.4f}" if 1e-3 <= abs(value) < 1e4 else f"{value:.3e}"


def save_curve(path, curves: dict, xlabel: str, title: str, log_y: bool = True) -> str | None:
    """Plot each named list of values against its index into `path` (a PNG) when matplotlib is
    installed; returns the path written, or None without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for name, values in curves.items():
        ax.plot(range(1, len(values) + 1), values, label=name)
    if log_y:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return str(path)
