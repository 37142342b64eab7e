"""Type cues of `only_compatible_entity` a reader uses to answer by elimination (issue 32,
held-out fresh7 readings): the placeholder coordinated with or set against a named
entity, a manager's side, a broadcaster's pundit, a kind of organisation, a country's
oil supply, a pronoun later in the sentence, a part of a league's season, a person the
query names by surname, a place named like a person. Real BBC News and CNN text of
../shared/corpus, quoted or reshaped; each cue with a passage where a second entity of
the type keeps the query."""
import pytest

from tests.fixtures.item_rows import NEIGHBOUR, NEIGHBOUR_ENTS, row
from transforms.machine_filtering import entity_types
from transforms.machine_filtering.release_rules import (
    ReleaseConfig,
    check_row,
    not_only_compatible_entity,
)
from transforms.quality.cues import query_cue

pytestmark = pytest.mark.fast

# bbc_news/business/074
TURKCELL = ("Turkey's investment in Iran's mobile industry looks set to be scrapped after its "
            "biggest mobile firm saw its investment there slashed by MPs. Iran's parliament "
            "voted by a large majority to cut Turkcell's stake in a new mobile network from "
            "70% to 49%. \"The possibility of carrying out this project is next to zero,\" "
            "said Atinc Ozkan, analyst at Finans Investment in Istanbul.")
TURKCELL_ENTS = [("Turkey", "GPE"), ("Iran", "GPE"), ("Turkcell", "ORG"),
                 ("Atinc Ozkan", "PERSON"), ("Finans Investment", "ORG"), ("Istanbul", "GPE")]
ISRAEL = " Observers said the Turkish firms were thought too close to Israel."


def _reason(r):
    """The rule alone (others, such as `copied_context`, may come first in the table)."""
    verdict = not_only_compatible_entity(r, ReleaseConfig())
    return (None, None) if verdict is True else ("only_compatible_entity", verdict[1])


def test_placeholder_between_a_country_and_another_takes_the_country_type():
    query = "Observers fear the row between @placeholder and Turkey will deter investors."
    one = row(TURKCELL, query, "Iran", TURKCELL_ENTS)
    reason, detail = _reason(one)
    assert reason == "only_compatible_entity" and "link between" in detail
    assert "COUNTRY" in detail          # Istanbul is a city: no rival of a country
    # a second country the query does not name keeps it
    two = row(TURKCELL + ISRAEL, query, "Iran", TURKCELL_ENTS + [("Israel", "GPE")])
    assert check_row(two) is None
    # the answer is no country: the link gives no verdict
    firm = row(TURKCELL, "The row between @placeholder and Turkey deepened.", "Turkcell",
               TURKCELL_ENTS)
    assert entity_types.only_linked_entity(firm) is None


def test_coordination_and_match_links():
    text = ("He believes the rivalry between Google and Yahoo is overblown and instead thinks "
            "the real battle is going to be between Yahoo and MSN.")
    ents = [("Google", "ORG"), ("Yahoo", "ORG"), ("MSN", "ORG")]
    q = "Analysts said @placeholder and Yahoo would keep fighting for searches."
    assert entity_types.linked_slot(row(text, q, "Google", ents))[:2] == ("coordinated",
                                                                          "Yahoo")
    # Google and MSN both fit: no verdict
    assert entity_types.only_linked_entity(row(text, q, "Google", ents)) is None
    alone = row(text.replace(" and MSN", ""), q, "Google", ents[:2])
    assert "link coordinated" in entity_types.only_linked_entity(alone)
    # "@placeholder v X": a side against a side (a club tagged GPE is a side too)
    match = row("Bolton drew with Arsenal before Chelsea won at Porto.",
                "It finished @placeholder v Arsenal.", "Bolton",
                [("Bolton", "GPE"), ("Arsenal", "ORG"), ("Chelsea", "ORG"), ("Porto", "GPE")])
    assert entity_types.linked_slot(match)[0] == "match"
    assert entity_types.only_linked_entity(match) is None     # Chelsea and Porto are sides


