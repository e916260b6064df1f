"""MindRecord datasets written by one library and read by the other, values compared:

    MS=/path/to/mindspore/python; CG=.venv/bin/python; D=/tmp/mr-interop
    $MS tools/oracle/mindrecord_datasets.py write mindspore $D
    $CG tools/oracle/mindrecord_datasets.py write cellgraph $D
    $MS tools/oracle/mindrecord_datasets.py read mindspore $D   # reads both libraries' files
    $CG tools/oracle/mindrecord_datasets.py read cellgraph $D
    $CG tools/oracle/mindrecord_datasets.py compare - $D

`write` makes three datasets: "images" (image bytes, int32 labels, file name strings; 3 shards,
indexed), "types" (every schema type, arrays included; 1 shard) and "paged" (32 KB pages and
two batches, so rows span several pages). `read` reads each with MindDataset under several
option sets (all rows, num_shards/shard_id, columns_list, shuffle) and dumps what it got;
`compare` checks that both libraries got the same rows from the same files (shuffled reads as
sets) and that a full read holds exactly the rows written.
"""
import importlib
import json
import os
import sys

import numpy as np

IMAGES = {"image": {"type": "bytes"}, "label": {"type": "int32"},
          "file_name": {"type": "string"}}
TYPES = {"i32": {"type": "int32"}, "i64": {"type": "int64"}, "f32": {"type": "float32"},
         "f64": {"type": "float64"}, "s": {"type": "string"}, "b": {"type": "bytes"},
         "a_i32": {"type": "int32", "shape": [-1]}, "a_i64": {"type": "int64", "shape": [2, -1]},
         "a_f32": {"type": "float32", "shape": [2, 2]}, "a_f64": {"type": "float64", "shape": [-1]}}


def image_row(i):
    rng = np.random.default_rng(i)
    return {"image": rng.integers(0, 256, 40 + 13 * i, dtype=np.uint8).tobytes(),
            "label": i * 3 - 7, "file_name": f"img_{i:03d}_é.jpg"}


def types_row(i):
    rng = np.random.default_rng(100 + i)
    return {"i32": -(2 ** 31) + i if i % 2 else 2 ** 31 - 1 - i, "i64": 2 ** 40 * (i - 2),
            "f32": float(np.float32(i / 7)), "f64": i / 3 - 1e300 * (i == 3),
            "s": "λ" * i + str(i), "b": bytes(range(i, 2 * i + 1)) + b"\x00" * (i % 3),
            "a_i32": np.array([0, -1, 127, 128, -129, 40000, -(2 ** 31), i][:i + 2], np.int32),
            "a_i64": np.array([[i, -(2 ** 63)], [2 ** 40, -300]] * (i + 1), np.int64)
            .reshape(2, -1),
            "a_f32": (rng.standard_normal((2, 2))).astype(np.float32),
            "a_f64": rng.standard_normal(i + 1)}


def paged_row(i):
    rng = np.random.default_rng(1000 + i)
    return {"image": rng.integers(0, 256, 3000 + 50 * i, dtype=np.uint8).tobytes(),
            "label": i, "file_name": f"p{i}"}


DATASETS = {  # name: (schema, rows, shard_num, index fields, page size, batches)
    "images": (IMAGES, [image_row(i) for i in range(11)], 3, ["label", "file_name"], None, 1),
    "types": (TYPES, [types_row(i) for i in range(6)], 1, ["i32", "s"], None, 1),
    "paged": (IMAGES, [paged_row(i) for i in range(24)], 1, ["label"], 1 << 15, 2),
}
OPTIONS = {  # name: (dataset, MindDataset keywords)
    "images_all": ("images", {"shuffle": False}),
    "images_shard_0_of_2": ("images", {"shuffle": False, "num_shards": 2, "shard_id": 0}),
    "images_shard_1_of_2": ("images", {"shuffle": False, "num_shards": 2, "shard_id": 1}),
    "images_shard_2_of_4": ("images", {"shuffle": False, "num_shards": 4, "shard_id": 2}),
    "images_columns": ("images", {"shuffle": False, "columns_list": ["label", "image"]}),
    "images_shuffled": ("images", {"shuffle": True}),
    "images_second_file": ("images", {"shuffle": False, "file": 1}),
    "types_all": ("types", {"shuffle": False}),
    "types_columns": ("types", {"shuffle": False, "columns_list": ["a_i64", "s", "f32"]}),
    "paged_all": ("paged", {"shuffle": False}),
    "paged_shard_1_of_3": ("paged", {"shuffle": False, "num_shards": 3, "shard_id": 1}),
}


