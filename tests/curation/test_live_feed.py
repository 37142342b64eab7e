"""A football match's live text feed after a match report (XSum's BBC pages keep it after
"Match ends, A 1, B 1.") is no story text: clean drops its lines (`live_feed`), and the
sentence rules never make a query of one; a gallery teaser ("Here's a look at ...") is a
promotion. Feeds are built from a real BBC match report's own names in the feed's
wording; every sentence of the real corpus is checked to stay."""
import collections
import re

import pytest

from tests.fixtures.corpus_texts import corpus_texts
from transforms.core.rules import first_rejection
from transforms.curation.clean import clean_article
from transforms.curation.fragments import is_live_feed
from transforms.curation.promotions import is_promotion
from transforms.generation.sentences import STORY_RULES
from transforms.ingestion.articles import Article

pytestmark = pytest.mark.fast

FEED = ("Match ends, {a} 2, {b} 1.", "Second Half ends, {a} 2, {b} 1.", "Corner, {b}.",
        "Attempt saved. {p} ({b}) left footed shot from a difficult angle on the left is saved.",
        "Foul by {p} ({b}).", "{q} ({a}) wins a free kick in the defensive half.",
        "Offside, {b}. {p} tries a through ball, but {q} is caught offside.",
        "Substitution, {a}. {q} replaces {p}.", "Hand ball by {q} ({a}).",
        "{p} ({b}) is shown the yellow card for a bad foul.",
        "Goal! {a} 1, {b} 0. {q} ({a}) right footed shot from the centre of the box.")


@pytest.mark.parametrize("line", [f.format(a="Gateshead", b="Wrexham", p="Joel Logan",
                                           q="James Marwood") for f in FEED])
def test_feed_lines_are_no_sentences(line):
    assert is_live_feed(line)
    assert first_rejection(STORY_RULES, _Sentence(line), None).reason == "live_feed"


@pytest.mark.parametrize("text", [
    "John Smith (Labour) said the vote would be close.",
    "Booking cinema tickets by text is growing popular.",
    "Foulkes (Wrexham) said he had wanted to win a free kick all game.",
    "The corner shop on Wrexham Road was closed.",
])
def test_sentences_that_look_alike_stay(text):
    assert not is_live_feed(text)


@pytest.mark.parametrize("text, promotion", [
    ("Here's a look at some of Romney's worst gaffes and a few predictions he got right.", True),
    ("Take a look at the pictures below.", True),
    ("Here\u2019s a look back at his career.", True),
    ("'Here's a look at what we built,' she said.", False),
    ("He took a look at the figures and resigned.", False),
])
def test_a_gallery_teaser_is_a_promotion(text, promotion):
    assert is_promotion(text) is promotion


class _Sentence:
    def __init__(self, text):
        self.text = text


def _sentences(text):
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]


def test_no_sentence_of_the_real_corpus_is_a_feed_line(corpus_dir):
    sentences = [s for t in corpus_texts(corpus_dir) for s in _sentences(t)]
    assert len(sentences) > 40_000
    assert [s for s in sentences if is_live_feed(s)] == []


def test_a_real_match_report_loses_its_feed_and_keeps_its_story(corpus_dir):
    # a real BBC football report, its own clubs and players in the feed's wording
    text = (corpus_dir / "bbc_news" / "sport" / "001.txt").read_text(encoding="latin-1")
    title, _, body = text.partition("\n")
    story = [p.strip() for p in body.split("\n") if p.strip()]
    feed = [f.format(a="Manchester City", b="Chelsea", p="Joe Cole", q="Shaun Wright-Phillips")
            for f in FEED]
    counts = collections.Counter()
    cleaned = clean_article(Article("bbc-001", tuple(story + feed), (title.strip(),), "bbc",
                                    None, "public", "xsum.jsonl"), dropped=counts)
    assert list(cleaned.paragraphs) == story
    assert counts["live_feed"] == len(feed)
