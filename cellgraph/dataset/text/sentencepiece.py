"""SentencePiece vocabularies and their tokenizer (mindspore.dataset.text.SentencePieceVocab,
SentencePieceTokenizer), through the `sentencepiece` package (the `sentencepiece` extra).

MindSpore trains with SentencePiece 0.1.98 and the same trainer options (an empty model prefix,
the model written to memory, `minloglevel` 1); with that version installed the vocabularies,
pieces and ids are MindSpore's. Other versions train UNIGRAM models differently.
"""
from __future__ import annotations

import enum
import io
import os

import numpy as np

from cellgraph.dataset.core.validator_helpers import check_value, type_check, type_check_list
from cellgraph.dataset.transforms.transforms import TensorOperation


def _strings(array: np.ndarray) -> list[str]:
    """The strings of a str or bytes array (bytes as UTF-8), flattened."""
    return [w.decode("utf-8") if isinstance(w, bytes) else str(w) for w in array.reshape(-1)]

__all__ = ["SPieceTokenizerLoadType", "SPieceTokenizerOutType", "SentencePieceModel",
           "SentencePieceTokenizer", "SentencePieceVocab"]


class SentencePieceModel(enum.IntEnum):
    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


class SPieceTokenizerLoadType(enum.IntEnum):
    FILE = 0
    MODEL = 1


class SPieceTokenizerOutType(enum.IntEnum):
    STRING = 0
    INT = 1


def _spm():
    try:
        import sentencepiece
    except ImportError:
        raise ImportError("SentencePieceVocab and SentencePieceTokenizer need the sentencepiece "
                          "package: pip install 'cellgraph[sentencepiece]'") from None
    return sentencepiece


# the options MindSpore sets itself; a user's `params` cannot change them
_OWN_OPTIONS = ("input", "vocab_size", "model_prefix", "character_coverage", "model_type")


def _check_common(vocab_size, character_coverage, model_type, params) -> None:
    if vocab_size is None:
        raise TypeError("vocab_size must be provided.")
    type_check(vocab_size, (int,), "vocab_size")
    check_value(vocab_size, (0, 2**32 - 1), "vocab_size")
    if character_coverage is not None:
        type_check(character_coverage, (float,), "character_coverage")
    if model_type is not None:
        type_check(model_type, (str, SentencePieceModel), "model_type")
    if params is not None:
        type_check(params, (dict,), "params")


def _model_type_name(model_type) -> str:
    if isinstance(model_type, SentencePieceModel):
        return model_type.name
    names = {"unigram": "UNIGRAM", "bpe": "BPE", "char": "CHAR", "word": "WORD"}
    return names.get(str(model_type).lower(), "UNIGRAM")


def _train(vocab_size, character_coverage, model_type, params, **source) -> bytes:
    """A model trained as MindSpore trains it: its options as the strings it passes, the
    user's `params` besides (but not over) them."""
    options = {key: str(value) for key, value in (params or {}).items()
               if key not in _OWN_OPTIONS}
    options.update(vocab_size=str(vocab_size), character_coverage=f"{character_coverage:f}",
                   model_type=_model_type_name(model_type), model_prefix="", minloglevel="1")
    writer = io.BytesIO()
    try:
        _spm().SentencePieceTrainer.train(model_writer=writer, **source, **options)
    except (RuntimeError, OSError, ValueError) as error:
        raise RuntimeError(f"SentencePieceVocab: {error}") from None
    return writer.getvalue()


