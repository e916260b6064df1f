"""`mindspore.mindrecord.config`: encrypted MindRecord files (set_enc_key, set_enc_mode,
set_dec_mode), in MindSpore's format.

With a key set, FileWriter.commit encrypts each file and its index: the file read in chunks
of 64 MiB, each chunk written as its length (int32 big-endian) and its bytes encrypted as
MindSpore encrypts checkpoints (train/checkpoint_crypto.py), then a 0 length, the mode (7
bytes, "AES-GCM", or "UDF-ENC" for a function) and b"ENCRYPT". A function given as the mode is
called as mode(plain_file, size, encrypted_file, key) to write the encrypted bytes (and as
dec_mode(encrypted_file, size, plain_file, key) to read them). Readers decrypt a file into
`.decrypt_mindrecord/<id>/` beside it (folders only the owner may enter); the copy and its
folder are removed when the reader is closed or the process exits. AES-GCM needs the optional cryptography package
(pip install 'cellgraph[crypto]').
"""
from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import threading
import uuid

from .format import MindRecordError

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


ENCRYPT_END_FLAG = b"ENCRYPT"
DECRYPT_DIRECTORY = ".decrypt_mindrecord"
_CHUNK = 64 * 1024 * 1024
_MIN_FILE_SIZE = 8
_LOCK = threading.Lock()
_DECRYPTED: set[str] = set()
_FAILED = "Failed to decrypt data, please check if enc_key and enc_mode / dec_mode is valid."


def _mode_bytes(mode) -> bytes:
    return b"UDF-ENC" if callable(mode) else mode.encode()


def _crypto():
    from cellgraph.train import checkpoint_crypto
    return checkpoint_crypto


def encrypt_file(path: str) -> None:
    """Encrypt the file at `path` in place with the key and mode set."""
    key, mode = _ENC_KEY, _ENC_MODE
    size = os.path.getsize(path)
    temp = path + ".encrypt"
    with open(path, "rb") as plain, open(temp, "wb") as out:
        if callable(mode):
            mode(plain, size, out, key)
        else:
            crypto = _crypto()
            crypto.check_key(key.encode(), mode, "FileWriter")
            while chunk := plain.read(_CHUNK):
                data = crypto.encrypt(chunk, key.encode(), mode)
                out.write(len(data).to_bytes(4, "big", signed=True))
                out.write(data)
        out.write((0).to_bytes(4, "big", signed=True))
        out.write(_mode_bytes(mode))
        out.write(ENCRYPT_END_FLAG)
    os.chmod(temp, 0o600)
    os.replace(temp, path)


def _tail(path: str, n: int, skip: int = 0) -> bytes:
    with open(path, "rb") as f:
        f.seek(max(os.path.getsize(path) - n - skip, 0))
        return f.read(n)


def decrypt(filename: str) -> str:
    """The path to read `filename` from: itself when it is not encrypted (and no key is set),
    else its decrypted copy. MindSpore's errors when the key and the file disagree."""
    if not os.path.exists(filename):
        raise MindRecordError(f"The input: {filename} is not exists.")
    if not os.path.isfile(filename):
        raise MindRecordError(f"The input: {filename} should be a regular file.")
    size = os.path.getsize(filename)
    if size < _MIN_FILE_SIZE:
        raise MindRecordError(f"Invalid file, the size of mindrecord file: {size} is smaller than "
                           f"the lower limit: {_MIN_FILE_SIZE}.\n Please check file path: "
                           f"{filename} and use 'FileWriter' to generate valid mindrecord files.")
    encrypted = _tail(filename, len(ENCRYPT_END_FLAG)) == ENCRYPT_END_FLAG
    if _ENC_KEY is None:
        if encrypted:
            raise RuntimeError("The mindrecord file is encrypted. You need to configure "
                               "'cellgraph.mindrecord.config.set_enc_key(...)' and "
                               "'cellgraph.mindrecord.config.set_enc_mode(...)' for decryption.")
        return filename
    if not encrypted:
        raise RuntimeError("The mindrecord file is not encrypted. You can set "
                           "'cellgraph.mindrecord.config.set_enc_key(None)' to disable the "
                           "decryption.")
    dec_mode = _get_dec_mode()
    if _tail(filename, 7, len(ENCRYPT_END_FLAG)) != _mode_bytes(dec_mode):
        raise RuntimeError(_FAILED)
    target = _decrypt_path(filename)
    try:
        with open(filename, "rb") as f, open(target, "wb") as out:
            if callable(dec_mode):
                dec_mode(f, size - len(ENCRYPT_END_FLAG), out, _ENC_KEY)
            else:
                _decrypt_blocks(f, out, filename, size - len(ENCRYPT_END_FLAG), dec_mode)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(target)
        raise
    os.chmod(target, 0o600)
    with _LOCK:
        _DECRYPTED.add(os.path.realpath(target))
    return target


