"""Small files for text.JiebaTokenizer (a dictionary, an HMM model and a user dictionary, all
made up here) and the sentences and settings its tests run, the same for MindSpore
(tools/oracle/record_jieba.py records its outputs) and for cellgraph. Standard library only."""
import os

# word freq tag: the MP dictionary
DICTIONARY = """\
今天 300 t
天天 50 t
天气 200 n
不错 150 a
我们 400 r
去 500 v
公园 120 n
散步 80 v
北京 250 ns
天安门 180 ns
北京天安门 10 ns
我 600 r
爱 300 v
今 20 tg
天 90 n
明月 40 n
月光 30 n
明月光 5 n
床 60 n
前 200 f
南京 100 ns
南京市 60 ns
长江 90 ns
大桥 70 n
长江大桥 40 n
市长 80 n
江大桥 3 nr
研究 300 vn
研究生 90 n
生命 120 n
起源 60 v
的 1000 uj
"""

# a word and maybe a freq per line; the fourth line is of no valid form (skipped)
USER_DICT = "男默女泪 10\n江大桥\n  散步了   7  \nbad line here 3\n天安门广场 20\n"

# the characters the HMM model gives emission probabilities ("Ｈ", "见" and "售" get none)
_HMM_CHARS = ("我爱北京天安门小明硕士毕业于中国科学院计算所男默女泪广场孩子好都是人的世界你再"
              "价元向上今气不错们去公园散步床前月光南市长江大桥研究生命起源了吗")
_START = (-0.26, -3.14e100, -3.14e100, -1.46)  # B E M S
_TRANS = ((-3.14e100, -0.51, -0.92, -3.14e100),
          (-0.59, -3.14e100, -3.14e100, -0.81),
          (-3.14e100, -0.33, -1.26, -3.14e100),
          (-0.72, -3.14e100, -3.14e100, -0.67))


def _emission(state: int) -> str:
    """One state's "char:logprob" line: made-up values, a function of the character."""
    return ",".join(f"{c}:{-(3 + (ord(c) * (state + 3) + 7 * state) % 89 / 10):.4f}"
                    for c in _HMM_CHARS)


def hmm_model() -> str:
    rows = ["#made-up model: states B E M S", "#prob_start",
            " ".join(repr(p) for p in _START), "#prob_trans"]
    rows += [" ".join(repr(p) for p in row) for row in _TRANS]
    rows += ["#prob_emit"] + [_emission(state) for state in range(4)]
    return "\n".join(rows) + "\n"


def build(folder: str) -> dict:
    """The files, written under `folder`: their paths by name."""
    paths = {name: os.path.join(folder, name)
             for name in ("hmm_model.utf8", "small.dict.utf8", "user.dict.utf8")}
    for name, content in (("hmm_model.utf8", hmm_model()), ("small.dict.utf8", DICTIONARY),
                          ("user.dict.utf8", USER_DICT)):
        with open(paths[name], "w", encoding="utf-8") as f:
            f.write(content)
    return paths


SENTENCES = ["今天天气不错我们去公园散步", "我爱北京天安门", "床前明月光", "南京市长江大桥",
             "研究生命的起源", "今天，我们去公园。散步了吗", "iPhone6 售价 3.14元abc_12 x",
             "小明硕士毕业于中国科学院计算所", "男默女泪天安门广场", "", " ", "a", "天天向上",
             "ab,cd", "我们都是好孩子ok", "12.5.6%的人", "Ｈello世界\t你好\n再见"]

# name: (mode name, with_offsets, add_word arguments, add_dict argument: a dict, "user file"
# for the user dictionary file, or None)
CASES = {
    "mp": ("MP", False, [], None),
    "hmm": ("HMM", False, [], None),
    "mix": ("MIX", False, [], None),
    "mp_offsets": ("MP", True, [], None),
    "hmm_offsets": ("HMM", True, [], None),
    "mix_offsets": ("MIX", True, [], None),
    "mp_add_word": ("MP", False, [("男默女泪",), ("天安门广场", 2), ("明月光", 10000), ("孩子",)],
                    None),
    "mix_add_word": ("MIX", True, [("男默女泪",), ("天安门广场", 2), ("硕士",), ("中国科学院", 1)],
                     None),
    "mp_add_dict": ("MP", False, [], {"男默女泪": 10, "江大桥": 0, "长江大桥": 1}),
    "mix_add_dict_file": ("MIX", False, [], "user file"),
    "hmm_add_dict_file": ("HMM", True, [], "user file"),
}


def tokenize_all(text, paths: dict) -> dict:
    """Each case's outputs for SENTENCES, with `text` the text module (MindSpore's or
    cellgraph's): tokens, or [tokens, starts, limits] with offsets."""
    results = {}
    for name, (mode, with_offsets, words, user_dict) in CASES.items():
        op = text.JiebaTokenizer(paths["hmm_model.utf8"], paths["small.dict.utf8"],
                                 mode=getattr(text.JiebaMode, mode), with_offsets=with_offsets)
        for word in words:
            op.add_word(*word)
        if user_dict == "user file":
            op.add_dict(paths["user.dict.utf8"])
        elif user_dict is not None:
            op.add_dict(user_dict)
        outputs = []
        for sentence in SENTENCES:
            out = op(sentence)
            if with_offsets:
                outputs.append([[str(t) for t in out[0].tolist()], out[1].tolist(),
                                out[2].tolist()])
            else:
                outputs.append([str(t) for t in out.tolist()])
        results[name] = outputs
    return results
