"""Issue 32, item 2: a role noun opening a sentence is stripped from a person's span
("Creator Phillip Hyman" -> "Phillip Hyman"). Sentences are real BBC News text of
../shared/corpus (bbc_news), short phrases with their names; pure rules, no Beam, no model."""
import pytest

from transforms.curation.entities import mark_span

pytestmark = pytest.mark.fast


@pytest.mark.parametrize("sentence,span", [
    ("Founder Stelios Haji-Ioannou has pledged to contest the action.",
     "Stelios Haji-Ioannou"),
    ("Director Shami Chakrabarti called on the government to act.", "Shami Chakrabarti"),
    ("Comedian Harry Hill will host a spoof nostalgia show on Christmas Day.", "Harry Hill"),
    ("Producer Mel Gibson will not be using paid advertisements.", "Mel Gibson"),
])
def test_a_role_noun_opening_a_sentence_is_no_part_of_the_name(sentence, span):
    end = sentence.index(span) + len(span)
    marked = mark_span(sentence, 0, end, "PERSON", sentence_start=True)
    assert [sentence[s:e] for s, e, _ in marked] == [span]


def test_a_role_noun_stays_where_it_is_the_name():
    # inside a sentence, a capitalised role is part of the name the model gave ...
    text = "He met Director Shami Chakrabarti on Monday."
    s = text.index("Director")
    e = text.index(" on")
    assert [text[a:b] for a, b, _ in mark_span(text, s, e, "PERSON")] == [text[s:e]]
    # ... and so is a role before a single name (a surname or a stage name)
    text = "Producer Gibson will not be using paid advertisements."
    e = text.index(" will")
    assert [text[a:b] for a, b, _ in mark_span(text, 0, e, "PERSON", True)] == [text[:e]]
    # an organisation is not touched
    text = "Founder Capital Partners invested in the firm."
    e = text.index(" invested")
    assert [text[a:b] for a, b, _ in mark_span(text, 0, e, "ORG", True)] == [text[:e]]