# bbc_news/sport: "Arsenal manager Arsene Wenger claimed their display in the 3-1 defeat ..."
WENGER = ("Arsenal manager Arsene Wenger claimed their display in the 3-1 defeat against "
          "Bayern Munich was \"our worst performance in the Champions League\".")
WENGER_ENTS = [("Arsenal", "ORG"), ("Arsene Wenger", "PERSON"), ("Bayern Munich", "ORG"),
               ("Champions League", "EVENT")]


def test_a_managers_side_in_the_query_names_the_answer():
    query = "@placeholder were outplayed in Germany as Wenger's side lost again."
    reason, detail = _reason(row(WENGER, query, "Arsenal", WENGER_ENTS))
    assert reason == "only_compatible_entity" and "Wenger's side" in detail
    # the side the manager's side played: not named through him
    assert entity_types.manager_side(row(WENGER, "Wenger's side lost to @placeholder.",
                                         "Bayern Munich", WENGER_ENTS)) is None
    # no manager's role before the name: no link
    plain_name = WENGER.replace("Arsenal manager Arsene Wenger", "Arsene Wenger of Arsenal")
    assert entity_types.manager_side(row(plain_name, query, "Arsenal", WENGER_ENTS)) is None


# cnn_stories: "Sky Sports pundits Gary Neville and Graeme Souness were highly critical ..."
PUNDITS = ("In the aftermath of Sunday's defeat to United at Old Trafford, Sky Sports pundits "
           "Gary Neville and Graeme Souness were highly critical of Toure.")
PUNDITS_ENTS = [("United", "ORG"), ("Old Trafford", "FAC"), ("Sky Sports", "ORG"),
                ("Gary Neville", "PERSON"), ("Graeme Souness", "PERSON"), ("Toure", "PERSON")]


def test_only_broadcaster_for_a_pundit_on_the_placeholder():
    query = "Speaking as a pundit on @placeholder, Neville said the midfielder had to improve."
    reason, detail = _reason(row(PUNDITS, query, "Sky Sports", PUNDITS_ENTS))
    assert reason == "only_compatible_entity" and "broadcast_role" in detail
    bbc = row(PUNDITS + " On BBC Radio 5 Live, Alan Hansen defended him.", query,
              "Sky Sports", PUNDITS_ENTS + [("BBC Radio 5 Live", "ORG"),
                                            ("Alan Hansen", "PERSON")])
    assert check_row(bbc) is None
    # "host city" is no broadcaster's host
    assert "broadcast_role" not in (_reason(row(PUNDITS, "The @placeholder host city was "
                                                "chosen.", "United", PUNDITS_ENTS))[1] or "")


# bbc_news/entertainment: "An exhibition next month in aid of the charity Mencap, ..."
MENCAP = ("An exhibition next month in aid of the charity Mencap, will feature snaps taken "
          "from the camera phones of top artists. Works by Tracey Emin will be shown in "
          "London.")
MENCAP_ENTS = [("Mencap", "ORG"), ("Tracey Emin", "PERSON"), ("London", "GPE")]


def test_a_kind_of_organisation_after_the_placeholder():
    assert query_cue("Staff at the @placeholder charity were delighted.").name == \
        "organisation_after"
    query = "Working with the people behind the @placeholder group was a positive experience."
    reason, detail = _reason(row(MENCAP, query, "Mencap", MENCAP_ENTS))
    assert reason == "only_compatible_entity" and "organisation_after" in detail
    two = row(MENCAP + " Oxfam backed the sale.", query, "Mencap",
              MENCAP_ENTS + [("Oxfam", "ORG")])
    assert check_row(two) is None


# bbc_news/business: "... pushed US crude prices to four-month highs."
OIL = ("Oil prices carried on rising on Wednesday after cold weather on both sides of the "
       "North Atlantic pushed US crude prices to four-month highs. Traders in London and "
       "Texas said Opec would meet next month.")
OIL_ENTS = [("North Atlantic", "LOC"), ("US", "GPE"), ("London", "GPE"), ("Texas", "GPE"),
            ("Opec", "ORG")]


