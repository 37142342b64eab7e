"""Answer sets that are exactly the entity (issue 32): name forms coreference joins or
keeps apart (variants.py, coref.py), span repairs (spans.py, compounds.py, entities.py),
person-or-not labels (person_labels.py, consistency.py). Pure functions on short pieces
of real text; the model-based checks on whole real articles are in
tests/curation/test_name_forms_real.py."""
import pytest

from transforms.curation.compounds import (
    number_first_name,
    numbered_name,
    split_glued_person,
)
from transforms.curation.consistency import consistent_mentions, inside_compound
from transforms.curation.coref import RuleBasedResolver, normalise_name
from transforms.curation.entities import mark_span
from transforms.curation.gender import MALE
from transforms.curation.person_labels import settle_person_labels
from transforms.curation.spans import (
    before_currency,
    country_tail_mentions,
    repair_spans,
)
from transforms.curation.variants import (
    given_name_parts,
    is_ambiguous,
    is_middle_name_variant,
    is_qualified_group,
    written_as_acronym,
)

pytestmark = pytest.mark.fast


def clusters(*mentions):
    return RuleBasedResolver().clusters(list(mentions))


def marked(text, raw, label="PERSON"):
    start = text.index(raw)
    return [(text[s:e], lab) for s, e, lab in mark_span(text, start, start + len(raw), label)]


# ---- coreference: forms of one name --------------------------------------------------
def test_an_acronym_joins_the_name_with_its_suffix():
    # real ReCoRD dev: "according to the Environmental Working Group ... Annually, EWG puts
    # together ..."; the gold answers both ("Group" is also an organisation suffix)
    c = clusters(("Environmental Working Group", "ORG"), ("EWG", "ORG"))
    assert c[0] == c[1]
    # the suffix is still dropped for names: "Liverpool FC" is "Liverpool"
    assert clusters(("Liverpool FC", "ORG"), ("Liverpool", "ORG"))[0] == \
        clusters(("Liverpool", "ORG"))[0]


def test_an_acronym_is_no_short_form_of_a_longer_name_it_opens():
    # BBC tech 349: "told the IPTV World Forum" / "known as IPTV (Internet Protocol TV)"
    c = clusters(("IPTV World Forum", "ORG"), ("IPTV", "ORG"), ("IPTV", "ORG"))
    assert c[0] != c[1] and c[1] == c[2]
    assert written_as_acronym("IPTV") and written_as_acronym("U.S.")
    assert written_as_acronym("BBC's") and not written_as_acronym("Iptv")
    # a word short form still stands for its organisation
    assert clusters(("Manchester United", "ORG"), ("United", "ORG"))[0] == \
        clusters(("Manchester United", "ORG"))[0]


def test_middle_names_and_particles_left_out_are_one_person():
    # real ReCoRD dev: "Julianne Michelle Di Palma", "Julianne Di Palma", "Di Palma"
    assert is_middle_name_variant("julianne di palma", "julianne michelle di palma")
    assert is_middle_name_variant("frida kahlo", "frida kahlo de rivera")
    assert not is_middle_name_variant("john smith", "john paul jones")
    assert not is_middle_name_variant("mary kelly", "mary ann kelly jones")
    c = clusters(("Julianne Michelle Di Palma", "PERSON"), ("Julianne Di Palma", "PERSON"),
                 ("Di Palma", "PERSON"), ("Julianne", "PERSON"))
    assert len(set(c)) == 1
    # two people with the same first and last word but other middle names stay two
    c = clusters(("John Paul Smith", "PERSON"), ("John Peter Smith", "PERSON"),
                 ("John Smith", "PERSON"))
    assert c[0] != c[1] and c[2] not in (c[0], c[1])


def test_a_hyphenated_given_name_is_called_by_its_first_part():
    # real ReCoRD dev: "11-month-old Ava-Jayne Corless ... I gave her [Ava] a kiss"
    assert given_name_parts("ava-jayne corless") == ("ava",)
    assert given_name_parts("jo-ann smith") == ()          # too short to stand alone
    assert given_name_parts("julia louis-dreyfus") == ()   # a hyphenated surname: no
    c = clusters(("Ava-Jayne Corless", "PERSON"), ("Ava", "PERSON"), ("Ava-Jayne", "PERSON"))
    assert len(set(c)) == 1


