"""cellgraph.dataset.audio: audio transforms on NumPy waveforms (the biquad filters, LFilter,
Resample)."""
from . import transforms
from .transforms import (
    AllpassBiquad,
    BandBiquad,
    BandpassBiquad,
    BandrejectBiquad,
    BassBiquad,
    Biquad,
    DeemphBiquad,
    EqualizerBiquad,
    HighpassBiquad,
    LFilter,
    LowpassBiquad,
    Resample,
    ResampleMethod,
    RiaaBiquad,
    TrebleBiquad,
)

__all__ = [
    "AllpassBiquad",
    "BandBiquad",
    "BandpassBiquad",
    "BandrejectBiquad",
    "BassBiquad",
    "Biquad",
    "DeemphBiquad",
    "EqualizerBiquad",
    "HighpassBiquad",
    "LFilter",
    "LowpassBiquad",
    "Resample",
    "ResampleMethod",
    "RiaaBiquad",
    "TrebleBiquad",
    "transforms",
]
