"""The release rule `place_rival` (transforms/machine_filtering/places.py): a country and
a city in it, both in one passage, both fit a locative slot. Rows built from real BBC
text (../shared/corpus/bbc_news/business/212.txt, quoted)."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering.places import (
    contains,
    locative_slot,
    place_of,
    place_rival,
)
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

ROVER = ("The paper said Chinese officials had been irritated by Rover's disclosure of its "
         "talks with Shanghai Automotive Industry Corp in October. Shanghai Automotive's "
         "proposed investment in Rover is awaiting approval by its owner, the Shanghai city "
         "government.\n@highlight\nMG Rover's proposed tie-up with China's top carmaker has "
         "been delayed")
ENTS = [("Chinese", "NORP"), ("Rover", "ORG"), ("Shanghai Automotive Industry Corp", "ORG"),
        ("Shanghai Automotive", "ORG"), ("Shanghai", "GPE"), ("MG Rover", "ORG"),
        ("China", "GPE"), ("October", "DATE")]
ONLY = ReleaseConfig(only_country=False, answer_in_query=False, incomplete_answers=False,
                     copied_context=False, only_compatible_entity=False, article_agreement=False,
                     shared_role_word=False, list_line=False, restates_words=False,
                     neighbour_word=False, capital_rival=False)


@pytest.mark.parametrize("name, kind, code", [("Germany", "country", "de"),
                                              ("Shanghai", "city", "cn"),
                                              ("Colorado", "state", "us"),
                                              ("Georgia", "country", "ge"),
                                              ("Longbridge", None, None)])
def test_places_come_from_geonames_countries_first(name, kind, code):
    p = place_of(name)
    assert (p[0], p[1]) == (kind, code) if kind else p is None


def test_a_country_holds_its_cities_and_a_state_its_own():
    assert contains(place_of("China"), place_of("Shanghai"))
    assert not contains(place_of("Shanghai"), place_of("China"))
    assert contains(place_of("Colorado"), place_of("Denver"))
    assert not contains(place_of("Colorado"), place_of("Chicago"))


@pytest.mark.parametrize("query, locative", [
    ("Rover had hoped to build cars in @placeholder by next year.", True),
    ("Protests spread throughout @placeholder.", True),
    ("Talks with @placeholder ended.", False),
    ("The @placeholder-based carmaker said so.", True),
    ("The deal was approved by @placeholder officials.", False),
    ("All of her marriages took place in @placeholder state.", False),
    ("A threat to @placeholder's car industry, officials said.", False),
    ("The mayor of @placeholder said no.", False)])
def test_the_slot_is_a_place_after_a_place_preposition(query, locative):
    assert locative_slot(query) is locative


def test_a_country_whose_city_the_passage_names_is_rejected():
    r = row(ROVER, "Rover had hoped to build cars in @placeholder by the end of the year.",
            "China", ENTS)
    assert "'Shanghai'" in place_rival(r)
    why = check_row(r, ONLY)
    assert why is not None and why.reason == "place_rival"
    assert check_row(r, ReleaseConfig(**{**ONLY.__dict__, "place_rival": False})) is None


def test_a_city_whose_country_the_passage_names_is_rejected_unless_the_slot_says_what_it_is():
    """Round 13: blind readers called "a start-up in @placeholder" (Belfast, beside Northern
    Ireland) and "the weather in @placeholder" (Mumbai, beside India) ambiguous."""
    city = row(ROVER, "Rover had hoped to build cars in @placeholder by the end of the year.",
               "Shanghai", ENTS)
    assert "'China', where 'Shanghai' lies" in place_rival(city)
    said = row(ROVER, "Rover builds cars in @placeholder, the country's largest city.",
               "Shanghai", ENTS)
    assert place_rival(said) is None          # the apposition says what kind of place
    assert contains(place_of("Northern Ireland"), place_of("Belfast"))
    assert not contains(place_of("Wales"), place_of("Belfast"))


def test_a_modifier_slot_or_a_dateline_city_is_no_rival():
    modifier = row(ROVER, "Rover talked to @placeholder regulators.", "China", ENTS)
    assert place_rival(modifier) is None
    filed = row("SHANGHAI, China (CNN) -- " + ROVER, "Rover built cars in @placeholder.",
                "China", ENTS)
    assert place_rival(filed) is not None     # Shanghai is named again after the dateline
    dated = row("SHANGHAI, China (CNN) -- Rover said on Monday that talks go on.",
                "Rover built cars in @placeholder.", "China",
                [("Shanghai", "GPE"), ("SHANGHAI", "GPE"), ("China", "GPE"), ("Rover", "ORG")])
    assert place_rival(dated) is None


def test_an_event_named_by_its_city_fits_its_state_too():
    # held-out CNN (fresh16): "he wasn't surprised about the @placeholder raid" answered
    # by Houston, the passage's "Houston, Texas" making "the Texas raid" as right
    text = ("Police raided a condo in Houston, Texas, on Friday. The U.S. attorney said the "
            "suspect was in custody.")
    ents = [("Houston", "GPE"), ("Texas", "GPE"), ("U.S.", "GPE")]
    query = "He said he wasn't surprised about the @placeholder raid either."
    assert locative_slot(query) and not locative_slot("the @placeholder government")
    assert "'Texas'" in place_rival(row(text, query, "Houston", ents))
    # a whole country is no event's place ("the U.S. raid"), and no article, no event
    assert place_rival(row(text.replace(", Texas,", ""), query, "Houston",
                           [("Houston", "GPE"), ("U.S.", "GPE")])) is None
    assert not locative_slot("He saw @placeholder raid the condo.")
