"""Item-quality flags (transforms/quality/flags.py), reading labels and their intervals
(labels.py), the audit sheet (audit.py) and the card section; the ReCoRD reference
figures recomputed from the real ReCoRD samples."""
import json

import pytest

from tests.fixtures.item_rows import (
    NEIGHBOUR,
    NEIGHBOUR_ENTS,
    SNOOKER,
    SNOOKER_ENTS,
    row,
)
from transforms.audit import audit
from transforms.finalize.report.item_quality import (
    RECORD_FLAGS,
    item_quality_lines,
    section,
)
from transforms.quality import flags
from transforms.quality.labels import LabelsError, parse_labels, quality, wilson

fast = pytest.mark.fast


@fast
def test_the_articles_own_publisher_is_no_rival_of_its_label():
    # held-out CNN (fresh15): "wrest control from @placeholder, which captured the city"
    # answered by ISIS, the passage's only other organisation CNN of its dateline
    text = "TIKRIT, Iraq (CNN) Iraqi forces pushed into Tikrit, which ISIS seized last year."
    ents = [("Tikrit", "GPE"), ("Iraq", "GPE"), ("CNN", "ORG"), ("Iraqi", "NORP"),
            ("ISIS", "ORG")]
    r = dict(row(text, "Troops aim to wrest control from @placeholder.", "ISIS", ents),
             source="cnn")
    assert flags.only_entity_of_label(r) == "ORG"
    # in a story of another publisher "CNN" is news about CNN, a rival like any other
    assert flags.only_entity_of_label(dict(r, source="bbc")) is None
    assert flags.only_entity_of_label(dict(r, source=None)) is None


@fast
def test_row_flags_on_real_sentences():
    alone = row(NEIGHBOUR, "The racket kept @placeholder awake.", "Emma Jackson",
                NEIGHBOUR_ENTS)
    assert flags.only_entity_of_label(alone) == "PERSON"    # Jackson is her, Hull a place
    many = row(SNOOKER, "The referee warned @placeholder.", "Olivier Marteel", SNOOKER_ENTS)
    assert flags.only_entity_of_label(many) is None and flags.distractors(many) == 2
    copied = row(SNOOKER, "Fans booed after @placeholder was also spoken to by officials.",
                 "Ronnie O'Sullivan", SNOOKER_ENTS, aliases=("O'Sullivan",))
    assert flags.copied_context(copied) == "@ was also"
    function_words = row(SNOOKER, "It was said that in the @placeholder nobody won.",
                         "Betfred World Championship", SNOOKER_ENTS)
    assert flags.copied_context(function_words) is None     # "at the" / "in the": no cue
    incomplete = row(SNOOKER, "The referee warned @placeholder.", "O'Sullivan", SNOOKER_ENTS)
    assert flags.incomplete_answers(incomplete) == "Ronnie O'Sullivan"
    complete = row(SNOOKER, "The referee warned @placeholder.", "Ronnie O'Sullivan",
                   SNOOKER_ENTS, aliases=("O'Sullivan",))
    assert flags.incomplete_answers(complete) is None
    club = row("Manchester United beat Everton in Manchester.", "Fans of @placeholder sang.",
               "Manchester United", [("Manchester United", "ORG"), ("Manchester", "GPE"),
                                     ("Everton", "ORG")])
    assert flags.incomplete_answers(club) is None           # a city is not the club
    assert flags.answer_in_query(dict(complete, query="O'Sullivan said @placeholder won.")) \
        == "mention \"O'Sullivan\""
    # the flags are a rule table: a row a rule rejects raises the flag, with its detail
    assert [r.name for r in flags.FLAG_RULES] == list(flags.ROW_FLAGS)
    assert flags.row_flags(alone) == {"only_entity_of_label": "PERSON",
                                      "incomplete_answers": "Jackson"}
    assert flags.row_flags(copied)["copied_context"] == "@ was also"


@fast
@pytest.mark.parametrize("query, flagged", [
    ("@placeholder, pictured, outside court on Monday.", True),
    ("Lurking: @placeholder was outside the house.", True),
    ("Abase Hussen, left, took his daughter to see @placeholder.", True),
    ("He told Sky News: @placeholder will win.", False),
    ("@placeholder said the picture was taken in 2010.", False),
])
def test_caption_like(query, flagged):
    assert bool(flags.caption_like({"query": query})) is flagged


@fast
def test_promotion_lines_and_siblings():
    promo = row(NEIGHBOUR + "\n@highlight\nCLICK HERE for all the latest news", "x @placeholder",
                "Hull", NEIGHBOUR_ENTS)
    assert flags.promotion_line(promo).startswith("CLICK HERE")
    assert flags.promotion_line(row(NEIGHBOUR, "@placeholder", "Hull", NEIGHBOUR_ENTS)) is None
    quoted = "The Tories called it a \"vote now, pay later\" Budget. Scroll down for video"
    assert flags.promotion_line({"passage": quoted}) == quoted      # the second sentence
    assert flags.promotion_line({"passage": quoted.split(". ")[0]}) is None
    radio = "He told BBC Five Live: \"Steven is above money.\"\nListen to the full interview on Sport on Five."
    assert flags.promotion_line({"passage": radio}).startswith("Listen to the full")
    # the forms cleaning removes count too (a contact line after a real CNN sentence)
    tips = (NEIGHBOUR.split("\n")[0].split(". ")[0] + ". Email your story ideas and tips "
            "to newsdesk@example.com.")
    assert flags.promotion_line({"passage": tips}) == tips[:120]
    assert flags.promotion_line({"passage": tips.rsplit(" Email", 1)[0]}) is None
    sentence = "But O'Sullivan was also spoken to by the referee Olivier Marteel."
    a = dict(id="a", passage_id="p", query=sentence.replace("O'Sullivan", "@placeholder"))
    b = dict(id="b", passage_id="p", query=sentence.replace("Olivier Marteel", "@placeholder"))
    c = dict(id="c", passage_id="p", query="The referee warned @placeholder about it.")
    d = dict(b, id="d", passage_id="q")
    assert flags.siblings([a, b, c, d]) == {"a", "b"}
    assert not flags.same_sentence("@placeholder won.", "@placeholder lost.")