def test_police_ranks_are_titles_only_in_capitals():
    assert normalise_name("Di Palma", "PERSON") == "di palma"
    assert normalise_name("DI Jane Smith", "PERSON") == "jane smith"
    assert marked("told Julianne Di Palma on Friday", "Julianne Di Palma") == \
        [("Julianne Di Palma", "PERSON")]
    assert marked("said DCI Mark Jones today", "DCI Mark Jones") == [("Mark Jones", "PERSON")]
    assert marked("coach Roberto Di Matteo", "Roberto Di Matteo") == \
        [("Roberto Di Matteo", "PERSON")]


def test_a_titled_name_the_model_tagged_otherwise_is_a_person():
    # real ReCoRD dev: "Washington (CNN) Secretary of State Rex Tillerson said Sunday", the
    # model's span "State Rex Tillerson" (ORG); ReCoRD marks "Rex Tillerson"
    text = "Washington (CNN) Secretary of State Rex Tillerson said Sunday that"
    start = text.index("State")
    assert [(text[s:e], lab) for s, e, lab in mark_span(text, start, start + 19, "ORG")] \
        == [("Rex Tillerson", "PERSON")]
    assert marked(text, "Secretary of State Rex Tillerson", "ORG") == \
        [("Rex Tillerson", "PERSON")]
    assert marked("when President Donald Trump spoke", "President Donald Trump", "GPE") == \
        [("Donald Trump", "PERSON")]
    # names that open with a title word stay what they are
    for name in ("General Motors", "Major League Baseball", "Captain America",
                 "Judge Business School"):
        assert marked(f"at {name} today", name, "ORG") == [(name, "ORG")]
    # and the surname joins the person whatever its label
    c = clusters(("Rex Tillerson", "PERSON"), ("Tillerson", "ORG"))
    assert c[0] == c[1]


def test_a_country_that_ends_a_full_name_is_the_surname():
    # cnndm_test250 43b82870: "Louis Jordan, 37, took his 35-foot sailboat out ..."
    c = clusters(("Louis Jordan", "PERSON"), ("Jordan", "GPE"), ("Jordan", "PERSON"))
    assert len(set(c)) == 1
    # without the person, the country is the country
    c = clusters(("Amman", "GPE"), ("Jordan", "GPE"), ("Jordanian", "NORP"))
    assert c[1] == c[2]
    # a name with "of" ends with a place, not a surname
    c = clusters(("Abdullah of Jordan", "PERSON"), ("Jordan", "GPE"), ("Jordanian", "NORP"))
    assert c[1] == c[2]


def test_a_surname_two_full_names_end_with_is_marked_ambiguous():
    # the same article: "Frank Jordan" (the father) and "Louis Jordan" (the son), then
    # "Jordan told CNN": no answer set can be exactly its entity
    c = clusters(("Frank Jordan", "PERSON"), ("Louis Jordan", "PERSON"), ("Jordan", "PERSON"),
                 ("Jordan's", "PERSON"))
    assert is_ambiguous(c[2]) and c[2] == c[3]
    assert not is_ambiguous(c[0]) and not is_ambiguous(c[1]) and c[0] != c[1]
    # with one full name, the surname joins it
    c = clusters(("Louis Jordan", "PERSON"), ("Jordan", "PERSON"))
    assert c[0] == c[1] and not is_ambiguous(c[0])
    # a titled surname whose gender fits one of the two is not ambiguous
    c = clusters(("Ronald Phillips", "PERSON"), ("June Phillips", "PERSON"),
                 ("Phillips", "PERSON", MALE))
    assert c[2] == c[0]


# ---- spans ------------------------------------------------------------------------------
def test_a_currency_prefix_is_no_mention():
    # BBC tech 282: "about 10 million euros (US$13 million) a year"; business 250:
    # "HK$327m (US$42m; £22m)"
    text = "about 10 million euros (US$13 million) a year from the US market"
    us = text.index("US$")
    assert before_currency(text, us + 2)
    assert repair_spans(text, [(us, us + 2, "GPE")]) == []
    last = text.rindex("US")
    assert repair_spans(text, [(last, last + 2, "GPE")]) == [(last, last + 2, "GPE")]
    # a name known in the article is not propagated to a currency prefix either
    found = consistent_mentions([text], [[(last, last + 2, "GPE")]])[0]
    assert found == [(last, last + 2, "GPE")]
    hk = "a profit of HK$327m (US$42m; £22m)"
    assert repair_spans(hk, [(12, 14, "GPE")]) == []


