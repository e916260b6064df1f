"""`mindspore.mindrecord.common.exceptions`: MindSpore's MindRecord exceptions, each with its
number and base message; `str(e)` is `[ClassName]: message`, as MindSpore writes it.

The parameter errors also derive from the builtin error a Python program expects
(ParamValueError from ValueError, ParamTypeError from TypeError), so code written for either
catches them."""
from __future__ import annotations

__all__ = []  # filled below with every exception name

# name -> (number, message): "{0}" is the one argument (the detail), "{0}"/"{1}" for
# ParamTypeError; a message without an argument is fixed. MindSpore's table.
_EXCEPTIONS = {
    "UnknownError": (0, "Unknown Error."),
    "ParamValueError": (2, "Invalid parameter value. {0}"),
    "ParamTypeError": (1, "Invalid parameter type. '{0}' expect {1} type."),
    "ParamMissError": (3, "Param missing. '{0}' is required."),
    "PathNotExistsError": (4, "Invalid path. {0}"),
    "DbConnectionError": (5, "Db connection is error. Detail: {0}"),
    "MRMOpenError": (100, "MindRecord File could not open successfully."),
    "MRMOpenForAppendError": (101, "MindRecord File could not open successfully for append."),
    "MRMInvalidPageSizeError": (102, "Failed to set page size."),
    "MRMInvalidHeaderSizeError": (103, "Failed to set header size."),
    "MRMSetHeaderError": (104, "Failed to set header."),
    "MRMWriteDatasetError": (105, "Failed to write dataset."),
    "MRMCommitError": (107, "Failed to commit."),
    "MRMLaunchError": (108, "Failed to launch."),
    "MRMFinishError": (109, "Failed to finish."),
    "MRMCloseError": (110, "Failed to close."),
    "MRMAddSchemaError": (111, "Failed to add schema."),
    "MRMAddIndexError": (112, "Failed to add index field."),
    "MRMBuildSchemaError": (113, "Failed to build schema."),
    "MRMGetMetaError": (114, "Failed to get meta info."),
    "MRMIndexGeneratorError": (115, "Failed to create index generator."),
    "MRMGenerateIndexError": (116, "Failed to generate index."),
    "MRMInitSegmentError": (117, "Failed to initialize segment."),
    "MRMFetchCandidateFieldsError": (118, "Failed to fetch candidate category fields."),
    "MRMReadCategoryInfoError": (119, "Failed to read category information."),
    "MRMFetchDataError": (120, "Failed to fetch data by category."),
    "MRMInvalidSchemaError": (200, "Schema format is error. Detail: {0}"),
    "MRMValidateDataError": (201, "Raw data do not match the schema. Detail: {0}"),
    "MRMDefineIndexError": (202, "Failed to define index field. Detail: {0}"),
    "MRMDefineBlobError": (203, "Failed to define blob field. Detail: {0}"),
    "MRMUnsupportedSchemaError": (204, "Schema is not supported. Detail: {0}"),
    "MRMDefineCategoryError": (205, "Failed to define category field. Detail: {0}"),
}
# builtin bases beside MindRecordException, so `except ValueError` / `except TypeError` hold
_BUILTIN = {"ParamValueError": ValueError, "ParamTypeError": TypeError}

# the fields of MindSpore's error code: runtime (host: 1), code type (error: 1), level
# (common: 0), system id 42; the module id is number // 100 + 1
_RUNTIME, _CODE_TYPE, _LEVEL, _SYS_ID = 1, 1, 0, 42


def _error_code(number: int) -> int:
    mod_id = number // 100 + 1
    return (((0xFF & _RUNTIME) << 30) | ((0xFF & _CODE_TYPE) << 28) | ((0xFF & _LEVEL) << 25)
            | ((0xFF & _SYS_ID) << 17) | ((0xFF & mod_id) << 12) | (0x0FFF & number))


class MindRecordException(Exception):
    """The base of the MindRecord errors: `error_msg` (settable) and `error_code`; `str(e)`
    is `[ClassName]: error_msg`."""

    def __init__(self):
        super().__init__()
        number, message = _EXCEPTIONS.get(type(self).__name__, _EXCEPTIONS["UnknownError"])
        self._error_msg = message if "{" not in message else message.split(" {")[0]
        self._error_code = _error_code(number)

    def __str__(self):
        return f"[{type(self).__name__}]: {self._error_msg}"

    @property
    def error_msg(self):
        """The message, without the class name."""
        return self._error_msg

    @error_msg.setter
    def error_msg(self, msg):
        self._error_msg = msg

    @property
    def error_code(self):
        """The error's unique number."""
        return self._error_code

    @staticmethod
    def transform_error_code(exception_no):
        """The error code of exception number `exception_no`."""
        return _error_code(exception_no)


def _make(name: str, message: str, arity: int):
    if arity == 0:
        def __init__(self):
            MindRecordException.__init__(self)
            self.error_msg = message
    elif arity == 1:
        def __init__(self, error_detail):
            MindRecordException.__init__(self)
            self.error_msg = message.format(error_detail)
    else:
        def __init__(self, param_name, expected_type):
            MindRecordException.__init__(self)
            self.error_msg = message.format(param_name, expected_type)
    bases = (MindRecordException, _BUILTIN[name]) if name in _BUILTIN else (MindRecordException,)
    return type(name, bases, {"__init__": __init__, "__module__": __name__,
                              "__doc__": f"MindRecord error {name}: {message}"})


for _name, (_number, _message) in _EXCEPTIONS.items():
    if _name == "UnknownError":
        globals()[_name] = type(_name, (MindRecordException,), {
            "__module__": __name__, "__doc__": "An unknown MindRecord error."})
    else:
        globals()[_name] = _make(_name, _message, _message.count("{"))
    __all__.append(_name)
__all__.append("MindRecordException")
del _name, _number, _message