def library(name):
    return importlib.import_module(name)


def small_sizes(writer, page_size):
    writer.set_header_size(1 << 14)
    writer.set_page_size(page_size or 1 << 15)


def write_dataset(ms, folder, name, small=False):
    schema, rows, shards, index, page_size, batches = DATASETS[name]
    os.makedirs(folder, exist_ok=True)
    writer = ms.mindrecord.FileWriter(os.path.join(folder, f"{name}.mindrecord"), shards,
                                      overwrite=True)
    writer.add_schema(schema, f"{name} rows")
    writer.add_index(index)
    if small or page_size:
        small_sizes(writer, page_size)
    step = -(-len(rows) // batches)
    for start in range(0, len(rows), step):
        writer.write_raw_data([dict(r) for r in rows[start:start + step]])
    writer.commit()


def first_file(folder, name):
    shards = DATASETS[name][2]
    return os.path.join(folder, f"{name}.mindrecord" + ("0" if shards > 1 else ""))


def encode(value):
    value = np.asarray(value)
    if value.dtype.kind == "S":
        return {"bytes": value.tobytes().hex(), "shape": list(value.shape)}
    if value.dtype.kind == "U":
        return {"str": str(value), "shape": list(value.shape)}
    return {"dtype": str(value.dtype), "shape": list(value.shape),
            "hex": value.tobytes().hex()}


def read_all(ms, folder):
    out = {}
    for option, (name, kwargs) in OPTIONS.items():
        kwargs = dict(kwargs)
        which = kwargs.pop("file", None)
        path = first_file(folder, name)
        if which is not None:
            path = [os.path.join(folder, f"{name}.mindrecord{which}")]
        data = ms.dataset.MindDataset(path, **kwargs)
        out[option] = {"columns": data.get_col_names(),
                       "rows": [{k: encode(v) for k, v in row.items()}
                                for row in data.create_dict_iterator(output_numpy=True,
                                                                     num_epochs=1)]}
    return out


def expected_rows(name):
    schema, rows = DATASETS[name][:2]
    out = []
    for row in rows:
        enc = {}
        for k, spec in schema.items():
            v = row[k]
            if spec["type"] == "bytes":
                enc[k] = {"bytes": v.hex(), "shape": [1]}
            elif spec["type"] == "string":
                enc[k] = {"str": v, "shape": []}
            else:
                arr = np.asarray(v, spec["type"])
                enc[k] = {"dtype": spec["type"], "shape": list(arr.shape),
                          "hex": arr.tobytes().hex()}
        out.append(enc)
    return out


def key(row):
    return json.dumps(row, sort_keys=True)


def compare(folder):
    failures = 0
    for writer in ("mindspore", "cellgraph"):
        reads = {}
        for reader in ("mindspore", "cellgraph"):
            with open(os.path.join(folder, writer, f"read_by_{reader}.json")) as f:
                reads[reader] = json.load(f)
        for option, (name, _) in OPTIONS.items():
            a, b = reads["mindspore"][option], reads["cellgraph"][option]
            same = a["columns"] == b["columns"] and (
                sorted(map(key, a["rows"])) == sorted(map(key, b["rows"]))
                if option.endswith("shuffled") else a["rows"] == b["rows"])
            full = ""
            if option.endswith("_all"):
                want = sorted(map(key, expected_rows(name)))
                full = " rows as written: " + str(
                    sorted(map(key, a["rows"])) == want == sorted(map(key, b["rows"])))
                same = same and full.endswith("True")
            failures += not same
            print(f"written by {writer:9s} {option:20s} {len(a['rows']):3d} rows: MindSpore and "
                  f"cellgraph read {'the same' if same else 'DIFFERENT'}{full}")
    print("all equal" if not failures else f"{failures} differences")
    return failures


def main():
    command, lib, folder = sys.argv[1:4]
    if command == "compare":
        sys.exit(1 if compare(folder) else 0)
    ms = library(lib)
    importlib.import_module(f"{lib}.mindrecord")
    importlib.import_module(f"{lib}.dataset")
    if command == "write":
        for name in DATASETS:
            write_dataset(ms, os.path.join(folder, lib), name, small=True)
    elif command == "read":
        for writer in ("mindspore", "cellgraph"):
            with open(os.path.join(folder, writer, f"read_by_{lib}.json"), "w") as f:
                json.dump(read_all(ms, os.path.join(folder, writer)), f)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
