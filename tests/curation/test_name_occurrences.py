"""consistency.name_occurrences: the known-name rule of `_name_pattern` applied without
compiling one regular expression per name; the same spans as the regex on real CNN/DM
text and on the rule's own edge cases."""
import itertools
import json
import re

import pytest

from transforms.curation.consistency import _name_pattern, name_occurrences

EDGES = [
    ("Neill", "O'Neill met Neill and O’Neill; 'Neill' too."),
    ("US", "US$13 for the US, US-bound, U.S. and US-Mexico, #US @US US€ USA"),
    ("Trump", "pro-Trump rally, Trump-era rules, Trump's 'Trump' Trump-Pence, TrumpTrump"),
    ("Louis", "Louis-Dreyfus and Louis, Louis_ and Louis1 and Louis-"),
    ("aa", "aaaa aa aaa aa"),                       # overlapping candidates: left to right
    ("A.", "A. A.B. A.-a"),
]


@pytest.mark.fast
@pytest.mark.parametrize("name,text", EDGES)
def test_the_rule_s_edge_cases_match_the_regex(name, text):
    assert name_occurrences(name, text) == [m.span() for m in _name_pattern(name).finditer(text)]


@pytest.mark.fast
def test_edge_cases_are_real_decisions():
    assert name_occurrences("Neill", "O'Neill met Neill") == [(12, 17)]
    assert name_occurrences("US", "US$13 for the US") == [(14, 16)]
    assert name_occurrences("Trump", "pro-Trump, Trump-era, Trump-Pence") == [(4, 9), (11, 16)]
    assert name_occurrences("aa", "aaaa aa") == [(5, 7)]


@pytest.mark.fast
def test_names_of_real_articles_match_the_regex(corpus_dir):
    lines = (corpus_dir / "cnndm_test250.jsonl").open()
    texts = [json.loads(line)["article"] for line in itertools.islice(lines, 30)]
    checked = found = 0
    for text in texts:
        names = set(re.findall(r"[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}", text))
        names |= {n.split()[-1] for n in names} | {n.split("-")[0] for n in names}
        for name in sorted(names):
            got = name_occurrences(name, text)
            assert got == [m.span() for m in _name_pattern(name).finditer(text)], name
            checked, found = checked + 1, found + len(got)
    assert checked > 1000 and found > checked       # real names, most found more than once
