"""The MindRecord exceptions: their messages and error codes as MindSpore 2.10 gives them
(recorded from MindSpore: each class built with "D" for each argument)."""
import pytest

from cellgraph import mindrecord
from cellgraph.mindrecord import config
from cellgraph.mindrecord.common import exceptions

# (name, argument count, str(error), error_code)
RECORDED = [
    ('MindRecordException', 0, '[MindRecordException]: Unknown Error.', 1347686400),
    ('UnknownError', 0, '[UnknownError]: Unknown Error.', 1347686400),
    ('ParamValueError', 1, '[ParamValueError]: Invalid parameter value. D', 1347686402),
    ('ParamTypeError', 2, "[ParamTypeError]: Invalid parameter type. 'D' expect D type.", 1347686401),
    ('ParamMissError', 1, "[ParamMissError]: Param missing. 'D' is required.", 1347686403),
    ('PathNotExistsError', 1, '[PathNotExistsError]: Invalid path. D', 1347686404),
    ('DbConnectionError', 1, '[DbConnectionError]: Db connection is error. Detail: D', 1347686405),
    ('MRMOpenError', 0, '[MRMOpenError]: MindRecord File could not open successfully.', 1347690596),
    ('MRMOpenForAppendError', 0, '[MRMOpenForAppendError]: MindRecord File could not open successfully for append.', 1347690597),
    ('MRMInvalidPageSizeError', 0, '[MRMInvalidPageSizeError]: Failed to set page size.', 1347690598),
    ('MRMInvalidHeaderSizeError', 0, '[MRMInvalidHeaderSizeError]: Failed to set header size.', 1347690599),
    ('MRMSetHeaderError', 0, '[MRMSetHeaderError]: Failed to set header.', 1347690600),
    ('MRMWriteDatasetError', 0, '[MRMWriteDatasetError]: Failed to write dataset.', 1347690601),
    ('MRMCommitError', 0, '[MRMCommitError]: Failed to commit.', 1347690603),
    ('MRMLaunchError', 0, '[MRMLaunchError]: Failed to launch.', 1347690604),
    ('MRMFinishError', 0, '[MRMFinishError]: Failed to finish.', 1347690605),
    ('MRMCloseError', 0, '[MRMCloseError]: Failed to close.', 1347690606),
    ('MRMAddSchemaError', 0, '[MRMAddSchemaError]: Failed to add schema.', 1347690607),
    ('MRMAddIndexError', 0, '[MRMAddIndexError]: Failed to add index field.', 1347690608),
    ('MRMBuildSchemaError', 0, '[MRMBuildSchemaError]: Failed to build schema.', 1347690609),
    ('MRMGetMetaError', 0, '[MRMGetMetaError]: Failed to get meta info.', 1347690610),
    ('MRMIndexGeneratorError', 0, '[MRMIndexGeneratorError]: Failed to create index generator.', 1347690611),
    ('MRMGenerateIndexError', 0, '[MRMGenerateIndexError]: Failed to generate index.', 1347690612),
    ('MRMInitSegmentError', 0, '[MRMInitSegmentError]: Failed to initialize segment.', 1347690613),
    ('MRMFetchCandidateFieldsError', 0, '[MRMFetchCandidateFieldsError]: Failed to fetch candidate category fields.', 1347690614),
    ('MRMReadCategoryInfoError', 0, '[MRMReadCategoryInfoError]: Failed to read category information.', 1347690615),
    ('MRMFetchDataError', 0, '[MRMFetchDataError]: Failed to fetch data by category.', 1347690616),
    ('MRMInvalidSchemaError', 1, '[MRMInvalidSchemaError]: Schema format is error. Detail: D', 1347694792),
    ('MRMValidateDataError', 1, '[MRMValidateDataError]: Raw data do not match the schema. Detail: D', 1347694793),
    ('MRMDefineIndexError', 1, '[MRMDefineIndexError]: Failed to define index field. Detail: D', 1347694794),
    ('MRMDefineBlobError', 1, '[MRMDefineBlobError]: Failed to define blob field. Detail: D', 1347694795),
    ('MRMUnsupportedSchemaError', 1, '[MRMUnsupportedSchemaError]: Schema is not supported. Detail: D', 1347694796),
    ('MRMDefineCategoryError', 1, '[MRMDefineCategoryError]: Failed to define category field. Detail: D', 1347694797),
]


@pytest.mark.parametrize(("name", "arity", "text", "code"), RECORDED)
def test_message_and_code(name, arity, text, code):
    error = getattr(exceptions, name)(*["D"] * arity)
    assert (str(error), error.error_code) == (text, code)
    assert isinstance(error, exceptions.MindRecordException)
    assert getattr(mindrecord, name) is getattr(exceptions, name)


def test_parameter_errors_are_builtin_errors_too():
    assert isinstance(exceptions.ParamValueError("x"), ValueError)
    assert isinstance(exceptions.ParamTypeError("x", "int"), TypeError)
    assert exceptions.ParamValueError("x").args == ()  # as MindSpore's


def test_encryption_settings_are_checked():
    with pytest.raises(ValueError, match="The length of input enc_key is not 16, 24, 32"):
        mindrecord.set_enc_key("short")
    with pytest.raises(ValueError, match="The input enc_key is not str"):
        mindrecord.set_enc_key(123)
    with pytest.raises(ValueError, match="The input enc_mode is invalid"):
        mindrecord.set_enc_mode("SM4-CBC")
    with pytest.raises(ValueError, match="The input dec_mode is not str"):
        mindrecord.set_dec_mode(1)
    mindrecord.set_enc_mode(lambda *a: None)
    with pytest.raises(RuntimeError, match="must also define custom decryption"):
        config._get_dec_mode()
    mindrecord.set_enc_mode()
    assert config._get_dec_mode() == "AES-GCM"


def test_encryption_settings_keep_sharding_off(tmp_path):
    mindrecord.set_enc_key("0123456789012345")
    try:
        with pytest.raises(RuntimeError, match="the automatic sharding function is unavailable"):
            mindrecord.FileWriter(str(tmp_path / "a"), 2)
    finally:
        mindrecord.set_enc_key(None)
    assert mindrecord.SUCCESS == 0 and mindrecord.FAILED == -1
