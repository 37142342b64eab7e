"""Issue 31's sixth pass: `written_tokens` and `cased_ngrams` give what the forms they
replace give (each token's texts and flags; each window with no flagged word, in order).
The replaced forms are kept here as the oracles. Random strings and flags."""
import random

import pytest

from transforms.generation.passages import (
    _ALNUM,
    _TOKEN,
    _overlap_test,
    cased_ngrams,
    written_tokens,
)


def _old_written_tokens(text, spans=()):
    overlaps = _overlap_test(spans)
    return [(m.group(), _ALNUM.search(m.group()) is None or overlaps(m.start(), m.end()))
            for m in _TOKEN.finditer(text)]


def _old_cased_ngrams(words, n):
    return (tuple(w for w, _ in words[i:i + n]) for i in range(len(words) - n + 1)
            if not any(f for _, f in words[i:i + n]))


@pytest.mark.fast
def test_written_tokens_as_before_on_random_text_and_spans():
    rnd = random.Random(316)
    alphabet = ["a", "B", "1", ".", ",", " ", "-", "'", "’", "_", "é", "\"", "\n"]
    for _ in range(5000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 30)))
        spans = [(rnd.randint(-2, 32), rnd.randint(-2, 32)) for _ in range(rnd.randint(0, 3))]
        assert written_tokens(text, spans) == _old_written_tokens(text, spans), (text, spans)
        assert written_tokens(text) == _old_written_tokens(text)


@pytest.mark.fast
def test_cased_ngrams_as_before_on_random_flags():
    rnd = random.Random(317)
    for _ in range(5000):
        words = [(f"w{i}", rnd.random() < 0.3) for i in range(rnd.randint(0, 12))]
        for n in (-1, 0, 1, 2, 3, 4):
            assert list(cased_ngrams(words, n)) == list(_old_cased_ngrams(words, n))

