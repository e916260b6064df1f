"""`mindspore.dataset.engine.datasets_text`: the text sources at MindSpore's module path."""
from ..readers import TextFileDataset
from ..text_sources import (
    AGNewsDataset,
    AmazonReviewDataset,
    DBpediaDataset,
    PennTreebankDataset,
    SogouNewsDataset,
    YahooAnswersDataset,
    YelpReviewDataset,
)
from . import at_home

__all__ = ["AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset", "PennTreebankDataset", "SogouNewsDataset", "TextFileDataset", "YahooAnswersDataset", "YelpReviewDataset"]

at_home(__name__, AGNewsDataset, AmazonReviewDataset, DBpediaDataset, PennTreebankDataset, SogouNewsDataset, TextFileDataset, YahooAnswersDataset, YelpReviewDataset)