def test_a_name_found_only_inside_a_lower_case_compound_is_no_mention():
    # BBC politics 331: "did not comment on the anti-Semitism claims", "anti-Semitic images"
    text = "He did not comment on the anti-Semitism claims about the anti-Semitic images."
    a, b = text.index("Semitism"), text.index("Semitic")
    assert inside_compound(text, a) and inside_compound(text, b)
    assert consistent_mentions([text], [[(a, a + 8, "NORP"), (b, b + 7, "NORP")]]) == [[]]
    # a name the article also gives on its own, or a country, stays a mention
    text = "Trump backers at a pro-Trump rally in an anti-American mood. Trump spoke."
    p, am, t = text.index("Trump"), text.index("American"), text.rindex("Trump")
    found = consistent_mentions([text], [[(p, p + 5, "PERSON"), (am, am + 8, "NORP"),
                                          (t, t + 5, "PERSON")]])[0]
    assert [text[s:e] for s, e, _ in found] == ["Trump", "Trump", "American", "Trump"]
    # a particle is no prefix: "al-Assad"
    assert not inside_compound("forces of al-Assad", 14)


def test_stage_names_with_numbers():
    # BBC entertainment 229/135/132: "US rapper 50 Cent topped Sound of 2003", "members of
    # 50 Cent's G-Unit group", "Andre 3000 and Big Boi's album"
    text = "while US rapper 50 Cent topped Sound of 2003."
    n = text.index("50")
    assert number_first_name(text, n, "CARDINAL", text[:n]) == (n, n + 7)
    text = "one of the members of 50 Cent's G-Unit group"
    n = text.index("50")
    assert number_first_name(text, n, "MONEY", text[:n]) == (n, n + 7)
    # a count, a date, an amount, a number a longer name goes on over: no name
    for text in ("the party won 40 Tories in all", "on 12 June he said", "paid 5 Euro for it",
                 "a new BMW 3 Series car", "Top 10 Films of 2004"):
        n = next(i for i, ch in enumerate(text) if ch.isdigit())
        assert number_first_name(text, n, "CARDINAL", text[:n]) is None, text
    text = "Andre 3000 and Big Boi's album"
    assert numbered_name(text, 0, 5, "PERSON", "CARDINAL") == (10, "PERSON")
    # a small number still ends a team's or a race's name, which is no person
    assert numbered_name("won the Formula 4 title", 8, 15, "PERSON", "") == (17, "ORG")
    # a year is no part of a name
    assert numbered_name("in New Year 2011 he", 3, 11, "EVENT", "DATE")[0] == 11


def test_two_names_glued_together_are_two():
    text = "Matthew Stevens O'Sullivan took the frame"
    tagged = {"Matthew Stevens": {"PERSON"}, "O'Sullivan": {"PERSON"}}
    seen = {"Matthew Stevens O'Sullivan": 1}
    assert split_glued_person(text, 0, 26, "PERSON", tagged, seen) == [(0, 15), (16, 26)]
    text = "Malaga Benzema has scored 15 goals"
    tagged = {"Malaga": {"ORG"}, "Benzema": {"PERSON"}}
    assert split_glued_person(text, 0, 14, "PERSON", tagged, {"Malaga Benzema": 1}) == \
        [(0, 6), (7, 14)]
    # a first name and a surname the article also uses alone stay one name
    text = "John Terry scored"
    tagged = {"John": {"PERSON"}, "Terry": {"PERSON"}}
    assert split_glued_person(text, 0, 10, "PERSON", tagged, {"John Terry": 1}) == [(0, 10)]
    # the same name cut in two elsewhere by the model is no evidence
    text = "an emotional Chansey McMillin leaning"
    tagged = {"Chansey": {"ORG"}, "McMillin": {"PERSON"}}
    assert split_glued_person(text, 13, 29, "PERSON", tagged, {"Chansey McMillin": 1},
                              {("Chansey", "McMillin")}) == [(13, 29)]


