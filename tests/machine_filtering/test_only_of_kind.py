"""Release rule `only_of_kind` (issue 32): the answer the passage's only party, named storm,
ethnic group, competition, school, US state or social platform the query does not name,
whatever NER's label. Text reshaped from held-out CNN and BBC stories (names kept); pure
rules, no Beam."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering.closed_kinds import (
    KINDS,
    asks_platform,
    asks_us_state,
    is_competition,
    is_ethnic_group,
    is_party,
    is_platform,
    is_school,
    is_storm,
    is_us_state,
    mention_kinds,
    only_of_kind,
)
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

PARTIES = ("Obamacare has survived over 60 Republican attempts to kill it, and Democrats "
           "say the law works. Sen. Ted Cruz of Texas called it a disaster, CNN reported.")
PARTY_ENTS = [("Obamacare", "LAW"), ("Republican", "NORP"), ("Democrats", "NORP"),
              ("Ted Cruz", "PERSON"), ("Texas", "GPE"), ("CNN", "ORG")]
ONLY = ReleaseConfig(only_entity_of_label=False, only_compatible_entity=False,
                     only_country=False, capital_rival=False, place_rival=False)


def test_the_only_party_the_query_does_not_name_is_rejected_whatever_its_label():
    q = "After 60 Republican attempts to kill the bill, @placeholder cannot fix it."
    r = row(PARTIES, q, "Democrats", PARTY_ENTS)
    assert "only party" in only_of_kind(r)
    why = check_row(r, ONLY)
    assert why is not None and why.reason == "only_of_kind"
    assert check_row(r, ReleaseConfig(**{**ONLY.__dict__, "only_of_kind": False})) is None


def test_a_rival_of_the_kind_or_an_answer_of_no_kind_keeps_the_query():
    # both parties open to the slot: a reading is needed
    assert only_of_kind(row(PARTIES, "@placeholder cannot fix the bill.", "Democrats",
                            PARTY_ENTS)) is None
    assert only_of_kind(row(PARTIES, "@placeholder called it a disaster.", "Ted Cruz",
                            PARTY_ENTS)) is None


def test_the_only_storm_named_by_its_designation():
    text = ("Port Vila, Vanuatu (CNN) Tropical Cyclone Pam tore through the islands, UNICEF "
            "said. Sam Upan lost his roof.")
    ents = [("Port Vila", "GPE"), ("Vanuatu", "GPE"), ("CNN", "ORG"), ("Pam", "PERSON"),
            ("UNICEF", "ORG"), ("Sam Upan", "PERSON")]
    r = row(text, "@placeholder ripped roofing off buildings.", "Pam", ents)
    assert "only storm" in only_of_kind(r)
    assert only_of_kind(row(text, "@placeholder lost his roof.", "Sam Upan", ents)) is None


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


def test_a_competition_the_query_names_is_no_rival():
    text = ("Karim Benzema has scored 15 goals in La Liga and six in the Champions League "
            "this term for Real Madrid.")
    ents = [("Karim Benzema", "PERSON"), ("La Liga", "ORG"), ("Champions League", "ORG"),
            ("Real Madrid", "ORG")]
    q = "Benzema has six goals in the @placeholder and 15 in La Liga."
    assert "only competition" in only_of_kind(row(text, q, "Champions League", ents))
    assert only_of_kind(row(text, "Benzema has six goals in the @placeholder.",
                            "Champions League", ents)) is None


@pytest.mark.parametrize("text,before,kind,expected", [
    ("Tories", "", is_party, True),
    ("GOP", "the ", is_party, True),
    ("the Communist Party", "", is_party, True),
    ("Labour", "", is_party, True),
    ("Party", "", is_party, False),            # no name before the word
    ("Pam", "Tropical Cyclone ", is_storm, True),
    ("Pam", "his wife ", is_storm, False),
    ("Hurricane Katrina", "", is_storm, True),
    ("Latinos", "", is_ethnic_group, True),
    ("Nigerians", "", is_ethnic_group, False),     # a nationality: `only_country`'s
    ("Champions League", "", is_competition, True),
    ("U.S. Open", "", is_competition, True),
    ("the Olympics", "", is_competition, True),
    ("London Olympics", "", is_competition, True),   # a host city's Games (round 17)
    ("Olympians", "", is_competition, False),
    ("La Liga", "", is_competition, True),
    ("World Series", "", is_competition, True),
    ("Cup", "", is_competition, False),
    ("Arsenal", "", is_competition, False),
    ("Liberty University", "", is_school, True),
    ("University of Virginia", "", is_school, True),
    ("Columbine High School", "", is_school, True),
    ("UVA", "", is_school, False),                 # no name words: the lexicon is silent
])
def test_kind_tests(text, before, kind, expected):
    assert kind(text, before) is expected


def test_mention_kinds_reads_the_passage_before_the_mention():
    text = "Residents of Vanuatu braced as Cyclone Pam neared Port Vila."
    start = text.index("Pam")
    assert mention_kinds({"text": "Pam", "start": start, "end": start + 3}, text) == {"storm"}
    at = text.index("Vanuatu")
    assert mention_kinds({"text": "Vanuatu", "start": at, "end": at + 7}, text) == set()
    assert {k.name for k in KINDS} == {"party", "storm", "ethnic group", "competition",
                                      "school", "US state", "social platform"}


# held-out CNN election text (reshaped, names kept)
PRIMARY = ("McCain won primaries in Texas and Ohio on Tuesday. Huckabee campaigned in "
           "Vermont before the vote, and said he would stay in the race, CNN reported.")
PRIMARY_ENTS = [("McCain", "PERSON"), ("Texas", "GPE"), ("Ohio", "GPE"),
                ("Huckabee", "PERSON"), ("Vermont", "GPE"), ("CNN", "ORG")]


@pytest.mark.parametrize("query, asks", [
    ("Food goes from @placeholder to the other 49 states.", True),
    ("All of her marriages took place in @placeholder state.", True),
    ("McCain won in Texas, Ohio, @placeholder and Rhode Island.", True),   # names states
    ("In @placeholder, a murder conviction requires premeditation.", False),
    ("The head of state visited @placeholder.", False),                    # another noun's
    ("The @placeholder state media reported it.", False),                 # a country's
    ("Officials in @placeholder spoke to state-run television.", False),   # a modifier
    ("The State Department said @placeholder was safe.", False),           # a name
    ("@placeholder state TV showed the convoy.", False),                    # a modifier
    ("A state of emergency was declared in @placeholder.", False),
    ("The report states that @placeholder won.", False),                    # the verb
    ("Islamic state fighters entered @placeholder.", False),
    ("@placeholder asked Washington for help against Russia.", False),      # named, no list
])
def test_a_query_asks_for_a_state(query, asks):
    assert asks_us_state(query) is asks


def test_the_only_us_state_is_rejected_only_where_the_query_asks_for_a_state():
    text = PRIMARY.replace("Texas and Ohio", "Texas")
    ents = [e for e in PRIMARY_ENTS if e[0] != "Ohio"]
    listed = row(text, "McCain won in Texas, Ohio, @placeholder and Rhode Island.", "Vermont",
                 ents)
    assert "only US state" in only_of_kind(listed)
    # a locative slot a state fills as well as a town: kept
    assert only_of_kind(row(text, "Huckabee spoke in @placeholder on Sunday.", "Vermont",
                            ents)) is None
    # another state the query does not name is a rival
    assert only_of_kind(row(PRIMARY, "McCain won in Texas, @placeholder and Rhode Island.",
                            "Vermont", PRIMARY_ENTS)) is None
    # a person whose surname is a state's name is no state, nor is a country's name
    ents = PRIMARY_ENTS + [("Denzel Washington", "PERSON")]
    denzel = row(PRIMARY + " Denzel Washington said so.", "@placeholder said he would open "
                 "a school in every state.", "Denzel Washington", ents,
                 aliases=("Washington",))
    assert only_of_kind(denzel) is None
    assert not is_us_state("Georgia", "")


@pytest.mark.parametrize("query, asks", [
    ("The judge said some of the comments made by others on @placeholder were unpleasant.",
     True),
    ("She unveiled the magazine's final cover via @placeholder, saying: \"Bitter sweet!\"",
     True),
    ("Following the post being shared on @placeholder, there were mixed reactions.", True),
    ("The @placeholder page was taken down.", True),
    ("The threatening messages, which she has reported to @placeholder, saddened her.",
     False),                                            # a company or the police fit too
    ("@placeholder would not comment on the issue.", False),
    ("He lived on @placeholder for years.", False)])
def test_a_query_asks_for_a_platform(query, asks):
    assert asks_platform(query) is asks


def test_the_only_platform_is_rejected_where_the_query_posts_on_it():
    # fresh27 (BBC): a troll's Facebook comments, Facebook the passage's only platform
    text = ("A man who posted abuse about an MP was jailed. He wrote on Facebook that she "
            "deserved it, Leeds Crown Court heard.\n@highlight\nFacebook postings cost him")
    ents = [("Facebook", "ORG"), ("Leeds Crown Court", "ORG")]
    q = "The judge said some of the comments made by others on @placeholder were unpleasant."
    r = row(text, q, "Facebook", ents)
    assert "only social platform" in only_of_kind(r)
    rival = row(text.replace("He wrote on Facebook", "He wrote on Facebook and Twitter"), q,
                "Facebook", ents + [("Twitter", "ORG")])
    assert only_of_kind(rival) is None
    told = row(text, "She reported the messages to @placeholder.", "Facebook", ents)
    assert only_of_kind(told) is None
    assert is_platform("Facebook's", "") and not is_platform("Leeds Crown Court", "")
    # a surname that is also an app's name, and a firm's "users": no platform slot
    assert not is_platform("Vine", "")
    assert not asks_platform("@placeholder users will now have to opt in to the new terms.")
