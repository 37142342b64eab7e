"""Fine place types of `only_compatible_entity` (issue 32): real news of ../shared/corpus,
quoted and reshaped (BBC politics/280, business/316, tech/017, tech/223; the CNN story of
Michael Vick's plea)."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering import place_types as pt
from transforms.machine_filtering.release_rules import check_row

pytestmark = pytest.mark.fast

BLAIR = ("Mr Bush was sworn in at a ceremony in Washington DC on Thursday. Turning to "
         "critics' fears that the US was poised for further military action, Mr Blair "
         "refused to give succour to suggestions it was preparing for strikes against Iran. "
         "The prime minister conceded that the US had a harder position towards the state "
         "than Europe. Following claims that US forces had worked inside Iran to identify "
         "potential targets, Mr Blair was asked if the SAS had also been in the country.")
BLAIR_ENTS = [("Bush", "PERSON"), ("Blair", "PERSON"), ("Washington DC", "GPE"),
              ("US", "GPE"), ("Iran", "GPE"), ("Europe", "LOC"), ("SAS", "ORG")]
AFGHANISTAN = (" The prime minister said there has been a clear evolution of US policy since "
               "the war in Afghanistan in 2001.")
NUCLEAR = ("But the prime minister pointed out that until now the US had allowed Britain, "
           "France and Germany to take the lead in trying to halt the @placeholder nuclear "
           "programme.")
VICK = ("Earlier, Vick admitted to participating in a dogfighting ring as part of a plea "
        "agreement with federal prosecutors in Virginia. Vick said he would plead guilty in a "
        "plea agreement filed at U.S. District Court in Richmond, Virginia. The National "
        "Football League has indefinitely suspended Atlanta Falcons quarterback Michael Vick.")
VICK_ENTS = [("Vick", "PERSON"), ("Michael Vick", "PERSON"), ("Virginia", "GPE"),
             ("U.S.", "GPE"), ("Richmond", "GPE"), ("National Football League", "ORG"),
             ("Atlanta Falcons", "ORG")]
PHILLIPS = " Phillips, 28, of Atlanta, Georgia, has accepted an agreement to plead guilty."
STATE = ("The risk for Vick is, if he makes admissions in his federal guilty plea, the state "
         "of @placeholder could charge him in its own court.")
EXCHANGE = ("Pan-European group Euronext is poised to launch a bid for the London Stock "
            "Exchange, UK media reports say. Werner Seifert, chief executive of the "
            "Frankfurt-based exchange, may well come back with an improved offer. German "
            "magazine Der Spiegel said part of Mr Seifert's negotiations were about where to "
            "base the board.")
EXCHANGE_ENTS = [("Euronext", "ORG"), ("London Stock Exchange", "ORG"), ("UK", "GPE"),
                 ("Werner Seifert", "PERSON"), ("Seifert", "PERSON"), ("Frankfurt", "GPE"),
                 ("German", "NORP"), ("Der Spiegel", "ORG")]
LISBON = (" Euronext, which also operates an exchange in Lisbon, last week appointed UBS as "
          "an advisor.")
MAYOR = ("While Mr Seifert has suggested a merged company would be run out of London, the "
         "mayor of @placeholder has raised concerns that such a move could cost German jobs.")
PHONES = ("The report reveals that approximately 15 million mobile phones go out of use every "
          "year in the UK. The Forum for the Future report took an in-depth look at Romania, "
          "where reconditioned mobile phones were proving very popular, said Mr Goodman. Older "
          "phones are proving particularly useful in poorer nations in Europe.")
PHONES_ENTS = [("UK", "GPE"), ("Forum for the Future", "ORG"), ("Romania", "GPE"),
               ("Goodman", "PERSON"), ("Europe", "LOC"), ("Angola", "GPE"), ("Africa", "LOC")]
POOREST = ("But the relatively low wages in Romania, which is one of the poorest countries in "
           "@placeholder, mean few people can afford a shiny new phone.")


def test_place_types_read_geonames_and_the_country_table():
    assert pt.place_types("Georgia") == {pt.US_STATE, pt.COUNTRY}      # both: ambiguous
    assert {pt.US_STATE, pt.CITY, pt.CAPITAL} <= pt.place_types("Washington")
    assert {pt.COUNTRY, pt.CITY} <= pt.place_types("Singapore")        # a city-state
    assert pt.place_types("Florida") == {pt.US_STATE}                  # a small city aside
    assert pt.place_types("Iranian") == {pt.COUNTRY}                   # a demonym
    assert pt.place_types("Frankfurt") == {pt.CITY}                    # an alternate name
    assert pt.place_types("the Middle East") == {pt.REGION}
    assert pt.place_types("Darfur") == frozenset()                     # unknown: any kind


def test_only_country_among_places_of_other_kinds():
    one = row(BLAIR, NUCLEAR, "Iran", BLAIR_ENTS)
    why = check_row(one)
    assert why.reason == "only_compatible_entity" and "nation_adjective" in why.detail
    # the US is named in the query, Washington DC is a city, Europe a region: no rivals;
    # the coarse cue alone finds none either way (no cue for "nuclear programme")
    two = row(BLAIR + AFGHANISTAN, NUCLEAR, "Iran", BLAIR_ENTS + [("Afghanistan", "GPE")])
    assert pt.only_place_entity(two) is None and check_row(two) is None


def test_a_place_the_gazetteer_does_not_know_is_a_rival():
    query = "The @placeholder government told the US it had done nothing wrong."
    sudan = row(BLAIR.replace("Iran", "Sudan"), query, "Sudan",
                [(t.replace("Iran", "Sudan"), lab) for t, lab in BLAIR_ENTS])
    assert "government" in pt.only_place_entity(sudan)
    darfur = "Aid workers are trying to feed refugees in the region of Darfur. "
    rival = row(darfur + sudan["passage"], query, "Sudan",
                [("Darfur", "GPE"), ("Bush", "PERSON"), ("Blair", "PERSON"),
                 ("Washington DC", "GPE"), ("US", "GPE"), ("Sudan", "GPE")])
    assert pt.only_place_entity(rival) is None            # an unknown place may be a state


def test_only_us_state_unless_georgia_is_there():
    one = row(VICK, STATE, "Virginia", VICK_ENTS)
    why = check_row(one)
    assert why.reason == "only_compatible_entity" and "us_state" in why.detail
    # the coarse cue ("state of" -> any place) saw Richmond and the U.S. as rivals
    assert pt.only_place_entity(one) is not None
    two = row(VICK + PHILLIPS, STATE, "Virginia", VICK_ENTS + [("Georgia", "GPE"),
                                                             ("Atlanta", "GPE")])
    assert check_row(two) is None                     # Georgia may be a state too
    economy = row(VICK, "The state of @placeholder's economy worried Vick.", "Virginia",
                  VICK_ENTS)
    assert pt.query_place_cue(economy) is None        # "the state of X's ...": a condition


def test_only_city_and_a_rival_city():
    one = row(EXCHANGE, MAYOR, "Frankfurt", EXCHANGE_ENTS)
    why = check_row(one)
    assert why.reason == "only_compatible_entity" and "place cue city" in why.detail
    two = row(EXCHANGE + LISBON, MAYOR, "Frankfurt", EXCHANGE_ENTS + [("Lisbon", "GPE")])
    assert check_row(two) is None


def test_only_continent_and_a_rival_one():
    one = row(PHONES, POOREST, "Europe", PHONES_ENTS)
    why = check_row(one)
    assert why.reason == "only_compatible_entity" and "region" in why.detail
    angola = (" However, Angola is one of the poorest countries in Africa, and few people "
              "have a television.")
    assert check_row(row(PHONES + angola, POOREST, "Europe", PHONES_ENTS)) is None


def test_between_a_capital_and_the_placeholder_asks_for_a_country():
    query = "Mr Blair said talks between Washington and @placeholder should go on."
    capital = BLAIR.replace("Washington DC", "Washington")
    one = row(capital.replace("the US", "America").replace("US forces", "American forces"),
              query, "Iran", [("Bush", "PERSON"), ("Blair", "PERSON"),
                              ("Washington", "GPE"), ("America", "GPE"),
                              ("American", "NORP"), ("Iran", "GPE"), ("Europe", "LOC")])
    assert pt.between_country(one)[0] == "between_country"
    # America is a country the query does not name (Washington is its capital, but
    # another entity): a rival
    assert pt.only_place_entity(one) is None
    alone = row(capital.replace("the US", "they").replace("US forces", "forces"), query,
                "Iran", [("Washington", "GPE")] + [e for e in BLAIR_ENTS if e[0] != "US"])
    assert "between_country" in pt.only_place_entity(alone)


def test_a_country_the_query_names_by_its_demonym_is_no_rival():
    passage = BLAIR + " Mr Blair said Britain would work with the US."
    ents = BLAIR_ENTS + [("Britain", "GPE")]
    query = "The British and US governments will keep pressing the @placeholder government."
    assert pt.query_countries(query) == {"gb", "us"}
    assert "government" in pt.only_place_entity(row(passage, query, "Iran", ents))
    plain_query = "The US will keep pressing the @placeholder government."
    assert pt.only_place_entity(row(passage, plain_query, "Iran", ents)) is None


@pytest.mark.parametrize("query, cue", [
    ("Officials said @placeholder's nuclear programme was peaceful.", "nation_possessive"),
    ("@placeholder's president spoke on Tuesday.", "nation_possessive"),
    ("The @placeholder government said it would act.", "government"),
    ("@placeholder's state fire agency said crews were out.", "us_state"),
    ("The state of @placeholder sued the company.", "us_state"),
    ("@placeholder Gov. Jerry Brown signed the bill.", "us_state"),
    ("The city of @placeholder was flooded.", "city"),
    ("@placeholder city council voted against it.", "city"),
    ("Wages are low in many countries in @placeholder.", "region"),
    ("Storms swept across @placeholder.", None),                # any place: no fine type
    ("Iran's state media and @placeholder said so.", None),
])
def test_place_cue_table(query, cue):
    found = pt.query_place_cue({"query": query, "passage": "", "entities": [],
                                "answers": []})
    assert (found[0] if found else None) == cue


def test_the_capital_beside_the_slot_asks_for_a_national_capital():
    query = ("Euronext said on Friday it would keep its headquarters in the Portuguese "
             "capital, @placeholder, whatever the outcome.")
    ents = EXCHANGE_ENTS + [("Lisbon", "GPE")]
    one = row(EXCHANGE + LISBON, query, "Lisbon", ents)
    why = check_row(one)
    assert why.reason == "only_compatible_entity" and "place cue capital" in why.detail
    # Frankfurt is a city but no capital: no rival; Berlin is one
    berlin = " Der Spiegel is based in Hamburg, and the German government in Berlin."
    two = row(EXCHANGE + LISBON + berlin, query, "Lisbon",
              ents + [("Hamburg", "GPE"), ("Berlin", "GPE")])
    assert pt.only_place_entity(two) is None
    after = query.replace("the Portuguese capital, @placeholder,", "@placeholder, the "
                          "Portuguese capital,")
    assert "capital" in pt.only_place_entity(row(EXCHANGE + LISBON, after, "Lisbon", ents))
    # a state's or a trade's capital is no national capital: not this cue
    for words in ("the state capital, @placeholder,", "the fashion capital, @placeholder,"):
        assert pt.query_place_cue(row(EXCHANGE + LISBON, query.replace(
            "the Portuguese capital, @placeholder,", words), "Lisbon", ents)) is None
    # "the capital of @placeholder" asks for a country: not this cue
    assert pt.query_place_cue(row(EXCHANGE, "the capital of @placeholder", "UK",
                                  EXCHANGE_ENTS)) is None