@fast
def test_measure_and_the_card_section():
    rows = [row(NEIGHBOUR, "The racket kept @placeholder awake.", "Emma Jackson",
                NEIGHBOUR_ENTS, qid="p1-001-00"),
            row(SNOOKER, "The referee warned @placeholder.", "Olivier Marteel", SNOOKER_ENTS,
                qid="p2-001-00")]
    m = flags.measure(rows)
    assert m["queries"] == 2 and m["passages"] == 2
    assert m["only_entity_of_label"] == {"n": 1, "share": 0.5}
    counts = flags.flag_counts(rows[:1]) + flags.flag_counts(rows[1:])
    flat = {f"item_flags.{k}": v for k, v in counts.items()}
    stats = {"item_quality": section(flat),
             "funnel": {"stages": {"release": {"in": 10, "rejected": 4, "reasons": {
                 "sibling_query": 3, "answer_in_query": 1}}}}}
    assert stats["item_quality"]["flags"] == m
    card = "\n".join(item_quality_lines(stats))
    assert "| the answer is the only passage entity of its label | 50.0% (1/2) | 10.6% (13/123) | 0.0% (0/11) |" \
        in card
    assert "dropped 4 of the 10 queries the adversary left (sibling query 3, answer in " \
        "query 1)" in card and "Not yet read by a person" in card
    stats["item_quality"]["labels"] = dict(quality({"q1": "good", "q2": "trivial"}),
                                           not_released=1)
    card = "\n".join(item_quality_lines(stats))
    assert "| good | 1 | 50.0% | 9.4-90.5% |" in card and "under 30 items" in card
    assert "1 labelled queries are no longer released" in card


@fast
def test_labels_files_and_wilson_intervals():
    csv_text = "id,label,notes\nq1,good,\nq2,Wrong answers,split name\nq3,,\nq1,good,again\n"
    assert parse_labels(csv_text) == {"q1": "good", "q2": "wrong_answers"}
    jsonl = '{"id": "q1", "label": "trivial"}\n\n{"id": "q2", "label": "artefact"}\n'
    assert parse_labels(jsonl) == {"q1": "trivial", "q2": "artefact"}
    for bad, words in (("id,label\nq1,great\n", "not one of"),
                       ("id,label\nq1,good\nq1,trivial\n", "labelled both"),
                       ("query,verdict\nq1,good\n", "header line"),
                       ('{"id": "q1"\n', "not JSON"), ("id,label\n,good\n", "no query id")):
        with pytest.raises(LabelsError, match=words):
            parse_labels(bad)
    assert wilson(0, 40) == (0.0, 0.0876) and wilson(32, 40) == (0.6524, 0.895)
    assert wilson(0, 0) == (None, None)
    q = quality({f"q{i}": ("good" if i < 32 else "trivial") for i in range(40)})
    assert q["n"] == 40 and q["good"] == {"n": 32, "share": 0.8, "ci95": [0.6524, 0.895]}


@fast
def test_sheet_escapes_every_piece_of_text():
    hostile = ("<script>alert(1)</script> [click](http://x) **bold** # heading | pipe "
               "AT&T &lt;b&gt; Emma Jackson")
    r = row(hostile + "\n@highlight\n- Emma Jackson spoke", "<img src=x> said @placeholder.",
            "Emma Jackson", [("Emma Jackson", "PERSON")])
    text = "\n".join(audit.render_item(1, dict(r, flags={"caption_like": "<b>x</b>"},
                                               split="dev", source="cnn")))
    assert "<script>" not in text and "<img" not in text and "<b>" not in text
    assert "&lt;script&gt;" in text and "\\[click\\](http://x)" in text
    assert "AT&T &amp;lt;b&amp;gt;" in text      # an entity shown as written, never made
    assert "\\*\\*bold\\*\\*" in text and "**Emma Jackson**" in text
    assert "- \\- **Emma Jackson** spoke" in text                  # a highlight bullet
    assert "**Query:** &lt;img src=x&gt; said **@placeholder**." in text


def test_record_reference_is_measured_with_the_same_code(record_format_dir, annotator):
    from benchmarks import record_examples as rx
    from benchmarks.item_flags import record_rows
    rows = record_rows(rx.read_all(**rx.local_samples(record_format_dir)), annotator)
    m = flags.measure(rows)
    got = {k: (v["n"] if isinstance(v, dict) else v) for k, v in m.items()}
    want = {k: v for k, v in RECORD_FLAGS.items() if k != "source"}
    assert {k: got[k] for k in want} == want
    assert json.dumps(RECORD_FLAGS)     # plain JSON: it goes into stats.json
