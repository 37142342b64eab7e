"""A short form of the answer's name written in the query
(transforms/machine_filtering/short_forms.py, release rule `answer_in_query`): "City had 10 men" answered by
"Manchester City". Rows built from real BBC News sport sentences
(../shared/corpus/bbc_news, reshaped into queries)."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row
from transforms.machine_filtering.short_forms import short_form_in_query
from transforms.quality.aliases import alias_in_query

pytestmark = pytest.mark.fast

BASE = ReleaseConfig(incomplete_answers=False, only_entity_of_label=False)

VILLA = ("Aston Villa boss David O'Leary signed a three-and-a-half year contract extension on "
         "Thursday, securing his future at the club until summer 2008.")
VILLA_ENTS = [("Aston Villa", "ORG"), ("David O'Leary", "PERSON")]
BRISTOL = ("Bristol City 2-1 Milton Keynes. Leroy Lita took his goal tally to 13 for the "
           "season with a double.")
BRISTOL_ENTS = [("Bristol City", "ORG"), ("Milton Keynes", "GPE"), ("Leroy Lita", "PERSON")]
UNITED = ("Arsenal's Edu has lifted the lid on the scenes that followed Manchester United's "
          "win over the Gunners.")
UNITED_ENTS = [("Arsenal", "ORG"), ("Edu", "PERSON"), ("Manchester United", "ORG"),
               ("Gunners", "ORG")]


@pytest.mark.parametrize("passage, entities, answer, query, short", [
    (VILLA, VILLA_ENTS, "Aston Villa", "O'Leary's future at @placeholder was in question, "
     "but Villa chairman Doug Ellis said he was happy to secure the deal.", "Villa"),
    (BRISTOL, BRISTOL_ENTS, "Bristol City", "@placeholder striker Leroy Lita's double "
     "earned City an LDV Vans Trophy win.", "City"),
    (UNITED, UNITED_ENTS, "Manchester United", "Edu said the @placeholder players were "
     "trying to wind them up, and food was thrown at United boss Sir Alex Ferguson.",
     "United"),
    # a country's short form: "the States" (a GPE answer)
    ("The United States and Britain signed the deal.", [("United States", "GPE"),
                                                        ("Britain", "GPE")],
     "United States", "@placeholder officials said the States would not sign.", "States"),
])
def test_a_word_of_the_answers_name_written_alone_is_its_short_form(passage, entities,
                                                                     answer, query, short):
    r = row(passage, query, answer, entities)
    assert short_form_in_query(r) == short
    assert alias_in_query(r) is None          # no alias of the item flag's kind
    why = check_row(r, BASE)
    assert why.reason == "answer_in_query" and f"short form {short!r}" in why.detail


@pytest.mark.parametrize("passage, entities, answer, query", [
    # another passage entity's name has the word: "City" may be Bristol City
    (BRISTOL + " A brave display helped Manchester City hold the leaders Chelsea.",
     BRISTOL_ENTS + [("Manchester City", "ORG"), ("Chelsea", "ORG")], "Manchester City",
     "@placeholder held Chelsea, while Lita's double earned City a win."),
    # a place's name is the place: "a Manchester hotel" is no short form of the club
    (UNITED, UNITED_ENTS, "Manchester United",
     "Edu said @placeholder players met at a Manchester hotel after the game."),
    # at a sentence's start, or beside another capitalised word (part of another name)
    (VILLA, VILLA_ENTS, "Aston Villa", "Villa chairman Doug Ellis said @placeholder was "
     "happy to secure the deal."),
    (VILLA, VILLA_ENTS, "Aston Villa", "O'Leary left @placeholder for the Villa Park "
     "offices of the club."),
    (VILLA, VILLA_ENTS, "Aston Villa", "O'Leary said: Villa must go on, and @placeholder "
     "agreed."),
    # "United Nations" is another name; "States" is no word of a one-word answer
    ("The United States and Britain signed the deal.", [("United States", "GPE"),
                                                        ("Britain", "GPE")],
     "United States", "@placeholder told the United Nations it would sign."),
    ("Britain signed the deal.", [("Britain", "GPE")], "Britain",
     "@placeholder said the States would sign."),
    # a generic word stands for nothing alone ("the Club")
    ("Chelsea Football Club said Jose Mourinho would stay.",
     [("Chelsea Football Club", "ORG"), ("Jose Mourinho", "PERSON")],
     "Chelsea Football Club", "Mourinho said the Club had backed him at @placeholder."),
    # lower case: a word, not the name
    (VILLA, VILLA_ENTS, "Aston Villa", "O'Leary bought a villa near @placeholder's ground."),
    # a person's name is the aliases' own (surname, given name), not a short form
    (VILLA, VILLA_ENTS, "David O'Leary", "Aston Villa said the David Beckham move that "
     "@placeholder wanted was off."),
])
def test_no_short_form_where_the_word_is_anothers_a_place_or_generic(passage, entities,
                                                                     answer, query):
    assert short_form_in_query(row(passage, query, answer, entities)) is None
