"""`mindspore.mindrecord`: FileWriter writes MindRecord files in MindSpore's format (format.py,
byte-identical to MindSpore's but for the shard names), which `dataset.MindDataset`, FileReader
and MindPage (rows by the value of an index field, a page at a time) read, as MindSpore's do;
datasets MindSpore wrote load here. Cifar10ToMR, Cifar100ToMR, ImageNetToMR, MnistToMR and
CsvToMR convert those datasets (converters.py), TFRecordToMR a TFRecord file;
set_enc_key / set_enc_mode / set_dec_mode encrypt the files (config.py); the errors are
MindSpore's (common/exceptions.py)."""
from .cifar10_to_mr import Cifar10ToMR
from .common.exceptions import (
    DbConnectionError,
    MindRecordException,
    MRMAddIndexError,
    MRMAddSchemaError,
    MRMBuildSchemaError,
    MRMCloseError,
    MRMCommitError,
    MRMDefineBlobError,
    MRMDefineCategoryError,
    MRMDefineIndexError,
    MRMFetchCandidateFieldsError,
    MRMFetchDataError,
    MRMFinishError,
    MRMGenerateIndexError,
    MRMGetMetaError,
    MRMIndexGeneratorError,
    MRMInitSegmentError,
    MRMInvalidHeaderSizeError,
    MRMInvalidPageSizeError,
    MRMInvalidSchemaError,
    MRMLaunchError,
    MRMOpenError,
    MRMOpenForAppendError,
    MRMReadCategoryInfoError,
    MRMSetHeaderError,
    MRMUnsupportedSchemaError,
    MRMValidateDataError,
    MRMWriteDatasetError,
    ParamMissError,
    ParamTypeError,
    ParamValueError,
    PathNotExistsError,
    UnknownError,
)
from .config import set_dec_mode, set_enc_key, set_enc_mode
from .converters import Cifar100ToMR, CsvToMR, MnistToMR
from .filereader import FileReader
from .filewriter import FileWriter
from .format import MindRecordError
from .imagenet_to_mr import ImageNetToMR
from .mindpage import MindPage
from .tfrecord_to_mr import TFRecordToMR

SUCCESS, FAILED = 0, -1

__all__ = [
    "FAILED",
    "SUCCESS",
    "Cifar10ToMR",
    "Cifar100ToMR",
    "CsvToMR",
    "DbConnectionError",
    "FileReader",
    "FileWriter",
    "ImageNetToMR",
    "MRMAddIndexError",
    "MRMAddSchemaError",
    "MRMBuildSchemaError",
    "MRMCloseError",
    "MRMCommitError",
    "MRMDefineBlobError",
    "MRMDefineCategoryError",
    "MRMDefineIndexError",
    "MRMFetchCandidateFieldsError",
    "MRMFetchDataError",
    "MRMFinishError",
    "MRMGenerateIndexError",
    "MRMGetMetaError",
    "MRMIndexGeneratorError",
    "MRMInitSegmentError",
    "MRMInvalidHeaderSizeError",
    "MRMInvalidPageSizeError",
    "MRMInvalidSchemaError",
    "MRMLaunchError",
    "MRMOpenError",
    "MRMOpenForAppendError",
    "MRMReadCategoryInfoError",
    "MRMSetHeaderError",
    "MRMUnsupportedSchemaError",
    "MRMValidateDataError",
    "MRMWriteDatasetError",
    "MindPage",
    "MindRecordError",
    "MindRecordException",
    "MnistToMR",
    "ParamMissError",
    "ParamTypeError",
    "ParamValueError",
    "PathNotExistsError",
    "TFRecordToMR",
    "UnknownError",
    "set_dec_mode",
    "set_enc_key",
    "set_enc_mode",
]
