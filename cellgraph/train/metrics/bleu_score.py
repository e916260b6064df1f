"""`BleuScore`: BLEU of candidate sentences against their reference sentences."""
from __future__ import annotations

from collections import Counter

import numpy as np

from .metric import Metric, check_type, rearrange_inputs

__all__ = ["BleuScore"]


def _ngram_counts(tokens, n_gram: int) -> Counter:
    """How often each run of 1..n_gram consecutive tokens occurs."""
    counts = Counter()
    for size in range(1, n_gram + 1):
        for start in range(len(tokens) - size + 1):
            counts[tuple(tokens[start:start + size])] += 1
    return counts


class BleuScore(Metric):
    """Corpus BLEU: the geometric mean of the clipped n-gram precisions for n = 1..`n_gram`
    (add-one smoothed with `smooth`) times the brevity penalty exp(1 - r / c) when the
    candidates (length c) are not longer than the closest references (length r)."""

    def __init__(self, n_gram=4, smooth=False):
        super().__init__()
        self.n_gram = check_type("n_gram", n_gram, (int,))
        if not 1 <= n_gram <= 4:
            raise ValueError(f"For 'BleuScore', the argument 'n_gram' should range from 1 to 4, "
                             f"but got {n_gram}.")
        self.smooth = check_type("smooth", smooth, (bool,))
        self.clear()

    def clear(self):
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._c, self._r = 0.0, 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'BleuScore.update', it needs 2 inputs (candidate_corpus, "
                             f"reference_corpus), but got {len(inputs)}.")
        candidates, references_list = inputs
        if len(candidates) != len(references_list):
            raise ValueError(f"For 'BleuScore.update', 'translate_corpus' (inputs[0]) and "
                             f"'reference_corpus' (inputs[1]) should be equal in length, but got "
                             f"{len(candidates)}, {len(references_list)}")
        for candidate, references in zip(candidates, references_list):
            self._c += len(candidate)
            # the reference length closest to the candidate's (the first on a tie)
            self._r += min((len(ref) for ref in references),
                           key=lambda length: abs(len(candidate) - length))
            candidate_counts = _ngram_counts(candidate, self.n_gram)
            reference_counts = Counter()
            for ref in references:
                reference_counts |= _ngram_counts(ref, self.n_gram)
            for gram, count in (candidate_counts & reference_counts).items():
                self._numerator[len(gram) - 1] += count
            for gram, count in candidate_counts.items():
                self._denominator[len(gram) - 1] += count
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precisions = (self._numerator + 1) / (self._denominator + 1)
        else:
            precisions = self._numerator / self._denominator
        geometric_mean = np.exp(np.sum(np.log(precisions) / self.n_gram))
        if self._c > self._r:
            brevity_penalty = np.array(1.0)
        else:
            brevity_penalty = np.exp(1 - np.array(self._r) / np.array(self._c))
        return brevity_penalty * geometric_mean
