"""HTML character references decoded at the door, in every layout (issue 32: "&#163;1.8m"
reached a released highlight), and the BBC converter of benchmarks/adversary_corpora.py
(headings and ellipses), on real BBC News files of ../shared/corpus."""
import collections
import json

import pytest

from benchmarks.adversary_corpora import bbc_row, is_heading, lead_sentences
from transforms.ingestion import readers
from transforms.ingestion.text import clean_prose, decode_entities

pytestmark = pytest.mark.fast

# files 150-209 of each topic (the calibration range read in issue 32's second audit)
WITH_ENTITIES = ("entertainment/199.txt", "politics/174.txt", "politics/177.txt",
                 "sport/191.txt", "tech/161.txt", "tech/174.txt", "tech/184.txt",
                 "tech/204.txt")


@pytest.mark.parametrize("raw,clean,n", [
    ("&#163;1.8m indecency fine", "£1.8m indecency fine", 1),
    ("quaintly pass&#233;.", "quaintly passé.", 1),
    ("&#x201C;Hi&#x201D;", "“Hi”", 2),
    ("AT&amp;T", "AT&T", 1),
    ("&amp;#163;5", "£5", 2),                        # escaped twice: both rounds
    ("M&S and B&Q", "M&S and B&Q", 0),                # no semicolon: no reference
    ("R&D;", "R&D;", 0), ("&notaname; &foo;", "&notaname; &foo;", 0),
    ("Mr Blair&#191;s government", "Mr Blair’s government", 1),
    ("¿Dónde? Es Blair¿s", "¿Dónde? Es Blair’s", 0),   # a real ¿ opens a question
])
def test_references_are_decoded_only_whole(raw, clean, n):
    assert decode_entities(raw) == (clean, n)


def test_decoded_before_control_characters_are_removed_and_counted():
    counter = collections.Counter()
    assert clean_prose("a&#0;b &#7; &lt;c&gt;\x07", counter) == "a\ufffdb  <c>"
    assert counter["html_entities_decoded"] == 4 and counter["control_chars_removed"] == 1


def test_story_layout_decodes_and_counts():
    counter = collections.Counter()
    a = readers.parse_story("Paid &#163;8m.\n\n@highlight\n\nTottenham bid &#163;8m\n"
                            .encode(), "x.story", "public", counter)
    assert a.paragraphs == ("Paid £8m.",) and a.highlights == ("Tottenham bid £8m",)
    assert counter["html_entities_decoded"] == 2


def test_real_bbc_files_with_references_read_clean(corpus_dir):
    rows = [bbc_row(corpus_dir / "bbc_news" / name) for name in WITH_ENTITIES]
    raw = [json.dumps(r) for r in rows if r]
    assert sum("&#" in line for line in raw) >= 7        # the converter keeps them as written
    counter = collections.Counter()
    out = list(readers.parse_jsonl([line.encode() for line in raw], "bbc.jsonl", "public",
                                   counter))
    texts = [t for a in out for t in a.paragraphs + a.highlights]
    assert len(out) == len(raw) and not [t for t in texts if "&#" in t]
    assert counter["html_entities_decoded"] >= 10
    assert any("Tottenham bid £8m" in t for t in texts)


def test_headings_are_not_sentences():
    assert is_heading("Arsenal win 4-2 on penalties") and is_heading("1945 GMT")
    assert not is_heading("Arsenal won 4-2 on penalties.")
    assert not is_heading(" ".join(["word"] * 20))      # a long paragraph missing its stop
    assert lead_sentences("The finale of ITV1's I'm a Celebrity... Get Me Out of Here drew "
                          "10.9m viewers. It fell.") == [
        "The finale of ITV1's I'm a Celebrity... Get Me Out of Here drew 10.9m viewers.",
        "It fell."]


def test_bbc_converter_leaves_headings_out_and_keeps_ellipsis_names(corpus_dir):
    bbc = corpus_dir / "bbc_news"
    penalties = bbc_row(bbc / "sport" / "163.txt")       # a subheading before the lede
    assert penalties["highlights"][1].startswith("The Spanish goalkeeper saved")
    jungle = bbc_row(bbc / "entertainment" / "207.txt")   # "I'm a Celebrity... Get Me Out"
    assert jungle["highlights"][1].endswith("fewer than the previous series.")
    assert not jungle["article"].startswith("Get Me Out")
    preview = bbc_row(bbc / "sport" / "180.txt")         # a match-fact block
    assert not any(w in preview["highlights"][1] for w in ("Griffin Park", "1945 GMT"))
    rows = [bbc_row(p) for p in sorted((bbc / "sport").glob("*.txt"))[149:209]]
    firsts = [r["highlights"][1] for r in rows if r]
    assert len(firsts) >= 55 and all(f[-1] in ".!?\"'’”)" for f in firsts)
