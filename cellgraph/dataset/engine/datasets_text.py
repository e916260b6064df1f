"""`mindspore.dataset.engine.datasets_text`: the text sources at MindSpore's module path."""
from ..readers import TextFileDataset
from ..text_sources import (
    AGNewsDataset,
    AmazonReviewDataset,
    DBpediaDataset,
    PennTreebankDataset,
    SogouNewsDataset,
    SST2Dataset,
    YahooAnswersDataset,
    YelpReviewDataset,
)
from . import at_home
from .corpus_sources import EnWik9Dataset, WikiTextDataset
from .text_readers import (
    CLUEDataset,
    CoNLL2000Dataset,
    IMDBDataset,
    IWSLT2016Dataset,
    IWSLT2017Dataset,
    Multi30kDataset,
    SQuADDataset,
    UDPOSDataset,
)

__all__ = [
    "AGNewsDataset",
    "AmazonReviewDataset",
    "CLUEDataset",
    "CoNLL2000Dataset",
    "DBpediaDataset",
    "EnWik9Dataset",
    "IMDBDataset",
    "IWSLT2016Dataset",
    "IWSLT2017Dataset",
    "Multi30kDataset",
    "PennTreebankDataset",
    "SQuADDataset",
    "SST2Dataset",
    "SogouNewsDataset",
    "TextFileDataset",
    "UDPOSDataset",
    "WikiTextDataset",
    "YahooAnswersDataset",
    "YelpReviewDataset",
]

at_home(__name__, AGNewsDataset, AmazonReviewDataset, CLUEDataset, CoNLL2000Dataset,
        DBpediaDataset, IMDBDataset, IWSLT2016Dataset, IWSLT2017Dataset, Multi30kDataset,
        PennTreebankDataset, SogouNewsDataset, TextFileDataset, YahooAnswersDataset,
        YelpReviewDataset, EnWik9Dataset, WikiTextDataset, UDPOSDataset,
        SQuADDataset, SST2Dataset)