def test_bullet_lists_and_countries_before_a_hyphen_tail():
    text = "Fargo, North Dakota and Moorhead, Minnesota • Iceland  • Nigeria Transcript"
    a = text.index("Minnesota")
    assert [text[s:e] for s, e, _ in mark_span(text, a, a + 30, "ORG")] == \
        ["Minnesota", "Iceland", "Nigeria"]
    # real ReCoRD: "a U.S.-bound passenger flight", "a large U.S.-based gaming network"
    text = "aboard a U.S.-bound passenger flight run by a Saudi-led group"
    assert [(text[s:e], lab) for s, e, lab in country_tail_mentions(text, [])] == \
        [("U.S.", "GPE"), ("Saudi", "NORP")]
    assert country_tail_mentions("a Bush-era policy", []) == []


# ---- person or not ----------------------------------------------------------------------
def test_places_tagged_person_are_places_and_surnames_are_people():
    labels = {"Rex Tillerson": "PERSON", "Tillerson": "ORG", "Kent": "PERSON",
              "Tobago": "PERSON", "Briton": "PERSON", "Swansea City": "GPE",
              "Swansea": "PERSON", "Steve": "PERSON", "Steve Redgrave Trust": "ORG",
              "Gatlin": "PERSON", "Chelsea Clinton": "PERSON", "Chelsea": "PERSON",
              "Kenyan": "NORP", "Daniel Kenyan": "PERSON"}
    out = settle_person_labels(labels)
    assert out["Tillerson"] == "PERSON"       # the surname of a full name
    assert out["Kent"] == "GPE" and out["Tobago"] == "GPE"     # known places
    assert out["Briton"] == "NORP"            # a demonym
    assert out["Swansea"] == "GPE"            # the first word of a name of another label
    assert out["Steve"] == "PERSON"           # a given name stays a person
    assert out["Gatlin"] == "PERSON"          # no evidence it is a place
    assert out["Chelsea"] == "PERSON"         # the first name of a person named in full
    assert out["Kenyan"] == "NORP"            # a demonym is never a surname


def test_a_nationality_before_a_group_makes_another_group():
    norp = ("NORP", "NORP")
    assert is_qualified_group("british muslim", "muslim", norp)
    assert is_qualified_group("iraqi kurds", "kurds", norp)
    assert is_qualified_group("american jews", "jews", norp)
    assert is_qualified_group("france muslims", "muslims", norp)        # a country's name
    assert not is_qualified_group("manchester united", "united", ("ORG", "NORP"))
    assert not is_qualified_group("northern californian", "californian", norp)  # a region
    assert not is_qualified_group("liberal democrats", "democrats", norp)    # no nationality
    assert not is_qualified_group("scottish labour", "labour", ("ORG", "ORG"))  # not groups
    assert not is_qualified_group("muslim", "muslim", norp)


def test_parties_tagged_person_are_parties():
    labels = {"Ulster Unionists": "PERSON", "Liberal Democrats": "PERSON", "Tories": "PERSON",
              "Mike Nesbitt": "PERSON", "Nesbitt": "PERSON", "Democrats": "NORP",
              "Danny Greens": "PERSON"}
    out = settle_person_labels(labels)
    assert [out[n] for n in ("Ulster Unionists", "Liberal Democrats", "Tories")] == ["NORP"] * 3
    assert out["Mike Nesbitt"] == out["Nesbitt"] == "PERSON" and out["Democrats"] == "NORP"
    assert out["Danny Greens"] == "PERSON"    # a given name first: a person


def test_places_named_with_a_generic_first_word_are_places():
    labels = {"County Armagh": "PERSON", "Lake Geneva": "PERSON", "Mount Everest": "ORG",
              "Helen Hamilton": "PERSON", "Ricki Lake": "PERSON"}
    out = settle_person_labels(labels)
    assert (out["County Armagh"], out["Lake Geneva"]) == ("GPE", "LOC")
    assert out["Mount Everest"] == "ORG"                  # only PERSON tags change here
    assert out["Helen Hamilton"] == out["Ricki Lake"] == "PERSON"
