"""The synthetic archives program_harness.py serves for the generative and NLP tutorials: their
layout and formats, read back as the pages read them, and the same bytes on every run."""
import io
import re
import struct
import tarfile
import zipfile

import numpy as np
import pytest

from .oracle_tools import load

Image = pytest.importorskip("PIL.Image")  # the synthetic images are JPEGs made by Pillow

gen = load("synthetic_gen")
harness = load("program_harness")


def files_of(name):
    return harness.SYNTHETIC[name](np.random.RandomState(1234))


def test_every_archive_is_the_same_bytes_on_every_run():
    for name in gen.ARCHIVES:
        first = harness.archive(name, files_of(name))
        assert first == harness.archive(name, files_of(name)), name


def test_faces_are_96x96_rgb_jpegs_in_one_folder():
    files = files_of("faces.zip")
    assert sorted(files) == sorted(f"faces/{i}.jpg" for i in range(gen.FACES))
    image = Image.open(io.BytesIO(files["faces/3.jpg"]))
    assert (image.format, image.mode, image.size) == ("JPEG", "RGB", (96, 96))


def test_the_cat_is_a_640x480_jpeg_where_the_page_opens_it():
    files = files_of("image_cat.zip")
    image = Image.open(io.BytesIO(files["image_cat/jpg/000000039769.jpg"]))
    assert (image.format, image.size) == ("JPEG", (640, 480))


def test_fashion_mnist_is_idx_files_whose_headers_give_their_counts():
    files = files_of("dataset.zip")
    for prefix, n in gen.FASHION_SIZES.items():
        images = files[f"dataset/{prefix}-images-idx3-ubyte"]
        labels = files[f"dataset/{prefix}-labels-idx1-ubyte"]
        assert struct.unpack(">4I", images[:16]) == (0x803, n, 28, 28)
        assert struct.unpack(">2I", labels[:8]) == (0x801, n)
        assert len(images) == 16 + n * 784 and len(labels) == 8 + n
        assert max(labels[8:]) <= 9


def test_imdb_reviews_are_read_from_the_tar_gz_as_the_page_reads_them():
    data = harness.archive("aclImdb_v1.tar.gz", files_of("aclImdb_v1.tar.gz"))
    assert data[4:8] == b"\0\0\0\0"  # gzip's time field: no time, the same bytes each run
    counts = {}
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar:
            m = re.match(r"aclImdb/(train|test)/(pos|neg)/\d+_(\d+)\.txt$", member.name)
            if m:
                split, label, rating = m.group(1), m.group(2), int(m.group(3))
                assert (rating >= 7) == (label == "pos")
                text = tar.extractfile(member).read().decode()
                assert len(text.split()) >= 12
                counts[split, label] = counts.get((split, label), 0) + 1
    assert counts == {(s, lb): n for s, n in gen.IMDB_REVIEWS.items() for lb in ("pos", "neg")}


def test_glove_files_hold_a_vector_of_their_dimension_per_word():
    data = harness.archive("glove.6B.zip", files_of("glove.6B.zip"))
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert sorted(z.namelist()) == sorted(f"glove.6B.{d}d.txt" for d in gen.GLOVE_DIMS)
        lines = z.read("glove.6B.100d.txt").decode().splitlines()
    words = [line.split(maxsplit=1)[0] for line in lines]
    assert words[0] == "the" and len(set(words)) == len(words)
    vector = np.array(lines[0].split()[1:], np.float32)
    assert vector.shape == (100,) and np.all(np.abs(vector) <= 1)


def test_pix2pix_mindrecord_reads_back_its_rows(tmp_path):
    from cellgraph.dataset import MindDataset

    files = files_of("dataset_pix2pix.tar")
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    path = str(tmp_path / "dataset_pix2pix" / "train.mindrecord")
    dataset = MindDataset(path, columns_list=["input_images", "target_images"], shuffle=False)
    assert dataset.get_dataset_size() == gen.PIX2PIX_ROWS
    row = next(dataset.create_dict_iterator(output_numpy=True))
    assert row["input_images"].shape == (gen.PIX2PIX_BATCH, 3, 256, 256)
    # the rows as the generator makes them, from the same seed
    rng = np.random.RandomState(1234)
    expected = [np.stack([gen.smooth_image(rng, 256, 256).transpose(2, 0, 1)
                          for _ in range(gen.PIX2PIX_BATCH)]) for _ in range(2)]
    np.testing.assert_array_equal(row["input_images"],
                                  (expected[0] / 127.5 - 1).astype(np.float32))
    np.testing.assert_array_equal(row["target_images"],
                                  (expected[1] / 127.5 - 1).astype(np.float32))


def test_a_mindrecord_of_several_pages_keeps_each_row(tmp_path):
    from cellgraph.dataset import MindDataset

    schema = {"b": {"type": "float64", "shape": [-1]}, "a": {"type": "float32", "shape": [2, 3]}}
    rows = [{"a": np.full((2, 3), i, np.float32), "b": np.arange(6000.0) + i} for i in range(5)]
    for rel, data in gen.mindrecord_files("m.mindrecord", schema, rows).items():
        (tmp_path / rel).write_bytes(data)
    read = list(MindDataset(str(tmp_path / "m.mindrecord"), shuffle=False)
                .create_dict_iterator(output_numpy=True))
    assert [float(r["a"][1, 2]) for r in read] == [0.0, 1.0, 2.0, 3.0, 4.0]
    np.testing.assert_array_equal(read[4]["b"], np.arange(6000.0) + 4)


def test_requests_get_serves_the_archive_in_chunks():
    response = harness._Response("https://host/notebook/datasets/glove.6B.zip")
    chunks = list(response.iter_content(chunk_size=1024))
    assert b"".join(chunks) == response.content
    assert int(response.headers["Content-Length"]) == len(response.content)
    assert max(map(len, chunks)) == 1024


def test_download_unpacks_an_archive_where_the_page_asks(tmp_path):
    harness.download("https://host/dataset/Faces/faces.zip", str(tmp_path / "faces"), kind="zip")
    assert len(list((tmp_path / "faces" / "faces").glob("*.jpg"))) == gen.FACES
