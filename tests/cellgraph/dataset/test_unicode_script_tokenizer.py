"""text.UnicodeScriptTokenizer splits where the Unicode script or the whitespace-ness changes,
as MindSpore 2.10 (ICU) does; expected tokens and byte offsets recorded from it."""
import pytest

from cellgraph.dataset import text


@pytest.mark.parametrize("keep_whitespace, sentence, expected", [
    (False, "我喜欢English!", [["我喜欢", "English", "!"], [0, 9, 16], [9, 16, 17]]),
    (False, "Café naïve e\u0301 résumé",
     [["Café", "naïve", "e", "\u0301", "résumé"], [0, 6, 13, 14, 17], [5, 12, 14, 16, 25]]),
    (False, "日本語のテキストです。カタカナ",
     [["日本語", "の", "テキスト", "です", "。", "カタカナ"], [0, 9, 12, 24, 30, 33],
      [9, 12, 24, 30, 33, 45]]),
    (False, "Привет, мир 123", [["Привет", ",", "мир", "123"], [0, 12, 14, 21],
                                 [12, 13, 20, 24]]),
    # White_Space, not str.isspace: \x1c is a token, \x85 and U+3000 are spaces
    (False, "a\x1cb\x85c\u200bd\u3000e",
     [["a", "\x1c", "b", "c", "\u200b", "d", "e"], [0, 1, 2, 5, 6, 9, 13],
      [1, 2, 3, 6, 9, 10, 14]]),
    (True, "Привет, мир 123", [["Привет", ",", " ", "мир", " ", "123"],
                                [0, 12, 13, 14, 20, 21], [12, 13, 14, 20, 21, 24]]),
    (True, "12:30pm $5", [["12:30", "pm", " ", "$5"], [0, 5, 7, 8], [5, 7, 8, 10]]),
    (False, "  ", [[""], [0], [0]]),
])
def test_tokens_and_offsets(keep_whitespace, sentence, expected):
    out = text.UnicodeScriptTokenizer(keep_whitespace=keep_whitespace, with_offsets=True)(
        sentence)
    assert [[str(t) for t in out[0]]] + [o.tolist() for o in out[1:]] == expected


def test_without_offsets_and_argument_checks():
    assert text.UnicodeScriptTokenizer()("ab cd").tolist() == ["ab", "cd"]
    with pytest.raises(TypeError, match="Wrong input type for keep_whitespace, should be "
                                        "boolean."):
        text.UnicodeScriptTokenizer(keep_whitespace=1)
    with pytest.raises(TypeError, match="Wrong input type for with_offsets, should be boolean."):
        text.UnicodeScriptTokenizer(with_offsets="x")
