"""Issue 31's cheaper forms of curation rules give what the forms they replace give:
`gender._word_before_end` (the regex tried from the last word only), `adds_model_code`
(model codes of the longer name kept per name), `word_find.written_as_word` (the
initials test without a pattern per string). Random strings and real CNN/DM text."""
import itertools
import json
import random
import re

import pytest

from transforms.core.word_find import written_as_word
from transforms.curation.gender import _BEFORE, _word_before_end
from transforms.curation.initialisms import adds_model_code, is_model_code


def _spans(m):
    return m and (m.span(), m.groups())


@pytest.mark.fast
def test_word_before_end_matches_the_regex_on_random_strings():
    rnd = random.Random(31)
    alphabet = ["a", "B", "1", ".", ",", " ", "\n", "\t", "-", "'", "’", "_", "é", "\xa0"]
    for _ in range(30000):
        head = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 14)))
        assert _spans(_word_before_end(head)) == _spans(_BEFORE.search(head)), repr(head)


@pytest.mark.fast
def test_word_before_end_matches_the_regex_on_real_text(corpus_dir):
    lines = (corpus_dir / "cnndm_test250.jsonl").open()
    texts = [json.loads(line)["article"] for line in itertools.islice(lines, 10)]
    for text in texts:
        for start in range(0, len(text), 11):
            head = text[max(0, start - 80):start]
            m = _BEFORE.search(head)
            assert _spans(_word_before_end(head)) == _spans(m)
            if m:
                head = head[:m.start()]
                assert _spans(_word_before_end(head)) == _spans(_BEFORE.search(head))


@pytest.mark.fast
def test_adds_model_code_as_the_set_difference():
    rnd = random.Random(31)
    words = ["navy", "mh-60r", "f-35", "a380", "737", "04", "2020", "the", "a-b", "b2"]
    for _ in range(20000):
        short = " ".join(rnd.choice(words) for _ in range(rnd.randint(0, 3)))
        long = " ".join(rnd.choice(words) for _ in range(rnd.randint(0, 4)))
        extra = set(long.split()) - set(short.split())
        assert adds_model_code(short, long) == any(is_model_code(w) for w in extra)


@pytest.mark.fast
def test_written_as_word_matches_the_regex():
    rnd = random.Random(31)
    alphabet = ["A", "B", "a", " ", "-", "_", "1", "É", "Ⓐ", "."]
    for _ in range(30000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 15)))
        word = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 3)))
        expected = bool(re.search(r"\b%s\b" % re.escape(word), text))
        assert written_as_word(word, text) == expected, (word, text)
