"""`mindspore.mindrecord.config`: the encryption settings of MindRecord files (set_enc_key,
set_enc_mode, set_dec_mode), checked as MindSpore checks them.

cellgraph does not encrypt or decrypt MindRecord files: with a key set, FileWriter, FileReader
and MindPage refuse to run (NotImplementedError) rather than write or read the files in clear.
"""
from __future__ import annotations

__all__ = ["set_dec_mode", "set_enc_key", "set_enc_mode"]

_ENC_KEY = None
_ENC_MODE = "AES-GCM"
_DEC_MODE = None
_MODES = ("AES-GCM",)


def set_enc_key(enc_key):
    """The key (a str of 16, 24 or 32 characters) MindRecord files are encrypted with; None
    turns encryption off."""
    global _ENC_KEY
    if enc_key is None:
        _ENC_KEY = None
        return
    if not isinstance(enc_key, str):
        raise ValueError("The input enc_key is not str.")  # noqa: TRY004 - as MindSpore
    if len(enc_key) not in (16, 24, 32):
        raise ValueError("The length of input enc_key is not 16, 24, 32.")
    _ENC_KEY = enc_key


def set_enc_mode(enc_mode="AES-GCM"):
    """The encryption: "AES-GCM" or a function (used only when a key is set)."""
    global _ENC_MODE
    if callable(enc_mode):
        _ENC_MODE = enc_mode
        return
    if not isinstance(enc_mode, str):
        raise ValueError("The input enc_mode is not str.")  # noqa: TRY004 - as MindSpore
    if enc_mode not in _MODES:
        raise ValueError("The input enc_mode is invalid.")
    _ENC_MODE = enc_mode


def set_dec_mode(dec_mode="AES-GCM"):
    """The decryption: "AES-GCM", a function, or None (the encryption's mode)."""
    global _DEC_MODE
    if dec_mode is None or callable(dec_mode):
        _DEC_MODE = dec_mode
        return
    if not isinstance(dec_mode, str):
        raise ValueError("The input dec_mode is not str.")  # noqa: TRY004 - as MindSpore
    if dec_mode not in _MODES:
        raise ValueError("The input dec_mode is invalid.")
    _DEC_MODE = dec_mode


def _get_enc_key():
    return _ENC_KEY


def _get_enc_mode():
    return _ENC_MODE


def _get_dec_mode():
    if _DEC_MODE is None:
        if callable(_ENC_MODE):
            raise RuntimeError("You use custom encryption, so you must also define custom "
                               "decryption.")
        return _ENC_MODE
    return _DEC_MODE


def refuse_encryption(op: str) -> None:
    """Raise NotImplementedError when a key is set: cellgraph neither encrypts nor decrypts
    MindRecord files."""
    if _ENC_KEY is not None:
        raise NotImplementedError(f"{op}: encrypted MindRecord files (set_enc_key) are not "
                                  f"supported by cellgraph; call set_enc_key(None) to write "
                                  f"and read files in clear")
