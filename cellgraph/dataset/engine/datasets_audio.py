"""`mindspore.dataset.engine.datasets_audio`: the audio sources at MindSpore's module path."""
from . import at_home
from .audio_sources import (
    CMUArcticDataset,
    GTZANDataset,
    LibriTTSDataset,
    LJSpeechDataset,
    SpeechCommandsDataset,
    TedliumDataset,
    YesNoDataset,
)

__all__ = ["CMUArcticDataset", "GTZANDataset", "LJSpeechDataset", "LibriTTSDataset", "SpeechCommandsDataset",
           "TedliumDataset",
           "YesNoDataset"]

at_home(__name__, CMUArcticDataset, GTZANDataset, LJSpeechDataset, LibriTTSDataset, SpeechCommandsDataset, TedliumDataset,
        YesNoDataset)
