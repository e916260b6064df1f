"""Small on-disk datasets in the layouts of MindSpore's file sources (COCO, LFW, Manifest,
CelebA, EMNIST, KITTI, Omniglot, IMDB, IWSLT 2016/2017, Multi30k, CoNLL-2000, CLUE) and the
calls that read them; `read_all(ds, folder)` runs every call with a framework's dataset
module and describes what it gives (columns, size, each row's dtypes, shapes and values, or
the error), so make_source_fixtures.py records MindSpore's answers and the tests compare
cellgraph's with them. Images are a few bytes that start as a JPEG or PNG does (nothing here
decodes them)."""
import hashlib
import json
import os
import struct
import sys

JPEG = b"\xff\xd8\xff\xe0" + bytes(range(12))
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(8, 20))


def _write(folder, path, data):
    full = os.path.join(folder, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(full, mode, **({} if isinstance(data, bytes) else {"encoding": "utf-8"})) as f:
        f.write(data)


def _idx(array_bytes, dims, code=0x08):
    return bytes([0, 0, code, len(dims)]) + b"".join(struct.pack(">I", d) for d in dims) + \
        array_bytes


def build(folder):
    """Write every dataset under `folder`."""
    w = lambda path, data: _write(folder, path, data)
    # COCO
    for i in (1, 2, 3):
        w(f"coco/images/{i:03d}.jpg", JPEG + bytes([i]))
    images = [{"file_name": f"{i:03d}.jpg", "id": i} for i in (1, 2, 3)]
    cats = [{"id": 1, "name": "cat"}, {"id": 2, "name": "dog"}]
    det = {"images": images, "categories": cats, "annotations": [
        {"image_id": 2, "id": 10, "bbox": [1, 2, 3, 4], "category_id": 2, "iscrowd": 0,
         "segmentation": [[1.5, 2, 3], [4, 5]]},
        {"image_id": 1, "id": 11, "bbox": [5, 6, 7, 8.5], "category_id": 1, "iscrowd": 1,
         "segmentation": {"counts": [9, 8, 7, 6], "size": [2, 2]}},
        {"image_id": 2, "id": 12, "bbox": [0, 0, 1, 1], "category_id": 1, "iscrowd": 0,
         "segmentation": [[7, 7, 7, 7, 7, 7]]}]}
    w("coco/det.json", json.dumps(det))
    w("coco/bad_category.json", json.dumps(dict(det, categories=cats[:1])))
    w("coco/no_images.json", json.dumps({"annotations": [], "categories": cats}))
    w("coco/broken.json", json.dumps(det)[:-5])
    w("coco/keypoints.json", json.dumps({"images": images, "annotations": [
        {"image_id": 3, "id": 1, "keypoints": [1, 2, 2, 3, 4, 1], "num_keypoints": 2},
        {"image_id": 3, "id": 2, "keypoints": [5, 6, 0, 7, 8, 2], "num_keypoints": 1}]}))
    w("coco/no_iscrowd.json", json.dumps(dict(det, annotations=[
        {"image_id": 1, "id": 3, "bbox": [1, 2, 3, 4], "category_id": 2,
         "segmentation": [[1, 2]]}])))
    w("coco/unknown_image.json", json.dumps(dict(det, annotations=[
        {"image_id": 9, "id": 3, "bbox": [1, 2, 3, 4], "category_id": 2}])))
    w("coco/no_keypoints.json", json.dumps({"images": images, "annotations": [
        {"image_id": 3, "id": 5, "num_keypoints": 2}]}))
    w("coco/panoptic.json", json.dumps({"images": images, "categories": [
        {"id": 1, "name": "cat", "isthing": 1}, {"id": 2, "name": "sky", "isthing": 0}],
        "annotations": [{"image_id": 1, "file_name": "001.png", "segments_info": [
            {"id": 5, "category_id": 2, "iscrowd": 0, "bbox": [1, 1, 2, 2], "area": 4},
            {"id": 6, "category_id": 1, "iscrowd": 1, "bbox": [0, 1, 2, 3], "area": 6}]}]}))
    w("coco/captions.json", json.dumps({"images": images, "annotations": [
        {"image_id": 3, "id": 1, "caption": "a cat"},
        {"image_id": 3, "id": 2, "caption": "the same cat"}]}))
    # LFW
    for name, n in (("Ann", 2), ("Bob", 1)):
        for k in range(1, n + 1):
            for sub in ("lfw", "lfw_funneled"):
                w(f"lfw/{sub}/{name}/{name}_{k:04d}.jpg", JPEG + name.encode() + bytes([k]) +
                  sub.encode())
    w("lfw/lfw-names.txt", "Ann 2\nBob 1\n")
    w("lfw/peopleDevTrain.txt", "1\nBob 1\n")
    w("lfw/peopleDevTest.txt", "1\nAnn 2\n")
    w("lfw/people.txt", "2\n1\nAnn 2\n1\nBob 1\n")
    w("lfw/pairsDevTrain.txt", "1\nAnn 1 2\nBob 1 Ann 2\n")
    w("lfw/pairsDevTest.txt", "1\nAnn 2 1\n")
    w("lfw/pairs.txt", "1 1\nAnn 2 2\nAnn 1 Bob 1\n")
    # Manifest
    w("manifest/a.jpg", JPEG + b"a")
    w("manifest/b.png", PNG + b"b")
    w("manifest/text.jpg", b"not an image")
    w("manifest/empty.jpg", b"")

    def entry(source, usage, *names, **extra):
        record = {"source": os.path.join(folder, "manifest", source), "usage": usage,
                  "annotation": [{"name": n} for n in names]}
        record.update(extra)
        return json.dumps(record)

    w("manifest/data.manifest", "\n".join([
        entry("a.jpg", "TRAIN", "dog"), entry("text.jpg", "TRAIN", "cat"),
        entry("b.png", "train", "cat", "bird"), entry("a.jpg", "EVAL", "fish"),
        entry("b.png", "Train", "ant")]) + "\n")
    w("manifest/no_usage.manifest", entry("a.jpg", "TRAIN", "dog") + "\n" +
      json.dumps({"source": os.path.join(folder, "manifest", "text.jpg")}) + "\n" +
      json.dumps({"source": os.path.join(folder, "manifest", "b.png")}) + "\n")
    w("manifest/empty.manifest", entry("a.jpg", "TRAIN", "dog") + "\n" +
      entry("empty.jpg", "TRAIN", "dog") + "\n")
    # CelebA
    w("celeba/list_attr_celeba.txt", "3\nA B C\n1.jpg  1 -1  1\n2.png -1 -1 1\n"
      "3.jpg 1 1 -1\n")
    w("celeba/list_eval_partition.txt", "1.jpg 0\n2.png 2\n3.jpg 0\n")
    for name in ("1.jpg", "2.png", "3.jpg"):
        w(f"celeba/{name}", JPEG + name.encode())
    # EMNIST
    for part, count in (("train", 3), ("test", 2)):
        pixels = bytes((i * 7 + count) % 256 for i in range(count * 28 * 28))
        w(f"emnist/emnist-letters-{part}-images-idx3-ubyte", _idx(pixels, (count, 28, 28)))
        w(f"emnist/emnist-letters-{part}-labels-idx1-ubyte",
          _idx(bytes(range(5, 5 + count)), (count,)))
    # KITTI
    for part in ("training", "testing"):
        for i in range(2):
            w(f"kitti/data_object_image_2/{part}/image_2/{i:06d}.png", PNG + part.encode() +
              bytes([i]))
    w("kitti/data_object_label_2/training/label_2/000000.txt",
      "Car 0.5 1 -1.5 1 2 3 4 1.5 1.6 3.9 1 2 30 0.1\n"
      "DontCare -1 -1 -10 5 6 7 8 -1 -1 -1 -1000 -1000 -1000 -10\n")
    w("kitti/data_object_label_2/training/label_2/000001.txt",
      "Van 0.00 2 1.70 448.07 177.14 481.60 206.41 2.50 2.20 5.78 -13.02 2.91 65.02 1.50\n")
    # Omniglot
    for top, alphabet in (("images_background", "Greek"), ("images_evaluation", "Latin")):
        for c in ("character02", "character01"):
            for f in ("2.png", "1.jpg"):
                w(f"omniglot/{top}/{alphabet}/{c}/{f}", JPEG + (top + c + f).encode())
    # IMDB
    for part in ("train", "test"):
        for label in ("pos", "neg", "unsup"):
            for k in (1, 0):
                w(f"imdb/{part}/{label}/{k}.txt", f"{part} {label} {k} text")
    w("imdb/train/pos/notes.md", "not a review")
    # IWSLT 2016 and 2017
    tags = "<url>u</url>\n<talkid>1</talkid>\n  {}  \n<title>t</title>\n{}\n<reviewer>r</reviewer>\n"
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<mteval>\n<srcset setid="s" srclang="x">\n'
           '<doc docid="1" genre="g">\n<url>u</url>\n<seg id="1"> {} </seg>\n'
           '<seg id="2">{}</seg>\n</doc>\n</srcset>\n</mteval>\n')
    d16 = "iwslt16/texts/de/en/de-en/"
    w(d16 + "train.tags.de-en.de", tags.format("Hallo.", "Zwei."))
    w(d16 + "train.tags.de-en.en", tags.format("Hello.", "Two."))
    for name, words in (("tst2013", ("Eins", "One")), ("tst2014", ("Drei", "Three")),
                        ("dev2010", ("Vier", "Four"))):
        w(d16 + f"IWSLT16.TED.{name}.de-en.de.xml", xml.format(words[0], words[0] + "!"))
        w(d16 + f"IWSLT16.TED.{name}.de-en.en.xml", xml.format(words[1], words[1] + "!"))
    d17 = "iwslt17/texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo/"
    w(d17 + "train.tags.de-en.de", tags.format("Guten Tag.", "Danke."))
    w(d17 + "train.tags.de-en.en", tags.format("Good day.", "Thanks."))
    for name, words in (("dev2010", ("Ja", "Yes")), ("tst2010", ("Nein", "No"))):
        w(d17 + f"IWSLT17.TED.{name}.de-en.de.xml", xml.format(words[0], words[0] + "?"))
        w(d17 + f"IWSLT17.TED.{name}.de-en.en.xml", xml.format(words[1], words[1] + "?"))
    # Multi30k
    for sub, stem, n in (("training", "train", 3), ("validation", "val", 1),
                         ("mmt16_task1_test", "test", 2)):
        for lang in ("en", "de"):
            w(f"multi30k/{sub}/{stem}.{lang}",
              "".join(f"{stem} {lang} {k}\n" for k in range(n)))
    # CoNLL-2000
    w("conll/train.txt", "He PRP B-NP\nran   VBD  B-VP\n. . O\n\n\nShe PRP B-NP\n")
    w("conll/test.txt", "It PRP B-NP\nis VBZ B-VP\n\nOK JJ O\n")
    w("text/1.txt", "".join(f"one {k}\n" for k in range(7)))
    w("text/2.txt", "".join(f"two {k}\n" for k in range(4)))
    # CLUE
    w("clue/afqmc.json", '{"sentence1": "a", "sentence2": "b", "label": "1"}\n'
      '{"sentence1": "c", "sentence2": "d", "label": "0"}\n')
    w("clue/afqmc_test.json", '{"id": 7, "sentence1": "e", "sentence2": "f"}\n')
    w("clue/wsc.json", '{"target": {"span1_index": 0, "span1_text": "x", "span2_index": 3, '
      '"span2_text": "y"}, "idx": 4, "text": "x is y", "label": "true"}\n')
    w("clue/csl.json", '{"id": 1, "abst": "long", "keyword": ["k1", "k2"], "label": "0"}\n')
    w("clue/tnews.json", '{"label": "101", "label_desc": "news", "sentence": "s", '
      '"keywords": ""}\n')


