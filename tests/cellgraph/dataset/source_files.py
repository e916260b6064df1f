"""Small folders in the formats of VOC, WIDERFace, Flickr, QMNIST, STL-10 and CMU ARCTIC, built
the same way for every run (numpy only), for the tests of those sources."""
import os

import numpy as np

JPEG = b"\xff\xd8\xff\xe0" + bytes(range(40))
PNG = b"\x89PNG\r\n" + bytes(range(30))


def _write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode) as f:
        f.write(data)


def _voc_object(name, box, difficult="0", truncated="1"):
    named = f"<name>{name}</name>" if name is not None else ""
    coords = "".join(f"<{k}>{v}</{k}>" for k, v in zip(("xmin", "ymin", "xmax", "ymax"), box))
    return (f"<object>{named}<difficult>{difficult}</difficult><truncated>{truncated}"
            f"</truncated><bndbox>{coords}</bndbox></object>")


def voc(root):
    """Ids a, b, c (Segmentation: a, b); annotations with named, unnamed and fractional
    boxes; usages "badbox" and "badxml" hold a box at 0 and a file that is not XML."""
    objects = {
        "a": [_voc_object("dog", ("10", "20", "110", "70")),
              _voc_object("cat", ("5.7", "6", "9.2", "30"), difficult="1", truncated="0"),
              _voc_object(None, ("1", "1", "5", "5"))],
        "b": [_voc_object("car", ("3", "4", "13", "24")),
              _voc_object("dog", ("30", "40", "50", "60"))],
        "c": [_voc_object("bird", ("7", "8", "9", "10"))],
        "bad": [_voc_object("dog", ("0", "2", "3", "4"))],
    }
    for image_id, objs in objects.items():
        _write(f"{root}/Annotations/{image_id}.xml",
               "<annotation><filename>x</filename>" + "".join(objs) + "</annotation>")
        _write(f"{root}/JPEGImages/{image_id}.jpg", JPEG + image_id.encode())
        _write(f"{root}/SegmentationClass/{image_id}.png", PNG + image_id.encode())
    _write(f"{root}/Annotations/broken.xml", "not xml")
    _write(f"{root}/ImageSets/Main/train.txt", "a\nb\nc\n")
    _write(f"{root}/ImageSets/Main/badbox.txt", "a\nbad\n")
    _write(f"{root}/ImageSets/Main/badxml.txt", "broken\n")
    _write(f"{root}/ImageSets/Segmentation/train.txt", "b\na\n")
    return root


def wider_face(root):
    """train: events 0--Abs (one image, two faces) and 1--Run (one image, one face); val:
    0--Abs (one image, no face line count 0 then one line of zeros); test: one image."""
    _write(f"{root}/WIDER_train/images/0--Abs/0_a.jpg", JPEG + b"ta")
    _write(f"{root}/WIDER_train/images/1--Run/1_b.jpg", JPEG + b"tb")
    _write(f"{root}/WIDER_val/images/0--Abs/0_v.jpg", JPEG + b"va")
    _write(f"{root}/WIDER_test/images/0--Abs/0_t.jpg", JPEG + b"te")
    _write(f"{root}/wider_face_split/wider_face_train_bbx_gt.txt",
           "0--Abs/0_a.jpg\n2\n1 2 3 4 0 1 0 1 2 0 \n5 6 7 8 2 0 1 0 0 1 \n"
           "1--Run/1_b.jpg\n1\n9 10 11 12 1 1 1 1 1 0 \n")
    _write(f"{root}/wider_face_split/wider_face_val_bbx_gt.txt",
           "0--Abs/0_v.jpg\n0\n0 0 0 0 0 0 0 0 0 0 \n")
    return root


def flickr(root):
    """images a.jpg, b.png and c.jpg (not an image: left out); captions in images/ order
    b, a, a, c."""
    _write(f"{root}/images/a.jpg", JPEG + b"a")
    _write(f"{root}/images/b.png", PNG + b"b")
    _write(f"{root}/images/c.jpg", b"abcdef")
    _write(f"{root}/captions.token",
           "b.png#0\tA bird.\na.jpg#0\tTwo dogs run.\n\na.jpg#1\tDogs.\nc.jpg#0\tNone.\n")
    return f"{root}/images", f"{root}/captions.token"


def qmnist(root):
    """train: 3 images, test: 2, xnist: 1; the labels' eight fields are row-dependent."""
    for prefix, count, seed in (("qmnist-train", 3, 0), ("qmnist-test", 2, 1), ("xnist", 1, 2)):
        pixels = np.random.default_rng(seed).integers(0, 256, (count, 28, 28), np.uint8)
        header = np.array([2051, count, 28, 28], ">u4").tobytes()
        _write(f"{root}/{prefix}-images-idx3-ubyte", header + pixels.tobytes())
        labels = (np.arange(count * 8, dtype=np.uint32).reshape(count, 8) * 7 + seed) % 10
        header = np.array([3074, count, 8], ">u4").tobytes()
        _write(f"{root}/{prefix}-labels-idx2-int", header + labels.astype(">u4").tobytes())
    return root


