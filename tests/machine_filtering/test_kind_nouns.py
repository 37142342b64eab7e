"""A kind noun beside the slot as a type cue of `only_compatible_entity` (issue 32), and
the query naming every other entity of the answer's kind: real text of ../shared/corpus,
quoted and reshaped (cnndm_test250: the Ebola one-year-later, Nepal quake, Erbil consulate,
Utah jail and Clinton stories)."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering import entity_types, kind_nouns
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

EBOLA = ("Over the last year more than 25,000 people, a population about the size of Key "
         "West, Florida, have fought Ebola infections. The latest World Health Organization "
         "report confirmed a total of 30 new confirmed cases were reported in the week of "
         "April 5. In Liberia, the number of cases has fallen, Margaret Chan said.")
EBOLA_ENTS = [("Ebola", "ORG"), ("Key West", "GPE"), ("Florida", "GPE"),
              ("World Health Organization", "ORG"), ("Liberia", "GPE"),
              ("Margaret Chan", "PERSON")]
INFECTION = "Health workers are still trying to control the infection by @placeholder."
VIRUS = "Health workers say the @placeholder virus has not been stopped."

QUAKE = ("A 4-month-old baby was rescued from a destroyed building in Bhaktapur, a town "
         "near the capital, at least 22 hours after the quake struck, the newspaper Kathmandu "
         "Today reported. Officials in Nepal and India said the toll would rise.")
QUAKE_ENTS = [("Bhaktapur", "GPE"), ("Kathmandu Today", "ORG"), ("Nepal", "GPE"),
              ("India", "GPE")]
TOWN = "Rescuers pulled the baby from the rubble in the town of @placeholder."

ERBIL = ("A car bomb exploded outside the U.S. consulate in Erbil, the capital of Iraq's "
         "Kurdistan region, which is allied with Washington in a war against Islamic State. "
         "Kurdish security forces responded to the explosion, said Hiwa Ahmed.")
ERBIL_ENTS = [("U.S.", "GPE"), ("Erbil", "GPE"), ("Iraq", "GPE"), ("Kurdistan", "GPE"),
              ("Washington", "GPE"), ("Islamic State", "ORG"), ("Kurdish", "NORP"),
              ("Hiwa Ahmed", "PERSON")]
REGION = "The bomb struck the capital of Iraq's semi-autonomous @placeholder region."

JAIL = ("He was booked into the Utah County jail on March 26, but $100,000 in bail was "
        "posted for him five days later, said Sgt. Spencer Cannon of the Utah County "
        "Sheriff's Office. Prosecutors in Provo said he would appear again in May.")
JAIL_ENTS = [("Utah County", "GPE"), ("Spencer Cannon", "PERSON"),
             ("Utah County Sheriff's Office", "ORG"), ("Provo", "GPE")]
IN_JAIL = "Bail was posted five days after he was booked into the @placeholder jail."

DOMA = ("She did not publicly object to passage of Don't Ask Don't Tell and the Defense of "
        "Marriage Act as First Lady under her husband's administration, Hillary Clinton's "
        "aides said in Washington.")
DOMA_ENTS = [("Defense of Marriage Act", "LAW"), ("Hillary Clinton", "PERSON"),
             ("Washington", "GPE")]
ACT = "Clinton did not oppose the @placeholder act, which banned gay marriage."


def test_the_only_disease_by_its_verbs_and_by_its_noun():
    for query in (INFECTION, VIRUS):
        one = row(EBOLA, query, "Ebola", EBOLA_ENTS)
        why = check_row(one)
        assert why.reason == "only_compatible_entity" and "disease" in why.detail
        assert check_row(one, ReleaseConfig(only_compatible_entity=False)) is None
    # a second disease the passage calls so: both fit
    two = row(EBOLA + " Measles outbreaks were also reported.", VIRUS, "Ebola",
              EBOLA_ENTS + [("Measles", "ORG")])
    assert kind_nouns.only_kind_entity(two) is None
    # the answer the passage never calls a disease: no verdict
    bare = row(EBOLA.replace("Ebola infections", "Ebola"), VIRUS, "Ebola", EBOLA_ENTS)
    assert kind_nouns.entity_kinds(bare)["@answer"] == set()
    assert kind_nouns.only_kind_entity(bare) is None
    assert kind_nouns.query_kind("The @placeholder Virus Trust said") is None   # a name


def test_the_only_town_written_in_apposition_or_after_of():
    one = row(QUAKE, TOWN, "Bhaktapur", QUAKE_ENTS)
    assert "town" in kind_nouns.only_kind_entity(one)
    assert kind_nouns.entity_kinds(one)["@answer"] == {"town"}
    # a place GeoNames does not know could be a town too
    two = row(QUAKE + " In Sankhu, houses fell.", TOWN, "Bhaktapur",
              QUAKE_ENTS + [("Sankhu", "GPE")])
    assert kind_nouns.only_kind_entity(two) is None
    apposition = row(QUAKE.replace("in Bhaktapur, a town near the capital", "in the town of "
                                   "Bhaktapur"), "Rescuers searched @placeholder, a town "
                     "near the capital.", "Bhaktapur", QUAKE_ENTS)
    assert "apposition" in kind_nouns.only_kind_entity(apposition)


def test_a_region_by_the_passage_and_a_country_modifier_is_no_region():
    one = row(ERBIL, REGION, "Kurdistan", ERBIL_ENTS)
    assert "region" in kind_nouns.only_kind_entity(one)
    # "Iraq's Kurdistan region" does not make Iraq a region, "the Kurdish region" no region
    kinds = kind_nouns.entity_kinds(one)
    assert "region" not in kinds.get("iraq", set()) | kinds.get("kurdish", set())
    # a second region the passage names
    two = row(ERBIL + " Fighters also crossed into Nineveh province.", REGION, "Kurdistan",
              ERBIL_ENTS + [("Nineveh", "GPE")])
    assert kind_nouns.only_kind_entity(two) is None


def test_a_prison_and_a_place_before_jail_is_no_prison():
    one = row(JAIL, IN_JAIL, "Utah County", JAIL_ENTS)
    assert "prison" in kind_nouns.only_kind_entity(one)
    # a US state before "prison" names where the prison is, not the prison
    texas = row(JAIL.replace("Utah County jail", "Texas prison"), IN_JAIL, "Texas",
                [("Texas", "GPE")] + JAIL_ENTS[1:])
    assert "prison" not in kind_nouns.entity_kinds(texas).get("@answer", set())
    assert kind_nouns.only_kind_entity(texas) is None
    # a facility the passage does not call a prison could be one
    two = row(JAIL + " He was later moved to Central Utah Correctional Facility.", IN_JAIL, "Utah County",
              JAIL_ENTS + [("Central Utah Correctional Facility", "FAC")])
    assert kind_nouns.only_kind_entity(two) is None


def test_a_law_by_its_name_and_nothing_else_to_choose():
    one = row(DOMA, ACT, "Defense of Marriage Act", DOMA_ENTS)
    assert "law" in kind_nouns.only_kind_entity(one)
    # "under @placeholder law" names a country's law: no kind read
    assert kind_nouns.query_kind("He was jailed under @placeholder law.") is None
    # every other entity named in the query: nothing to choose from, no verdict here
    alone = row(DOMA, "Hillary Clinton did not oppose the @placeholder act in Washington.",
                "Defense of Marriage Act", DOMA_ENTS)
    assert kind_nouns.only_kind_entity(alone) is None
    # a law named in apposition to its noun (a held-out BBC story: "this bill, the Trade
    # Union Bill", the passage's only law; two readers called it trivial)
    bill = row(DOMA, "We believe this bill, the @placeholder, will lead to confrontation.",
               "Defense of Marriage Act", DOMA_ENTS)
    assert "noun_apposition" in kind_nouns.only_kind_entity(bill)
    assert kind_nouns.query_kind("This bill, the @placeholder, will fail.")[1] == \
        "noun_apposition"
    # the slot a speaker after a clause on a bill: no law's apposition
    assert kind_nouns.query_kind("He signed the bill, the @placeholder said.") is None


def test_query_forms_table_and_kinds_table_carry_reasons():
    assert all(f.reason for f in kind_nouns.QUERY_FORMS)
    assert all(k.reason and k.nouns for k in kind_nouns.KINDS)
    assert kind_nouns.query_kind("They were held at the @placeholder prison.")[0].name == \
        "prison"
    assert kind_nouns.query_kind("They were held at the @placeholder prisoners' wing.") is None


# The query names every other passage place but the answer, one with a possessive ("on
# Estonia's border"): a place-preposition cue finds the answer the only place left.
NARVA = ("Narva lies on the river that divides Estonia from Russia, and most of its people "
         "speak Russian, said Toomas Hendrik Ilves. NATO has sent troops.")
NARVA_ENTS = [("Narva", "GPE"), ("Estonia", "GPE"), ("Russia", "GPE"), ("Russian", "NORP"),
              ("Toomas Hendrik Ilves", "PERSON"), ("NATO", "ORG")]


def test_places_the_query_names_with_a_possessive_are_no_rivals():
    query = "Soldiers paraded in @placeholder, on Estonia's border with Russia."
    one = row(NARVA, query, "Narva", NARVA_ENTS)
    assert len(entity_types.named_in_query(one)) == 2         # Estonia and Russia
    why = check_row(one)
    assert why.reason == "only_compatible_entity"
    # a place the query does not name is a rival
    two = row(NARVA + " Tallinn sent police.", query, "Narva", NARVA_ENTS + [("Tallinn", "GPE")])
    assert check_row(two) is None or check_row(two).reason != "only_compatible_entity"


def test_a_country_the_query_names_by_its_demonym_is_no_rival():
    query = "Soldiers paraded in @placeholder, a Estonian town by the Russian border."
    one = row(NARVA, query.replace("a Estonian", "an Estonian"), "Narva", NARVA_ENTS)
    assert len(entity_types.named_in_query(one)) == 2         # Estonia and Russia
    assert check_row(one).reason == "only_compatible_entity"


def test_a_person_with_a_town_s_name_is_no_town():
    # "Tim Weston" (Weston: a GeoNames city) is a person, never a town rival
    one = row(QUAKE + " Tim Weston said so, and Mr Weston left.", TOWN, "Bhaktapur",
              QUAKE_ENTS + [("Tim Weston", "PERSON"), ("Weston", "PERSON")])
    assert "town" not in kind_nouns.entity_kinds(one)["tim weston"]
    assert "town" in kind_nouns.only_kind_entity(one)


# --- parks, ships, spacecraft (fresh11 readers R and S, round 13; the passages reworded) --
SHIP = ("The Russian-flagged MV Akademik Shokalskiy has not moved in a week since getting "
        "stuck in thick ice off Antarctica. Alok Jha, a correspondent for The Guardian, said "
        "the group was collegiate.")
SHIP_ENTS = [("MV Akademik Shokalskiy", "PERSON"), ("Antarctica", "LOC"),
             ("Alok Jha", "PERSON"), ("The Guardian", "ORG")]
SWARM = ("The moving mass of metal has been inferred from measurements made by Europe's Swarm "
         "satellites, explained Dr Chris Finlay from the National Space Institute.")
SWARM_ENTS = [("Europe", "LOC"), ("Swarm", "PERSON"), ("Chris Finlay", "PERSON"),
              ("National Space Institute", "ORG")]
PARK = ("Ghana is rich in history, culture and natural beauty. Mole National Park is home to "
        "more than 93 species of mammal, and Elmina Castle is the oldest slave castle in "
        "Africa, Accra's guides say.")
PARK_ENTS = [("Ghana", "GPE"), ("Mole National Park", "ORG"), ("Elmina Castle", "PERSON"),
             ("Africa", "LOC"), ("Accra", "GPE")]


@pytest.mark.parametrize("text, ents, query, answer, kind", [
    (SHIP, SHIP_ENTS, "The 22 crew members of the @placeholder will stay aboard.",
     "MV Akademik Shokalskiy", "vessel"),
    (SWARM, SWARM_ENTS, "It speaks to the capabilities of the @placeholder constellation.",
     "Swarm", "spacecraft"),
    (PARK, PARK_ENTS, "Another great place to visit is Ghana's largest wildlife refuge, "
     "@placeholder.", "Mole National Park", "park")])
def test_the_only_park_ship_or_spacecraft(text, ents, query, answer, kind):
    why = check_row(row(text, query, answer, ents), ReleaseConfig(only_entity_of_label=False))
    assert why is not None and why.reason == "only_compatible_entity" and kind in why.detail
    # a second one the passage calls so: both fit
    rival = {"vessel": (" The icebreaker ship Xue Long turned back.", ("Xue Long", "ORG")),
             "spacecraft": (" The Cluster probes saw it too.", ("Cluster", "ORG")),
             "park": (" Kakum National Park is nearer the coast.", ("Kakum National Park", "ORG"))}
    extra, ent = rival[kind]
    two = row(text + extra, query, answer, ents + [ent])
    assert kind_nouns.only_kind_entity(two) is None
