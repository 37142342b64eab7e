"""passages.written_as_whole_words: the whole-word test of `name_in_text` without a
regular expression compiled per name; the same verdicts as (?<!\\w)NAME(?!\\w) on the
rule's edge cases and on the names of real CNN/DM articles."""
import itertools
import json
import re

import pytest

from transforms.generation.passages import name_in_text, written_as_whole_words


def _regex(name, text):
    return re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text) is not None


EDGES = [
    ("Vick", "Michael Vick's dogs"), ("Vick", "Vicky and Vickers"), ("Neill", "O'Neill"),
    ("aa", "aaaa aa"), ("aa", "aaaa"), ("Louis", "Louis_ Louis1"), ("Louis", "Louis-Dreyfus"),
    ("Zoë", "Zoëy and Zoë."), ("Paris", "Paris"), ("US", "US$13"), ("Ana", "Ana_ Banana Ana"),
]


@pytest.mark.fast
@pytest.mark.parametrize("name,text", EDGES)
def test_edge_cases_match_the_regex(name, text):
    assert written_as_whole_words(name, text) == _regex(name, text)


@pytest.mark.fast
def test_decisions():
    assert written_as_whole_words("Vick", "Michael Vick's dogs")
    assert not written_as_whole_words("Vick", "Vicky and Vickers")
    assert written_as_whole_words("aa", "aaaa aa") and not written_as_whole_words("aa", "aaaa")
    assert name_in_text("the Vick", "Michael Vick's") and not name_in_text("Army", "Army")


@pytest.mark.fast
def test_names_of_real_articles_match_the_regex(corpus_dir):
    lines = (corpus_dir / "cnndm_test250.jsonl").open()
    texts = [json.loads(line)["article"] for line in itertools.islice(lines, 20)]
    checked = hits = 0
    for i, text in enumerate(texts):
        names = set(re.findall(r"[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}", text))
        names |= {n[:-1] for n in names if len(n) > 2}      # prefixes: found inside words
        other = texts[i - 1]
        for name in sorted(names):
            for t in (text, other):
                got = written_as_whole_words(name, t)
                assert got == _regex(name, t), name
                checked, hits = checked + 1, hits + got
    assert checked > 1000 and 0 < hits < checked        # both verdicts occur
