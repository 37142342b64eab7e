"""full_names.words_before: `after_the_only`'s rule (`_before_pattern`: the name not
inside a word, with the word before it) applied without compiling one regular
expression per name; the same words as the regex's `finditer` on real CNN/DM text, on
its edge cases and on random strings."""
import itertools
import json
import random
import re

import pytest

from transforms.curation.full_names import _before_pattern, words_before

EDGES = [
    ("Moon", "the Moon and Blue Moon, (Moon Moon) Moon-lit O'Moon xMoon Moon_ Moon."),
    ("Moon", "Moon Moon Moon"),                     # a match swallows the next one's word
    ("Moon", "(Moon Moon"),                         # a later name's match starts first
    ("Moon", "Moon.Moon  \n Moon\xa0Moon"),
    ("aa", "aaaa aa aaa aa"),
    ("A.", "A. A.B. A.-a"),
    ("", "an empty name"),
    (" Moon", "the  Moon"),                          # a name opening with a space
]


def _regex(name, text):
    return [m.group(1) or "" for m in _before_pattern(name).finditer(text)]


@pytest.mark.fast
@pytest.mark.parametrize("name,text", EDGES)
def test_edge_cases_match_the_regex(name, text):
    assert words_before(name, text) == _regex(name, text)


@pytest.mark.fast
def test_edge_cases_are_real_decisions():
    assert words_before("Moon", "the Moon and Blue Moon") == ["the", "Blue"]
    assert words_before("Moon", "Moon Moon Moon") == ["Moon", ""]
    assert words_before("Moon", "(Moon Moon") == ["(Moon"]


@pytest.mark.fast
def test_random_strings_match_the_regex():
    rnd = random.Random(31)
    alphabet = ["a", "A", " ", "  ", "\n", "-", "'", "’", "_", "1", ".", "\xa0", "(", "é"]
    for _ in range(20000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 20)))
        name = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 4)))
        assert words_before(name, text) == _regex(name, text), (name, text)


@pytest.mark.fast
def test_names_of_real_articles_match_the_regex(corpus_dir):
    lines = (corpus_dir / "cnndm_test250.jsonl").open()
    texts = [json.loads(line)["article"] for line in itertools.islice(lines, 30)]
    checked = found = 0
    for text in texts:
        names = set(re.findall(r"[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}", text))
        names |= {n.split()[-1] for n in names} | {"the", "a", "s", "'s"}
        for name in sorted(names):
            got = words_before(name, text)
            assert got == _regex(name, text), name
            checked, found = checked + 1, found + len(got)
    assert checked > 1000 and found > checked
