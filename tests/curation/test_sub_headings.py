"""Sub-headings inside a body (transforms/curation/sub_headings.py): a short line with no
closing punctuation between lines of a body is page furniture, dropped by clean and
counted as `sub_heading`. Real BBC News text (../shared/corpus/bbc_news) reshaped into
XSum's layout (one paragraph a line); its own furniture lines ("The All Blacks",
"Murrayfield, Edinburgh", "Winners meet in final match") as the positives, its prose as
the negatives."""
import collections

import pytest

from transforms.curation.clean import clean_article
from transforms.curation.sub_headings import (
    LineAround,
    is_sub_heading,
    strip_sub_headings,
)
from transforms.ingestion.articles import Article

pytestmark = pytest.mark.fast

BODY = ("Manchester United avoided an FA Cup upset by edging past Exeter City in their third "
        "round replay.")
AFTER = ("The Brazilian confirmed tempers had flared but could shed no light on reports that "
         "food was thrown at United boss Sir Alex Ferguson.")


@pytest.mark.parametrize("line", [
    "The All Blacks",                       # a profile's heading (sport/371)
    "Winners meet in final match",          # a draw's heading (sport/190)
    "Murrayfield, Edinburgh",               # a fixture box (sport/322)
    "The shape of the UK's economy In graphics",    # a link title (politics/389)
    "Net users are getting the chance to fight back against spam websites",  # standfirst
    "Arsenal v Stoke",                      # a fixture line (sport/205)
    "Result: Nadal 6-7 (6/8) 6-2 7-6 (8/6) 6-2 Roddick",
])
def test_a_short_line_with_no_closing_mark_between_lines_is_a_sub_heading(line):
    assert is_sub_heading(line, LineAround(BODY, AFTER))
    text, dropped = strip_sub_headings("\n".join([BODY, line, AFTER]))
    assert text == BODY + "\n" + AFTER
    assert [(ln, why.reason) for ln, why in dropped] == [(line, "sub_heading")]


@pytest.mark.parametrize("line, before, after", [
    # the last line: a cut-off end, nothing it heads
    ("The All Blacks", BODY, ""),
    # a sentence with its full stop, quote or colon
    (BODY, AFTER, AFTER),
    ("He said the deal was done.", BODY, AFTER),
    ('"The worst seems to have passed."', BODY, AFTER),
    ("The report made key recommendations, including:", BODY, AFTER),
    # prose that lost its stop: a quote's attribution, two sentences
    ("\"I think we were a lot fairer in the tackles than United,\" he said", BODY, AFTER),
    ("Mr Ebbers could face a jail sentence he said", BODY, AFTER),
    ("He left early. The club said nothing", BODY, AFTER),
    # more than 12 words
    ("Manchester United avoided an FA Cup upset by edging past Exeter City in their third "
     "round replay", BODY, AFTER),
    # carried on: the next line opens in lower case, or is a list's item
    ("The government had claimed tobacco firms", BODY, "- manipulated nicotine levels"),
    ("The government had claimed tobacco firms", BODY, "manipulated nicotine levels."),
    # carrying on the line before (a list's item after its colon, a line after a comma)
    ("Arsenal v Stoke", "The draw for the fifth round:", AFTER),
    ("Arsenal v Stoke", "The fixtures are,", AFTER),
    # opening in lower case
    ("manipulated nicotine levels", BODY, AFTER),
])
def test_a_sentence_a_last_line_or_a_carried_line_is_no_sub_heading(line, before, after):
    assert not is_sub_heading(line, LineAround(before, after))


def test_a_paragraph_of_one_line_is_untouched():
    assert strip_sub_headings("The All Blacks") == ("The All Blacks", [])


def _xsum_layout(path):
    """A BBC News file as XSum lays it out: its paragraphs one a line, no title."""
    lines = [ln.strip() for ln in path.read_text(encoding="latin-1").split("\n")[1:]]
    return "\n".join(ln for ln in lines if ln)


def test_clean_drops_and_counts_sub_headings_of_real_bbc_text(corpus_dir):
    path = corpus_dir / "bbc_news" / "sport" / "322.txt"      # a fixture box: 4 lines
    text = _xsum_layout(path)
    counts = collections.Counter()
    article = Article("322", (text,), ("Scotland host Ireland.",), "bbc", None, "public",
                      "xsum.jsonl")
    cleaned = clean_article(article, dropped=counts)
    kept = "\n".join(cleaned.paragraphs)
    assert "Murrayfield, Edinburgh" not in kept and "BBC1, Five Live" not in kept
    assert counts["sub_heading"] >= 3, counts
    # the story's own sentences all stay
    prose = [ln for ln in text.split("\n") if ln.endswith((".", '"'))]
    assert prose and all(ln in kept for ln in prose)


def test_real_cnn_and_daily_mail_text_has_no_sub_heading(corpus_dir):
    """The negative check: the CNN stories and the CNN/Daily Mail JSON articles, read and
    cleaned as the job does (no line break is left inside a paragraph), lose nothing to
    the rule."""
    import json

    from transforms.ingestion.readers import article_from_record, parse_story
    path = corpus_dir / "cnndm_test250.jsonl"
    articles = [article_from_record(json.loads(line), str(path), "public", f"line {i}")
                for i, line in enumerate(open(path))]
    articles += [parse_story(p.read_bytes(), str(p), "public")
                 for p in sorted((corpus_dir / "cnn_stories").glob("*.story"))]
    counts = collections.Counter()
    cleaned = [clean_article(a, dropped=counts) for a in articles if isinstance(a, Article)]
    assert len(cleaned) == 270 and counts["sub_heading"] == 0