def stl10(root):
    """train: 2 images (labels 3, 10), test: 1 (label 1), unlabeled: 1; pixel values are
    their byte offsets modulo 251."""
    size = 96 * 96 * 3
    for part, count, labels in (("train", 2, [3, 10]), ("test", 1, [1]), ("unlabeled", 1, None)):
        data = ((np.arange(count * size) + len(part)) % 251).astype(np.uint8)
        _write(f"{root}/{part}_X.bin", data.tobytes())
        if labels is not None:
            _write(f"{root}/{part}_y.bin", bytes(labels))
    return root


def _wav(samples, rate=16000):
    data = np.asarray(samples, "<i2").tobytes()
    header = (b"RIFF" + (36 + len(data)).to_bytes(4, "little") + b"WAVEfmt " +
              (16).to_bytes(4, "little") + (1).to_bytes(2, "little") +
              (1).to_bytes(2, "little") + rate.to_bytes(4, "little") +
              (rate * 2).to_bytes(4, "little") + (2).to_bytes(2, "little") +
              (16).to_bytes(2, "little") + b"data" + len(data).to_bytes(4, "little"))
    return header + data


def cmu_arctic(root):
    """Speaker aew: arctic_a0001 (samples 0, 1, -1, 32767, -32768) and arctic_b0002 (3
    samples); speaker bdl: one utterance at 8 kHz."""
    folder = f"{root}/cmu_us_aew_arctic"
    _write(f"{folder}/etc/txt.done.data",
           '( arctic_a0001 "Author of the danger trail." )\n( arctic_b0002 "Not at all." )\n')
    _write(f"{folder}/wav/arctic_a0001.wav", _wav([0, 1, -1, 32767, -32768]))
    _write(f"{folder}/wav/arctic_b0002.wav", _wav([100, -200, 300]))
    folder = f"{root}/cmu_us_bdl_arctic"
    _write(f"{folder}/etc/txt.done.data", '( arctic_a0001 "Slow." )\n')
    _write(f"{folder}/wav/arctic_a0001.wav", _wav([5, 6], rate=8000))
    return root


def lj_speech(root):
    """metadata.csv with two records and their wavs (22050 Hz)."""
    _write(f"{root}/metadata.csv", "LJ001-0001|Printing, in the|Printing, in the\n"
                                   "LJ001-0002|in 1st|in first\n")
    _write(f"{root}/wavs/LJ001-0001.wav", _wav([1, 2, 3], rate=22050))
    _write(f"{root}/wavs/LJ001-0002.wav", _wav([-4, 5], rate=22050))
    return root


def yes_no(root):
    """One file named by its eight words (8 kHz), and a file that is not .wav."""
    _write(f"{root}/0_1_0_0_1_0_1_1.wav", _wav([7, -7, 0], rate=8000))
    _write(f"{root}/notes.txt", "x")
    return root


def gtzan(root):
    """blues/blues.00000.wav and jazz/jazz.00001.wav (22050 Hz)."""
    _write(f"{root}/blues/blues.00000.wav", _wav([10, 20], rate=22050))
    _write(f"{root}/jazz/jazz.00001.wav", _wav([-30], rate=22050))
    return root


def sun397(root):
    """ClassName.txt lists /b/beach before /a/abbey; abbey holds sun_2.jpg and sun_1.jpg, and
    files SUN397 leaves out (other.jpg, sun_3.png)."""
    _write(f"{root}/ClassName.txt", "/b/beach\n/a/abbey\n")
    for name in ("a/abbey/sun_2.jpg", "a/abbey/sun_1.jpg", "a/abbey/other.jpg",
                 "a/abbey/sun_3.png", "b/beach/sun_9.jpg"):
        _write(f"{root}/{name}", JPEG + name.encode())
    return root


def sbu(root):
    """Three URL/caption lines (an empty pair between them); the second URL's image is
    missing, so two rows."""
    prefix = "http://static.flickr.com/"[:23]
    _write(f"{root}/SBU_captioned_photo_dataset_urls.txt",
           f"{prefix}1/a.jpg\n\n{prefix}2/b.jpg\n{prefix}3/c.jpg\n")
    _write(f"{root}/SBU_captioned_photo_dataset_captions.txt",
           "first caption  \n\nsecond\nthird one\n")
    _write(f"{root}/sbu_images/1_a.jpg", JPEG + b"a")
    _write(f"{root}/sbu_images/3_c.jpg", JPEG + b"c")
    return root
