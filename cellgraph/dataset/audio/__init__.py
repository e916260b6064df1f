"""cellgraph.dataset.audio: audio transforms on NumPy waveforms (BassBiquad, Resample)."""
from . import transforms
from .transforms import BassBiquad, Resample, ResampleMethod

__all__ = ["BassBiquad", "Resample", "ResampleMethod", "transforms"]
