"""cellgraph.dataset: input pipelines as MindSpore writes them.

    import cellgraph.dataset as ds
    from cellgraph.dataset import vision, transforms
    data = ds.Cifar10Dataset(path, usage="train")
    data = data.map([vision.Rescale(1 / 255, 0), vision.HWC2CHW()], input_columns="image")
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    data = data.shuffle(1000).batch(32, drop_remainder=True)

Sources (GeneratorDataset, NumpySlicesDataset, MnistDataset, Cifar10Dataset, Cifar100Dataset,
ImageFolderDataset) feed a chain of lazy pipeline nodes; iterators run it in a prefetch thread.
"""
import importlib

from . import audio, config, text, transforms, vision
from .cache import DatasetCache
from .callback import DSCallback, WaitedDSCallback
from .csv_source import CSVDataset
from .engine import Dataset
from .engine.audio_sources import (
    CMUArcticDataset,
    GTZANDataset,
    LibriTTSDataset,
    LJSpeechDataset,
    SpeechCommandsDataset,
    TedliumDataset,
    YesNoDataset,
)
from .engine.corpus_sources import EnWik9Dataset, WikiTextDataset
from .engine.folder_sources import (
    CityscapesDataset,
    DIV2KDataset,
    Food101Dataset,
    PhotoTourDataset,
    Places365Dataset,
    RenderedSST2Dataset,
)
from .engine.mat_sources import Caltech101Dataset, Flowers102Dataset, SBDataset, SVHNDataset
from .engine.text_readers import (
    CLUEDataset,
    CoNLL2000Dataset,
    IMDBDataset,
    IWSLT2016Dataset,
    IWSLT2017Dataset,
    Multi30kDataset,
    SQuADDataset,
    UDPOSDataset,
)
from .engine.vision_readers import (
    CelebADataset,
    CocoDataset,
    EMnistDataset,
    FakeImageDataset,
    KITTIDataset,
    LFWDataset,
    ManifestDataset,
    OmniglotDataset,
)
from .engine.vision_sources import (
    Caltech256Dataset,
    FlickrDataset,
    QMnistDataset,
    SBUDataset,
    STL10Dataset,
    SUN397Dataset,
    VOCDataset,
    WIDERFaceDataset,
)
from .iterators import DictIterator, TupleIterator
from .lsun_source import LSUNDataset
from .mindrecord_source import MindDataset
from .nodes import BatchDataset, BatchInfo, ZipDataset
from .random_source import RandomDataset
from .readers import (
    Cifar10Dataset,
    Cifar100Dataset,
    FashionMnistDataset,
    ImageFolderDataset,
    KMnistDataset,
    MnistDataset,
    Shuffle,
    TextFileDataset,
)
from .samplers import (
    DistributedSampler,
    IterSampler,
    PKSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    SubsetSampler,
    WeightedRandomSampler,
)
from .schema import Schema
from .semeion_source import SemeionDataset
from .sources import GeneratorDataset, NumpySlicesDataset, PaddedDataset
from .text_sources import (
    AGNewsDataset,
    AmazonReviewDataset,
    DBpediaDataset,
    PennTreebankDataset,
    SogouNewsDataset,
    SST2Dataset,
    YahooAnswersDataset,
    YelpReviewDataset,
)
from .tfrecord_source import TFRecordDataset
from .usps_source import USPSDataset
from .utils import LineReader

# MindSpore's engine modules: each gives the classes it holds their home (`__module__`), the
# path a program sees in `type(data)`
for _module in ("cache_client", "datasets", "datasets_audio", "datasets_standard_format", "datasets_text",
                "datasets_user_defined", "datasets_vision", "iterators", "samplers"):
    importlib.import_module(f"{__name__}.engine.{_module}")


def zip(datasets):  # MindSpore's name; the builtin is not used in this module
    """The columns of `datasets` (a tuple) side by side, row by row: `ds.zip((images, labels))`."""
    from .core.validator_helpers import type_check

    type_check(datasets, (tuple,), "datasets")  # MindSpore's checks and words
    if len(datasets) <= 1:
        raise ValueError("Can't zip empty or just one dataset!")
    return ZipDataset(datasets)


# the configuration names MindSpore's dataset has at its top level too (outside its __all__)
from .config import (  # noqa: F401
    ErrorSamplesMode,
    get_callback_timeout,
    get_debug_mode,
    get_enable_watchdog,
    get_error_samples_mode,
    get_multiprocessing_start_method,
    get_multiprocessing_timeout_interval,
    get_num_parallel_workers,
    get_seed,
    get_video_backend,
    set_seed,
    set_video_backend,
)
from .debug import DebugHook  # noqa: F401  (MindSpore has it here, outside its __all__)
from .engine.serializer_deserializer import compare, deserialize, serialize, show

__all__ = [
    "AGNewsDataset",
    "AmazonReviewDataset",
    "BatchDataset",
    "BatchInfo",
    "CLUEDataset",
    "CMUArcticDataset",
    "CSVDataset",
    "Caltech101Dataset",
    "Caltech256Dataset",
    "CelebADataset",
    "Cifar10Dataset",
    "Cifar100Dataset",
    "CityscapesDataset",
    "CoNLL2000Dataset",
    "CocoDataset",
    "DBpediaDataset",
    "DIV2KDataset",
    "DSCallback",
    "Dataset",
    "DatasetCache",
    "DictIterator",
    "DistributedSampler",
    "EMnistDataset",
    "EnWik9Dataset",
    "FakeImageDataset",
    "FashionMnistDataset",
    "FlickrDataset",
    "Flowers102Dataset",
    "Food101Dataset",
    "GTZANDataset",
    "GeneratorDataset",
    "IMDBDataset",
    "IWSLT2016Dataset",
    "IWSLT2017Dataset",
    "ImageFolderDataset",
    "IterSampler",
    "KITTIDataset",
    "KMnistDataset",
    "LFWDataset",
    "LJSpeechDataset",
    "LSUNDataset",
    "LibriTTSDataset",
    "LineReader",
    "ManifestDataset",
    "MindDataset",
    "MnistDataset",
    "Multi30kDataset",
    "NumpySlicesDataset",
    "OmniglotDataset",
    "PKSampler",
    "PaddedDataset",
    "PennTreebankDataset",
    "PhotoTourDataset",
    "Places365Dataset",
    "QMnistDataset",
    "RandomDataset",
    "RandomSampler",
    "RenderedSST2Dataset",
    "SBDataset",
    "SBUDataset",
    "SQuADDataset",
    "SST2Dataset",
    "STL10Dataset",
    "SUN397Dataset",
    "SVHNDataset",
    "Sampler",
    "Schema",
    "SemeionDataset",
    "SequentialSampler",
    "Shuffle",
    "SogouNewsDataset",
    "SpeechCommandsDataset",
    "SubsetRandomSampler",
    "SubsetSampler",
    "TFRecordDataset",
    "TedliumDataset",
    "TextFileDataset",
    "TupleIterator",
    "UDPOSDataset",
    "USPSDataset",
    "VOCDataset",
    "WIDERFaceDataset",
    "WaitedDSCallback",
    "WeightedRandomSampler",
    "WikiTextDataset",
    "YahooAnswersDataset",
    "YelpReviewDataset",
    "YesNoDataset",
    "audio",
    "compare",
    "config",
    "deserialize",
    "get_callback_timeout",
    "get_debug_mode",
    "get_num_parallel_workers",
    "get_seed",
    "serialize",
    "set_seed",
    "show",
    "text",
    "transforms",
    "vision",
    "zip",
]
