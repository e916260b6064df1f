"""Records MindSpore's JiebaTokenizer outputs on the small made-up files and sentences of
tests/cellgraph/dataset/jieba_files.py (run it with the Python that has MindSpore 2.10):

    /path/to/mindspore/python tools/oracle/record_jieba.py tests/data/jieba_mindspore.json

tests/cellgraph/dataset/test_jieba_tokenizer.py runs cellgraph on the same files and compares."""
import importlib.util
import json
import os
import sys
import tempfile

_CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                      "cellgraph", "dataset", "jieba_files.py")


def main():
    from mindspore.dataset import text

    spec = importlib.util.spec_from_file_location("jieba_files", _CASES)
    jieba_files = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(jieba_files)
    out = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as folder:
        results = jieba_files.tokenize_all(text, jieba_files.build(folder))
    with open(out, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=0, sort_keys=True, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
