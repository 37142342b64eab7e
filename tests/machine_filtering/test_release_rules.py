"""The release rules (transforms/machine_filtering/release_rules.py) and the type cues,
as pure functions on rows built from real news sentences."""
import pytest

from tests.fixtures.item_rows import (
    NEIGHBOUR,
    NEIGHBOUR_ENTS,
    SNOOKER,
    SNOOKER_ENTS,
    row,
)
from transforms.machine_filtering.release_rules import (
    ReleaseConfig,
    check_row,
    release_passage,
    sentence_key,
)
from transforms.quality import aliases, cues

# the rules each test is about, without the two that read any small passage's
# lone entity (`only_entity_of_label`) or left-out mention (`incomplete_answers`)
BASE = ReleaseConfig(incomplete_answers=False, only_entity_of_label=False, only_country=False,
                     only_real_person=False)

pytestmark = pytest.mark.fast


def test_answer_written_in_the_query_is_rejected_by_any_alias():
    surname = row(SNOOKER, "The next went against the 39-year-old, but O'Sullivan's breaks "
                  "suggested @placeholder was in unstoppable form.", "Ronnie O'Sullivan",
                  SNOOKER_ENTS)
    why = check_row(surname, BASE)
    assert why.reason == "answer_in_query" and "surname \"O'Sullivan\"" in why.detail
    given = row(SNOOKER, "Ronnie was warned, and @placeholder later apologised.",
                "Ronnie O'Sullivan", SNOOKER_ENTS)
    assert "given name 'Ronnie'" in check_row(given, BASE).detail
    mention = row(NEIGHBOUR, "@placeholder told the court that Emma Jackson could not sleep.",
                  "Hull", NEIGHBOUR_ENTS)
    assert check_row(mention, BASE) is None          # another entity's name is no giveaway
    clean = row(SNOOKER, "The referee later said @placeholder had apologised.",
                "Ronnie O'Sullivan", SNOOKER_ENTS)
    assert check_row(clean, BASE) is None
    assert check_row(surname, ReleaseConfig(incomplete_answers=False, only_entity_of_label=False, answer_in_query=False)) is None


def test_aliases_keep_case_whole_words_and_organisations_tagged_as_people():
    r = row("Will Young sang. Young was cheered by fans of Manchester United.",
            "Fans said @placeholder will sing again and the young crowd loved it.",
            "Will Young", [("Will Young", "PERSON"), ("Young", "PERSON"),
                           ("Manchester United", "PERSON")])
    assert aliases.alias_in_query(r) is None   # "will", "young": other words, lower case
    club = row("Manchester United won. United fans sang.", "Manchester fans cheered "
               "@placeholder.", "Manchester United", [("Manchester United", "PERSON")])
    found = aliases.answer_aliases(club)      # no name parts; the club's own nickname
    assert {k for k, v in found.items() if v != "lexicon"} == {"Manchester United"}
    assert found["Red Devils"] == "lexicon"
    titled = row("Mr Ray was handed an injunction.", "The police visited Ray before "
                 "@placeholder was charged.", "Mr Ray", [("Mr Ray", "PERSON")])
    assert aliases.alias_in_query(titled) == ("Ray", "title-stripped")


def test_the_answers_country_in_another_form_is_written_in_the_query():
    # a held-out reader (CNN, 2026-11-26): "America's farm sector, @placeholder law
    # enforcement" answered by "U.S."
    passage = "The U.S. Justice Department charged two Chinese nationals. China denied it."
    ents = [("U.S.", "GPE"), ("Chinese", "NORP"), ("China", "GPE")]
    r = row(passage, "A threat to America's farm sector, @placeholder law enforcement said.",
            "U.S.", ents)
    assert aliases.alias_in_query(r) == ("America", "country form")
    assert check_row(r, BASE).reason == "answer_in_query"
    # another country, or the country's word inside another name, is no giveaway
    assert aliases.alias_in_query(row(passage, "China's farm sector, @placeholder said.",
                                      "U.S.", ents)) is None
    assert aliases.alias_in_query(row(passage, "Americans and @placeholder officials met.",
                                      "U.S.", ents)) == ("Americans", "country form")
    assert aliases.alias_in_query(row(passage, "US Soccer and @placeholder officials met.",
                                      "U.S.", ents)) is None
    assert aliases.alias_in_query(row(passage, "UK Sport and @placeholder officials met.",
                                      "U.S.", ents)) is None


