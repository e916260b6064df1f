"""MindSpore's encrypted checkpoints (`enc_key` / `dec_key`), through the optional
`cryptography` package (pip install 'cellgraph[crypto]').

MindSpore encrypts the protobuf bytes in blocks of at most 64 MiB, each written as

    magic (int32 LE: 0x7F3A5ED8 AES-GCM, 0x7F3A5ED9 AES-CBC, 0x7F3A5EDA SM4-CBC)
    [tag: 16 bytes, AES-GCM only]
    size (int32 LE) = 4 + 16 + 4 + cipher length
    iv length (int32 LE, 16), iv (16 random bytes), cipher length (int32 LE), cipher

AES-GCM takes no associated data and, as MindSpore's OpenSSL calls leave the IV length at its
default after setting the key, only the first 12 of the 16 stored IV bytes (checked against
MindSpore 2.10's files both ways); the CBC modes pad with PKCS#7. AES keys are 16, 24 or 32
bytes; SM4 keys 16.
"""
from __future__ import annotations

import os
import struct

from cellgraph.primitives.errors import CellgraphError

MAGIC = {"AES-GCM": 0x7F3A5ED8, "AES-CBC": 0x7F3A5ED9, "SM4-CBC": 0x7F3A5EDA}
BLOCK = 64 * 1024 * 1024
IV_LEN = 16
TAG_LEN = 16
GCM_NONCE_LEN = 12


class DecryptError(CellgraphError, ValueError):
    """A file that does not decrypt with the given key and mode."""


def _modules(api: str):
    try:
        from cryptography.hazmat.primitives import padding
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    except ImportError:
        raise ImportError(f"{api}: encrypted checkpoints need the cryptography package: "
                          f"pip install 'cellgraph[crypto]'") from None
    return Cipher, algorithms, modes, padding


def check_key(key: bytes, mode: str, api: str) -> None:
    """A key and mode MindSpore accepts, and the package to use them, or an error."""
    if mode not in MAGIC:
        raise ValueError(f"{api}: the encryption mode must be one of {', '.join(MAGIC)}, got "
                         f"{mode!r}")
    sizes = (16,) if mode == "SM4-CBC" else (16, 24, 32)
    if len(key) not in sizes:
        raise ValueError(f"{api}: an {mode} key must be {', '.join(map(str, sizes[:-1]))}"
                         f"{' or ' if len(sizes) > 1 else ''}{sizes[-1]} bytes long, got "
                         f"{len(key)}")
    _modules(api)


def _cipher(key: bytes, mode: str, iv: bytes, tag: bytes | None = None):
    Cipher, algorithms, modes, _ = _modules("checkpoint encryption")
    if mode == "AES-GCM":
        return Cipher(algorithms.AES(key), modes.GCM(iv[:GCM_NONCE_LEN], tag))
    algorithm = algorithms.SM4(key) if mode == "SM4-CBC" else algorithms.AES(key)
    return Cipher(algorithm, modes.CBC(iv))


def encrypt(plain: bytes, key: bytes, mode: str) -> bytes:
    """`plain` encrypted as MindSpore's checkpoint writer does."""
    _, _, _, padding = _modules("save_checkpoint")
    out = []
    for start in range(0, len(plain), BLOCK):
        block, iv = plain[start:start + BLOCK], os.urandom(IV_LEN)
        encryptor = _cipher(key, mode, iv).encryptor()
        if mode != "AES-GCM":
            padder = padding.PKCS7(128).padder()
            block = padder.update(block) + padder.finalize()
        cipher = encryptor.update(block) + encryptor.finalize()
        head = struct.pack("<I", MAGIC[mode])
        if mode == "AES-GCM":
            head += encryptor.tag
        body = struct.pack("<i", IV_LEN) + iv + struct.pack("<i", len(cipher)) + cipher
        out += [head, struct.pack("<i", len(body)), body]
    return b"".join(out)


def is_cipher(blob: bytes) -> bool:
    return len(blob) >= 4 and struct.unpack("<I", blob[:4])[0] in MAGIC.values()


def decrypt(blob: bytes, key: bytes, mode: str, path: str, api: str = "load_checkpoint") -> bytes:
    """The plain bytes of a file MindSpore (or `encrypt`) encrypted (its checkpoints and MindIR
    files alike); `api` names the caller in errors."""
    check_key(key, mode, api)
    _, _, _, padding = _modules(api)
    from cryptography.exceptions import InvalidTag

    out, pos = [], 0
    fail = f"{api}: failed to decrypt {path!r} with this {mode} key"
    while pos < len(blob):
        if len(blob) - pos < 8 or struct.unpack_from("<I", blob, pos)[0] != MAGIC[mode]:
            raise DecryptError(f"{fail}: it is not an {mode} encrypted file (or it is damaged)")
        pos += 4
        tag = None
        if mode == "AES-GCM":
            tag, pos = blob[pos:pos + TAG_LEN], pos + TAG_LEN
        (size,) = struct.unpack_from("<i", blob, pos) if pos + 4 <= len(blob) else (-1,)
        pos += 4
        body = blob[pos:pos + size]
        if size < 8 + IV_LEN or len(body) != size:
            raise DecryptError(f"{fail}: a block runs past the end of the file (truncated)")
        pos += size
        (iv_len,) = struct.unpack_from("<i", body, 0)
        (cipher_len,) = struct.unpack_from("<i", body, 4 + IV_LEN)
        if iv_len != IV_LEN or 8 + IV_LEN + cipher_len != size:
            raise DecryptError(f"{fail}: a block's header is damaged")
        iv, cipher = body[4:4 + IV_LEN], body[8 + IV_LEN:]
        try:
            decryptor = _cipher(key, mode, iv, tag).decryptor()
            block = decryptor.update(cipher) + decryptor.finalize()
            if mode != "AES-GCM":
                unpadder = padding.PKCS7(128).unpadder()
                block = unpadder.update(block) + unpadder.finalize()
        except (InvalidTag, ValueError):
            raise DecryptError(f"{fail}: wrong key, or the file was tampered with") from None
        out.append(block)
    return b"".join(out)
