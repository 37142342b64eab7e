"""A squad or transfer list written as one line is no sentence of the story
(`sentences.is_roster_line`, reason `roster_line`): the fresh7 reading found "In:Colin
Kazim-Richards, forward (Feyenoord); @placeholder, defender (Midtjylland, £1.5m)." as
a released query. Lines written in the layout of BBC transfer round-ups (names of the
real corpus), and prose with semicolons, brackets and colons that must stay."""
import re

import pytest

from tests.fixtures.corpus_texts import corpus_texts
from transforms.generation.passages import CandidateSentence
from transforms.generation.sentences import (
    SentenceConfig,
    is_roster_line,
    select_sentence,
)

pytestmark = pytest.mark.fast

ROSTERS = (
    "In:Colin Kazim-Richards, forward (Feyenoord); Erik Sviatchenko, defender "
    "(Midtjylland, £1.5m).",
    "Out: Nadir Ciftci, forward (Eskisehirspor, loan); Stefan Johansen, midfielder "
    "(Fulham); Kris Commons, winger (Hibernian, free).",
    "Arrivals: Andros Townsend, winger (Tottenham, £12m); Jordan Henderson, midfielder "
    "(Sunderland, undisclosed).",
)
PROSE = (
    # semicolons between clauses, brackets, a colon: sentences of the story
    "Celtic paid £1.5m for Sviatchenko (a Denmark defender); Kazim-Richards arrived from "
    "Feyenoord.",
    "Townsend, the winger (who joined from Tottenham), was brought on late; Merson was not "
    "impressed.",
    "He said: \"Kazim-Richards, a forward (and a gamble), will score goals; we believe in him.\"",
    "Erik Sviatchenko, defender (Midtjylland, £1.5m).",      # one entry: not a list line
)


def test_transfer_and_squad_lines_are_no_sentences():
    assert all(is_roster_line(text) for text in ROSTERS)
    assert not any(is_roster_line(text) for text in PROSE)


def test_the_rule_runs_first_in_both_profiles():
    text = ROSTERS[0]
    words = tuple(w.lower() for w in re.findall(r"\w+", text))
    s = CandidateSentence(0, text, len(text.split()), words, ())
    for profile in ("record", "paper"):
        assert select_sentence(s, frozenset(), frozenset(),
                               SentenceConfig(rules=profile)) == "roster_line"


def test_no_sentence_of_the_real_corpus_is_a_roster_line(corpus_dir):
    sentences = [s for text in corpus_texts(corpus_dir)
                 for s in re.split(r"(?<=[.!?])\s+", text.replace("\n", " "))]
    assert len(sentences) > 20000
    assert [s for s in sentences if is_roster_line(s)] == []