CALLS = [
    # COCO
    ("ds.CocoDataset(f + '/coco/images', f + '/coco/det.json', task='Detection', shuffle=False, "
    "extra_metadata=True)"),
    ("ds.CocoDataset(f + '/coco/images', f + '/coco/det.json', task='Detection', shuffle=False, "
    "extra_metadata=True).rename('_meta-filename', 'filename')"),
    "ds.CocoDataset(f + '/coco/images', f + '/coco/det.json', task='Stuff', shuffle=False)",
    ("ds.CocoDataset(f + '/coco/images', f + '/coco/keypoints.json', task='Keypoint', "
    "shuffle=False)"),
    "ds.CocoDataset(f + '/coco/images', f + '/coco/no_keypoints.json', task='Keypoint')",
    "ds.CocoDataset(f + '/coco/images', f + '/coco/no_iscrowd.json', task='Stuff')",
    "ds.CocoDataset(f + '/coco/images', f + '/coco/no_iscrowd.json', shuffle=False)",
    "ds.CocoDataset(f + '/coco/images', f + '/coco/unknown_image.json')",
    "ds.CocoDataset(f + '/coco/images', f + '/coco/broken.json')",
    ("ds.CocoDataset(f + '/coco/images', f + '/coco/panoptic.json', task='Panoptic', "
    "shuffle=False)"),
    ("ds.CocoDataset(f + '/coco/images', f + '/coco/captions.json', task='Captioning', "
    "shuffle=False)"),
    "ds.CocoDataset(f + '/coco/images', f + '/coco/bad_category.json', shuffle=False)",
    "ds.CocoDataset(f + '/coco/images', f + '/coco/no_images.json', shuffle=False)",
    "ds.CocoDataset(f + '/coco/images', f + '/coco/det.json', task='Segmentation')",
    "ds.CocoDataset(f + '/coco/images', f + '/coco/missing.json')",
    "ds.CocoDataset(f + '/coco/images', f + '/coco/det.json', sampler=ds.PKSampler(2))",
    ("ds.CocoDataset(f + '/coco/images', f + '/coco/det.json', shuffle=False, num_shards=2, "
    "shard_id=1)"),
    # LFW
    "ds.LFWDataset(f + '/lfw', shuffle=False)",
    "ds.LFWDataset(f + '/lfw', usage='10fold', shuffle=False)",
    ("ds.LFWDataset(f + '/lfw', task='pairs', usage='10fold', image_set='original', "
    "shuffle=False)"),
    "ds.LFWDataset(f + '/lfw', task='all')",
    "ds.LFWDataset(f + '/lfw', shuffle=False, sampler=ds.SequentialSampler())",
    "ds.LFWDataset(f + '/lfw', num_shards=2)",
    # Manifest
    "ds.ManifestDataset(f + '/manifest/data.manifest', shuffle=False)",
    "ds.ManifestDataset(f + '/manifest/data.manifest', 'eval', shuffle=False)",
    ("ds.ManifestDataset(f + '/manifest/data.manifest', shuffle=False, "
    "class_indexing={'bird': 7, 'dog': 2})"),
    "ds.ManifestDataset(f + '/manifest/no_usage.manifest')",
    "ds.ManifestDataset(f + '/manifest/empty.manifest')",
    # CelebA
    "ds.CelebADataset(f + '/celeba', shuffle=False)",
    "ds.CelebADataset(f + '/celeba', shuffle=False, usage='train')",
    "ds.CelebADataset(f + '/celeba', shuffle=False, usage='valid')",
    "ds.CelebADataset(f + '/celeba', usage='val')",
    "ds.CelebADataset(f + '/celeba', shuffle=False, decrypt=lambda path: open(path, 'rb').read())",
    # EMNIST
    "ds.EMnistDataset(f + '/emnist', 'letters', shuffle=False)",
    "ds.EMnistDataset(f + '/emnist', 'letters', 'train', shuffle=False, num_samples=2)",
    "ds.EMnistDataset(f + '/emnist', 'mnist2')",
    # FakeImage
    "ds.FakeImageDataset(6, (2, 2, 1), 4, 11, shuffle=False).project(['label'])",
    "ds.FakeImageDataset(6, (2, 2), 4, 11)",
    "ds.FakeImageDataset(0, (2, 2, 1), 4, 11)",
    # KITTI
    "ds.KITTIDataset(f + '/kitti', shuffle=False)",
    "ds.KITTIDataset(f + '/kitti', usage='test', shuffle=False)",
    "ds.KITTIDataset()",
    # Omniglot
    "ds.OmniglotDataset(f + '/omniglot', shuffle=False)",
    "ds.OmniglotDataset(f + '/omniglot', background=False, shuffle=False)",
    # IMDB
    "ds.IMDBDataset(f + '/imdb', shuffle=False)",
    "ds.IMDBDataset(f + '/imdb', usage='test', shuffle=False, num_samples=3)",
    "ds.IMDBDataset(f + '/imdb', usage='valid')",
    # IWSLT
    "ds.IWSLT2016Dataset(f + '/iwslt16', shuffle=False)",
    ("ds.IWSLT2016Dataset(f + '/iwslt16', shuffle=False, num_parallel_workers=1, "
    "valid_set='dev2010', test_set='tst2013')"),
    "ds.IWSLT2016Dataset(f + '/iwslt16', usage='valid', shuffle=False)",
    "ds.IWSLT2016Dataset(f + '/iwslt16', language_pair=['de', 'fr'])",
    "ds.IWSLT2016Dataset(f + '/iwslt16', language_pair='de-en')",
    "ds.IWSLT2017Dataset(f + '/iwslt17', shuffle=False, num_parallel_workers=1)",
    "ds.IWSLT2017Dataset(f + '/iwslt17', usage='test', shuffle=False)",
    # Multi30k
    "ds.Multi30kDataset(f + '/multi30k', shuffle=False, num_parallel_workers=2)",
    "ds.Multi30kDataset(f + '/multi30k', shuffle=False, num_parallel_workers=1)",
    "ds.Multi30kDataset(f + '/multi30k', 'train', ['de', 'en'], shuffle=False)",
    "ds.Multi30kDataset(f + '/multi30k', 'train', shuffle=False, num_shards=2, shard_id=1)",
    "ds.Multi30kDataset(f + '/multi30k', language_pair=['en', 'fr'])",
    "ds.Multi30kDataset(f + '/multi30k', shuffle=ds.Shuffle.FILES)",
    # CoNLL-2000
    "ds.CoNLL2000Dataset(f + '/conll', shuffle=False, num_parallel_workers=1)",
    "ds.CoNLL2000Dataset(f + '/conll', shuffle=False, num_parallel_workers=2)",
    "ds.CoNLL2000Dataset(f + '/conll', 'test', shuffle=False, num_shards=2, shard_id=1)",
    "ds.CoNLL2000Dataset(f + '/conll', 'valid')",
    # CLUE
    "ds.CLUEDataset(f + '/clue/afqmc.json', shuffle=False)",
    "ds.CLUEDataset(f + '/clue/afqmc_test.json', usage='test', shuffle=False)",
    "ds.CLUEDataset(f + '/clue/wsc.json', task='WSC', usage='eval', shuffle=False)",
    "ds.CLUEDataset(f + '/clue/csl.json', task='CSL', shuffle=False)",
    "ds.CLUEDataset(f + '/clue/tnews.json', task='TNEWS', shuffle=False)",
    ("ds.CLUEDataset([f + '/clue/afqmc.json', f + '/clue/afqmc_test.json'], shuffle=False, "
    "num_parallel_workers=1)"),
    "ds.CLUEDataset(f + '/clue', shuffle=False)",
    "ds.CLUEDataset(f + '/clue/afqmc.json', task='OCNLI')",
    # chained samplers, and the class facts of a pipeline's source
    ("ds.NumpySlicesDataset(list(range(8)), ['x'], sampler=_chain(ds.SequentialSampler(1, 2), "
    "ds.DistributedSampler(2, 1, shuffle=False)))"),
    ("ds.NumpySlicesDataset(list(range(8)), ['x'], sampler=_chain(ds.SubsetSampler([3, 0, 1]), "
    "ds.SequentialSampler(2)))"),
]

