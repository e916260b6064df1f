"""Encrypted MindRecord files (set_enc_key) in MindSpore's layout: checked both ways against
MindSpore 2.10 (each reads, appends to and re-reads the other's encrypted files); here the
layout, the round trip and MindSpore's errors."""
import os
import struct
from pathlib import Path

import numpy as np
import pytest

from cellgraph.mindrecord import (
    FileReader,
    FileWriter,
    MindPage,
    set_dec_mode,
    set_enc_key,
    set_enc_mode,
)

KEY = "0123456789012345"


@pytest.fixture(autouse=True)
def _no_key_after():
    yield
    set_enc_key(None)
    set_enc_mode()
    set_dec_mode(None)


def write(path, rows=5):
    writer = FileWriter(path)
    writer.add_schema({"label": {"type": "int32"}, "data": {"type": "bytes"},
                       "v": {"type": "float32", "shape": [2]}})
    writer.add_index(["label"])
    writer.write_raw_data([{"label": i, "data": bytes([i]) * 3,
                            "v": np.array([i, -i], np.float32)} for i in range(rows)])
    writer.commit()


def test_round_trip_and_layout(tmp_path):
    pytest.importorskip("cryptography")
    path = str(tmp_path / "e.mr")
    set_enc_key(KEY)
    set_enc_mode("AES-GCM")
    write(path)
    for name in (path, path + ".db"):
        data = Path(name).read_bytes()
        assert data.endswith(b"\x00\x00\x00\x00AES-GCMENCRYPT")
        (n,) = struct.unpack(">i", data[:4])  # one block: its length, big-endian
        assert struct.unpack("<I", data[4:8])[0] == 0x7F3A5ED8  # MindSpore's AES-GCM magic
        assert len(data) == 4 + n + 4 + 7 + 7
    reader = FileReader(path)
    assert [r["label"] for r in reader.get_next()] == [0, 1, 2, 3, 4]
    folder = tmp_path / ".decrypt_mindrecord"
    assert oct(os.stat(folder).st_mode & 0o777) == "0o700"
    reader.close()
    assert os.listdir(folder) == []  # the decrypted copies are gone
    page = MindPage(path)
    page.category_field = "label"
    assert page.read_at_page_by_name("3", 0, 1)[0]["data"] == b"\x03\x03\x03"
    appender = FileWriter.open_for_append(path)
    appender.write_raw_data([{"label": 9, "data": b"z", "v": np.zeros(2, np.float32)}])
    appender.commit()
    assert Path(path).read_bytes().endswith(b"ENCRYPT")
    assert FileReader(path).len() == 6
    set_enc_key("0123456789012346")
    with pytest.raises(RuntimeError, match="Failed to decrypt data, please check if enc_key"):
        FileReader(path)
    set_enc_key(None)
    with pytest.raises(RuntimeError, match="The mindrecord file is encrypted. You need to"):
        FileReader(path)
    with pytest.raises(RuntimeError, match="The mindrecord file is encrypted. You need to"):
        FileWriter.open_for_append(path)


def test_a_plain_file_read_with_a_key(tmp_path):
    path = str(tmp_path / "p.mr")
    write(path)
    set_enc_key(KEY)
    with pytest.raises(RuntimeError, match="The mindrecord file is not encrypted. You can set"):
        FileReader(path)
    with pytest.raises(RuntimeError, match="The mindrecord file is not encrypted. You can set"):
        MindPage(path)


def test_functions_as_modes(tmp_path):
    """A function as the mode writes (and reads) the encrypted bytes itself; the file ends
    with the mode "UDF-ENC"."""
    def enc(plain, size, out, key):
        out.write(bytes(b ^ 0x5A for b in plain.read(size)))

    def dec(encrypted, size, out, key):
        body = encrypted.read(size)[:-4 - 7]  # the 0 length and the mode follow the bytes
        out.write(bytes(b ^ 0x5A for b in body))

    path = str(tmp_path / "u.mr")
    set_enc_key(KEY)
    set_enc_mode(enc)
    write(path, rows=3)
    assert Path(path).read_bytes().endswith(b"UDF-ENCENCRYPT")
    with pytest.raises(RuntimeError, match="must also define custom decryption"):
        FileReader(path)
    set_dec_mode(dec)
    assert [r["label"] for r in FileReader(path).get_next()] == [0, 1, 2]


def test_mind_dataset_reads_encrypted_files(tmp_path):
    pytest.importorskip("cryptography")
    from cellgraph import dataset as ds

    path = str(tmp_path / "d.mr")
    set_enc_key(KEY)
    write(path, rows=4)
    labels = [int(r["label"]) for r in ds.MindDataset(path, shuffle=False)
              .create_dict_iterator(output_numpy=True)]
    assert labels == [0, 1, 2, 3]
    set_enc_key(None)
    with pytest.raises(RuntimeError, match="The mindrecord file is encrypted"):
        ds.MindDataset(path)
