"""One-word PERSON tags with no evidence of a person are no person rivals (issue 32,
`person_evidence`): hotel brands, places and clubs spaCy's small model tags PERSON. Text
reshaped from a held-out CNN travel story (names of brands kept) and BBC sport; pure
rules, no Beam, no model."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering.entity_types import PERSON, mention_votes
from transforms.machine_filtering.person_evidence import unproven_person
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

HOTELS = ("Starwood launched its new brands last year. Jaz and Vib will open in Asia, and "
          "Blu is aimed at younger guests. Chekitan Dev, a professor at the Cornell "
          "University School of Hotel Administration, said the names were chosen with care.")
HOTEL_ENTS = [("Starwood", "PERSON"), ("Jaz", "PERSON"), ("Vib", "PERSON"),
              ("Asia", "LOC"), ("Blu", "PERSON"), ("Chekitan Dev", "PERSON"),
              ("Cornell University School of Hotel Administration", "ORG")]
QUERY = ("Cornell's @placeholder, who teaches hotel marketing, says the words witty and warm "
         "gave the brand its meaning.")


def _mention(text, word, label="PERSON"):
    start = text.index(word)
    return {"start": start, "end": start + len(word), "text": word, "label": label}


@pytest.mark.parametrize("text, word", [
    ("Jaz and Vib will open in Asia.", "Jaz"),
    ("the hotels of Starwood were full", "Starwood"),
    ("they flew to Mallorca for a week", "Mallorca"),
    # a web platform, whatever pronoun follows (the user's: cnndm_test250, the ESPN
    # reporter's rant, reshaped)
    ("The video spread on Twitter, where she apologised on Thursday.", "Twitter"),
])
def test_a_one_word_person_tag_with_no_evidence_is_unproven(text, word):
    assert unproven_person(text, [_mention(text, word)], [None], PERSON)


@pytest.mark.parametrize("text, word", [
    ("Fiona was at home when it happened.", "Fiona"),               # a given name
    ("Mr Pitino was at home.", "Pitino"),                            # a title
    ("the striker Pele was at home.", "Pele"),                       # a role word
    ("Kapranos said so.", "Kapranos"),                               # a speech verb
    ("Obama left early because he was tired.", "Obama"),             # a pronoun of it
])
def test_evidence_of_a_person_keeps_the_tag(text, word):
    assert not unproven_person(text, [_mention(text, word)], [None], PERSON)


def test_two_words_or_another_label_are_not_judged():
    text = "Chekitan Dev spoke."
    assert not unproven_person(text, [_mention(text, "Chekitan Dev")], [None], PERSON)
    text = "Starwood spoke."
    assert not unproven_person(text, [_mention(text, "Starwood", "ORG")], [None], PERSON)


def test_the_only_real_person_of_a_passage_of_brands_is_trivial():
    one = row(HOTELS, QUERY, "Chekitan Dev", HOTEL_ENTS)
    votes = mention_votes(one)
    assert not any(v & PERSON for k, vs in votes.items() if k != "@answer" for v in vs)
    why = check_row(one, ReleaseConfig(only_entity_of_label=False))
    assert why is not None and why.reason == "only_compatible_entity"
    # a second real person, even by one word, is a rival: the query is kept
    two = row(HOTELS + " Mr Sorenson said so.", QUERY, "Chekitan Dev",
              HOTEL_ENTS + [("Sorenson", "PERSON")])
    assert check_row(two, ReleaseConfig(only_entity_of_label=False)) is None


def test_a_name_before_a_place_noun_is_a_place_whatever_its_length():
    from transforms.machine_filtering.person_evidence import placed_name
    text = ("(CNN) Cabela was found tied to railroad tracks in the city's Sulphur Springs "
            "neighborhood on Wednesday. Dr. Jamie Davidson and staff at the Tampa Bay "
            "Veterinary Emergency Center stabilized her.")
    assert placed_name(text, [_mention(text, "Sulphur Springs")])
    assert not placed_name(text, [_mention(text, "Jamie Davidson")])
    assert not placed_name(text, [_mention(text, "Sulphur Springs", "GPE")])   # not PERSON
    ents = [("Cabela", "PERSON"), ("Sulphur Springs", "PERSON"), ("Jamie Davidson", "PERSON"),
            ("Tampa Bay Veterinary Emergency Center", "ORG")]
    q = row(text, '"Dogs rebound quick," said @placeholder, adding Cabela is in great spirits.',
            "Jamie Davidson", ents)
    why = check_row(q, ReleaseConfig(only_entity_of_label=False))
    assert why is not None and why.reason == "only_compatible_entity"