def test_an_answers_name_of_the_alias_lexicons_is_written_in_the_query():
    # held-out CNN (fresh15 reader): "... drive @placeholder (Daesh) out" answered by ISIS
    passage = "ISIS holds Tikrit, Iraqi officials said. The militants captured it last year."
    ents = [("ISIS", "ORG"), ("Tikrit", "GPE"), ("Iraqi", "NORP")]
    r = row(passage, "Iraqi forces aim to drive @placeholder (Daesh) out of Tikrit.",
            "ISIS", ents)
    assert aliases.alias_in_query(r) == ("Daesh", "lexicon")
    assert check_row(r, BASE).reason == "answer_in_query"
    # a party's nickname for the party, both ways; another party's is none
    tories = row("The Conservatives won the seat.", "Top Tories said @placeholder had won.",
                 "Conservatives", [("Conservatives", "NORP")])
    assert aliases.alias_in_query(tories) == ("Tories", "lexicon")
    assert aliases.alias_in_query(dict(tories, query="The GOP said @placeholder had won.")) is None


def test_only_compatible_entity_needs_a_cue_and_one_entity_of_its_type():
    one_woman = row(NEIGHBOUR, "The police spoke to Ms @placeholder on Friday.",
                    "Emma Jackson", [e for e in NEIGHBOUR_ENTS if e[0] != "Jackson"])
    why = check_row(one_woman, BASE)
    assert why.reason == "only_compatible_entity"
    assert "title_or_role_before 'Ms @placeholder' -> PERSON" in why.detail
    two_people = row(SNOOKER, "The referee warned Mr @placeholder about his behaviour.",
                     "Ronnie O'Sullivan", SNOOKER_ENTS)
    assert check_row(two_people, BASE) is None       # Matthew Stevens, Olivier Marteel compete
    no_cue = row(NEIGHBOUR, "The noise kept @placeholder awake for a year.", "Emma Jackson",
                 NEIGHBOUR_ENTS)
    assert check_row(no_cue, BASE) is None
    wrong_type = row(NEIGHBOUR, "Her family still lives in @placeholder.",
                     "Emma Jackson", NEIGHBOUR_ENTS)
    assert check_row(wrong_type, BASE) is None       # the cue says place, the answer is a person
    place = row(NEIGHBOUR, "Her family still lives in @placeholder.", "Hull", NEIGHBOUR_ENTS)
    assert check_row(place, BASE).reason == "only_compatible_entity"
    assert check_row(place, ReleaseConfig(incomplete_answers=False, only_entity_of_label=False, only_compatible_entity=False)) is None


@pytest.mark.parametrize("query, cue", [
    ("President @placeholder has asked lawmakers to wait.", "title_or_role_before"),
    ("His wife @placeholder said he was innocent.", "title_or_role_before"),
    ("@placeholder, 37, took his sailboat out in January.", "age_after"),
    ("@placeholder, who likely died after jumping off a boat, was 19.", "who_after"),
    ("@placeholder said he had tried to collect rainwater.", "pronoun_after"),
    ("He joined the @placeholder club in 2010.", "club_after"),
    ("Tech giant @placeholder said profits rose.", "company_before"),
    ("@placeholder boss Tim Sherwood praised the side.", "team_after"),
    ("Premier League club @placeholder lost again.", "team_before"),
    ("The city of @placeholder was flooded.", "place_word_before"),
    ("The @placeholder government denied it.", "state_after"),
    ("A @placeholder-based firm bought it.", "based_after"),
    ("A judge in @placeholder signed the warrant.", "place_preposition_before"),
])
def test_each_cue_matches_its_pattern(query, cue):
    assert cues.query_cue(query).name == cue