def test_a_countrys_oil_supply_wants_a_country_not_a_city():
    query = "The pipeline could change the landscape of the @placeholder crude oil supply."
    reason, detail = _reason(row(OIL, query, "US", OIL_ENTS))
    assert reason == "only_compatible_entity" and "national_after" in detail
    norway = row(OIL + " Norway cut its output.", query, "US", OIL_ENTS + [("Norway", "GPE")])
    assert _reason(norway) == (None, None)


def test_a_pronoun_later_in_the_sentence_makes_a_person():
    query = ("As the music started again, @placeholder lay awake in the dark for hours, "
             "listening to the bass through the wall, and could not stop her hands shaking.")
    assert query_cue(query).name == "pronoun_in_sentence"
    reason, _ = _reason(row(NEIGHBOUR, query, "Emma Jackson", NEIGHBOUR_ENTS,
                            aliases=("Jackson",)))
    assert reason == "only_compatible_entity"
    # another woman: both fit ("Paul Smith", a man, would not: query_gender reads "her")
    two = row(NEIGHBOUR + " Her neighbour Sarah Smith said the noise was fine.", query,
              "Emma Jackson", NEIGHBOUR_ENTS + [("Sarah Smith", "PERSON")],
              aliases=("Jackson",))
    assert check_row(two) is None
    man = row(NEIGHBOUR + " Her neighbour Paul Smith said the noise was fine.", query,
              "Emma Jackson", NEIGHBOUR_ENTS + [("Paul Smith", "PERSON")],
              aliases=("Jackson",))
    assert "query_gender" in check_row(man).detail
    # a capitalised name between: the pronoun may stand for it, no cue
    assert query_cue("As @placeholder lay awake in the dark for hours, listening to the "
                     "bass, Paul Smith held her hand") is None


# bbc_news/sport: "The retention of their ever present Premier League status ..."
LEAGUE = ("The retention of their ever present Premier League status must be the number one "
          "priority, irrespective of the rewards that success against Brentford would bring.")
LEAGUE_ENTS = [("Premier League", "ORG"), ("Brentford", "ORG")]


def test_a_part_of_a_leagues_season_wants_a_competition():
    query = "There is a quarter of the @placeholder left to play."
    reason, detail = _reason(row(LEAGUE, query, "Premier League", LEAGUE_ENTS))
    assert reason == "only_compatible_entity" and "season_part" in detail
    cup = row(LEAGUE + " The FA Cup tie comes first.", query, "Premier League",
              LEAGUE_ENTS + [("FA Cup", "EVENT")])
    assert check_row(cup) is None


COURT = ("Colleen Rourke, 43, of Glenview Park in the town, was charged with allowing the "
         "consumption of liquor outside licensing hours. James Carter, 44, of the same "
         "address, faced one count of the same charge.")
COURT_ENTS = [("Colleen Rourke", "PERSON"), ("Glenview Park", "PERSON"),
              ("James Carter", "PERSON")]


def test_a_surname_the_query_writes_names_its_person_and_a_park_is_no_man():
    query = "Ms Rourke was fined £3,000, while Mr @placeholder was fined £1,000."
    one = row(COURT, query, "James Carter", COURT_ENTS)
    assert entity_types.named_in_query(one) == {"colleen rourke"}
    votes = entity_types.mention_votes(one)
    assert not entity_types.fits(votes["glenview park"], frozenset({"PERSON"}))
    assert _reason(one)[0] == "only_compatible_entity"
    # another man the query does not name keeps it
    two = row(COURT + " Their lawyer Sean Byrne spoke for both.", query, "James Carter",
              COURT_ENTS + [("Sean Byrne", "PERSON")])
    assert check_row(two) is None
    # two people of one surname: the surname names neither
    pair = row(COURT.replace("James Carter", "James Rourke"),
               "Ms Rourke was fined, while Mr @placeholder was not.", "Colleen Rourke",
               [("Colleen Rourke", "PERSON"), ("Glenview Park", "PERSON"),
                ("James Rourke", "PERSON")])
    assert "colleen rourke" not in entity_types.named_in_query(pair)
    off = check_row(one, ReleaseConfig(only_compatible_entity=False))
    assert off is None or off.reason != "only_compatible_entity"