class SentencePieceVocab:
    """A trained SentencePiece model (its serialized proto), built with from_file or
    from_dataset."""

    def __init__(self):
        self.model_proto: bytes | None = None

    @classmethod
    def _of(cls, proto: bytes) -> SentencePieceVocab:
        vocab = cls()
        vocab.model_proto = proto
        return vocab

    @classmethod
    def from_file(cls, file_path, vocab_size, character_coverage, model_type, params):
        """Train on the text files in `file_path` (a list), one sentence a line."""
        if file_path is not None:
            type_check(file_path, (list,), "file_path")
        _check_common(vocab_size, character_coverage, model_type, params)
        return cls._of(_train(vocab_size, character_coverage, model_type, params,
                              input=",".join(str(p) for p in file_path)))

    @classmethod
    def from_dataset(cls, dataset, col_names, vocab_size, character_coverage, model_type,
                     params):
        """Train on the strings of the dataset's first column in `col_names` (its "text"
        column when `col_names` is empty)."""
        if col_names is not None:
            type_check_list(col_names, (str,), "col_names")
        _check_common(vocab_size, character_coverage, model_type, params)
        names = dataset.get_col_names()
        column = col_names[0] if col_names else "text"
        if column not in names:
            if not col_names:
                raise RuntimeError("Invalid data, 'text' column does not exist.")
            raise RuntimeError(f"Invalid column, column name: {column} does not exist, check "
                               f"existing column with dataset API 'get_col_names'")
        return cls._of(_train(vocab_size, character_coverage, model_type, params,
                              sentence_iterator=_sentences(dataset, column)))

    @classmethod
    def save_model(cls, vocab, path, filename):
        """Write the model to `path`/`filename` (readable by SentencePieceTokenizer)."""
        type_check(vocab, (SentencePieceVocab,), "vocab")
        type_check(path, (str,), "path")
        type_check(filename, (str,), "filename")
        if not os.path.isdir(path):
            raise RuntimeError(f"Get real path failed, path={path}")
        target = os.path.join(os.path.realpath(path), os.path.basename(filename))
        with open(target, "wb") as file:
            file.write(vocab.model_proto)
        os.chmod(target, 0o600)


def _sentences(dataset, column: str):
    for row in dataset.create_dict_iterator(output_numpy=True, num_epochs=1):
        value = np.asarray(row[column])
        if value.dtype.kind not in "US" or value.ndim > 1:
            kind = "string" if value.dtype.kind in "US" else value.dtype.name
            raise RuntimeError(f"Invalid data, build_sentence_piece_vocab only supports string "
                               f"data with rank equal to 1, but got type: {kind}, rank: "
                               f"{value.ndim}")
        yield from _strings(value)


class SentencePieceTokenizer(TensorOperation):
    """A string -> its pieces (out_type STRING) or their ids (INT), by a SentencePieceVocab
    or a model file path."""

    def __init__(self, mode, out_type):
        type_check(mode, (str, SentencePieceVocab),
                   "mode is not an instance of str or text.SentencePieceVocab.")
        type_check(out_type, (SPieceTokenizerOutType,),
                   "out_type is not an instance of SPieceTokenizerOutType")
        self.mode, self.out_type = mode, out_type
        self._processor = None

    def _loaded(self):
        if self._processor is None:
            processor = _spm().SentencePieceProcessor()
            if isinstance(self.mode, SentencePieceVocab):
                try:
                    processor.LoadFromSerializedProto(self.mode.model_proto)
                except (RuntimeError, OSError, TypeError):
                    raise RuntimeError("SentencePieceTokenizer: parser vocab model filed.") \
                        from None
            else:
                try:
                    processor.Load(self.mode)
                except (RuntimeError, OSError):
                    raise RuntimeError(f"SentencePieceTokenizer: load vocab model file: "
                                       f"{self.mode} failed.") from None
            self._processor = processor
        return self._processor

    def __call__(self, text):
        array = np.asarray(text)
        if array.ndim != 0 or array.dtype.kind not in "US":
            raise RuntimeError("SentencePieceTokenizer: the input shape should be scalar and the "
                               "input datatype should be string.")
        sentence = _strings(array)[0]
        if self.out_type is SPieceTokenizerOutType.STRING:
            return np.array(self._loaded().EncodeAsPieces(sentence), dtype=np.str_)
        return np.array(self._loaded().EncodeAsIds(sentence), dtype=np.int32)

    def __getstate__(self):  # the processor is rebuilt where the copy runs
        state = dict(self.__dict__)
        state["_processor"] = None
        return state