CALLS += [
    # PaddedDataset, and CaseFold on a string column
    ("ds.PaddedDataset([{'a': np.zeros(2, np.uint8), 'b': np.array(1, np.int32)}, "
     "{'a': np.ones(1, np.uint8), 'b': np.array(2, np.int32)}])"),
    ("ds.NumpySlicesDataset([7, 8], ['a'], shuffle=False) + "
     "ds.PaddedDataset([{'a': np.array(9)}]).repeat(2)"),
    "ds.PaddedDataset([])",
    "ds.PaddedDataset([1])",
    ("ds.NumpySlicesDataset(['Stra\u00dfe \ufb01', '\u03a3\u0391\u03a3\u00ad', '\u0130', "
     "'\uff21\u2460\u212b'], ['t'], shuffle=False).map(ds.text.CaseFold(), ['t'])"),
]

# a map operation's error names the operation and the row's data file
CALLS += [
    ("ds.EMnistDataset(f + '/emnist', 'letters', 'train', shuffle=False)"
     ".map(ds.vision.Decode(), ['image'])"),
    ("ds.CelebADataset(f + '/celeba', shuffle=False, usage='test')"
     ".map(ds.vision.Decode(), ['image'])"),
]

# the shuffled orders of the file sources once a dataset seed is set (two epochs each)
CALLS += [
    f"_seeded({seed}, ds.{source}, shuffle=ds.Shuffle.{mode}{more})"
    for seed in (246, 7) for mode in ("GLOBAL", "FILES")
    for source, more in (("CoNLL2000Dataset, f + '/conll'", ""),
                         ("TextFileDataset, f + '/text/*.txt'", ""),
                         ("TextFileDataset, f + '/text/*.txt'", ", num_samples=5"),
                         ("TextFileDataset, f + '/text/*.txt'", ", num_shards=2, shard_id=1"))]

