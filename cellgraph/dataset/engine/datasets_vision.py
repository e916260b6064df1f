"""`mindspore.dataset.engine.datasets_vision`: the image sources at MindSpore's module path."""
from ..lsun_source import LSUNDataset
from ..random_source import RandomDataset
from ..readers import (
    Cifar10Dataset,
    Cifar100Dataset,
    FashionMnistDataset,
    ImageFolderDataset,
    KMnistDataset,
    MnistDataset,
)
from ..semeion_source import SemeionDataset
from ..usps_source import USPSDataset
from . import at_home
from .folder_sources import (
    CityscapesDataset,
    DIV2KDataset,
    Food101Dataset,
    PhotoTourDataset,
    Places365Dataset,
    RenderedSST2Dataset,
)
from .mat_sources import Caltech101Dataset, Flowers102Dataset, SBDataset, SVHNDataset
from .vision_readers import (
    CelebADataset,
    CocoDataset,
    EMnistDataset,
    FakeImageDataset,
    KITTIDataset,
    LFWDataset,
    ManifestDataset,
    OmniglotDataset,
)
from .vision_sources import (
    Caltech256Dataset,
    FlickrDataset,
    QMnistDataset,
    SBUDataset,
    STL10Dataset,
    SUN397Dataset,
    VOCDataset,
    WIDERFaceDataset,
)

__all__ = [
    "Caltech101Dataset",
    "Caltech256Dataset",
    "CelebADataset",
    "Cifar10Dataset",
    "Cifar100Dataset",
    "CityscapesDataset",
    "CocoDataset",
    "DIV2KDataset",
    "EMnistDataset",
    "FakeImageDataset",
    "FashionMnistDataset",
    "FlickrDataset",
    "Flowers102Dataset",
    "Food101Dataset",
    "ImageFolderDataset",
    "KITTIDataset",
    "KMnistDataset",
    "LFWDataset",
    "LSUNDataset",
    "ManifestDataset",
    "MnistDataset",
    "OmniglotDataset",
    "PhotoTourDataset",
    "Places365Dataset",
    "QMnistDataset",
    "RandomDataset",
    "RenderedSST2Dataset",
    "SBDataset",
    "SBUDataset",
    "STL10Dataset",
    "SUN397Dataset",
    "SVHNDataset",
    "SemeionDataset",
    "USPSDataset",
    "VOCDataset",
    "WIDERFaceDataset",
]

at_home(__name__, CelebADataset, Cifar10Dataset, Cifar100Dataset, CocoDataset, EMnistDataset,
        FakeImageDataset, FashionMnistDataset, ImageFolderDataset, KITTIDataset, LFWDataset,
        ManifestDataset, MnistDataset, OmniglotDataset, SemeionDataset, FlickrDataset,
        QMnistDataset, STL10Dataset, SUN397Dataset, Caltech256Dataset, SBUDataset, VOCDataset, WIDERFaceDataset,
        USPSDataset, Food101Dataset, RenderedSST2Dataset,
        Places365Dataset, PhotoTourDataset, CityscapesDataset,
        DIV2KDataset, RandomDataset)
at_home(__name__, Flowers102Dataset, SBDataset, SVHNDataset, KMnistDataset, Caltech101Dataset,
        LSUNDataset)
