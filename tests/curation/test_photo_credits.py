"""Issue 32's photo labels and credits (captions.py, clean.py's `photo_credit`): a caption
a label names as one ("Pictured: ...", "Photo: ..."), a bracketed credit "(Image: PA)",
and a credit line ("Getty Images", "Photo: AP Photo/X", "Credit: Reuters"), put into real
Daily Mail text (cnndm_test250 rows no other layout test reads) with the corpus's own
names, read as a Daily Mail `.story` (a paragraph a line) and as a crawled page of no
known source. Each must reach no passage, counted by reason, and the story's own text
must stay as it was."""
import collections
import json
import re

import pytest

from transforms.curation.captions import is_photo_credit
from transforms.curation.clean import clean_article
from transforms.ingestion.articles import Article

pytestmark = pytest.mark.fast

ROWS = slice(150, 170)      # Daily Mail rows of cnndm_test250 no other layout test reads
_NAME = re.compile(r"(?<=[a-z,] )([A-Z][a-z]+ [A-Z][a-z]+)(?= [a-z])")
_SENTENCE = re.compile(r"(?<=[a-z][.!?])\s+(?=[A-Z])")
# (line put in, reason it is counted under, the words that must reach no passage)
FURNITURE = (
    ("Pictured: {name} at the scene in {place} on Sunday.", "photo_caption", "at the scene in"),
    ("Photo: {name} outside the court in {place}", "photo_caption", "outside the court in"),
    ("Credit: Getty Images", "photo_credit", "Getty"),
    ("Getty Images", "photo_credit", "Getty"),
    ("Photo: AP Photo/{name}", "photo_credit", "AP Photo"),
    ("(Image: PA)", "position_note", "(Image"),
)


@pytest.fixture(scope="module")
def rows(corpus_dir):
    rows = [json.loads(line) for line in open(corpus_dir / "cnndm_test250.jsonl")]
    return [r for r in rows if r["source"] == "dailymail"][ROWS]


def _article(row, k, source):
    sents = [s for s in _SENTENCE.split(row["article"]) if s.strip()][:12]
    names = _NAME.findall(row["article"]) or ["Local residents"]
    places = re.findall(r"\b(?:in|at) ([A-Z][a-z]{3,})\b", row["article"]) or ["London"]
    line, reason, needle = FURNITURE[k % len(FURNITURE)]
    line = line.format(name=names[k % len(names)], place=places[k % len(places)])
    paras = sents[:4] + [line] + sents[4:]
    def make(ps):
        return Article(row["id"], tuple(ps), tuple(row["highlights"]), source, None, "public",
                       "rows.jsonl")
    return make(paras), make(sents), reason, needle


@pytest.mark.parametrize("source", ["dailymail", None])
def test_photo_labels_and_credits_are_taken_out_and_counted(rows, source):
    counts, plain_counts, expected = (collections.Counter() for _ in range(3))
    for k, row in enumerate(rows):
        article, plain, reason, needle = _article(row, k, source)
        cleaned = clean_article(article, dropped=counts)
        before = clean_article(plain, dropped=plain_counts)
        expected[reason] += 1
        text = "\n".join(cleaned.paragraphs)
        assert needle not in text.replace("\n".join(before.paragraphs), ""), (source, needle)
        assert text.split() == "\n".join(before.paragraphs).split(), source
    for reason, n in expected.items():
        assert counts[reason] - plain_counts[reason] == n, (source, reason, counts)


def test_photo_credit_shapes():
    for credit in ("Getty Images", "(Getty Images)", "Photo: Reuters", "AP Photo/Evan Vucci",
                   "Image: Shutterstock", "SWNS", "Credit: AFP/Getty Images"):
        assert is_photo_credit(credit), credit
    for text in ("Getty Images said its photographers were safe.", "Reuters reported the deal.",
                 "Facebook shares fell.", "Pictured: Getty Images staff at work"):
        assert not is_photo_credit(text), text