FACTS = [
    "ds.CocoDataset(f + '/coco/images', f + '/coco/det.json').get_class_indexing()",
    ("ds.CocoDataset(f + '/coco/images', f + '/coco/panoptic.json', task='Panoptic')"
    ".get_class_indexing()"),
    ("ds.CocoDataset(f + '/coco/images', f + '/coco/captions.json', task='Captioning')"
    ".get_class_indexing()"),
    "ds.ManifestDataset(f + '/manifest/data.manifest').shuffle(3).get_class_indexing()",
    "ds.ManifestDataset(f + '/manifest/data.manifest', class_indexing={'dog': 3}).num_classes()",
    "ds.OmniglotDataset(f + '/omniglot').num_classes()",
    "ds.NumpySlicesDataset([1, 2]).get_class_indexing()",
]


def _seeded(seed, make, *args, **kwargs):
    """The dataset `make(*args, **kwargs)` makes, read for two epochs, after the dataset seed
    is set to `seed` (and set back to MindSpore's default after)."""
    import numpy as np

    class _TwoEpochs:
        def __init__(self, data):
            self.data = data

        def get_col_names(self):
            return self.data.get_col_names()

        def get_dataset_size(self):
            return self.data.get_dataset_size()

        def create_dict_iterator(self, num_epochs, output_numpy):
            ds = sys.modules[type(self.data).__module__.split(".")[0] + ".dataset"]
            ds.config.set_seed(seed)
            try:
                it = self.data.create_dict_iterator(num_epochs=2, output_numpy=output_numpy)
                rows = [dict(r, epoch=np.array(e)) for e in range(2) for r in it]
            finally:
                ds.config.set_seed(5489)
            return rows

    return _TwoEpochs(make(*args, **kwargs))