@pytest.mark.parametrize("query", [
    "@placeholder has frequently asked lawmakers to wait.",
    "In @placeholder's view the plan failed.",        # a possessive: not a place
    "She said @placeholder, 2-1 winners, were lucky.",  # a score, not an age
    "It was 'the blink of an eyelid'. @placeholder started second.",
])
def test_no_cue_without_type_words(query):
    assert cues.query_cue(query) is None


def _siblings():
    # (Stevens not named: a person the query names by surname is no rival, and with him
    # named each query would leave one person only)
    sentence = ("Marteel approached O'Sullivan as he walked to the table in the afternoon "
                "session.")
    rows = []
    for k, (answer, text) in enumerate((("Ronnie O'Sullivan", "O'Sullivan"),
                                        ("Olivier Marteel", "Marteel"))):
        query = sentence.replace(text, "@placeholder")
        rows.append(row(SNOOKER, query, answer, SNOOKER_ENTS, qid=f"p1-003-0{k}",
                        aliases=("O'Sullivan",) if k == 0 else ()))
    rows.append(row(SNOOKER, "The referee told O'Sullivan that @placeholder must apologise.",
                    "Ronnie O'Sullivan", SNOOKER_ENTS, qid="p1-003-02"))
    return rows


def test_one_query_per_sentence_the_hardest_whatever_the_order():
    rows = _siblings()
    released, rejected = release_passage(rows, BASE)
    # one query gives its answer away (the surname stays written), the other two are
    # siblings: one released, the other rejected naming the one kept
    reasons = {r["id"]: why.reason for r, why in rejected}
    assert reasons["p1-003-02"] == "answer_in_query"
    assert len(released) == 1 and list(reasons.values()).count("sibling_query") == 1
    assert release_passage(list(reversed(rows)))[0] == released
    sibling = next(why for _, why in rejected if why.reason == "sibling_query")
    assert "released: " + released[0]["id"] in sibling.detail
    all_of_them, _ = release_passage(rows, ReleaseConfig(incomplete_answers=False, only_entity_of_label=False, max_queries_per_sentence=0))
    assert len(all_of_them) == 2
    other_salt = {release_passage(rows, ReleaseConfig(incomplete_answers=False, only_entity_of_label=False, sibling_salt=s))[0][0]["id"]
                  for s in ("a", "b", "c", "d", "e", "f")}
    assert len(other_salt) == 2                # ties broken by the salted hash alone


def test_a_sentence_written_twice_gives_one_query():
    """Daily Mail articles repeat sentences: the same sentence at two indices is one
    sentence for the sibling rule."""
    sentence = ("Daedone first taught orgasmic meditation in the USA in 2001 and since then "
                "the craze has spread around the world.")
    passage = "Nicole Daedone runs a company in the USA. Daedone lives in San Francisco."
    ents = [("Nicole Daedone", "PERSON"), ("Daedone", "PERSON"), ("USA", "GPE"),
            ("San Francisco", "GPE")]
    a = row(passage, sentence.replace("USA", "@placeholder"), "USA", ents, qid="p1-004-01")
    b = row(passage, sentence.replace("Daedone", "@placeholder"), "Nicole Daedone", ents,
            qid="p1-039-00", aliases=("Daedone",))
    # "in the @placeholder": the USA alone of its passage takes "the" (article_agreement)
    released, rejected = release_passage(
        [a, b], ReleaseConfig(**{**BASE.__dict__, "article_agreement": False}))
    assert len(released) == 1 and [why.reason for _, why in rejected] == ["sibling_query"]
    other = row(passage, "Her classes in @placeholder drew thousands of people last year.",
                "San Francisco", ents, qid="p1-040-00")
    assert len(release_passage([a, b, other], BASE)[0]) == 2


def test_sentence_key_and_settings():
    assert sentence_key("0eab7e7b8f74043da1a4-013-01") == "0eab7e7b8f74043da1a4-013"
    assert sentence_key("record-abc-7") == "record-abc-7"
    assert ReleaseConfig().problems() == []
    assert ReleaseConfig(max_queries_per_sentence=-1).problems()