def _decrypt_path(filename: str) -> str:
    real = os.path.realpath(filename)
    root = os.path.join(os.path.dirname(real), DECRYPT_DIRECTORY)
    os.makedirs(root, mode=0o700, exist_ok=True)
    os.chmod(root, 0o700)
    group = real.removesuffix(".db")
    folder = os.path.join(root, uuid.uuid5(uuid.NAMESPACE_URL, group).hex)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return os.path.join(folder, os.path.basename(real))


def _decrypt_blocks(f, out, filename: str, size: int, mode: str) -> None:
    crypto = _crypto()
    key = _ENC_KEY.encode()
    offset = 0
    while True:
        head = f.read(4)
        if len(head) != 4:
            raise RuntimeError(f"Invalid encrypted block length in file: {filename} at offset: "
                               f"{offset}.")
        length = int.from_bytes(head, "big", signed=True)
        if length == 0:
            return
        if length < 0 or length > size - offset - 4 - 11:
            raise RuntimeError(f"Invalid encrypted block length {length} in file: {filename} at "
                               f"offset: {offset}.")
        offset += 4
        data = f.read(length)
        if len(data) != length:
            raise RuntimeError(f"Failed to read encrypted block data from file: {filename} at "
                               f"offset: {offset}.")
        try:
            out.write(crypto.decrypt(data, key, mode, filename))
        except crypto.DecryptError:
            raise RuntimeError(_FAILED) from None
        offset += length


def release(paths) -> None:
    """Remove decrypted copies (and their folders once empty)."""
    for path in paths:
        real = os.path.realpath(path)
        with _LOCK:
            _DECRYPTED.discard(real)
        with contextlib.suppress(OSError):
            os.remove(real)
        folder = os.path.dirname(real)  # its own folder; .decrypt_mindrecord stays
        with contextlib.suppress(OSError):
            if not os.listdir(folder):
                os.rmdir(folder)


def decrypt_inputs(file_name):
    """(the paths to read for `file_name`, one path or a list; the decrypted copies made).
    Each file's index (`.db`) is decrypted beside it."""
    given = [file_name] if isinstance(file_name, str) else list(file_name)
    out, made = [], []
    try:
        for path in given:
            plain = decrypt(path)
            if plain != path:
                made.append(plain)
            plain_db = decrypt(path + ".db")
            if plain_db != path + ".db":
                made.append(plain_db)
                if plain_db != plain + ".db":
                    os.replace(plain_db, plain + ".db")
                    made[-1] = plain + ".db"
            out.append(plain)
    except BaseException:
        release(made)
        raise
    return (out[0] if isinstance(file_name, str) else out), made


def decrypt_in_place(file_name: str) -> None:
    """Replace an encrypted file and its index by their plain bytes (to append to them)."""
    plain, plain_db = decrypt(file_name), decrypt(file_name + ".db")
    if plain != file_name:
        shutil.move(plain, file_name)
        shutil.move(plain_db, file_name + ".db")
        release([plain, plain_db])


atexit.register(lambda: release(list(_DECRYPTED)))