def _chain(parent, child):
    parent.add_child(child)
    return parent


def _value(value):
    import numpy as np

    array = np.asarray(value)
    kind = "str" if array.dtype.kind in "SU" else str(array.dtype)
    if array.dtype.kind == "S":
        array = np.char.decode(array, "utf-8")
    if kind == "uint8" and array.ndim == 1 and array.size > 8:
        return [kind, list(array.shape), hashlib.sha1(array.tobytes()).hexdigest()[:12]]
    return [kind, list(array.shape), array.tolist()]


def _error(error, folder):
    text = str(error)
    marker = "[ERROR] "
    if marker in text:
        text = text[text.index(marker) + len(marker):]
    return f"{type(error).__name__}: {text.splitlines()[0].replace(folder, '{f}')}"


def read_all(ds, folder):
    """{call: what it gives} for CALLS and FACTS, read with the dataset module `ds`."""
    import numpy as np

    out = {}
    for call in CALLS:
        try:
            data = eval(call, {"ds": ds, "f": folder, "_chain": _chain, "np": np,
                               "_seeded": _seeded})
            got = {"columns": data.get_col_names(), "size": data.get_dataset_size(),
                   "rows": [{k: _value(v) for k, v in row.items()}
                            for row in data.create_dict_iterator(num_epochs=1,
                                                                 output_numpy=True)]}
        except Exception as error:  # noqa: BLE001  (an error is an answer to record)
            got = {"error": _error(error, folder)}
        out[call] = got
    for call in FACTS:
        try:
            got = {"value": eval(call, {"ds": ds, "f": folder})}
        except Exception as error:  # noqa: BLE001
            got = {"error": _error(error, folder)}
        out[call] = got
    return out
