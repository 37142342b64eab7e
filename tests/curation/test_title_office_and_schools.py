"""Entity spans of three classes spaCy's small model or the span rules get wrong (issue
32, spans9): the office word of a minister's or a secretary's title tagged as a name of
its own and then glued to the person ("Defense" + "James Mattis"), a school named after
its town split into the town and the school ("Washington" + "State University"), a
place's possessive glued to the name after it ("North's National Defense Commission"),
and a player's world ranking tagged as a name ("the world No 4"). Pure functions on real
text of ../shared/corpus and real ReCoRD passages reshaped (names changed), no model."""
import pytest

from transforms.curation.entities import is_title_office, is_world_ranking, mark_span
from transforms.curation.spans import place_prefix_split, split_place_possessive

pytestmark = pytest.mark.fast


def office(text, word):
    start = text.index(word)
    return is_title_office(text, start, start + len(word))


def test_an_office_word_between_a_title_and_a_name_is_no_name():
    # real ReCoRD dev: "came a day after US Secretary of Defense James Mattis and US
    # Secretary of State Rex Tillerson"; "Minister for Health Sussan Ley said"
    text = "came a day after US Secretary of Defense Jane Mattox and US officials"
    assert office(text, "Defense")
    start = text.index("Defense")
    assert mark_span(text, start, start + len("Defense"), "ORG") == []
    assert office("criminals,\" Minister for Health Susan Lee said in a statement", "Health")
    assert not office("the Secretary of Home Affairs said", "Home")
    assert office("British Secretary for the Environment Owen Paterson said", "Environment")


def test_an_office_word_before_secretary_or_minister_is_the_title():
    # BBC (XSum): "Health Secretary Jeremy Hunt said the government was ..." ("Health"
    # tagged ORG became "The report - by the @placeholder -"); "Home Secretary",
    # "Foreign Ministers"
    text = "Health Secretary Jane Hunter said the government was determined"
    assert office(text, "Health")
    assert mark_span(text, 0, len("Health"), "ORG") == []
    assert office("talks between the two Foreign Ministers on Monday", "Foreign")
    assert office("the Home Secretary said", "Home")
    # a body's name before another word, or a name that is no office word, stays
    assert not office("the Health Service Journal said", "Health")
    assert not office("Scottish Secretary Alistair Carmichael", "Scottish")
    assert not office("Health officials said", "Health")


def test_an_office_word_stays_where_no_name_follows_or_no_title_precedes():
    # "the Secretary of Defense said" names the office, "the Department of Defense" a body
    assert not office("the Secretary of Defense said on Tuesday", "Defense")
    assert not office("a Department of Defense official Tom Reid said", "Defense")
    assert not office("the Ministry of Health Sussex unit", "Health")
    # a name that is not an office word keeps its span
    assert not office("Secretary of Homeland Security Jeh Johnson", "Homeland Security")
    text = "met the Secretary of State Council officials"
    start = text.index("State Council")
    assert mark_span(text, start, start + len("State Council"), "ORG") == [
        (start, start + len("State Council"), "ORG")]


def split(text, label="ORG"):
    return place_prefix_split(text, 0, len(text), label)


def test_a_school_named_after_its_town_keeps_the_town():
    # cnn_stories: "That's according to Washington State University, where the dog";
    # cnndm_test250: "pupils at Dublin Middle School" (three times)
    assert split("Washington State University") is None
    assert split("Dublin Middle School") is None
    assert split("Ohio University") is None
    assert split("Texas A&M College") is None


def test_a_place_and_its_other_institutions_still_split():
    # ReCoRD's gold marks these as two ("St Albans" + "Crown Court", "Alabama" + "Senate")
    assert split("Alabama Senate") == [(0, 7, "GPE"), (8, 14, "ORG")]
    assert split("Liverpool Crown Court") == [(0, 9, "GPE"), (10, 21, "ORG")]
    assert split("Kent County Council") == [(0, 4, "GPE"), (5, 19, "ORG")]
    assert split("U.S. Air Force") == [(0, 4, "GPE"), (5, 14, "ORG")]


def possessive(text, label="ORG"):
    return split_place_possessive(text, 0, len(text), label)


def test_a_places_possessive_before_a_name_is_two_names():
    # real ReCoRD train (FewGLUE): "a statement from the North's National Defense
    # Commission" (gold: "North" + "National Defense Commission"); ReCoRD's gold also
    # splits "Ukraine's Crimea", "Pakistan's Balochistan", "Connecticut's Arrigoni Bridge"
    assert possessive("North's National Defense Commission") == [(0, 5, "GPE"), (8, 35, "ORG")]
    assert possessive("Ukraine’s Crimea", "GPE") == [(0, 7, "GPE"), (10, 16, "GPE")]
    assert possessive("Connecticut's Arrigoni Bridge", "FAC") == [
        (0, 11, "GPE"), (14, 29, "FAC")]


def test_another_possessor_is_part_of_the_name():
    # real corpus: "Maricopa County Sheriff's Office", "People's Daily Online"; ReCoRD's
    # gold keeps "Children's Mercy Hospital" and "New Year's Eve" whole
    assert possessive("Maricopa County Sheriff's Office") is None
    assert possessive("People's Daily Online") is None
    assert possessive("Children's Mercy Hospital") is None
    assert possessive("New Year's Eve", "EVENT") is None
    # no name after the possessive: nothing to split
    assert possessive("Ukraine's") is None
    assert possessive("Texas's governor") is None


def ranking(text, word):
    start = text.index(word)
    return is_world_ranking(text, start, start + len(word))


def test_a_world_ranking_is_a_number_not_a_name():
    # cnndm_test250: "Watched by Barcelona forward Neymar in the crowd, the world No 4 and
    # second seed comfortably dismissed ..." (tagged LAW), "@highlight World No 4 is
    # looking for his ninth career title" (tagged EVENT); ReCoRD's gold leaves "No 177"
    text = "Watched by a forward in the crowd, the world No 4 and second seed won"
    assert ranking(text, "No 4")
    start = text.index("No 4")
    assert mark_span(text, start, start + 4, "LAW") == []
    assert ranking("World No 4 is looking for his ninth career title", "World No 4")
    assert ranking("the world No. 1 said", "No. 1")


def test_a_number_name_that_is_no_ranking_stays():
    # bbc_news: "their last meeting at No 10 before the expected" (Downing Street)
    assert not ranking("rs held their last meeting at No 10 before the", "No 10")
    assert not ranking("the World No Tobacco Day", "World No Tobacco Day")
    text = "the Apollo 11 crew"
    assert mark_span(text, 4, 13, "PRODUCT") == [(4, 13, "PRODUCT")]


def test_a_ranking_the_model_tagged_with_its_world_is_no_name():
    # cnndm_test250: the model's raw span is "world No 4" (lower-case "world")
    text = "Watched by a forward in the crowd, the world No 4 and second seed won"
    start = text.index("world No 4")
    assert mark_span(text, start, start + len("world No 4"), "LAW") == []
