"""The slot's own syntax as a type cue of `only_compatible_entity` (issue 32): real text of
../shared/corpus, quoted and reshaped (BBC News business/282, 128, 131; the Daily Mail's
Carnival Spirit story of cnndm_test250)."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering import entity_types, fine_types, slot_syntax
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

DAMS = ("The China Three Gorges Project Corp is refusing to obey a government order to stop "
        "construction of one of its giant dams, the Chinese state press has said. The Xiluodu "
        "dam is being built on the Jinshajiang, as the upper reaches of the Yangtze are known. "
        "The Beijing News said the company may instead choose to pay a fine. In 2004, China "
        "increased its generating capacity by 12.6%, said Wang Yongchen, an activist in "
        "Yibin.")
DAMS_ENTS = [("China Three Gorges Project Corp", "ORG"), ("Chinese", "NORP"),
             ("Xiluodu", "FAC"), ("Jinshajiang", "LOC"), ("Yangtze", "LOC"),
             ("Beijing News", "ORG"), ("China", "GPE"), ("Wang Yongchen", "PERSON"),
             ("Yibin", "GPE")]
GOVERNMENT = ("The Sepa order comes as the @placeholder government appears to be trying to cool "
              "the country's booming economy.")

QANTAS = ("Qantas has posted a record fiscal first-half profit thanks to cost-cutting measures. "
          "Sales will dip after the tsunami devastated many holiday destinations, Qantas said. "
          "\"The tsunami affected travel patterns,\" said Geoff Dixon. The Australian Competition "
          "and Consumer Commission is reviewing the fares, and Mr Dixon said he would be "
          "reviewing the group's cost-cutting measures.")
QANTAS_ENTS = [("Qantas", "ORG"), ("Geoff Dixon", "PERSON"), ("Dixon", "PERSON"),
               ("Australian Competition and Consumer Commission", "ORG")]

ROSNEFT = ("The merger of Russian gas giant Gazprom and oil firm Rosneft is to go ahead, but "
           "will not include Yugansk. Gazprom chief Alexei Miller confirmed the deal. Yugansk "
           "will operate as a separate oil firm headed by Sergei Bogdanchikov.")
ROSNEFT_ENTS = [("Russian", "NORP"), ("Gazprom", "ORG"), ("Rosneft", "ORG"),
                ("Yugansk", "ORG"), ("Alexei Miller", "PERSON"),
                ("Sergei Bogdanchikov", "PERSON")]

CRUISE = ("Up to 2500 passengers are stranded on a cruise ship, the Carnival Spirit, outside "
          "Sydney Harbour. 'Even as we speak the ship is creaking and moaning,' passenger Kurt "
          "Foster said. Carnival Spirit was returning from a 12-night cruise to New Caledonia "
          "but has been stopped by the huge waves.")
CRUISE_ENTS = [("Carnival Spirit", "PERSON"), ("Sydney Harbour", "LOC"),
               ("Kurt Foster", "PERSON"), ("New Caledonia", "GPE")]


def test_the_only_country_for_a_government_slot():
    one = row(DAMS, GOVERNMENT, "China", DAMS_ENTS, aliases=("Chinese",))
    why = check_row(one)
    # a city, rivers (LOC), a dam, the company: no country's government
    assert why.reason == "only_compatible_entity" and "government_modifier" in why.detail
    assert check_row(one, ReleaseConfig(only_compatible_entity=False, only_country=False)) is None
    two = row(DAMS + " India has built more dams.", GOVERNMENT, "China",
              DAMS_ENTS + [("India", "GPE")], aliases=("Chinese",))
    assert slot_syntax.only_slot_entity(two) is None          # a second country
    province = row(DAMS + " Sichuan has built more dams.", GOVERNMENT, "China",
                   DAMS_ENTS + [("Sichuan", "GPE")], aliases=("Chinese",))
    assert slot_syntax.only_slot_entity(province) is None     # a place GeoNames does not know
    party = row(DAMS + " The Communist Party set the target.", GOVERNMENT, "China",
                DAMS_ENTS + [("Communist Party", "ORG")], aliases=("Chinese",))
    assert slot_syntax.only_slot_entity(party) is None        # "the Communist government"
    troops = row(DAMS + " The Communist Party set the target.",
                 "@placeholder troops guarded the dam.", "China",
                 DAMS_ENTS + [("Communist Party", "ORG")], aliases=("Chinese",))
    assert slot_syntax.only_slot_entity(troops) is not None   # a party has no troops


def test_a_company_slot_and_organisations_that_are_no_company():
    query = "@placeholder chief executive Geoff Dixon explained the fall in bookings."
    one = row(QANTAS, query, "Qantas", QANTAS_ENTS)
    assert fine_types.may_be_company(one) == {"@answer": True, "geoff dixon": False,
                                              "australian competition and consumer commission": False}
    why = check_row(one)
    assert why.reason == "only_compatible_entity" and "company_modifier" in why.detail
    firm = row(QANTAS, "Even so, the firm @placeholder is predicting higher earnings.", "Qantas",
               QANTAS_ENTS)
    assert "company_apposition" in check_row(firm).detail
    rival = row(QANTAS + " Virgin Blue cut its fares.", query, "Qantas",
                QANTAS_ENTS + [("Virgin Blue", "ORG")])
    assert slot_syntax.only_slot_entity(rival) is None        # another airline


def test_an_owner_slot():
    query = "Gazprom chief Alexei Miller confirmed @placeholder-owned Yugansk was not part of it."
    one = row(ROSNEFT, query, "Rosneft", ROSNEFT_ENTS)
    # Gazprom is named in the query; Yugansk too; Russian people could own it
    assert slot_syntax.only_slot_entity(one) is None
    alone = row(ROSNEFT.replace("Russian gas giant ", ""), query, "Rosneft", ROSNEFT_ENTS)
    assert "owner_hyphen" in slot_syntax.only_slot_entity(alone)


def test_a_vessel_tagged_person_is_no_person():
    query = '"Last night was absolutely horrendous," said @placeholder.'
    one = row(CRUISE, query, "Kurt Foster", CRUISE_ENTS)
    votes = entity_types.mention_votes(one)
    assert all("PERSON" not in v for v in votes["carnival spirit"])
    assert check_row(one).reason == "only_compatible_entity"
    two = row(CRUISE + " Jane Foster said.", query, "Kurt Foster",
              CRUISE_ENTS + [("Jane Foster", "PERSON")])
    assert check_row(two) is None
    # "show" as a verb: no programme
    verb = row(CRUISE + " The video images show Kurt Foster on deck.", query, "Carnival Spirit",
               CRUISE_ENTS)
    assert all("PERSON" in v for v in entity_types.mention_votes(verb)["kurt foster"])


@pytest.mark.parametrize("query, cue", [
    ("the @placeholder government appears to be trying", "government_modifier"),
    ("loss of @placeholder customers", "customer_modifier"),
    ("the Evans Estates-owned homes", None),
    ("the @placeholder-owned homes", "owner_hyphen"),
    ("a @placeholder-based firm", "base_hyphen"),
    ("@placeholder shares fell almost 3%", "market_modifier"),
    ("@placeholder shares its data with advertisers", None),    # a verb with its object
    ("@placeholder officials said no troops had been sent", "staff_modifier"),
    ("the @placeholder embassy in London", "nation_modifier"),
    ("the @placeholder economy grew", "civic_modifier"),
    ("oil firm @placeholder is to go ahead", "company_apposition"),
    ("@placeholder, the supermarket chain, said", "company_apposition"),
    ("the firm @placeholder's rivals", None),
    ("@placeholder said the government would act", None),
])
def test_each_slot_cue(query, cue):
    found = slot_syntax.slot_cue(query)
    assert (found[0].name if found else None) == cue
