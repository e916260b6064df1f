"""`mindspore.dataset.engine.datasets_audio`: the audio sources at MindSpore's module path."""
from . import at_home
from .audio_sources import CMUArcticDataset

__all__ = ["CMUArcticDataset"]

at_home(__name__, CMUArcticDataset)
