"""Synthetic stand-ins for the archives MindSpore's generative and NLP tutorials download, for
program_harness.py: each function takes a seeded generator and returns the archive's files
(path inside the archive -> bytes), laid out and encoded as the real archive's are, with few
samples. Only NumPy, the standard library and Pillow (for JPEG) are used, so that both
interpreters make the same bytes.

* faces.zip (DCGAN): faces/<n>.jpg, 96x96 RGB JPEG anime faces.
* image_cat.zip (diffusion): image_cat/jpg/000000039769.jpg, a 640x480 RGB JPEG.
* dataset.zip (diffusion): Fashion-MNIST's IDX files under dataset/.
* aclImdb_v1.tar.gz (sentiment analysis): aclImdb/{train,test}/{pos,neg}/<id>_<rating>.txt
  reviews and aclImdb/imdb.vocab.
* glove.6B.zip (sentiment analysis): glove.6B.<d>d.txt, one `word v1 ... vd` line per word.
* dataset_pix2pix.tar (pix2pix): dataset_pix2pix/train.mindrecord (+ .db), rows of 16
  normalized 3x256x256 facade images and their targets.
"""
from __future__ import annotations

import io
import json
import os
import sqlite3
import struct
import tempfile

import numpy as np

PIX2PIX_ROWS, PIX2PIX_BATCH = 1, 16  # the page shows 10 images of a row
MINDRECORD_HEADER_SIZE = 1 << 14  # MindSpore's smallest; its default leaves 16 MB of zeros
FACES = 16  # DCGAN batches 128: one short batch per epoch
FASHION_SIZES = {"train": 48, "t10k": 16}  # the diffusion page batches 16, drop_remainder
IMDB_REVIEWS = {"train": 108, "test": 32}  # per label; 70/30 split of train, batches of 64
GLOVE_DIMS = (50, 100, 200, 300)

# words the reviews are made of; the page looks up "the" and classifies "This film is great"
POSITIVE = ("great", "wonderful", "excellent", "loved", "beautiful", "best", "moving", "fun")
NEGATIVE = ("terrible", "awful", "boring", "worst", "bad", "waste", "dull", "poor")
NEUTRAL = ("the", "this", "film", "is", "a", "movie", "of", "and", "it", "was", "plot",
           "actors", "story", "to", "in", "with", "scene", "ending", "director", "i")


def jpeg(pixels: np.ndarray, quality: int = 90) -> bytes:
    """An RGB uint8 HxWx3 array as baseline JPEG bytes."""
    from PIL import Image  # both interpreters hold the same Pillow

    buffer = io.BytesIO()
    Image.fromarray(pixels.astype(np.uint8), "RGB").save(buffer, "JPEG", quality=quality)
    return buffer.getvalue()


