"""Chinese word segmentation as cppjieba 5.1 does it (the library behind MindSpore's
JiebaTokenizer), on Python strings: one character of a str is one of cppjieba's runes.

* The dictionary (`Lexicon`): lines "word freq tag"; a word's weight is log(freq / sum of all
  the file's freqs). A word added later (`add_word`) weighs log(freq / that sum), or with no
  freq the median weight of the file's words.
* MP (max probability): at each position the words of the dictionary that start there form a
  DAG; dynamic programming from the end picks the path of highest total weight (a character
  that is no word weighs the smallest weight of the file).
* HMM: ASCII runs are cut by rule (a letter then letters and digits; digits and dots; any other
  character alone); every other run goes through a Viterbi pass over the states B, E, M, S of
  the model file, a word ending at each E or S.
* MIX: MP, then the HMM over each run of consecutive one-character words.

Before any of them the text is cut at the separators " ", "\\t", "\\n", "，" and "。", each a
word of its own. Float operations follow cppjieba's order, so ties and sums come out as its.
Spans are (start, end) character indices.
"""
from __future__ import annotations

import math
import re

MIN_DOUBLE = -3.14e100  # cppjieba's "impossible" log probability
MAX_WORD_LENGTH = 512  # the longest dictionary word MP looks for, in characters
SEPARATORS = frozenset(" \t\n\uff0c\u3002")
_B, _E, _M, _S = range(4)  # the HMM's states, in the model file's order

_ATOF = re.compile(rb"[ \t\n\v\f\r]*[+-]?(inf(inity)?|nan|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)",
                   re.IGNORECASE)
_MISSING = object()


def atof(text: bytes) -> float:
    """C's atof: the number at the start of `text` (after blanks), 0.0 where there is none."""
    match = _ATOF.match(text)
    return float(match.group().strip()) if match else 0.0


def split_fields(line: bytes, separator: bytes) -> list[bytes]:
    """The pieces of `line` between `separator`s, as cppjieba's Split gives them: empty pieces
    kept, except one at the very end."""
    pieces = line.split(separator)
    if pieces[-1] == b"":
        pieces.pop()
    return pieces


def file_lines(content: bytes) -> list[bytes]:
    """The lines std::getline reads from `content` (no empty line after a final newline)."""
    return split_fields(content, b"\n")


