"""Release rule `only_of_kind` (issue 32): the answer the passage's only party, armed group
or named storm the query does not name, whatever NER's label. Text reshaped from held-out
CNN stories (names kept); pure rules, no Beam."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering.closed_kinds import (
    is_armed_group,
    is_competition,
    is_ethnic_group,
    is_party,
    is_religion,
    is_school,
    is_storm,
    mention_kinds,
    only_of_kind,
)
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

LIBYA = ("Tourists have stayed away from Tunisia since the attack on the Bardo museum, CNN "
         "learned. ISIS claimed the attack, and the Tunis government blamed a cell trained "
         "in Libya. Hotel owner Mohamed Ali said bookings fell by half.")
LIBYA_ENTS = [("Tunisia", "GPE"), ("Bardo", "FAC"), ("CNN", "ORG"), ("ISIS", "ORG"),
              ("Tunis", "GPE"), ("Libya", "GPE"), ("Mohamed Ali", "PERSON")]
QUERY = "They fear that @placeholder will launch further attacks against foreigners."
ONLY = ReleaseConfig(only_entity_of_label=False, only_compatible_entity=False,
                     only_country=False, capital_rival=False, place_rival=False)


def test_the_only_armed_group_is_rejected_whatever_its_label():
    r = row(LIBYA, QUERY, "ISIS", LIBYA_ENTS)
    assert "only armed group" in only_of_kind(r)
    why = check_row(r, ONLY)
    assert why is not None and why.reason == "only_of_kind"
    assert check_row(r, ReleaseConfig(**{**ONLY.__dict__, "only_of_kind": False})) is None


def test_a_second_armed_group_keeps_the_query_and_the_passage_words_name_one():
    text = LIBYA + " The militant group Ansar al-Sharia denied any role."
    two = row(text, QUERY, "ISIS", LIBYA_ENTS + [("Ansar al-Sharia", "ORG")])
    assert only_of_kind(two) is None
    # a group the query names is no rival
    named = row(text, "Unlike Ansar al-Sharia, @placeholder will launch further attacks.",
                "ISIS", LIBYA_ENTS + [("Ansar al-Sharia", "ORG")])
    assert "only armed group" in only_of_kind(named)
    # another kind of answer: no verdict
    assert only_of_kind(row(LIBYA, "@placeholder said bookings fell.", "Mohamed Ali",
                            LIBYA_ENTS)) is None


PARTIES = ("Obamacare has survived over 60 Republican attempts to kill it, and Democrats "
           "say the law works. Sen. Ted Cruz of Texas called it a disaster.")
PARTY_ENTS = [("Obamacare", "LAW"), ("Republican", "NORP"), ("Democrats", "NORP"),
              ("Ted Cruz", "PERSON"), ("Texas", "GPE")]


def test_the_only_party_the_query_does_not_name():
    q = "After 60 Republican attempts to kill the bill, @placeholder cannot fix it."
    assert "only party" in only_of_kind(row(PARTIES, q, "Democrats", PARTY_ENTS))
    # both parties open to the slot: a reading is needed
    assert only_of_kind(row(PARTIES, "@placeholder cannot fix the bill.", "Democrats",
                            PARTY_ENTS)) is None


def test_the_only_storm_named_by_its_designation():
    text = ("Port Vila, Vanuatu (CNN) Tropical Cyclone Pam tore through the islands, UNICEF "
            "said. Sam Upan lost his roof.")
    ents = [("Port Vila", "GPE"), ("Vanuatu", "GPE"), ("CNN", "ORG"), ("Pam", "PERSON"),
            ("UNICEF", "ORG"), ("Sam Upan", "PERSON")]
    r = row(text, "@placeholder ripped roofing off buildings.", "Pam", ents)
    assert "only storm" in only_of_kind(r)
    assert only_of_kind(row(text, "@placeholder lost his roof.", "Sam Upan", ents)) is None


@pytest.mark.parametrize("text,before,after,kind,expected", [
    ("Tories", "", " won", is_party, True),
    ("GOP", "the ", "", is_party, True),
    ("the Communist Party", "", "", is_party, True),
    ("Labour", "", "", is_party, True),
    ("Party", "", "", is_party, False),            # no name before the word
    ("Boko Haram", "", "", is_armed_group, True),
    ("al-Shabaab", "", "", is_armed_group, True),
    ("Houthis", "", "", is_armed_group, True),
    ("Ansar Dine", "the militant group ", "", is_armed_group, True),
    ("Ahrar al-Sham", "", " fighters took the town", is_armed_group, True),
    ("Human Rights Watch", "", " said", is_armed_group, False),
    ("Pam", "Tropical Cyclone ", "", is_storm, True),
    ("Pam", "his wife ", "", is_storm, False),
    ("Hurricane Katrina", "", "", is_storm, True),
    ("Buddhists", "", "", is_religion, True),
    ("Shiite", "", "", is_religion, True),
    ("Chinese", "", "", is_religion, False),
    ("Latinos", "", "", is_ethnic_group, True),
    ("Nigerians", "", "", is_ethnic_group, False),     # a nationality
    ("Champions League", "", "", is_competition, True),
    ("U.S. Open", "", "", is_competition, True),
    ("the Olympics", "", "", is_competition, True),
    ("Cup", "", "", is_competition, False),
    ("Arsenal", "", "", is_competition, False),
    ("Liberty University", "", "", is_school, True),
    ("University of Virginia", "", "", is_school, True),
    ("Columbine High School", "", "", is_school, True),
    ("UVA", "", "", is_school, False),                 # no name words: the lexicon is silent
])
def test_kind_tests(text, before, after, kind, expected):
    assert kind(text, before, after) is expected


def test_mention_kinds_reads_the_passage_around_the_mention():
    text = "Fighters of the terrorist group, Ansar Dine, seized Timbuktu."
    start = text.index("Ansar Dine")
    assert mention_kinds({"text": "Ansar Dine", "start": start, "end": start + 10},
                         text) == {"armed group"}
    assert mention_kinds({"text": "Timbuktu", "start": text.index("Timbuktu"),
                          "end": text.index("Timbuktu") + 8}, text) == set()


def test_one_entity_of_the_kind_by_any_of_its_mentions():
    text = ("Ten thousand students from Liberty University crowded into the arena in "
            "Lynchburg, Virginia, where Ted Cruz spoke. Liberty was founded by Jerry Falwell.")
    ents = [("Liberty University", "ORG"), ("Lynchburg", "GPE"), ("Virginia", "GPE"),
            ("Ted Cruz", "PERSON"), ("Jerry Falwell", "PERSON")]
    q = "Students from @placeholder filled the university's arena."
    assert "only school" in only_of_kind(row(text, q, "Liberty University", ents))
    rival = row(text + " Students at the University of Virginia protested.", q,
                "Liberty University", ents + [("University of Virginia", "ORG")])
    assert only_of_kind(rival) is None