def smooth_image(rng: np.random.RandomState, height: int, width: int) -> np.ndarray:
    """A photo-like RGB image: a coarse random grid upsampled, plus a little noise (JPEG of
    pure noise would be large and unlike the real pictures)."""
    coarse = rng.randint(0, 256, (height // 8 + 1, width // 8 + 1, 3)).astype(np.float64)
    image = np.repeat(np.repeat(coarse, 8, 0), 8, 1)[:height, :width]
    noise = rng.randint(-12, 13, (height, width, 3))
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def faces_files(rng: np.random.RandomState) -> dict:
    return {f"faces/{i}.jpg": jpeg(smooth_image(rng, 96, 96)) for i in range(FACES)}


def image_cat_files(rng: np.random.RandomState) -> dict:
    return {"image_cat/jpg/000000039769.jpg": jpeg(smooth_image(rng, 480, 640))}


def idx_file(array: np.ndarray) -> bytes:
    """An IDX file of unsigned bytes (MNIST's and Fashion-MNIST's format)."""
    header = bytes([0, 0, 0x08, array.ndim]) + b"".join(
        int(n).to_bytes(4, "big") for n in array.shape)
    return header + array.astype(np.uint8).tobytes()


def fashion_mnist_files(rng: np.random.RandomState) -> dict:
    files = {}
    for prefix, n in FASHION_SIZES.items():
        labels = rng.randint(0, 10, n).astype(np.uint8)
        images = rng.randint(0, 40, (n, 28, 28)).astype(np.uint8)
        for i, label in enumerate(labels):  # a bright block whose place the label sets
            images[i, 4 + 2 * label:10 + 2 * label, 6:22] = 200
        files[f"dataset/{prefix}-images-idx3-ubyte"] = idx_file(images)
        files[f"dataset/{prefix}-labels-idx1-ubyte"] = idx_file(labels)
    return files


def _review(rng: np.random.RandomState, positive: bool) -> str:
    tone = POSITIVE if positive else NEGATIVE
    words = [tone[rng.randint(len(tone))] if rng.rand() < 0.3 else
             NEUTRAL[rng.randint(len(NEUTRAL))] for _ in range(rng.randint(12, 40))]
    words[0] = words[0].capitalize()
    # punctuation and a tag the page strips, and a word GloVe's list lacks (the page's <unk>)
    return " ".join(words) + ", unforgettablish!<br /><br />" + (" 10/10." if positive else "")


def imdb_files(rng: np.random.RandomState) -> dict:
    files = {}
    for split, n in IMDB_REVIEWS.items():
        for label in ("pos", "neg"):
            for i in range(n):
                rating = rng.randint(7, 11) if label == "pos" else rng.randint(1, 5)
                text = _review(rng, label == "pos")
                files[f"aclImdb/{split}/{label}/{i}_{rating}.txt"] = text.encode()
    vocab = sorted(set(POSITIVE + NEGATIVE + NEUTRAL))
    files["aclImdb/imdb.vocab"] = "".join(f"{w}\n" for w in vocab).encode()
    return files


def glove_files(rng: np.random.RandomState) -> dict:
    """GloVe's text vectors: the review words, punctuation and filler words, in a fixed
    order, each dimension a file of its own."""
    words = list(dict.fromkeys(NEUTRAL + POSITIVE + NEGATIVE + (",", ".", "!")))
    words += [f"word{k}" for k in range(64)]
    files = {}
    for dim in GLOVE_DIMS:
        vectors = rng.uniform(-1, 1, (len(words), dim)).round(5)
        lines = (w + " " + " ".join(f"{v:.5f}" for v in row) for w, row in zip(words, vectors))
        files[f"glove.6B.{dim}d.txt"] = ("\n".join(lines) + "\n").encode()
    return files


# ---------------------------------------------------------------- MindRecord

def _page_size(rows: list[bytes]) -> int:
    """The smallest power of two from MindSpore's least (32 KB) that holds any one row."""
    size = 1 << 15
    while size < max(8 + len(blob) for blob in rows):
        size <<= 1
    return size


def mindrecord_files(name: str, schema: dict, rows: list[dict]) -> dict:
    """One MindRecord shard `name` and its SQLite index `name.db` (MindSpore's format 3.0: see
    cellgraph/mindrecord/format.py) for a schema of float arrays only, every field a blob: a
    row's blob is each field, in name order, as (u64 big-endian length, little-endian data);
    its raw part, with no scalar field, is the MessagePack map {"id": 0}."""
    fields = sorted(schema)
    assert all(schema[f]["type"] in ("float32", "float64") and "shape" in schema[f]
               for f in fields), "blob fields of float arrays only"
    blobs = []
    for row in rows:
        parts = [np.asarray(row[f], np.dtype(schema[f]["type"]).newbyteorder("<")).tobytes()
                 for f in fields]
        blobs.append(parts[0] if len(parts) == 1 else
                     b"".join(struct.pack(">Q", len(b)) + b for b in parts))
    raw = b"\x81\xa2id\x00"
    page_size = _page_size(blobs)
    groups, start, used = [], 0, 0  # rows cut into groups that fit a blob page
    for i, blob in enumerate(blobs):
        if i > start and used + 8 + len(blob) > page_size:
            groups.append((start, i))
            start, used = i, 0
        used += 8 + len(blob)
    groups.append((start, len(blobs)))
    pages, contents, index = [], [], []
    raw_page = bytearray()
    raw_groups = []
    for group, (lo, hi) in enumerate(groups):
        body = bytearray()
        raw_groups.append({"id": group, "offset": len(raw_page)})
        for row in range(lo, hi):
            blob_start = len(body)
            body += struct.pack("<Q", len(blobs[row])) + blobs[row]
            raw_start = len(raw_page)
            raw_page += struct.pack("<Q", len(raw)) + raw
            index.append((row, group, len(groups), raw_start, len(raw_page), group,
                          blob_start, len(body)))
        pages.append({"end_row_id": hi, "page_id": group, "page_size": len(body),
                      "page_type": "BLOB_DATA", "page_type_id": group,
                      "row_group_ids": [{"id": 0, "offset": 0}], "shard_id": 0,
                      "start_row_id": lo})
        contents.append(bytes(body))
    pages.append({"end_row_id": 0, "page_id": len(groups), "page_size": len(raw_page),
                  "page_type": "RAW_DATA", "page_type_id": 0, "row_group_ids": raw_groups,
                  "shard_id": 0, "start_row_id": 0})
    contents.append(bytes(raw_page))
    schemas = [{"blob_fields": fields, "desc": "", "schema": schema}]

    def dump(value):
        return json.dumps(value, sort_keys=True, separators=(",", ":"))

    header = (f'{{"header_size":{MINDRECORD_HEADER_SIZE},"index_fields":null,'
              f'"page":{dump(pages)},"page_size":{page_size},"compression_size":0,'
              f'"schema":{dump(schemas)},"shard_addresses":{dump([os.path.basename(name)])},'
              f'"shard_id":0,"statistics":null,"version":"3.0"}}').encode()
    shard = bytearray(struct.pack("<Q", len(header)) + header)
    for page, body in zip(pages, contents):
        shard.extend(b"\x00" * (MINDRECORD_HEADER_SIZE + page["page_id"] * page_size
                                - len(shard)))
        shard += body
    return {name: bytes(shard), f"{name}.db": _mindrecord_index(os.path.basename(name), index)}


def _mindrecord_index(shard_name: str, index: list[tuple]) -> bytes:
    """The SQLite index MindSpore's reader checks beside a shard: its name and each row's
    pages and offsets (no index fields)."""
    columns = ("ROW_ID", "ROW_GROUP_ID", "PAGE_ID_RAW", "PAGE_OFFSET_RAW",
               "PAGE_OFFSET_RAW_END", "PAGE_ID_BLOB", "PAGE_OFFSET_BLOB", "PAGE_OFFSET_BLOB_END")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "index.db")
        connection = sqlite3.connect(path, isolation_level=None)
        try:
            connection.execute("CREATE TABLE INDEXES(" + ", ".join(
                f"{c} INT NOT NULL" for c in columns) + ", PRIMARY KEY(ROW_ID));")
            connection.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL);")
            connection.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?)", (shard_name,))
            connection.executemany(f"INSERT INTO INDEXES ({','.join(columns)}) VALUES "
                                   f"({','.join('?' * len(columns))})", index)
        finally:
            connection.close()
        with open(path, "rb") as f:
            return f.read()


def pix2pix_files(rng: np.random.RandomState) -> dict:
    """Facade label maps and photos, normalized to [-1, 1], 16 to a row as the real rows."""
    shape = [PIX2PIX_BATCH, 3, 256, 256]
    schema = {"input_images": {"type": "float32", "shape": shape},
              "target_images": {"type": "float32", "shape": shape}}
    rows = []
    for _ in range(PIX2PIX_ROWS):
        images = [np.stack([smooth_image(rng, 256, 256).transpose(2, 0, 1)
                            for _ in range(PIX2PIX_BATCH)]) for _ in schema]
        rows.append({name: (image / 127.5 - 1).astype(np.float32)
                     for name, image in zip(schema, images)})
    return mindrecord_files("dataset_pix2pix/train.mindrecord", schema, rows)


ARCHIVES = {"faces.zip": faces_files, "image_cat.zip": image_cat_files,
            "dataset.zip": fashion_mnist_files, "aclImdb_v1.tar.gz": imdb_files,
            "glove.6B.zip": glove_files, "dataset_pix2pix.tar": pix2pix_files}