class Lexicon:
    """cppjieba's DictTrie: the dictionary file's words with their weights, plus the words
    added later, which override a word of the file."""

    def __init__(self, entries: list[tuple[str, float]]):
        freq_sum = 0.0
        for _, freq in entries:  # in order, as C sums (Python's sum() compensates)
            freq_sum += freq
        self.freq_sum = freq_sum
        self.weights: dict[str, float] = {}
        self.prefixes: set[str] = set()
        file_weights = [math.log(freq / freq_sum) for _, freq in entries]
        for (word, _), weight in zip(entries, file_weights):
            self._insert(word, weight)  # a word listed twice: its last line counts
        ranked = sorted(file_weights)
        self.min_weight = ranked[0]
        self.user_default_weight = ranked[len(ranked) // 2]  # the median

    def _insert(self, word: str, weight: float) -> None:
        if not word:
            return  # cppjieba's trie keeps no empty word
        self.weights[word] = weight
        self.prefixes.update(word[:k] for k in range(1, len(word) + 1))

    def with_user_words(self, words: list[tuple[str, int]]) -> Lexicon:
        """A copy with `words` ((word, freq); freq 0: the median weight) added in order."""
        if not words:
            return self
        lexicon = object.__new__(Lexicon)
        lexicon.__dict__.update(self.__dict__)
        lexicon.weights, lexicon.prefixes = dict(self.weights), set(self.prefixes)
        for word, freq in words:
            weight = self.user_default_weight if freq == 0 else math.log(freq / self.freq_sum)
            lexicon._insert(word, weight)
        return lexicon

    def dag(self, text: str, begin: int, end: int) -> list[list[tuple[int, float | None]]]:
        """For each position of text[begin:end], the dictionary words starting there as
        (last position, weight), the one-character entry first (weight None: no word)."""
        weights, prefixes = self.weights, self.prefixes
        dag = []
        for i in range(begin, end):
            weight = weights.get(text[i], _MISSING)
            entries = [(i, None if weight is _MISSING else weight)]
            for j in range(i + 1, min(end, i + MAX_WORD_LENGTH)):
                piece = text[i:j + 1]
                if piece not in prefixes:
                    break
                weight = weights.get(piece, _MISSING)
                if weight is not _MISSING:
                    entries.append((j, weight))
            dag.append(entries)
        return dag


class HMMModel:
    """cppjieba's HMMModel: log start and transition probabilities of B, E, M, S and each
    state's log emission probability per character."""

    def __init__(self, start: list[float], trans: list[list[float]],
                 emit: list[dict[str, float]]):
        self.start, self.trans, self.emit = start, trans, emit


def prefilter(text: str) -> list[tuple[int, int]]:
    """The ranges cppjieba segments one by one: the text cut at each separator, which is a
    range of its own."""
    ranges, begin = [], 0
    for i, char in enumerate(text):
        if char in SEPARATORS:
            if i > begin:
                ranges.append((begin, i))
            ranges.append((i, i + 1))
            begin = i + 1
    if begin < len(text):
        ranges.append((begin, len(text)))
    return ranges


def mp_cut(lexicon: Lexicon, text: str, begin: int, end: int) -> list[tuple[int, int]]:
    """Max-probability segmentation of text[begin:end] (see the module's docstring)."""
    dag = lexicon.dag(text, begin, end)
    size = end - begin
    best = [0.0] * size
    last: list[int | None] = [None] * size  # the chosen word's last position; None: one char
    for i in range(size - 1, -1, -1):
        best_value, choice = MIN_DOUBLE, None
        for stop, weight in dag[i]:
            value = 0.0
            if stop - begin + 1 < size:
                value += best[stop - begin + 1]
            value += lexicon.min_weight if weight is None else weight
            if value > best_value:  # ties: the shorter word, as cppjieba
                best_value, choice = value, None if weight is None else stop
        best[i], last[i] = best_value, choice
    spans, i = [], 0
    while i < size:
        stop = begin + i if last[i] is None else last[i]
        spans.append((begin + i, stop + 1))
        i = stop + 1 - begin
    return spans


def _letters_end(text: str, begin: int, end: int) -> int:
    """Where a run of an ASCII letter followed by letters and digits ends (`begin`: none)."""
    if not ("a" <= text[begin] <= "z" or "A" <= text[begin] <= "Z"):
        return begin
    i = begin + 1
    while i < end and ("a" <= text[i] <= "z" or "A" <= text[i] <= "Z" or "0" <= text[i] <= "9"):
        i += 1
    return i


def _number_end(text: str, begin: int, end: int) -> int:
    """Where a run of an ASCII digit followed by digits and dots ends (`begin`: none)."""
    if not "0" <= text[begin] <= "9":
        return begin
    i = begin + 1
    while i < end and ("0" <= text[i] <= "9" or text[i] == "."):
        i += 1
    return i


def hmm_cut(model: HMMModel, text: str, begin: int, end: int) -> list[tuple[int, int]]:
    """HMM segmentation of text[begin:end]: ASCII by rule, the rest by Viterbi."""
    spans: list[tuple[int, int]] = []
    left = right = begin
    while right != end:
        if ord(text[right]) >= 0x80:
            right += 1
            continue
        if left != right:
            spans.extend(_viterbi_cut(model, text, left, right))
        left = right
        right = _letters_end(text, left, end)
        if right == left:
            right = _number_end(text, left, end)
        if right == left:
            right = left + 1
        spans.append((left, right))
        left = right
    if left != right:
        spans.extend(_viterbi_cut(model, text, left, right))
    return spans


def _viterbi_cut(model: HMMModel, text: str, begin: int, end: int) -> list[tuple[int, int]]:
    """text[begin:end] cut after each character whose most likely state is E or S."""
    emit, trans = model.emit, model.trans
    weight = [model.start[y] + emit[y].get(text[begin], MIN_DOUBLE) for y in range(4)]
    paths = []
    for x in range(begin + 1, end):
        char, new_weight, path = text[x], [], []
        for y in range(4):
            best, came_from = MIN_DOUBLE, _E  # cppjieba's defaults when nothing beats them
            emit_prob = emit[y].get(char, MIN_DOUBLE)
            for prev in range(4):
                value = weight[prev] + trans[prev][y] + emit_prob
                if value > best:
                    best, came_from = value, prev
            new_weight.append(best)
            path.append(came_from)
        weight = new_weight
        paths.append(path)
    state = _E if weight[_E] >= weight[_S] else _S
    states = [state]
    for path in reversed(paths):
        state = path[state]
        states.append(state)
    states.reverse()
    spans, left = [], begin
    for x, state in enumerate(states):
        if state in (_E, _S):
            spans.append((left, begin + x + 1))
            left = begin + x + 1
    return spans


def mix_cut(lexicon: Lexicon, model: HMMModel, text: str, begin: int,
            end: int) -> list[tuple[int, int]]:
    """MP, with each run of one-character words cut again by the HMM."""
    words = mp_cut(lexicon, text, begin, end)
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        if words[i][1] - words[i][0] > 1:
            spans.append(words[i])
            i += 1
            continue
        j = i
        while j < len(words) and words[j][1] - words[j][0] == 1:
            j += 1
        spans.extend(hmm_cut(model, text, words[i][0], words[j - 1][1]))
        i = j
    return spans
