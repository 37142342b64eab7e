"""Passages hand the resolver each mention's person cue (person_cues.py), so an answer set
holds a person's full name and surname whatever label NER gave them. The fresh8 story
(bb93c105: "36-year-old Kevone Charleston" ORG, "Charleston is suspected" GPE, released
with the full name left out of the answers), names changed, annotated by hand with the
labels the small model gave; no model."""
import pytest

from transforms.curation.annotation import AnnotatedArticle, Mention, Segment, Sentence
from transforms.generation.passages import build_passage
from transforms.ingestion.articles import Article

pytestmark = pytest.mark.fast

LEAD = ("FBI agents were following 36-year-old Kevone Marston of Austell, Georgia, as he "
        "pulled into a CVS pharmacy in Forsyth County early Saturday. Marston is suspected "
        "of involvement in 32 commercial robberies, according to FBI officials.")
REST = "Agent Stephen Emmett said Marston was trying to get away from the agents."
CITY = "Police in Marston, Georgia, closed the road."


def segment(text, labelled):
    mentions, at = [], 0
    for name, label in labelled:
        start = text.index(name, at)
        mentions.append(Mention(start, start + len(name), name, label))
        at = start + len(name)
    return Segment(text, 120, (Sentence(0, len(text), 120, tuple(text.lower().split())),),
                   tuple(mentions))


def passage(*paragraphs):
    article = Article("a1", tuple(p.text for p in paragraphs), (), "cnn", None, "public", "t")
    return build_passage(AnnotatedArticle(article, paragraphs, ()))


def lead():
    return segment(LEAD, [("FBI", "ORG"), ("Kevone Marston", "ORG"), ("Austell", "GPE"),
                          ("Georgia", "GPE"), ("CVS", "ORG"), ("Forsyth County", "GPE"),
                          ("Marston", "GPE"), ("FBI", "ORG")])


def test_the_full_name_and_the_surname_are_one_answer_set_whatever_their_labels():
    p = passage(lead(), segment(REST, [("Stephen Emmett", "PERSON"), ("Marston", "GPE")]))
    by = {e.text: e.cluster for e in p.entities}
    assert by["Kevone Marston"] == by["Marston"] != by["Austell"]
    assert p.sentences[0].mentions[1].cluster == by["Marston"]
    # the labels the rows carry stay NER's
    assert {e.text: e.label for e in p.entities}["Kevone Marston"] == "ORG"


def test_a_town_written_as_a_town_stays_apart():
    text = LEAD.replace("Marston is suspected", "The man is suspected")
    first = segment(text, [("FBI", "ORG"), ("Kevone Marston", "ORG"), ("Austell", "GPE"),
                           ("Georgia", "GPE"), ("CVS", "ORG"), ("Forsyth County", "GPE"),
                           ("FBI", "ORG")])
    p = passage(first, segment(CITY, [("Marston", "GPE"), ("Georgia", "GPE")]))
    person = {e.text: e.cluster for e in p.entities}["Kevone Marston"]
    assert p.sentences[0].mentions[0].cluster != person
